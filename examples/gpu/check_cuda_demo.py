#!/usr/bin/python3
"""Runs the CUDA mlp demo: with an NVIDIA driver its output must match numpy (check_demo.py);
without one (no libcuda.so.1 loadable) it must exit 2 with a message naming the CUDA driver,
never crash.

  check_cuda_demo.py DEMO_EXECUTABLE
"""

import ctypes
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def has_cuda_driver():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def main(argv):
    demo = argv[1]
    if has_cuda_driver():
        return subprocess.run([sys.executable, os.path.join(HERE, "..", "demo", "check_demo.py"),
                               demo]).returncode
    p = subprocess.run([demo], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stdout.write(p.stdout + p.stderr)
    if p.returncode != 2 or "libcuda.so.1" not in p.stderr:
        print("FAIL: without a CUDA driver the demo must exit 2 naming libcuda.so.1; it exited %d"
              % p.returncode)
        return 1
    print("PASS: no CUDA driver here, and the demo says so")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
