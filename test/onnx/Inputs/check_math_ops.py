#!/usr/bin/env python3
"""One-node ONNX models of the trigonometric, hyperbolic, Round, Mod, CastLike, Hardmax, CumSum,
GatherElements, EyeLike, OneHot, LRN, Pad (run-time value) and window ops, compiled with tlc and run with tlc-run on
fresh random inputs, compared with numpy (fp64 rounded to the output type) within 1e-6:
check_math_ops.py --tlc T --tlc-run R --out DIR [--emit-tl] [--target T] prints `NAME: PASS`
or `NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
import onnx
from tlc_check import Const, run_node_cases

RNG = np.random.default_rng(21)


def uniform(lo, hi, shape=(3, 67)):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def unary(op, fn, x):
    return op, {}, [x], fn(x.astype(np.float64)).astype(np.float32)


def cases():
    yield unary("Sin", np.sin, np.concatenate([uniform(-10, 10), uniform(-1e4, 1e4)]))
    yield unary("Cos", np.cos, np.concatenate([uniform(-10, 10), uniform(-1e4, 1e4)]))
    yield unary("Tan", np.tan, uniform(-1.5, 1.5))
    yield unary("Asin", np.arcsin, uniform(-1, 1))
    yield unary("Acos", np.arccos, uniform(-1, 1))
    yield unary("Atan", np.arctan, uniform(-20, 20))
    yield unary("Sinh", np.sinh, uniform(-10, 10))
    yield unary("Cosh", np.cosh, uniform(-10, 10))
    yield unary("Asinh", np.arcsinh, uniform(-100, 100))
    yield unary("Acosh", np.arccosh, uniform(1, 100))
    yield unary("Atanh", np.arctanh, uniform(-0.99, 0.99))
    halves = (RNG.integers(-40, 40, (3, 67)) / 2).astype(np.float32)
    yield unary("Round", np.round, halves)
    a = RNG.integers(-50, 50, (4, 33)).astype(np.int32)
    b = RNG.choice([-7, -3, 2, 5], (1, 33)).astype(np.int32)
    yield "Mod", {"fmod": 0}, [a, b], np.mod(a, b).astype(np.int32)
    yield "Mod", {"fmod": 1}, [a.astype(np.int64), b.astype(np.int64)], \
        np.fmod(a, b).astype(np.int64)
    fa, fb = uniform(-20, 20, (4, 33)), RNG.choice([-2.5, 0.75, 3.0], (4, 33)).astype(np.float32)
    yield "Mod", {"fmod": 1}, [fa, fb], np.fmod(fa, fb)
    yield "CastLike", {}, [uniform(-100, 100, (5, 7)), np.zeros(1, np.int32)], None
    # Hardmax: ties go to the first maximum.
    h = RNG.integers(0, 4, (3, 5, 6)).astype(np.float32)
    for axis in (-1, 1):
        first = np.argmax(h, axis=axis)
        yield "Hardmax", {"axis": axis}, [h], (np.expand_dims(first, axis) == np.arange(
            h.shape[axis]).reshape([-1 if d == axis % 3 else 1 for d in range(3)])).astype(
                np.float32)
    c = uniform(-5, 5, (4, 7, 3))
    yield "CumSum", {}, [c, Const(np.array(1, np.int64))], np.cumsum(c, axis=1)
    ci = RNG.integers(-9, 9, (5, 6)).astype(np.int32)
    rev = np.flip(np.cumsum(np.flip(ci, 0), 0), 0)
    yield "CumSum", {"exclusive": 1, "reverse": 1}, [ci, Const(np.array([0], np.int32))], \
        (rev - ci).astype(np.int32)
    # GatherElements along axis 1, indices smaller than the data in the other dimensions,
    # negative ones counting from the end.
    gd = uniform(-5, 5, (4, 6, 5))
    gi = RNG.integers(-6, 6, (3, 7, 4)).astype(np.int64)
    yield "GatherElements", {"axis": 1}, [gd, gi], np.take_along_axis(
        gd[:3, :, :4], np.where(gi < 0, gi + 6, gi), axis=1)
    yield "EyeLike", {"k": 2}, [np.zeros((4, 6), np.float32)], np.eye(4, 6, k=2, dtype=np.float32)
    yield "EyeLike", {"k": -1, "dtype": onnx.TensorProto.INT64}, [np.zeros((5, 3), np.float32)], \
        np.eye(5, 3, k=-1, dtype=np.int64)
    # OneHot: negative indices count from depth, out-of-range ones are all "off"; constant
    # [off, on] values, and run-time ones (gathered from the input).
    def one_hot(idx, depth, off, on, axis, dtype):
        idx = np.where(idx < 0, idx + depth, idx)
        axis = axis % (idx.ndim + 1)
        iota = np.arange(depth).reshape([depth if d == axis else 1 for d in range(idx.ndim + 1)])
        return np.where(np.expand_dims(idx, axis) == iota, on, off).astype(dtype)
    oi = RNG.integers(-5, 7, (3, 4)).astype(np.int64)
    yield "OneHot", {}, [oi, Const(np.array(5, np.int64)), Const(np.array([0, 1], np.float32))], \
        one_hot(oi, 5, 0, 1, -1, np.float32)
    oj = RNG.integers(-4, 6, (2, 3)).astype(np.int32)
    ov = np.array([-2, 7], np.float32)
    yield "OneHot", {"axis": 0}, [oj, Const(np.array([4], np.int64)), ov], \
        one_hot(oj, 4, -2, 7, 0, np.float32)
    # LRN: the window over channels c - floor((size-1)/2) .. c + ceil((size-1)/2), clipped.
    def lrn(x, size, alpha=1e-4, beta=0.75, bias=1.0):
        x = x.astype(np.float64)
        sq = np.zeros_like(x)
        for c in range(x.shape[1]):
            lo, hi = max(0, c - (size - 1) // 2), min(x.shape[1], c + size // 2 + 1)
            sq[:, c] = (x[:, lo:hi] ** 2).sum(axis=1)
        return (x / (bias + alpha / size * sq) ** beta).astype(np.float32)
    lx = uniform(-20, 20, (2, 9, 5, 6))
    yield "LRN", {"size": 5, "alpha": 1e-3, "beta": 0.6, "bias": 2.0}, [lx], \
        lrn(lx, 5, 1e-3, 0.6, 2.0)
    ly = uniform(-3, 3, (3, 6, 7))
    yield "LRN", {"size": 4}, [ly], lrn(ly, 4)
    # Pad with a run-time constant_value (padded with 0, then the value selected outside the
    # input's box), one axis cropped by a negative pad.
    px = uniform(-5, 5, (3, 4, 5))
    pv = np.array(2.5, np.float32)
    yield "Pad", {}, [px, Const(np.array([1, 0, 2, 0, -1, 3], np.int64)), pv], \
        np.pad(px[:, :3, :], [(1, 0), (0, 0), (2, 3)], constant_values=2.5)
    # Windows (constants of a constant size): numpy's symmetric Hann and Blackman (periodic:
    # one longer, the last dropped), the spec's Hamming (25/46, not numpy's 0.54).
    yield "HannWindow", {}, [Const(np.array(10, np.int64))], \
        np.hanning(11)[:-1].astype(np.float32)
    yield "BlackmanWindow", {"periodic": 0, "output_datatype": onnx.TensorProto.DOUBLE}, \
        [Const(np.array(9, np.int32))], np.blackman(9)
    n = np.arange(7)
    yield "HammingWindow", {"periodic": 0}, [Const(np.array(7, np.int64))], \
        (25 / 46 - 21 / 46 * np.cos(2 * np.pi * n / 6)).astype(np.float32)


def all_cases():
    """cases() with each expected output as a one-element list (CastLike's from its input: C
    truncation to int)."""
    for op, attrs, inputs, expected in cases():
        if op == "CastLike":
            expected = np.trunc(inputs[0]).astype(np.int32)
        yield op, attrs, inputs, [expected]


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, all_cases(),
                            lambda op: 17 if op.endswith("Window") else 15, 1e-6))
