#!/usr/bin/python3
"""Writes PREFIX.tl (a model of N inputs, y = sum over i of (i + 1) * x_i, and N outputs
z_i = x_i * x_i), the inputs as PREFIX.x_i.npy, the expected outputs as PREFIX.y.npy and
PREFIX.z_i.npy, and PREFIX.rsp: tlc-run's --input and --expect flags (a response file)."""
import sys

import numpy as np

prefix, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(5)
xs = [rng.standard_normal(8).astype(np.float32) for _ in range(n)]
with open(prefix + ".tl", "w") as f:
    for i in range(n):
        f.write("input x%d : f32[8]\n" % i)
    f.write("output y = " + " + ".join("x%d * %d.0" % (i, i + 1) for i in range(n)) + "\n")
    for i in range(n):
        f.write("output z%d = x%d * x%d\n" % (i, i, i))
flags = []
for i, x in enumerate(xs):
    np.save("%s.x%d.npy" % (prefix, i), x)
    flags.append("--input=%s.x%d.npy" % (prefix, i))
y = sum(x.astype(np.float64) * (i + 1) for i, x in enumerate(xs)).astype(np.float32)
np.save(prefix + ".y.npy", y)
flags.append("--expect=%s.y.npy" % prefix)
for i, x in enumerate(xs):
    np.save("%s.z%d.npy" % (prefix, i), x * x)
    flags.append("--expect=%s.z%d.npy" % (prefix, i))
with open(prefix + ".rsp", "w") as f:
    f.write("\n".join(flags) + "\n")
