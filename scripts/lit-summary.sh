#!/usr/bin/env bash
# Runs lit on the given test paths and ends with lit's verdict as one line,
# "N passed, N failed, N skipped"; exits with lit's status. Used by
# scripts/test.sh and scripts/test-sanitized.sh after they have built.
set -uo pipefail
LOG="$(mktemp)"
/usr/lib/llvm-22/bin/lit -sv "$@" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
count() {
  local n
  n=$(sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$LOG" | tail -1)
  echo "${n:-0}"
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(( $(count Unsupported) + $(count Skipped) ))
rm -f "$LOG"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
