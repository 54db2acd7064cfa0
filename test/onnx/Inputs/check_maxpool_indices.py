#!/usr/bin/env python3
"""One-node ONNX MaxPool models with the Indices output (pads, strides, dilations, ceil_mode,
storage_order 0 and 1; ties from a small integer range), compiled with tlc and run with tlc-run
on fresh random inputs, compared exactly with PyTorch's max_pool2d(return_indices=True) (its
per-plane h * W + w indices moved to ONNX's flat (n * C + c) * H * W + ... and, for
storage_order 1, w * H + h): check_maxpool_indices.py --tlc T --tlc-run R --out DIR
[--emit-tl] prints `NAME: PASS` or `NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
import torch
import torch.nn.functional as F
from tlc_check import run_node_cases

RNG = np.random.default_rng(47)


def case(shape, kernel, strides=(1, 1), pads=(0, 0), dilations=(1, 1), ceil=0, order=0):
    x = RNG.integers(-4, 5, shape).astype(np.float32)  # ties: the first maximum wins
    y, idx = F.max_pool2d(torch.from_numpy(x), kernel, strides, pads, dilations, bool(ceil),
                          return_indices=True)
    n, c, h, w = shape
    idx = idx.numpy()
    if order:
        idx = (idx % w) * h + idx // w
    idx = idx + (np.arange(n * c).reshape(n, c, 1, 1) * h * w)
    attrs = {"kernel_shape": list(kernel), "strides": list(strides),
             "pads": [pads[0], pads[1], pads[0], pads[1]], "dilations": list(dilations),
             "ceil_mode": ceil, "storage_order": order}
    return "MaxPool", attrs, [x], [y.numpy(), idx.astype(np.int64)]


def cases():
    yield case((2, 3, 7, 8), (3, 3), (2, 2), (1, 1))
    yield case((1, 2, 9, 9), (2, 3), (2, 1), (1, 1), (2, 1), ceil=1)
    yield case((2, 2, 6, 5), (3, 2), (1, 2), order=1)


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, cases(), 12))
