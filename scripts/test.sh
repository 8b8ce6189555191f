#!/usr/bin/env bash
# Runs the whole test suite: lit (FileCheck tests, numeric gradient checks,
# GoogleTest unit tests) after building. Ends with "N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TAD_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/setup.sh" || { echo "0 passed, 1 failed (build)"; exit 1; }

LOG="$(mktemp)"
/usr/lib/llvm-22/bin/lit -sv "$BUILD/test" 2>&1 | tee "$LOG"
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
