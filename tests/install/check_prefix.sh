#!/usr/bin/env bash
# tests/install/check_prefix.sh — CTest install/prefix: Weft installed into a temporary prefix
# runs from there alone (README, "Installing").
#
#   check_prefix.sh CMAKE BUILD_DIR SOURCE_DIR
#
# Installs the build (cmake --install --prefix TMP --strip, as `make install` does), then
# asserts that:
#   - the tree holds the library, both tools, the bench kernels and an .icd naming TMP's library;
#   - no installed file contains the path of the build or of the sources (strings -a): the tree
#     is relocatable, nothing in it points back at where it was built;
#   - from TMP (the current folder, so no repository is in reach) and with an environment
#     reduced to PATH, HOME, the cache off and OCL_ICD_VENDORS at the installed .icd:
#     `weft info` shows the Weft platform, `weft bench --size small --filter =saxpy` runs and
#     verifies saxpy on Weft (exit 0: its kernels and runner were found), and a PyOpenCL program
#     finds Weft, gets numpy's results and has loaded TMP's libweft.so.
set -uo pipefail
cmake=$1
build=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)

prefix=$(mktemp -d "${TMPDIR:-/tmp}/weft-install-XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install/prefix: FAIL: $*" >&2; exit 1; }
case "$prefix/" in "$build"/* | "$src"/*) fail "the temporary prefix $prefix lies inside the tree it is checked against" ;; esac

"$cmake" --install "$build" --prefix "$prefix" --strip > "$prefix.log" 2>&1 ||
    { cat "$prefix.log"; rm -f "$prefix.log"; fail "cmake --install failed"; }
rm -f "$prefix.log"

for f in lib/libweft.so bin/weft bin/weft-bench-runner share/weft/bench/kernels/linalg.cl \
         share/weft/bench/plot.py etc/OpenCL/vendors/weft.icd; do
    [ -f "$prefix/$f" ] || fail "the installed tree lacks $f"
done
icd=$(cat "$prefix/etc/OpenCL/vendors/weft.icd")
[ "$icd" = "$prefix/lib/libweft.so" ] || fail "weft.icd names '$icd', not $prefix/lib/libweft.so"

# The source folder's path also covers the build's when the build lies inside it; each as
# given and with links resolved.
mapfile -t paths < <(printf '%s\n' "$build" "$src" "$(cd "$build" && pwd -P)" "$(cd "$src" && pwd -P)" | sort -u)
found=0
while IFS= read -r f; do
    for p in "${paths[@]}"; do
        if strings -a "$f" | grep -Fq "$p/"; then
            echo "install/prefix: $f contains the path $p:"
            strings -a "$f" | grep -F "$p/" | head -3 | sed 's/^/    /'
            found=1
        fi
    done
done < <(find "$prefix" -type f)
[ $found -eq 0 ] || fail "installed files name the build machine's tree"
echo "install/prefix: $(find "$prefix" -type f | wc -l) installed files, none names $build or $src"

cd "$prefix" || fail "cannot enter $prefix"
run() {
    env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$prefix" WEFT_CACHE_DIR=off \
        OCL_ICD_VENDORS="$prefix/etc/OpenCL/vendors/weft.icd" "$@"
}

out=$(run "$prefix/bin/weft" info 2>&1) || { echo "$out"; fail "weft info failed"; }
echo "$out" | head -4
echo "$out" | grep -Eq '^ +Name +Weft$' || fail "weft info shows no platform named Weft"

out=$(run "$prefix/bin/weft" bench --size small --filter =saxpy --repeat 1 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "weft bench exited with $rc"
echo "$out" | grep -Eq '^saxpy +N=[0-9]+[KM]? +[0-9.]+ [mun]?s' || fail "weft bench printed no time for saxpy on Weft"

out=$(run /usr/bin/python3 "$src/tests/install/pyopencl_smoke.py" --expect-lib "$prefix" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "the PyOpenCL program failed ($rc)"
echo "install/prefix: ok"
