#!/usr/bin/env bash
# Sets up, builds, and runs every test: lit (dialect, passes, driver, errors, end-to-end numerics
# on x86_64 and AArch64 under qemu), runtime unit tests, the demo, the install package and the
# benchmark smoke test, all through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TLC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure -j 2
