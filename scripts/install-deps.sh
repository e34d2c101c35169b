#!/usr/bin/env bash
# The single list of Debian packages Weft needs to build, test and benchmark.
# Installs only what is missing (apt-get; sudo when not root). Quiet when all is present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git
  llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev
  llvm-spirv-15 spirv-tools spirv-headers
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev
  libhwloc-dev hwloc
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers clinfo
  libcmocka-dev
  python3 python3-pyopencl python3-numpy python3-pytest python3-matplotlib
  pocl-opencl-icd
  libgomp1 libopenblas-dev
  openmpi-bin libopenmpi-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
