#!/usr/bin/env bash
# Installs tad's build dependencies (Debian 12 packages) when missing and
# builds everything into build/. Used by scripts/demo.sh and scripts/test.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TAD_BUILD_DIR:-$ROOT/build}"

PACKAGES=(
  cmake ninja-build clang-22 llvm-22-dev llvm-22-tools libmlir-22-dev
  mlir-22-tools libyaml-cpp-dev googletest libgtest-dev python3-numpy
  python3-dev python3-torch python3-sklearn python3-matplotlib libopenblas0-openmp
  libomp-22-dev pkg-config
  libopenmpi-dev openmpi-bin python3-mpi4py
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "==> installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "==> building tad in $BUILD"
cmake -G Ninja -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$BUILD" tadc tad-opt tad_runtime all
