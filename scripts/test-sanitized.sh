#!/usr/bin/env bash
# Builds tad with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DTAD_SANITIZE=address,undefined) in a build directory of its own and runs
# the lit suite there, or the lit paths given as arguments (relative to
# test/, e.g. `Runtime Tools`). Ends with "N passed, N failed, N skipped".
#
#   TAD_ASAN_BUILD_DIR  build directory (default: <repo>/build-asan)
#   TAD_JOBS            parallel build jobs (default: ninja's)
#
# Sanitized tools and the modules they link need the sanitizer runtimes in
# every process that loads a module (Python): the ASan runtime is preloaded
# for the whole run. Leak detection is off (the interpreter and MLIR's
# global state are never freed); any other ASan or UBSan report fails the
# test that caused it.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TAD_ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS=()
if [ -n "${TAD_JOBS:-}" ]; then JOBS=(-j "$TAD_JOBS"); fi

echo "==> building tad with ASan+UBSan in $BUILD"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -G Ninja -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTAD_SANITIZE=address,undefined "${launcher[@]}" >/dev/null &&
  ninja -C "$BUILD" "${JOBS[@]}" tadc tad-opt tad_runtime all ||
  { echo "0 passed, 1 failed, 0 skipped (build)"; exit 1; }

ASAN_RUNTIME="$(cc -print-file-name=libasan.so)"
# UBSan's runtime too: modules that tadc links (and Python loads) call its
# handlers. libstdc++ after them: Python links no C++ runtime, and without
# one loaded at startup ASan's __cxa_throw interceptor finds no real
# function and aborts the first C++ exception (PyTorch's, caught in Python).
UBSAN_RUNTIME="$(cc -print-file-name=libubsan.so)"
CXX_RUNTIME="$(cc -print-file-name=libstdc++.so.6)"
export LD_PRELOAD="$ASAN_RUNTIME:$UBSAN_RUNTIME:$CXX_RUNTIME${LD_PRELOAD:+:$LD_PRELOAD}"
# allocator_may_return_null: a failed allocation returns null, which the
# runtime turns into TAD_ERROR_MEMORY (test/Runtime/alloc-failure.test asks
# for 64 GiB), instead of ASan's own abort.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:detect_odr_violation=0:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"

paths=()
if [ $# -eq 0 ]; then
  paths=("$BUILD/test")
else
  for p in "$@"; do paths+=("$BUILD/test/$p"); done
fi
exec bash "$ROOT/scripts/lit-summary.sh" "${paths[@]}"
