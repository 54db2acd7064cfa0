#!/usr/bin/env python3
"""One-node ONNX MaxUnpool models on the values and indices of a PyTorch max_pool (1-D and
2-D; non-overlapping, overlapping and padded windows; the default output extent and a larger
output_shape), compiled with tlc and run with tlc-run on fresh random inputs, compared exactly
with PyTorch's max_unpool1d/2d (its per-plane indices moved to ONNX's flat ones over the whole
output): check_maxunpool.py --tlc T --tlc-run R --out DIR [--emit-tl] prints `NAME: PASS` or
`NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
import torch
import torch.nn.functional as F
from tlc_check import Const, run_node_cases

RNG = np.random.default_rng(53)


def case(shape, kernel, strides, pads, out=None):
    x = torch.from_numpy(RNG.standard_normal(shape).astype(np.float32))
    one_d = len(shape) == 3
    pool, unpool = (F.max_pool1d, F.max_unpool1d) if one_d else (F.max_pool2d, F.max_unpool2d)
    v, idx = pool(x, kernel, strides, pads, return_indices=True)
    y = unpool(v, idx, kernel, strides, pads, output_size=out)
    n, c = shape[:2]
    plane = int(np.prod(y.shape[2:]))
    flat = idx.numpy() + np.arange(n * c).reshape((n, c) + (1,) * (len(shape) - 2)) * plane
    attrs = {"kernel_shape": list(kernel), "strides": list(strides), "pads": list(pads) * 2}
    inputs = [v.numpy(), flat.astype(np.int64)]
    if out is not None:
        inputs.append(Const(np.array(list(y.shape), dtype=np.int64)))
    return "MaxUnpool", attrs, inputs, [y.numpy()]


def cases():
    yield case((2, 3, 6, 8), (2, 2), (2, 2), (0, 0))
    yield case((1, 2, 7, 9), (3, 3), (2, 2), (1, 1))
    yield case((2, 2, 7, 7), (3, 2), (2, 2), (0, 0), out=(8, 7))
    yield case((2, 3, 10), (3,), (1,), (1,))


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, cases(), 11))
