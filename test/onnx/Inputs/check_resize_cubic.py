#!/usr/bin/env python3
"""One-node ONNX Resize models in cubic mode (cubic_coeff_a -0.75): resize1 upsamples by scales
with half_pixel coordinates, resize2 downsamples to sizes with align_corners; compiled with tlc
and run with tlc-run on fresh random inputs, compared within 1e-5 with PyTorch's bicubic
interpolate (align_corners False and True: the same kernel and edge clamping):
check_resize_cubic.py --tlc T --tlc-run R --out DIR [--emit-tl] prints `NAME: PASS` or
`NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
import torch
import torch.nn.functional as F
from tlc_check import Const, run_node_cases

RNG = np.random.default_rng(29)


def cases():
    x = RNG.normal(0, 1, (1, 3, 7, 8)).astype(np.float32)
    t = torch.from_numpy(x)
    roi = Const(np.array([], np.float32))
    yield "Resize", {"mode": "cubic", "coordinate_transformation_mode": "half_pixel"}, \
        [x, roi, Const(np.array([1, 1, 2, 1.5], np.float32))], \
        [F.interpolate(t, size=(14, 12), mode="bicubic", align_corners=False).numpy()]
    yield "Resize", {"mode": "cubic", "coordinate_transformation_mode": "align_corners"}, \
        [x, roi, None, Const(np.array([1, 3, 4, 5], np.int64))], \
        [F.interpolate(t, size=(4, 5), mode="bicubic", align_corners=True).numpy()]


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, cases(), 13, 1e-5))
