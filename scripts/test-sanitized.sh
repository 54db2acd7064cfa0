#!/usr/bin/env bash
# Builds tlc, its tools, the runtime and the test harnesses with ASan + UBSan (TLC_SANITIZE=ON,
# in build-asan/) and runs the lit suite there; any sanitizer report fails its test.
#   scripts/test-sanitized.sh [LIT-ARGS...]   (default: the whole suite, -sv)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TLC_ASAN_BUILD_DIR:-$root/build-asan}
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DTLC_SANITIZE=ON -DTLC_LINK_MLIR_DYLIB=ON
fi
ninja -C "$build" -j "${TLC_JOBS:-$(nproc)}"
if [ $# -eq 0 ]; then set -- -sv; fi
exec /usr/lib/llvm-22/bin/lit "$@" "$build/test"
