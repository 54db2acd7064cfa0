#!/usr/bin/env python3
"""One-node ONNX Resize models with coordinate_transformation_mode tf_crop_and_resize (linear
and nearest; crop boxes inside the image, reaching past it (extrapolation_value), far past
it, and an axis resized to 1), compiled with tlc and run with tlc-run on fresh random
inputs, compared within 1e-5 with a float64 numpy evaluation of the spec per output element
(its source coordinate on each axis from the roi; any axis outside the input gives
extrapolation_value): check_resize_crop.py --tlc T --tlc-run R --out DIR [--emit-tl] prints
`NAME: PASS` or `NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import itertools
import sys

import numpy as np
from tlc_check import Const, run_node_cases

RNG = np.random.default_rng(61)


def source(i, length, out, start, end):
    if out == 1:
        return 0.5 * (start + end) * (length - 1)
    return start * (length - 1) + i * (end - start) * (length - 1) / (out - 1)


def reference(x, sizes, roi, mode, extrapolation):
    rank = x.ndim
    y = np.zeros(sizes)
    for idx in itertools.product(*[range(s) for s in sizes]):
        src = [source(idx[d], x.shape[d], sizes[d], roi[d], roi[d + rank]) for d in range(rank)]
        if any(s < 0 or s > x.shape[d] - 1 for d, s in enumerate(src)):
            y[idx] = extrapolation
            continue
        if mode == "nearest":  # round_prefer_floor
            near = [int(np.floor(s)) + (1 if s - np.floor(s) > 0.5 else 0) for s in src]
            y[idx] = x[tuple(near)]
            continue
        total = 0.0
        for corner in itertools.product((0, 1), repeat=rank):
            weight, at = 1.0, []
            for d, s in enumerate(src):
                low = int(np.floor(s))
                f = s - low
                at.append(min(low + corner[d], x.shape[d] - 1))
                weight *= f if corner[d] else 1 - f
            total += weight * x[tuple(at)]
        y[idx] = total
    return y.astype(np.float32)


def case(mode, shape, sizes, roi, extrapolation=None):
    x = RNG.standard_normal(shape).astype(np.float32)
    attrs = {"mode": mode, "coordinate_transformation_mode": "tf_crop_and_resize"}
    if extrapolation is not None:
        attrs["extrapolation_value"] = extrapolation
    y = reference(x.astype(np.float64), sizes, roi, mode, extrapolation or 0.0)
    return "Resize", attrs, [x, Const(np.array(roi, np.float32)), None,
                             Const(np.array(sizes, np.int64))], [y]


def cases():
    yield case("linear", (1, 2, 7, 9), (1, 2, 5, 6), [0, 0, 0.2, 0.1, 1, 1, 0.8, 0.7])
    yield case("linear", (2, 1, 6, 8), (2, 1, 7, 5), [0, 0, -0.3, 0.2, 1, 1, 1.2, 1.4], 10.0)
    yield case("nearest", (1, 3, 8, 8), (1, 3, 4, 6), [0, 0, -0.1, 0.3, 1, 1, 0.9, 1.2], -2.0)
    yield case("linear", (1, 2, 5, 7), (1, 2, 1, 4), [0, 0, 0.3, 0.1, 1, 1, 0.6, 0.9])
    # A box reaching 10^6 images past the input: its sources beyond int64 as tap indices.
    yield case("linear", (1, 1, 6, 5), (1, 1, 4, 3), [0, 0, 0.1, -1e6, 1, 1, 1e6, 0.8], 3.0)


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, cases(), 13, 1e-5))
