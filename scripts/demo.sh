#!/usr/bin/env bash
# Sets up, builds, and runs the demo: examples/mlp.tl compiled by tlc, linked into a C program,
# run, and its printed outputs checked against numpy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TLC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
echo "== the build ran: tlc examples/mlp.tl -o mlp.o --header mlp.h --name mlp"
echo "== running examples/demo (main.c linked with mlp.o and libtlcrt), checked against numpy:"
/usr/bin/python3 "$root/examples/demo/check_demo.py" "$build/examples/mlp_demo"
