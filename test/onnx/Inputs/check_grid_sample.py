#!/usr/bin/env python3
"""Builds one-node ONNX GridSample models (every mode, padding mode and align_corners; grids
reaching past [-1, 1] so that padding and repeated reflections matter; two images), compiles
each with tlc, runs it with tlc-run on fresh random inputs and compares with PyTorch's
grid_sample; two grid points have a NaN coordinate, which samples nothing in tlc (0, in every
mode: PyTorch's CPU kernels give NaN or a clamped pixel there, so those two are compared with 0): check_grid_sample.py --tlc T --tlc-run R --out DIR [--target T] [--only A,B]
[--emit-tl NAME]. Prints `NAME: PASS` or `NAME: FAIL ...` per model."""
import argparse
import itertools
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper
from tlc_check import compile_and_check

RNG = np.random.default_rng(37)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--target", default="x86_64")
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--emit-tl", default="", help="print this model's tl and stop")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    x = RNG.normal(0, 1, (2, 3, 5, 7)).astype(np.float32)
    grid = RNG.uniform(-1.6, 1.6, (2, 4, 6, 2)).astype(np.float32)
    grid[0, 0, 0] = [1.0, -1.0]  # corners exactly
    grid[1, 3, 5] = [-1.0, 1.0]
    nan_points = [(0, 1, 2), (1, 2, 4)]
    grid[0, 1, 2] = [np.nan, 0.3]
    grid[1, 2, 4] = [0.2, np.nan]
    status = 0
    for mode, padding, align in itertools.product(["bilinear", "nearest", "bicubic"],
                                                  ["zeros", "border", "reflection"], [0, 1]):
        name = "%s_%s_%d" % (mode, padding, align)
        if only and name not in only and not args.emit_tl:
            continue
        if args.emit_tl and name != args.emit_tl:
            continue
        y = F.grid_sample(torch.from_numpy(x), torch.from_numpy(grid), mode=mode,
                          padding_mode=padding, align_corners=bool(align)).numpy()
        for b, i, j in nan_points:
            y[b, :, i, j] = 0
        node = helper.make_node("GridSample", ["x", "grid"], ["y"], name=name, mode=mode,
                                padding_mode=padding, align_corners=align)
        graph = helper.make_graph(
            [node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape),
                           helper.make_tensor_value_info("grid", TensorProto.FLOAT, grid.shape)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)])
        base = os.path.join(args.out, name)
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]),
                  base + ".onnx")
        if args.emit_tl:
            print(subprocess.run([args.tlc, base + ".onnx", "--emit=tl", "-o", "-"], check=True,
                                 capture_output=True, text=True).stdout, flush=True)
            return 0
        status |= not compile_and_check(args.tlc, args.tlc_run, base, [x, grid], [y], 1e-5,
                                        ("--target", args.target))
    return status


if __name__ == "__main__":
    sys.exit(main())
