#!/usr/bin/env bash
# Installs every Debian package tlc needs to build, test and benchmark; idempotent.
set -euo pipefail

PKGS=(
  # compiler toolchain and LLVM/MLIR 22 (lld-22: the build's linker, and the ld.lld tlc runs to
  # join the objects of a large model's partitions)
  cmake ninja-build ccache clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  # libFuzzer and the sanitizer runtimes (scripts/fuzz.sh, TLC_SANITIZE)
  libclang-rt-22-dev
  # AArch64 cross toolchain and emulator for the NEON target's tests
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  # references for numeric tests and benchmarks; OpenBLAS's OpenMP build so PyTorch's and
  # OpenBLAS's thread pools do not fight at 2 threads; matplotlib for the benchmark's chart
  python3 python3-numpy python3-torch libopenblas0-openmp python3-matplotlib
  # ONNX importer: model sources (PyTorch export), python onnx for fixtures, backend node tests
  python3-onnx python3-torchvision libonnx-testdata
  # libraries: ONNX protobuf classes, FlatBuffers, oneDNN (the CPU reference)
  libonnx-dev libprotobuf-dev protobuf-compiler libflatbuffers-dev flatbuffers-compiler libdnnl-dev
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev
  # GPU: lavapipe + loader + headers + validation layer for the Vulkan runtime's tests; SPIR-V
  # tools (spirv-as/val); SPIRV-Cross for the Metal target's SPIR-V -> MSL
  mesa-vulkan-drivers libvulkan1 libvulkan-dev spirv-tools vulkan-validationlayers spirv-cross libspirv-cross-c-shared-dev
  # Node.js for the ONNX Runtime peer of the benchmarks (npm: below)
  nodejs
)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Debian's npm; a Node.js from elsewhere (NodeSource) brings its own.
command -v npm > /dev/null || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
else
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime (CPU) for the benchmarks' peer column: the npm package pinned in
# benchmarks/peers/ort/package.json. --ignore-scripts: its install script only fetches GPU
# binaries; the CPU library is in the package. Not fatal: without it the harness's ort column
# says why.
ort=$(cd "$(dirname "$0")/../benchmarks/peers/ort" && pwd)
want=$(sed -n 's/.*"onnxruntime-node": "\([^"]*\)".*/\1/p' "$ort/package.json")
have=$(sed -n 's/^  "version": "\([^"]*\)".*/\1/p' \
         "$ort/node_modules/onnxruntime-node/package.json" 2> /dev/null || true)
if [ "$have" = "$want" ]; then
  echo "setup: onnxruntime-node $have present"
elif (cd "$ort" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error); then
  echo "setup: installed onnxruntime-node $want in $ort"
else
  echo "setup: WARNING: npm could not install onnxruntime-node $want; the benchmarks run" \
       "without the ONNX Runtime peer" >&2
fi
