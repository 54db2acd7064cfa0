#!/usr/bin/env python3
"""Mutates a valid ONNX model (bit flips, truncation, byte splices) and checks that tlc never
crashes: every run must exit 0 or 1 (a located error), not with a signal or another code."""
import random
import subprocess
import sys

tlc, model, workdir, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
data = open(model, "rb").read()
rng = random.Random(1234)
bad = 0
for i in range(count):
    b = bytearray(data)
    kind = i % 3
    if kind == 0:
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        b = b[: rng.randrange(len(b))]
    else:
        pos = rng.randrange(len(b))
        b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    path = f"{workdir}/fuzz{i}.onnx"
    open(path, "wb").write(b)
    p = subprocess.run([tlc, path, "--emit=tl", "-o", "/dev/null", "--input-shape",
                        "x=1x3x16x16"], capture_output=True, timeout=60)
    if p.returncode not in (0, 1):
        bad += 1
        print(f"case {i}: exit {p.returncode}\n{p.stderr[-2000:].decode(errors='replace')}")
print(f"fuzz: {count} cases, {bad} crashes")
sys.exit(1 if bad else 0)
