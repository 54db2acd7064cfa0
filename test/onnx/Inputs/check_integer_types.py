#!/usr/bin/env python3
"""One-node ONNX models on uint8, int8, uint16, int16 and uint32 tensors (elementwise arithmetic
that wraps, division, Mod, BitShift, Max/Min/Clip, Cast in and out, MaxPool, ReduceSum, Gather)
and the quantization ops (QuantizeLinear/DequantizeLinear per tensor and per axis,
DynamicQuantizeLinear, MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv), compiled with
tlc and run with tlc-run on fresh random inputs, every output compared exactly with numpy in
the narrow type (its wrap-around is the spec's) or with the spec's formulas:
check_integer_types.py --tlc T --tlc-run R --out DIR [--target T] [--emit-tl] prints
`NAME: PASS` or `NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
from tlc_check import Const, run_node_cases

RNG = np.random.default_rng(8)


def ints(dtype, shape, lo=None, hi=None):
    info = np.iinfo(dtype)
    lo = info.min if lo is None else lo
    hi = info.max if hi is None else hi
    return RNG.integers(lo, hi, shape, endpoint=True).astype(dtype)


def quantize(x, scale, zp, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.rint(x / scale) + zp, info.min, info.max).astype(dtype)


def conv2d(x, w, pad):
    """The direct convolution (NCHW, FCHW, stride 1) in int64."""
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    out = np.zeros((n, f, h - kh + 1, wd - kw + 1), np.int64)
    for i in range(kh):
        for j in range(kw):
            out += np.einsum("nchw,fc->nfhw", x[:, :, i:i + out.shape[2], j:j + out.shape[3]],
                             w[:, :, i, j].astype(np.int64))
    return out


def cases():
    u8a, u8b = ints(np.uint8, (3, 5)), ints(np.uint8, (3, 5))
    # Wrap-around: uint8 200 + 100 = 44, 10 - 20 = 246; int8 100 * 3 = 44.
    yield "Add", {}, [u8a, u8b], [u8a + u8b]
    yield "Sub", {}, [u8a, u8b], [u8a - u8b]
    i8a, i8b = ints(np.int8, (4, 6)), ints(np.int8, (4, 6))
    yield "Mul", {}, [i8a, i8b], [i8a * i8b]
    nz = ints(np.uint8, (3, 5), 1)
    yield "Div", {}, [u8a, nz], [u8a // nz]
    # int8 Mod with mixed signs: the result takes the divisor's sign (numpy's %).
    d8 = ints(np.int8, (4, 6), -9, 9)
    d8[d8 == 0] = 3
    yield "Mod", {}, [i8a, d8], [i8a % d8]
    u16a, u16b = ints(np.uint16, (2, 7)), ints(np.uint16, (2, 7))
    yield "Max", {}, [u16a, u16b], [np.maximum(u16a, u16b)]
    i16a, i16b = ints(np.int16, (2, 7)), ints(np.int16, (2, 7))
    yield "Min", {}, [i16a, i16b], [np.minimum(i16a, i16b)]
    # uint32 above 2^31 orders as unsigned.
    u32a, u32b = ints(np.uint32, (9,)), ints(np.uint32, (9,))
    yield "Max", {}, [u32a, u32b], [np.maximum(u32a, u32b)]
    yield "Add", {}, [u32a, u32b], [u32a + u32b]
    sh8 = ints(np.uint8, (3, 5), 0, 9)
    yield "BitShift", {"direction": "LEFT"}, [u8a, sh8], [np.left_shift(u8a, sh8)]
    sh32 = ints(np.uint32, (9,), 0, 31)
    yield "BitShift", {"direction": "RIGHT"}, [u32a, sh32], [np.right_shift(u32a, sh32)]
    yield "Clip", {}, [i8a, Const(np.array(-20, np.int8)), Const(np.array(30, np.int8))], \
        [np.clip(i8a, -20, 30)]
    yield "Neg", {}, [i8a], [-i8a]
    yield "Abs", {}, [i16a], [np.abs(i16a)]
    f = (RNG.standard_normal((4, 5)) * 100).astype(np.float32)
    yield "Cast", {"to": 2}, [np.abs(f)], [np.abs(f).astype(np.int64).astype(np.uint8)]
    yield "Cast", {"to": 1}, [u32a], [u32a.astype(np.float32)]
    yield "Cast", {"to": 3}, [i16a], [i16a.astype(np.int8)]
    yield "Cast", {"to": 6}, [u8a], [u8a.astype(np.int32)]
    xp = ints(np.uint8, (1, 2, 6, 6))
    win = np.lib.stride_tricks.sliding_window_view(xp, (2, 2), axis=(2, 3))[:, :, ::2, ::2]
    yield "MaxPool", {"kernel_shape": [2, 2], "strides": [2, 2]}, [xp], [win.max(axis=(4, 5))]
    yield "ReduceSum", {"keepdims": 0}, [u8a, Const(np.array([1], np.int64))], \
        [u8a.sum(axis=1, dtype=np.uint8)]
    yield "Gather", {"axis": 0}, [u16a, Const(np.array([1, 0, 1], np.int64))], [u16a[[1, 0, 1]]]

    # Quantization, per tensor and per axis.
    x = (RNG.standard_normal((2, 3, 4)) * 3).astype(np.float32)
    yield "QuantizeLinear", {}, [x, Const(np.float32(0.05)), Const(np.uint8(128))], \
        [quantize(x, np.float32(0.05), 128, np.uint8)]
    s3, z3 = np.array([0.02, 0.05, 0.1], np.float32), np.array([-3, 0, 7], np.int8)
    yield "QuantizeLinear", {"axis": 1}, [x, Const(s3), Const(z3)], \
        [quantize(x, s3[:, None], z3[:, None], np.int8)]
    q = ints(np.uint8, (2, 3, 4))
    yield "DequantizeLinear", {}, [q, Const(np.float32(0.1)), Const(np.uint8(100))], \
        [((q.astype(np.float32) - 100) * np.float32(0.1)).astype(np.float32)]
    qi = ints(np.int8, (2, 3, 4))
    yield "DequantizeLinear", {"axis": 1}, [qi, Const(s3), Const(z3)], \
        [((qi.astype(np.float32) - z3[:, None]) * s3[:, None]).astype(np.float32)]
    lo, hi = np.minimum(np.float32(0), x.min()), np.maximum(np.float32(0), x.max())
    scale = np.float32((hi - lo) / np.float32(255))
    zp = np.uint8(np.clip(np.rint((np.float32(0) - lo) / scale), 0, 255))
    yield "DynamicQuantizeLinear", {}, [x], [quantize(x, scale, zp, np.uint8), np.array(scale),
                                              np.array(zp)]
    a, b = ints(np.uint8, (4, 6)), ints(np.int8, (6, 5))
    za, zb = np.uint8(12), np.array([1, -2, 0, 3, 5], np.int8)
    yield "MatMulInteger", {}, [a, b, Const(za), Const(zb)], \
        [((a.astype(np.int32) - za) @ (b.astype(np.int32) - zb)).astype(np.int32)]
    xc, wc = ints(np.uint8, (1, 3, 5, 5)), ints(np.uint8, (4, 3, 3, 3))
    zx, zw = np.uint8(128), np.array([0, 1, 2, 3], np.uint8)
    acc = conv2d(xc.astype(np.int64) - zx, wc.astype(np.int64) - zw[:, None, None, None], 1)
    yield "ConvInteger", {"pads": [1, 1, 1, 1]}, [xc, wc, Const(zx), Const(zw)], \
        [acc.astype(np.int32)]
    sa, sb, sy = np.float32(0.02), np.float32(0.01), np.float32(0.5)
    mm = (a.astype(np.int32) - 3) @ (b.astype(np.int32))
    yield "QLinearMatMul", {}, [a, Const(sa), Const(np.uint8(3)), Const(b), Const(sb),
                                Const(np.int8(0)), Const(sy), Const(np.uint8(120))], \
        [quantize(mm.astype(np.float32) * (sa * sb / sy), 1, 120, np.uint8)]
    ws = np.array([0.01, 0.02, 0.03, 0.04], np.float32)
    bias = ints(np.int32, (4,), -500, 500)
    acc2 = conv2d(xc.astype(np.int64) - zx, wc.astype(np.int64) - 128, 0) + bias[:, None, None]
    yield "QLinearConv", {}, [xc, Const(sa), Const(zx), Const(wc), Const(ws), Const(np.uint8(128)),
                              Const(sy), Const(np.uint8(64)), Const(bias)], \
        [quantize(acc2.astype(np.float32) * (sa * ws[:, None, None] / sy), 1, 64, np.uint8)]


if __name__ == "__main__":
    sys.exit(run_node_cases("Integer element types and quantization ops against numpy.",
                            cases(), 13))
