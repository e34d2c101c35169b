#!/usr/bin/env bash
# Builds the Debian package of Weft from a build folder (make deb): the install tree for the
# prefix /usr, staged and packed with dpkg-deb (no debhelper needed).
#
#   scripts/make-deb.sh [BUILD_DIR]        -> BUILD_DIR/weft_VERSION_ARCH.deb
#
# Contents: /usr/lib/libweft.so, /usr/bin/weft, /usr/bin/weft-bench-runner,
# /usr/share/weft/bench (the kernels and plot.py `weft bench` reads), and
# /etc/OpenCL/vendors/weft.icd, which registers Weft with the ICD loader (a conffile: `apt-get
# purge weft` removes it, `remove` keeps it as Debian keeps every changed /etc file).
# Depends: what the installed binaries link (dpkg-shlibdeps: libLLVM, hwloc, the ICD loader,
# OpenBLAS, libgomp, libc), plus what the library runs: clang-19 (every clBuildProgram) and
# llvm-spirv-15 (clCreateProgramWithIL).
#
# weft-bench-runner's native references are compiled -march=native: the package runs its
# benchmarks' native side only on CPUs with at least the build machine's instruction set
# (the library and `weft` itself compile kernels for the CPU they run on).
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
[ -f "$build/CMakeCache.txt" ] && [ -f "$build/lib/libweft.so" ] ||
    { echo "make-deb: no build in $build (run make first)" >&2; exit 1; }
build=$(cd "$build" && pwd)

upstream=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[ -n "$upstream" ] || { echo "make-deb: no project version in $build/CMakeCache.txt" >&2; exit 1; }
# the commit, so that two packages of one version from different commits differ
if rev=$(git rev-parse --short HEAD 2>/dev/null); then version="$upstream+g$rev"; else version=$upstream; fi
arch=$(dpkg --print-architecture)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
DESTDIR=$root cmake --install "$build" --prefix /usr --strip > "$stage/install.log" ||
    { cat "$stage/install.log" >&2; exit 1; }
for f in usr/lib/libweft.so usr/bin/weft usr/bin/weft-bench-runner etc/OpenCL/vendors/weft.icd; do
    [ -e "$root/$f" ] || { echo "make-deb: the install tree lacks /$f" >&2; exit 1; }
done

# dpkg-shlibdeps wants a source package's debian/control to read; a minimal one will do.
mkdir -p "$stage/src/debian"
printf 'Source: weft\n\nPackage: weft\nArchitecture: any\n' > "$stage/src/debian/control"
elves=()
while IFS= read -r f; do
    cmp -s -n 4 "$f" <(printf '\177ELF') && elves+=("-e$f")
done < <(find "$root" -type f)
shlibs=$(cd "$stage/src" && dpkg-shlibdeps -O "${elves[@]}" 2>"$stage/shlibdeps.log" |
         sed -n 's/^shlibs:Depends=//p') ||
    { cat "$stage/shlibdeps.log" >&2; exit 1; }
[ -n "$shlibs" ] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; cat "$stage/shlibdeps.log" >&2; exit 1; }
depends="$shlibs, clang-19, llvm-spirv-15"

mkdir -p "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<EOF
Package: weft
Version: $version
Architecture: $arch
Maintainer: Weft developers <weft@localhost>
Installed-Size: $size
Depends: $depends
Suggests: clinfo, python3-matplotlib
Provides: opencl-icd
Section: libs
Priority: optional
Description: OpenCL 3.0 implementation for multi-core SIMD CPUs
 Weft compiles GPU-style OpenCL kernels (many work-items, barriers, local
 memory) into vectorized, multi-threaded CPU code with LLVM 19. This package
 registers it with the OpenCL ICD loader and installs the weft tool (info,
 run, explain, bench) with the benchmark corpus of weft bench.
EOF
echo /etc/OpenCL/vendors/weft.icd > "$root/DEBIAN/conffiles"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
    > "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +

deb=$build/weft_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
echo "$deb"
dpkg-deb --field "$deb" Version Depends | sed 's/^/  /'
