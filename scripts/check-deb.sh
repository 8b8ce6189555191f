#!/usr/bin/env bash
# Builds tad's Debian package and checks it the way a user gets it.
#
#   1. cpack -G DEB in the build directory: <build>/tad_<version>_<arch>.deb.
#   2. Depends: every shared library that tadc, tad-opt and tad._fastcall
#      load directly belongs to a package named in Depends (dpkg -S), and
#      apt resolves the Depends (apt-get install --simulate: installs
#      nothing).
#   3. A real `dpkg -i` and `dpkg --purge`, inside a private mount namespace
#      (unshare) whose /usr, /etc and /var are overlays over the machine's:
#      dpkg installs into /usr and checks the dependencies against the
#      machine's package database, but nothing reaches the real /usr or the
#      package database, and no other process on the machine (other
#      checkouts and their tests) sees /usr/bin/tadc or the tad package in
#      /usr/lib/python3/dist-packages. The checkout and the build directory
#      are hidden under empty tmpfs mounts in there, so that nothing can
#      come from a source tree.
#   4. In there, with an environment of PATH=/usr/bin:/bin only:
#      tadc --version; examples/cmake configured, built and run (find_package
#      finds /usr/lib/cmake/tad without CMAKE_PREFIX_PATH); the installed
#      Python package checked from /usr/bin/python3 (test/Install's
#      check_installed.py); and the digits demo (examples/digits/train.py,
#      needs python3-torch and python3-sklearn) trained with the installed
#      tad.
#
# Needs root (unshare, mount). Usage: scripts/check-deb.sh [BUILD_DIR]
# (default: $TAD_BUILD_DIR, else build/).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$(cd "${1:-${TAD_BUILD_DIR:-$ROOT/build}}" && pwd)"

echo "==> building and packing tad in $BUILD"
cmake --build "$BUILD" -- tadc tad-opt tad_runtime all >/dev/null
(cd "$BUILD" && cpack -G DEB >/dev/null)
VERSION="$(sed -n 's/^#define TAD_VERSION_STRING "\(.*\)"$/\1/p' \
  "$BUILD/include/tad/version.h")"
DEB="$BUILD/tad_${VERSION}_$(dpkg --print-architecture).deb"
[[ -f "$DEB" ]] || { echo "check-deb: $DEB was not written" >&2; exit 1; }
echo "    $DEB ($(du -h "$DEB" | cut -f1))"

WORK="$(mktemp -d /tmp/tad-check-deb.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
cp "$DEB" "$WORK/"
DEB="$WORK/$(basename "$DEB")"

echo "==> Depends"
DEPENDS="$(dpkg-deb -f "$DEB" Depends)"
echo "    $DEPENDS"
# Package names in Depends, alternatives included, versions dropped.
mapfile -t NAMES < <(tr ',|' '\n\n' <<<"$DEPENDS" | sed 's/(.*)//; s/ //g' | sed '/^$/d')
dpkg-deb -x "$DEB" "$WORK/extracted"
missing=0
for binary in "$WORK"/extracted/usr/bin/tadc "$WORK"/extracted/usr/bin/tad-opt \
              "$WORK"/extracted/usr/lib/python3/dist-packages/tad/_fastcall*.so; do
  [[ -f "$binary" ]] || continue
  for needed in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path="$(ldd "$binary" | awk -v lib="$needed" '$1 == lib { print $3 }')"
    if [[ -z "$path" || "$path" == "not" ]]; then
      echo "    $(basename "$binary"): $needed not found" >&2
      missing=1
      continue
    fi
    owner="$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1)" \
      || owner=""
    [[ -n "$owner" ]] || owner="$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)"
    if printf '%s\n' "${NAMES[@]}" | grep -qx "$owner"; then
      echo "    $(basename "$binary"): $needed from $owner: in Depends"
    else
      echo "    $(basename "$binary"): $needed from ${owner:-no package}: NOT in Depends" >&2
      missing=1
    fi
  done
done
((missing == 0)) || { echo "check-deb: Depends is incomplete" >&2; exit 1; }
apt-get install --simulate --no-install-recommends "$DEB" >"$WORK/apt.log" 2>&1 || {
  cat "$WORK/apt.log" >&2
  echo "check-deb: apt cannot resolve the Depends" >&2
  exit 1
}
echo "    apt-get install --simulate: $(grep -c '^Inst' "$WORK/apt.log") package(s) to install"

# What the installed tad runs on, copied out of the checkout.
mkdir -p "$WORK/files" "$WORK/home"
cp -r "$ROOT/examples/cmake" "$WORK/files/example"
cp "$ROOT/examples/digits/train.py" "$ROOT/examples/c/model.mlir" \
   "$ROOT/test/Install/Inputs/check_installed.py" "$WORK/files/"

echo "==> dpkg -i in a private mount namespace"
for dir in usr etc var; do mkdir -p "$WORK/overlay/$dir/upper" "$WORK/overlay/$dir/work"; done
cat >"$WORK/inside.sh" <<'EOF'
set -euo pipefail
WORK="$1"; ROOT="$2"; BUILD="$3"; DEB="$4"
for dir in usr etc var; do
  mount -t overlay "tad-check-$dir" -o "lowerdir=/$dir,upperdir=$WORK/overlay/$dir/upper,workdir=$WORK/overlay/$dir/work" "/$dir"
done
mount -t tmpfs tad-check-hidden "$ROOT"
[[ "$BUILD" == "$ROOT"/* ]] || mount -t tmpfs tad-check-hidden "$BUILD"
[[ -e /usr/bin/tadc ]] && { echo "check-deb: /usr/bin/tadc exists before the install" >&2; exit 1; }
dpkg -i "$DEB" | sed 's/^/    /'
run() { env -i PATH=/usr/bin:/bin HOME="$WORK/home" LANG=C.UTF-8 "$@"; }
cd "$WORK/files"
echo "==> tadc --version"
run tadc --version | sed 's/^/    /'
echo "==> examples/cmake against /usr"
run cmake -G Ninja -S example -B example-build >/dev/null
run cmake --build example-build | sed 's/^/    /'
run example-build/fit | sed 's/^/    /'
grep -q "tad_DIR:PATH=/usr/lib/cmake/tad" example-build/CMakeCache.txt \
  || { echo "check-deb: find_package(tad) did not find /usr/lib/cmake/tad" >&2; exit 1; }
echo "==> /usr/bin/python3: the installed package"
run /usr/bin/python3 check_installed.py /usr model.mlir | sed 's/^/    /'
echo "==> /usr/bin/python3: the digits demo"
run /usr/bin/python3 train.py --out "$WORK/files/out" | sed 's/^/    /'
echo "==> dpkg --purge tad"
dpkg --purge tad | sed 's/^/    /'
if [[ -e /usr/bin/tadc || -e /usr/lib/python3/dist-packages/tad ]]; then
  echo "check-deb: dpkg --purge left files behind" >&2
  exit 1
fi
echo "    removed"
EOF
unshare --mount --propagation private bash "$WORK/inside.sh" "$WORK" "$ROOT" "$BUILD" "$DEB"
[[ ! -e /usr/bin/tadc ]] || { echo "check-deb: /usr/bin/tadc leaked out" >&2; exit 1; }
echo "==> the .deb installs, runs the C and Python examples, and purges"
