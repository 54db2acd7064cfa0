"""Narrowing stores whose rows end one element past a multiple of the vector width: uint8 and
int8 QuantizeLinear, int64 -> int32, int32 -> int16 and int32 -> int8 Casts, per-tensor (the flat tail)
and per-row (each row's tail: rows of 49, as a 7x7 image's channels), each compiled for
--cpu=CPU and checked exactly against numpy by tlc-run, whose guard bytes also catch any write
past an output. check_row_tails.py --tlc T --tlc-run R --out DIR --cpu CPU."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(__file__))
from tlc_check import checker_args, compile_and_check  # noqa: E402

args = checker_args(__doc__, lambda ap: ap.add_argument("--cpu", required=True))
rng = np.random.default_rng(17)
T = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64,
     np.dtype(np.int32): TensorProto.INT32, np.dtype(np.int16): TensorProto.INT16,
     np.dtype(np.int8): TensorProto.INT8, np.dtype(np.uint8): TensorProto.UINT8}


def quantize(x, scale, zero, dtype, axis):
    shape = [1] * x.ndim
    shape[axis] = -1
    q = np.rint(x / scale.reshape(shape)) + zero.reshape(shape).astype(np.float64)
    info = np.iinfo(dtype)
    return np.clip(q, info.min, info.max).astype(dtype)


def case(name, node, x, expected, inits=()):
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("x", T[x.dtype], x.shape)],
                              [helper.make_tensor_value_info("y", T[expected.dtype], expected.shape)],
                              list(inits))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    base = os.path.join(args.out, name)
    onnx.save(model, base + ".onnx")
    return compile_and_check(args.tlc, args.tlc_run, base, [x], [expected], 0.0,
                             ("--cpu=" + args.cpu,))


status = 0
for dtype in (np.uint8, np.int8):
    for shape, per_row in (((17,), False), ((97,), False), ((3, 49), True), ((1, 5, 49), True)):
        x = rng.standard_normal(shape).astype(np.float32) * 4
        axis = 1 if per_row else 0
        n = shape[axis] if per_row else 1
        scale = rng.uniform(0.02, 0.05, n).astype(np.float32)
        zero = rng.integers(-3, 4, n).astype(dtype) if dtype != np.uint8 else \
            rng.integers(120, 136, n).astype(dtype)
        if not per_row:
            scale, zero = scale.reshape(()), zero.reshape(())
        node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=axis)
        inits = [numpy_helper.from_array(scale, "s"), numpy_helper.from_array(zero, "z")]
        expected = quantize(x.astype(np.float64), scale.astype(np.float64).reshape(-1),
                            zero.reshape(-1), dtype, axis if per_row else 0)
        name = "q_%s_%s" % (np.dtype(dtype).name, "x".join(map(str, shape)))
        status |= not case(name, node, x, expected, inits)
for src, dst, shape in ((np.int64, np.int32, (97,)), (np.int32, np.int16, (3, 49)),
                        (np.int32, np.int8, (65,))):
    x = rng.integers(-1000, 1000, shape).astype(src)
    node = helper.make_node("Cast", ["x"], ["y"], to=T[np.dtype(dst)])
    name = "cast_%s_%s" % (np.dtype(src).name, np.dtype(dst).name)
    status |= not case(name, node, x, x.astype(dst))
sys.exit(status)
