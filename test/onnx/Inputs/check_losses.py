#!/usr/bin/env python3
"""Builds one-node ONNX models of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (each
reduction, class weights, ignore_index inside and outside [0, C), targets of rank 1 to 3, f32
and f64, SoftmaxCrossEntropyLoss's log_prob output), compiles each with tlc, runs it with tlc-run
on fresh random inputs and compares with a numpy fp64 evaluation of the ONNX spec:
check_losses.py --tlc T --tlc-run R --out DIR [--target T] [--emit-tl]. Prints `NAME: PASS` or
`NAME: FAIL ...` per model; with --emit-tl, `NAME:` and tlc's --emit=tl output instead."""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper
from tlc_check import compile_and_check

RNG = np.random.default_rng(23)
TYPES = {np.float32: onnx.TensorProto.FLOAT, np.float64: onnx.TensorProto.DOUBLE,
         np.int32: onnx.TensorProto.INT32, np.int64: onnx.TensorProto.INT64}


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
    """(op, attrs, inputs, expected outputs, output count)."""
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--emit-tl", action="store_true")
    ap.add_argument("--target", default="x86_64")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    status, seen = 0, {}
    for op, attrs, inputs, expected in cases():
        seen[op] = seen.get(op, 0) + 1
        name = "%s%d" % ("nll" if op.startswith("Neg") else "sce", seen[op])
        names = ["x%d" % i for i in range(len(inputs))]
        outs = ["y%d" % i for i in range(len(expected))]
        et = inputs[0].dtype.type
        expected = [e.astype(et) for e in expected]
        graph = helper.make_graph(
            [helper.make_node(op, names, outs, name=name, **attrs)], name,
            [helper.make_tensor_value_info(n, TYPES[v.dtype.type], v.shape)
             for n, v in zip(names, inputs)],
            [helper.make_tensor_value_info(n, TYPES[et], e.shape)
             for n, e in zip(outs, expected)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        base = os.path.join(args.out, name)
        onnx.save(model, base + ".onnx")
        if et == np.float64 and args.target == "vulkan":
            # GLSL.std.450 has no f64 exp/log (losses.test pins the error).
            print(name + ": SKIP on vulkan", flush=True)
            continue
        if args.emit_tl:
            print(name + ":", flush=True)
            subprocess.run([args.tlc, base + ".onnx", "--emit=tl", "-o", "-"], check=True)
            continue
        tol = 1e-5 if et == np.float32 else 1e-12
        status |= not compile_and_check(args.tlc, args.tlc_run, base, inputs, expected, tol,
                                        ("--target", args.target))
    return status


if __name__ == "__main__":
    sys.exit(main())
