#!/usr/bin/env bash
# Runs the whole test suite: lit (FileCheck tests, numeric gradient checks,
# GoogleTest unit tests) after building. Ends with "N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TAD_BUILD_DIR:-$ROOT/build}"
bash "$ROOT/scripts/setup.sh" || { echo "0 passed, 1 failed (build)"; exit 1; }

exec bash "$ROOT/scripts/lit-summary.sh" "$BUILD/test"
