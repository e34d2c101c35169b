#!/usr/bin/env bash
# Repacks the device bundle (../shared/tools/device-bundle.sh) so that it fits the device tool's
# 64 MiB with the working tree, and so that a rebuilt library travels alone.
#
#   scripts/device-slim.sh base [BUILD_DIR]   once: the bundle, slimmed, as .device/weft.tar.xz
#   scripts/device-slim.sh lib  [BUILD_DIR]   after each build: .device/weft-lib.tar.xz (~1 MB)
#
# Why: since the native references link OpenBLAS (35 MB with all its CPU kernels), the stock
# bundle is about 65 MB and the tool refuses the call. The base leaves out what OpenCL C never
# includes (clang's headers for other targets and for x86 intrinsics), the CLI (`weft`, 7 MB;
# run `weft-bench-runner` and join its JSON lines with scripts/bench-table.py) and weft-opt and
# weft-demo, and is compressed harder (about 60 MB; several minutes). libweft.so and the runner
# go into the small second archive, which .device/run.sh unpacks over the base whenever it
# changed. With OLD_LIB=path/to/libweft.so, `lib` adds that library as b/old/libweft.so, for
# A/B runs in one call (point OCL_ICD_VENDORS at an .icd naming it).
set -euo pipefail
what=${1:?base or lib}
build=${2:-build}
[ -f "$build/lib/libweft.so" ] || { echo "no $build/lib/libweft.so: build first (make)" >&2; exit 1; }
mkdir -p .device
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

case "$what" in
base)
    bundler=$(dirname "$0")/../../shared/tools/device-bundle.sh
    [ -x "$bundler" ] || bundler=../shared/tools/device-bundle.sh
    "$bundler" "$build" >/dev/null
    tar -xJf .device/weft.tar.xz -C "$stage"
    inc=$(echo "$stage"/b/llvm/lib/clang/19/include)
    (cd "$inc" && rm -rf arm_* altivec.h hexagon* hvx* riscv* msa.h s390* htm*.h vecintrin.h \
        velintrin* ppc_wrappers mips* __clang_hip* __clang_cuda* cuda_wrappers openmp_wrappers \
        llvm_libc_wrappers *intrin*.h avx512*.h __wmmintrin* cpuid.h)
    rm -rf "$inc"/sanitizer "$inc"/fuzzer "$inc"/orc "$inc"/profile "$inc"/xray "$inc"/zos_wrappers \
        "$inc"/wasm_simd128.h "$inc"/sifive_vector.h "$inc"/ISO_Fortran_binding.h "$inc"/arm64intr.h
    rm -f "$stage"/b/bin/weft-demo "$stage"/b/bin/weft-opt "$stage"/b/bin/weft-bench-runner \
        "$stage"/b/lib/libweft.so
    # libicudata (30 MB of ICU's tables) is loaded with libLLVM, through libxml2, which only
    # llvm-mt's manifests use: a library of the same name and symbol, empty, takes its place
    # (the whole bundle must leave the working tree room under the device tool's 64 MiB)
    for icu in "$stage"/b/lib/libicudata.so.*; do
        [ -e "$icu" ] || continue
        v=${icu##*.so.}; v=${v%%.*}
        echo "const char icudt${v}_dat[64] = {0};" > "$stage/icu.c"
        cc -shared -o "$icu" -Wl,-soname,"$(basename "$icu")" "$stage/icu.c"
    done
    printf '#!/bin/sh\necho "weft: not in the slim device bundle; use weft-bench-runner" >&2\nexit 1\n' \
        > "$stage"/b/bin/weft
    chmod +x "$stage"/b/bin/weft
    tar -C "$stage" -cf - b | xz -9e -T2 > .device/weft.tar.xz
    cat > .device/run.sh <<'RUN'
#!/usr/bin/env bash
# Runs a command with the bundled Weft: the slim base (scripts/device-slim.sh base) and, over
# it, this build's library and runner (weft-lib.tar.xz), unpacked again whenever it changed.
here=$(cd "$(dirname "$0")" && pwd); wb=${WEFT_DEVICE_DIR:-${TMPDIR:-/tmp}/weft-device}
[ -d $wb/b/lib ] || { mkdir -p $wb && tar -xJf "$here/weft.tar.xz" -C $wb; } || exit 1
sum=$(md5sum < "$here/weft-lib.tar.xz")
[ "$(cat $wb/lib.sum 2>/dev/null)" = "$sum" ] ||
    { tar -xJf "$here/weft-lib.tar.xz" -C $wb && echo "$sum" > $wb/lib.sum; } || exit 1
echo "$wb/b/lib/libweft.so" > $wb/weft.icd
export WEFT_DEVICE_BUNDLE=$wb/b PATH=$wb/b/bin:$PATH LD_LIBRARY_PATH=$wb/b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-$wb/weft.icd} WEFT_CLANG=$wb/b/llvm/bin/clang-19
exec "$@"
RUN
    chmod +x .device/run.sh
    "$0" lib "$build"
    ;;
lib)
    mkdir -p "$stage"/b/lib "$stage"/b/bin
    cp -L "$build/lib/libweft.so" "$stage"/b/lib/
    cp "$build/bin/weft-bench-runner" "$stage"/b/bin/
    strip --strip-unneeded "$stage"/b/lib/libweft.so "$stage"/b/bin/weft-bench-runner
    if [ -n "${OLD_LIB:-}" ]; then
        mkdir -p "$stage"/b/old
        cp -L "$OLD_LIB" "$stage"/b/old/libweft.so
        strip --strip-unneeded "$stage"/b/old/libweft.so
    fi
    tar -C "$stage" -cf - b | xz -9e -T1 > .device/weft-lib.tar.xz
    ;;
*)
    echo "usage: $0 base|lib [BUILD_DIR]" >&2
    exit 2
    ;;
esac
du -sb .device/weft*.tar.xz
