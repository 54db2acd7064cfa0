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
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DTLC_SANITIZE=ON
fi
# LLVM's headers poison BumpPtrAllocator slabs in our (instrumented) code that its
# uninstrumented archives then use: manual poisoning off, or every tlc start is a false report.
# The examples' models are compiled by the sanitized tlc during the build, so this is set first.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0:abort_on_error=1}
ninja -C "$build" -j "${TLC_JOBS:-$(nproc)}"
if [ $# -eq 0 ]; then set -- -sv; fi
exec /usr/lib/llvm-22/bin/lit "$@" "$build/test"
