#!/usr/bin/env python3
"""Builds one-node ONNX Resize models in cubic mode (cubic_coeff_a -0.75; half_pixel upsampling
by scales, align_corners downsampling to sizes), compiles each with tlc, runs it with tlc-run on
fresh random inputs and compares with PyTorch's bicubic interpolate (align_corners False and
True, the same kernel and edge clamping): check_resize_cubic.py --tlc T --tlc-run R --out DIR
[--emit-tl]. Prints `NAME: PASS` or `NAME: FAIL ...` per model."""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper
from tlc_check import compile_and_check

RNG = np.random.default_rng(29)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--emit-tl", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    x = RNG.normal(0, 1, (1, 3, 7, 8)).astype(np.float32)
    t = torch.from_numpy(x)
    cases = [
        # (name, coordinate mode, scales, sizes, torch reference)
        ("cubic_up", "half_pixel", [1, 1, 2, 1.5], None,
         F.interpolate(t, size=(14, 12), mode="bicubic", align_corners=False)),
        ("cubic_down", "align_corners", None, [1, 3, 4, 5],
         F.interpolate(t, size=(4, 5), mode="bicubic", align_corners=True)),
    ]
    status = 0
    for name, coords, scales, sizes, ref in cases:
        inits = [numpy_helper.from_array(np.array([], np.float32), "roi")]
        names = ["x", "roi"]
        if scales:
            inits.append(numpy_helper.from_array(np.array(scales, np.float32), "scales"))
            names.append("scales")
        else:
            inits.append(numpy_helper.from_array(np.array(sizes, np.int64), "sizes"))
            names += ["", "sizes"]
        node = helper.make_node("Resize", names, ["y"], name=name, mode="cubic",
                                coordinate_transformation_mode=coords)
        y = ref.numpy()
        graph = helper.make_graph(
            [node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)], inits)
        base = os.path.join(args.out, name)
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
                  base + ".onnx")
        if args.emit_tl:
            print(name + ":", flush=True)
            print(subprocess.run([args.tlc, base + ".onnx", "--emit=tl", "-o", "-"], check=True,
                                 capture_output=True, text=True).stdout, flush=True)
            continue
        status |= not compile_and_check(args.tlc, args.tlc_run, base, [x], [y], 1e-5)
    return status


if __name__ == "__main__":
    sys.exit(main())
