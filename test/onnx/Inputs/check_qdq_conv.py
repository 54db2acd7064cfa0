#!/usr/bin/env python3
"""QDQ convolutions (DequantizeLinear of uint8/int8 activations and of constant per-channel int8
weights feeding Conv, as ONNX Runtime's quantization tool writes them) compiled with
`tlc --int8-contractions`, which runs them as tl.quantized_conv2d on the integers, and checked
with tlc-run against numpy: the integer sums exact in int64, then times the two scales and plus
the bias in float64. tlc's result is the exact int32 sum converted to float32 and scaled in
float32 (relative error a few 2^-24), so the tolerance is 1e-5 relative; the float path (dequantized
operands summed in float32) is checked against the same reference with a looser 1e-4 (models of
at most 1,000 taps: longer float32 sums cancel past that on near-zero outputs).
check_qdq_conv.py --tlc T --tlc-run R --out DIR [--emit-tl] [--cpu CPU] prints `NAME: PASS`/`FAIL`
per model and path (tlc_check.compile_and_check); with --emit-tl, `NAME:` and tlc's --emit=tl
output. With --cpu (e.g. native on an AVX-512 VNNI host, where the integer contractions become
vpdpbusd register tiles) every model is compiled for that CPU, and three models of resnet18's
sizes are added (3x3 over 256 channels at 14x14: k = 2304 splits into k blocks; a stride-2
3x3 and a stride-2 1x1 downsample at 28x28)."""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from tlc_check import checker_args, compile_and_check

RNG = np.random.default_rng(21)


def reference(xq, zx, sx, wq, sw, bias, strides, pads, dilations, group):
    """(x - zx) * sx convolved with wq * sw[f] (exact integer sums in int64) plus bias, float64."""
    x = np.pad(xq.astype(np.int64) - zx, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, wd = x.shape
    f, cg, kh, kw = wq.shape
    fg = f // group
    oh = (h - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (wd - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    acc = np.zeros((n, f, oh, ow), np.int64)
    for i in range(kh):
        for j in range(kw):
            y0, x0 = i * dilations[0], j * dilations[1]
            window = x[:, :, y0:y0 + (oh - 1) * strides[0] + 1:strides[0],
                       x0:x0 + (ow - 1) * strides[1] + 1:strides[1]]
            for g in range(group):
                acc[:, g * fg:(g + 1) * fg] += np.einsum(
                    "nchw,fc->nfhw", window[:, g * cg:(g + 1) * cg],
                    wq[g * fg:(g + 1) * fg, :, i, j].astype(np.int64))
    y = acc.astype(np.float64) * sx * sw.reshape(1, -1, 1, 1).astype(np.float64)
    return y + (0 if bias is None else bias.reshape(1, -1, 1, 1))


def model(name, x_dtype, x_shape, zx, sx, wq, sw, bias, strides, pads, dilations, group=1):
    onnx_type = {np.uint8: onnx.TensorProto.UINT8, np.int8: onnx.TensorProto.INT8}[x_dtype]
    inits = [numpy_helper.from_array(np.array(sx, np.float32), "sx"),
             numpy_helper.from_array(np.array(zx, x_dtype), "zx"),
             numpy_helper.from_array(wq, "wq"),
             numpy_helper.from_array(sw.astype(np.float32), "sw"),
             numpy_helper.from_array(np.zeros(sw.shape, np.int8), "zw")]
    conv_inputs = ["x", "w"]
    if bias is not None:
        inits.append(numpy_helper.from_array(bias.astype(np.float32), "b"))
        conv_inputs.append("b")
    nodes = [helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["x"], name="dq_x"),
             helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["w"], name="dq_w", axis=0),
             helper.make_node("Conv", conv_inputs, ["y"], name="conv", strides=strides,
                              pads=pads, dilations=dilations, group=group)]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("xq", onnx_type, x_shape)],
                              [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
                              inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def cases():
    # name, activation type, input shape, zero point, filter shape, strides, pads, dilations,
    # per-channel weight scales, bias, groups (grouped convolutions take the float path)
    yield "u8_3x3_pad", np.uint8, (1, 8, 10, 10), 128, (16, 8, 3, 3), [1, 1], [1, 1, 1, 1], [1, 1], True, True, 1
    yield "u8_3x3_stride2", np.uint8, (1, 5, 11, 9), 7, (6, 5, 3, 3), [2, 2], [1, 0, 1, 2], [1, 1], True, False, 1
    yield "u8_7x7_stem", np.uint8, (1, 3, 32, 32), 119, (8, 3, 7, 7), [2, 2], [3, 3, 3, 3], [1, 1], True, True, 1
    yield "s8_dilated", np.int8, (1, 4, 12, 12), -5, (3, 4, 3, 3), [1, 1], [2, 2, 2, 2], [2, 2], True, True, 1
    yield "u8_1x1", np.uint8, (1, 32, 7, 7), 0, (24, 32, 1, 1), [1, 1], [0, 0, 0, 0], [1, 1], True, True, 1
    yield "u8_1x1_batch", np.uint8, (3, 16, 5, 6), 200, (8, 16, 1, 1), [1, 1], [0, 0, 0, 0], [1, 1], False, True, 1
    yield "u8_1x1_stride2", np.uint8, (1, 16, 9, 9), 3, (8, 16, 1, 1), [2, 2], [0, 0, 0, 0], [1, 1], True, False, 1
    yield "u8_grouped", np.uint8, (1, 8, 6, 6), 128, (8, 4, 3, 3), [1, 1], [1, 1, 1, 1], [1, 1], True, True, 2


def large_cases():
    yield "u8_256_14", np.uint8, (1, 256, 14, 14), 113, (256, 256, 3, 3), [1, 1], [1, 1, 1, 1], [1, 1], True, True, 1
    yield "u8_128_28_s2", np.uint8, (1, 128, 28, 28), 0, (256, 128, 3, 3), [2, 2], [1, 1, 1, 1], [1, 1], True, True, 1
    yield "u8_1x1_28_s2", np.uint8, (1, 128, 28, 28), 77, (256, 128, 1, 1), [2, 2], [0, 0, 0, 0], [1, 1], True, False, 1


def main():
    args = checker_args(__doc__, extra=lambda ap: ap.add_argument("--cpu"))
    status = 0
    cpu = ("--cpu=" + args.cpu,) if args.cpu else ()
    for (name, dtype, x_shape, zx, w_shape, strides, pads, dilations, per_channel,
         with_bias, group) in list(cases()) + (list(large_cases()) if args.cpu else []):
        info = np.iinfo(dtype)
        xq = RNG.integers(info.min, info.max, x_shape, endpoint=True).astype(dtype)
        wq = RNG.integers(-127, 127, w_shape, endpoint=True).astype(np.int8)
        f = w_shape[0]
        sw = RNG.uniform(0.002, 0.02, f if per_channel else 1)
        sx = float(np.float32(RNG.uniform(0.01, 0.05)))
        sw = sw.astype(np.float32)
        bias = RNG.standard_normal(f).astype(np.float32) if with_bias else None
        m = model(name, dtype, x_shape, zx, sx, wq, sw, bias, strides, pads, dilations, group)
        base = os.path.join(args.out, name)
        onnx.save(m, base + ".onnx")
        if args.emit_tl:
            print(name + ":", flush=True)
            print(subprocess.run([args.tlc, base + ".onnx", "--int8-contractions", "--emit=tl",
                                  "-o", "-"], check=True, capture_output=True, text=True).stdout,
                  flush=True)
            if args.cpu:
                asm = subprocess.run([args.tlc, base + ".onnx", "--int8-contractions", *cpu,
                                      "--emit=asm", "-o", "-"], check=True, capture_output=True,
                                     text=True).stdout
                print("%s: %d vpdpbusd" % (name, asm.count("vpdpbusd")), flush=True)
            continue
        sw_full = sw if per_channel else np.repeat(sw, f)
        expected = reference(xq, zx, sx, wq, sw_full, bias, strides, pads, dilations,
                             group).astype(np.float32)
        status |= not compile_and_check(args.tlc, args.tlc_run, base + "", [xq], [expected],
                                        1e-5, ("--int8-contractions",) + cpu)
        if x_shape[1] * w_shape[2] * w_shape[3] > 1000:
            continue  # float32 sums of thousands of terms cancel below a per-element 1e-4
        fbase = base + "_float"
        onnx.save(m, fbase + ".onnx")
        status |= not compile_and_check(args.tlc, args.tlc_run, fbase, [xq], [expected], 1e-4,
                                        ("--int8-contractions=false",) + cpu)
    return status


if __name__ == "__main__":
    sys.exit(main())
