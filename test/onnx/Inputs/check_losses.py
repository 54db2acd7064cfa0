#!/usr/bin/env python3
"""Builds one-node ONNX models of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (each
reduction, class weights, ignore_index inside and outside [0, C), targets of rank 1 to 3, f32
and f64, SoftmaxCrossEntropyLoss's log_prob output), compiles each with tlc, runs it with tlc-run
on fresh random inputs and compares with a numpy fp64 evaluation of the ONNX spec:
check_losses.py --tlc T --tlc-run R --out DIR [--target T] [--emit-tl]. Prints `NAME: PASS` or
`NAME: FAIL ...` per model; with --emit-tl, `NAME:` and tlc's --emit=tl output instead."""
import sys

import numpy as np
from tlc_check import run_node_cases

RNG = np.random.default_rng(23)


def nll(logp, target, weight, reduction, ignore_index):
    """The spec's loss, element by element in fp64: -logp[n, t, d..] * w[t], 0 where t is
    ignore_index; mean divides by the sum of the weights of the elements kept."""
    logp = logp.astype(np.float64)
    loss = np.zeros(target.shape)
    wsum = 0.0
    for pos in np.ndindex(*target.shape):
        t = int(target[pos])
        if ignore_index is not None and t == ignore_index:
            continue
        w = 1.0 if weight is None else float(weight[t])
        loss[pos] = -logp[(pos[0], t) + pos[1:]] * w
        wsum += w
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.array(loss.sum())
    return np.array(loss.sum() / wsum)


def log_softmax(x):
    x = x.astype(np.float64)
    m = x.max(axis=1, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))


def cases():
    """(op, attrs, inputs, expected outputs in the input's type)."""
    for op, attrs, inputs, expected in spec_cases():
        yield op, attrs, inputs, [e.astype(inputs[0].dtype) for e in expected]


def spec_cases():
    def targets(shape, classes, dtype, ignore=None):
        t = RNG.integers(0, classes, shape)
        if ignore is not None:  # about a quarter of the targets ignored
            t = np.where(RNG.random(shape) < 0.25, ignore, t)
        return t.astype(dtype)

    x = RNG.normal(0, 2, (6, 7)).astype(np.float32)
    t = targets((6,), 7, np.int64)
    yield "NegativeLogLikelihoodLoss", {}, [x, t], [nll(x, t, None, "mean", None)]
    x = RNG.normal(0, 2, (3, 6, 4, 5)).astype(np.float32)
    t = targets((3, 4, 5), 6, np.int32, ignore=2)
    w = RNG.uniform(0.1, 2, 6).astype(np.float32)
    yield "NegativeLogLikelihoodLoss", {"ignore_index": 2}, [x, t, w], [nll(x, t, w, "mean", 2)]
    x = RNG.normal(0, 2, (4, 5, 3)).astype(np.float32)
    t = targets((4, 3), 5, np.int64, ignore=-1)
    w = RNG.uniform(0.1, 2, 5).astype(np.float32)
    yield "NegativeLogLikelihoodLoss", {"reduction": "none", "ignore_index": -1}, [x, t, w], \
        [nll(x, t, w, "none", -1)]
    x = RNG.normal(0, 3, (8, 10)).astype(np.float32)
    t = targets((8,), 10, np.int64)
    yield "SoftmaxCrossEntropyLoss", {"reduction": "sum"}, [x, t], \
        [nll(log_softmax(x), t, None, "sum", None), log_softmax(x)]
    x = RNG.normal(0, 3, (2, 5, 3, 4))
    t = targets((2, 3, 4), 5, np.int64, ignore=7)
    w = RNG.uniform(0.1, 2, 5)
    yield "SoftmaxCrossEntropyLoss", {"ignore_index": 7}, [x, t, w], \
        [nll(log_softmax(x), t, w, "mean", 7)]


def skip(inputs, target):
    # GLSL.std.450 has no f64 exp/log (losses.test pins the error).
    return target == "vulkan" and inputs[0].dtype == np.float64


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, cases(), 13,
                            lambda dtype: 1e-5 if dtype == np.float32 else 1e-12, skip))
