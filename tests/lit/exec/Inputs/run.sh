#!/bin/sh
# Runs one kernel of kernels.cl through the whole work-group transformation, compiles the
# result with clang, links it with harness.c and runs the harness's host-side check.
#   run.sh WEFT_OPT CLANG INCLUDE_DIR IR TMP KERNEL LOCAL_SIZE
# Exit status: the harness's (0 = every work-item's result matched the host reference).
set -e
opt=$1 clang=$2 inc=$3 ir=$4 tmp=$5 kernel=$6 ls=$7
here=$(dirname "$0")
"$opt" -pass=wg-function,drop-kernels,llvm:globaldce -local-size="$ls" -kernel="$kernel" "$ir" > "$tmp.$kernel.$ls.ll"
"$clang" -O2 -Wno-override-module -c "$tmp.$kernel.$ls.ll" -o "$tmp.$kernel.$ls.o"
"$clang" -O1 -I"$inc" "$here/harness.c" "$tmp.$kernel.$ls.o" -o "$tmp.$kernel.$ls.exe"
"$tmp.$kernel.$ls.exe" "$kernel" "$ls"
