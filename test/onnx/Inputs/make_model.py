#!/usr/bin/env python3
"""Writes the small ONNX models the lit tests compile: make_model.py KIND OUT.onnx."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def model(nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def vi(name, shape, t=F):
    return helper.make_tensor_value_info(name, t, shape)


def build(kind):
    rs = np.random.RandomState(0)
    if kind == "unsupported":
        # Three different unsupported ops, an unsupported attribute value and an unsupported
        # element type: all are reported at once.
        return model([
            helper.make_node("Det", ["x"], ["a"], name="det"),
            helper.make_node("Relu", ["a"], ["b"], name="relu"),
            helper.make_node("LpNormalization", ["b"], ["c"], name="lpnorm"),
            helper.make_node("Pad", ["c", "pads"], ["d"], name="padder", mode="wrap"),
            helper.make_node("NonMaxSuppression", ["d"], ["e"], name="nms"),
            helper.make_node("Cast", ["e"], ["y"], name="to_u64", to=TensorProto.UINT64),
        ], [vi("x", [2, 3])], [vi("y", [2, 3], TensorProto.UINT64)],
            [numpy_helper.from_array(np.zeros(4, np.int64), "pads")])
    if kind == "quantize-row-49":
        # uint8 rows of 49 (a 7x7 image's channels) with per-row scales: each row ends one
        # element past a multiple of 16 (masked-store-one-lane.test).
        return model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=0)],
                     [vi("x", [3, 49])], [vi("y", [3, 49], TensorProto.UINT8)],
                     [numpy_helper.from_array(np.array([0.02, 0.03, 0.05], np.float32), "s"),
                      numpy_helper.from_array(np.array([128, 120, 131], np.uint8), "z")])
    if kind.startswith("control-"):
        # Control flow tlc cannot expand: a Loop whose trip count is a run-time input, an If
        # whose branches differ in shape under a run-time condition, and a body holding an
        # unsupported operator (reported at the body's node, inside its Loop).
        B, I64 = TensorProto.BOOL, TensorProto.INT64
        body = helper.make_graph(
            [helper.make_node("Identity", ["c_in"], ["c_out"], name="keep_going"),
             helper.make_node("Relu", ["v_in"], ["v_out"], name="relu_in_body")],
            "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [2, 3])],
            [vi("c_out", [], B), vi("v_out", [2, 3])])
        if kind == "control-trip-large":
            return model([helper.make_node("Loop", ["n", "", "x"], ["y"], name="loop",
                                           body=body)],
                         [vi("x", [2, 3])], [vi("y", [2, 3])],
                         [numpy_helper.from_array(np.array(100000, np.int64), "n")])
        if kind == "control-runtime-cond":
            # The body's condition depends on the data: the loop cannot be expanded.
            data = helper.make_graph(
                [helper.make_node("ReduceMax", ["v_in"], ["m"], name="peak", keepdims=0),
                 helper.make_node("Less", ["m", "ten"], ["c_out"], name="below"),
                 helper.make_node("Add", ["v_in", "v_in"], ["v_out"], name="double")],
                "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [2, 3])],
                [vi("c_out", [], B), vi("v_out", [2, 3])],
                [numpy_helper.from_array(np.float32(10), "ten")])
            return model([helper.make_node("Loop", ["", "", "x"], ["y"], name="loop",
                                           body=data)],
                         [vi("x", [2, 3])], [vi("y", [2, 3])])
        if kind == "control-nested":
            # Ifs nested 20 deep in their then branches (constant conditions): deeper than the
            # importer recurses.
            leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["leaf"])], "leaf", [],
                                     [vi("leaf", [2, 3])])
            inner = leaf
            for depth in range(19, -1, -1):
                node = helper.make_node("If", ["t"], ["r%d" % depth], name="if%d" % depth,
                                        then_branch=inner, else_branch=leaf)
                inner = helper.make_graph([node], "g%d" % depth, [], [vi("r%d" % depth, [2, 3])])
            return model(list(inner.node), [vi("x", [2, 3])], [vi("r0", [2, 3])],
                         [numpy_helper.from_array(np.array(True), "t")])
        if kind == "control-nested-loops":
            # A Loop of 4096 iterations around one of 4096: 16M expansions of the inner body.
            inner_loop = helper.make_graph(
                [helper.make_node("Identity", ["c_in"], ["c_out"]),
                 helper.make_node("Loop", ["n", "", "v_in"], ["v_out"], name="inner",
                                  body=body)],
                "outer_body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [2, 3])],
                [vi("c_out", [], B), vi("v_out", [2, 3])])
            return model([helper.make_node("Loop", ["n", "", "x"], ["y"], name="outer",
                                           body=inner_loop)],
                         [vi("x", [2, 3])], [vi("y", [2, 3])],
                         [numpy_helper.from_array(np.array(4096, np.int64), "n")])
        if kind == "control-scan-outputs":
            # A Scan body with fewer outputs than the scan has states.
            short = helper.make_graph([helper.make_node("Identity", ["s_in"], ["dup"])],
                                      "short", [vi("s_in", [3]), vi("a_in", [3]), vi("col", [3])],
                                      [vi("dup", [3])])
            return model([helper.make_node("Scan", ["s", "a", "x"], ["y", "z"], name="scan",
                                           body=short, num_scan_inputs=1)],
                         [vi("s", [3]), vi("a", [3]), vi("x", [4, 3])],
                         [vi("y", [3]), vi("z", [3])])
        if kind == "control-runtime-trip":
            return model([helper.make_node("Loop", ["n", "", "x"], ["y"], name="loop",
                                           body=body)],
                         [vi("n", [], I64), vi("x", [2, 3])], [vi("y", [2, 3])])
        if kind == "control-if-shapes":
            one = helper.make_graph([helper.make_node("Identity", ["x"], ["a"])], "then", [],
                                    [vi("a", [2, 3])])
            other = helper.make_graph([helper.make_node("Flatten", ["x"], ["b"], axis=0)],
                                      "else", [], [vi("b", [1, 6])])
            return model([helper.make_node("If", ["c"], ["y"], name="choose", then_branch=one,
                                           else_branch=other)],
                         [vi("c", [], B), vi("x", [2, 3])], [vi("y", [2, 3])])
        if kind == "control-body-unsupported":
            bad = helper.make_graph(
                [helper.make_node("Identity", ["c_in"], ["c_out"], name="keep_going"),
                 helper.make_node("Det", ["v_in"], ["v_out"], name="det_in_body")],
                "body", [vi("i", [], I64), vi("c_in", [], B), vi("v_in", [3, 3])],
                [vi("c_out", [], B), vi("v_out", [])])
            return model([helper.make_node("Loop", ["n", "", "x"], ["y"], name="loop", body=bad)],
                         [vi("x", [3, 3])], [vi("y", [])],
                         [numpy_helper.from_array(np.array(2, np.int64), "n")])
    if kind == "cnn":
        w = numpy_helper.from_array(rs.randn(4, 3, 3, 3).astype(np.float32), "w")
        b = numpy_helper.from_array(rs.randn(4).astype(np.float32), "b")
        fc = numpy_helper.from_array(rs.randn(10, 4).astype(np.float32), "fc")
        return model([
            helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv1", pads=[1, 1, 1, 1],
                             strides=[2, 2]),
            helper.make_node("Relu", ["c"], ["r"], name="relu1"),
            helper.make_node("MaxPool", ["r"], ["p"], name="pool1", kernel_shape=[3, 3],
                             strides=[2, 2], pads=[1, 1, 1, 1]),
            helper.make_node("GlobalAveragePool", ["p"], ["g"], name="gap"),
            helper.make_node("Shape", ["g"], ["s"], name="shape"),
            helper.make_node("Gather", ["s", "zero"], ["n"], name="batch", axis=0),
            helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsq"),
            helper.make_node("Concat", ["n1", "minus1"], ["shp"], name="cat", axis=0),
            helper.make_node("Reshape", ["g", "shp"], ["f"], name="flatten"),
            helper.make_node("Gemm", ["f", "fc"], ["y"], name="fc1", transB=1),
        ], [vi("x", ["batch", 3, 16, 16])], [vi("y", None)],
            [w, b, fc, numpy_helper.from_array(np.array(0, np.int64), "zero"),
             numpy_helper.from_array(np.array([0], np.int64), "axes0"),
             numpy_helper.from_array(np.array([-1], np.int64), "minus1")])
    if kind == "cnn-bn":
        # Batch norm in training mode (before opset 14: its running-statistics outputs).
        w = numpy_helper.from_array(rs.randn(4, 3, 3, 3).astype(np.float32), "w")
        gamma = numpy_helper.from_array(rs.rand(4).astype(np.float32) + 0.5, "gamma")
        beta = numpy_helper.from_array(rs.randn(4).astype(np.float32), "beta")
        mean = numpy_helper.from_array(np.zeros(4, np.float32), "mean")
        var = numpy_helper.from_array(np.ones(4, np.float32), "var")
        fc = numpy_helper.from_array(rs.randn(10, 4).astype(np.float32), "fc")
        return model([
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
            helper.make_node("BatchNormalization", ["c", "gamma", "beta", "mean", "var"],
                             ["n", "mean_out", "var_out"], name="bn1", momentum=0.9),
            helper.make_node("Relu", ["n"], ["r"], name="relu1"),
            helper.make_node("GlobalAveragePool", ["r"], ["g"], name="gap"),
            helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
            helper.make_node("Gemm", ["f", "fc"], ["y"], name="fc1", transB=1),
        ], [vi("x", [2, 3, 8, 8])], [vi("y", [2, 10])], [w, gamma, beta, mean, var, fc])
    if kind == "bad-shape":
        return model([helper.make_node("Add", ["x", "z"], ["y"], name="adder")],
                     [vi("x", [2, 3]), vi("z", [4, 3])], [vi("y", None)])
    if kind == "undefined-input":
        return model([helper.make_node("Relu", ["nowhere"], ["y"], name="r")],
                     [vi("x", [2])], [vi("y", None)])
    if kind == "decoder":
        # ConvTranspose (stride 2, groups 2, output_padding) then Resize (linear, half_pixel)
        # and Resize (nearest, asymmetric, sizes), as segmentation/GAN decoders use them.
        w = numpy_helper.from_array(rs.randn(4, 3, 3, 3).astype(np.float32), "w")
        b = numpy_helper.from_array(rs.randn(6).astype(np.float32), "b")
        scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
        sizes = numpy_helper.from_array(np.array([1, 6, 30, 36], np.int64), "sizes")
        return model([
            helper.make_node("ConvTranspose", ["x", "w", "b"], ["c"], name="up1", group=2,
                             strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1]),
            helper.make_node("Resize", ["c", "", "scales"], ["r"], name="bilinear",
                             mode="linear"),
            helper.make_node("Resize", ["r", "", "", "sizes"], ["y"], name="nearest",
                             mode="nearest", coordinate_transformation_mode="asymmetric",
                             nearest_mode="floor"),
        ], [vi("x", [1, 4, 5, 6])], [vi("y", [1, 6, 30, 36])], [w, b, scales, sizes])
    if kind == "attention":
        # Scaled dot-product attention as exporters write it: MatMul(Q, Transpose(K)), Div by
        # sqrt(d), Add of a mask, Softmax over the last axis, MatMul with V.
        mask = np.triu(np.full((6, 6), -1e4, np.float32), 1) * (rs.rand(6, 6) > 0.5)
        return model([
            helper.make_node("Transpose", ["k"], ["kt"], name="kt", perm=[0, 1, 3, 2]),
            helper.make_node("MatMul", ["q", "kt"], ["s"], name="scores"),
            helper.make_node("Div", ["s", "sqrt_d"], ["ss"], name="scale"),
            helper.make_node("Add", ["ss", "mask"], ["sm"], name="mask"),
            helper.make_node("Softmax", ["sm"], ["p"], name="softmax", axis=-1),
            helper.make_node("MatMul", ["p", "v"], ["y"], name="context"),
        ], [vi("q", [2, 3, 6, 8]), vi("k", [2, 3, 6, 8]), vi("v", [2, 3, 6, 8])],
            [vi("y", [2, 3, 6, 8])],
            [numpy_helper.from_array(np.array(np.sqrt(8.0), np.float32), "sqrt_d"),
             numpy_helper.from_array(mask.astype(np.float32), "mask")])
    if kind == "shape-input":
        # Reshape whose target shape is a graph input (as ONNX's node tests feed it).
        return model([helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")],
                     [vi("x", [2, 3, 4]), vi("shape", [2], TensorProto.INT64)],
                     [vi("y", None)])
    if kind == "norm-stats":
        # Opset 6: InstanceNormalization-6 is unchanged by opset 7, so the model imports.
        sc = numpy_helper.from_array(rs.randn(8).astype(np.float32), "sc")
        bi = numpy_helper.from_array(rs.randn(8).astype(np.float32), "bi")
        return model([helper.make_node("InstanceNormalization", ["x", "sc", "bi"], ["y"],
                                       name="inorm", epsilon=1e-3)],
                     [vi("x", [1, 8, 4, 4])], [vi("y", [1, 8, 4, 4])], [sc, bi], opset=6)
    if kind == "norm-stats17":
        # DepthToSpace, then LayerNormalization with its Mean and InvStdDev outputs.
        g = numpy_helper.from_array(rs.randn(16).astype(np.float32), "g")
        return model([
            helper.make_node("DepthToSpace", ["x"], ["d"], name="d2s", blocksize=2, mode="CRD"),
            helper.make_node("Reshape", ["d", "shape"], ["r"], name="flat"),
            helper.make_node("LayerNormalization", ["r", "g"], ["y", "mean", "istd"], name="ln",
                             axis=-1),
        ], [vi("x", [1, 8, 2, 2])], [vi("y", [2, 16]), vi("mean", [2, 1]), vi("istd", [2, 1])],
            [g, numpy_helper.from_array(np.array([2, 16], np.int64), "shape")], opset=17)
    if kind == "neg-slice":
        # Slice with a negative step: x[:, 7:0:-3] on a 2x8 input (columns 7, 4, 1).
        ints = lambda n, v: numpy_helper.from_array(np.array(v, np.int64), n)
        return model([helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"], name="rev")],
                     [vi("x", [2, 8])], [vi("y", [2, 3])],
                     [ints("st", [7]), ints("en", [0]), ints("ax", [1]), ints("sp", [-3])])
    if kind == "const-fold":
        # Shape arithmetic on constants, as a shifted-window transformer's export leaves it:
        # Mod (both fmods), ScatterND (plain and add), Equal and Where fold at import.
        def t(name, a):
            return numpy_helper.from_array(np.array(a), name)
        return model([
            helper.make_node("Mod", ["c", "d"], ["m0"], name="mod0"),
            helper.make_node("Mod", ["c", "d"], ["m1"], name="mod1", fmod=1),
            helper.make_node("ScatterND", ["zeros", "rows", "upd"], ["s0"], name="scatter"),
            helper.make_node("ScatterND", ["s0", "cells", "vals"], ["s1"], name="scatter_add",
                             reduction="add"),
            helper.make_node("Equal", ["m0", "m1"], ["eq"], name="eq"),
            helper.make_node("Where", ["eq", "c", "d"], ["w"], name="where"),
            helper.make_node("Concat", ["m0", "m1", "w"], ["cat"], name="cat", axis=0),
            helper.make_node("Cast", ["cat"], ["catf"], name="cast", to=F),
            helper.make_node("Add", ["x", "s1"], ["y"], name="add"),
            helper.make_node("Mul", ["v", "catf"], ["z"], name="mul"),
        ], [vi("x", [3, 4]), vi("v", [9])], [vi("y", None), vi("z", None)],
            [t("c", np.array([7, -7, 9], np.int64)), t("d", np.array([3, 3, -4], np.int64)),
             t("zeros", np.zeros((3, 4), np.float32)), t("rows", np.array([[2], [0]], np.int64)),
             t("upd", np.arange(8, dtype=np.float32).reshape(2, 4)),
             t("cells", np.array([[2, 1], [-3, 3]], np.int64)),
             t("vals", np.array([10, 20], np.float32))], opset=16)
    if kind == "pad-fold":
        # PyTorch's F.pad as exported (swin_t's window padding): the pads reversed pairwise by
        # a step -1 Slice of a constant, an empty Slice of a rank-2 shape ([2:] of [3, 4])
        # joined to them, the result the Pad's pads: all of it folds at import.
        i64 = lambda n, v: numpy_helper.from_array(np.array(v, np.int64), n)
        return model([
            helper.make_node("Slice", ["pairs", "st", "en", "ax", "sp"], ["rev"], name="rev"),
            helper.make_node("Transpose", ["rev"], ["revt"], name="tr", perm=[1, 0]),
            helper.make_node("Reshape", ["revt", "flat"], ["pads0"], name="flatten"),
            helper.make_node("Shape", ["x"], ["shape"], name="shape"),
            helper.make_node("Slice", ["shape", "two", "big", "zero"], ["none"], name="empty"),
            helper.make_node("Concat", ["pads0", "none"], ["pads"], name="cat", axis=0),
            helper.make_node("Pad", ["x", "pads"], ["y"], name="pad"),
        ], [vi("x", [3, 4])], [vi("y", None)],
            [i64("pairs", [[0, 1], [2, 0]]), i64("st", [-1]), i64("en", [-2**63]),
             i64("ax", [0]), i64("sp", [-1]), i64("flat", [4]), i64("two", [2]),
             i64("big", [2**63 - 1]), i64("zero", [0])], opset=13)
    if kind == "fold-wrap":
        # Integer reductions of constants that overflow int64 fold wrapping, as the generated
        # code computes (fuzz-onnx: the fold's signed overflow was undefined).
        big = numpy_helper.from_array(np.array([2**63 - 1, 1, 2], np.int64), "big")
        pow2 = numpy_helper.from_array(np.array([2**62, 2, 3], np.int64), "pow2")
        return model([
            helper.make_node("ReduceSum", ["big"], ["s"], name="sum", keepdims=0),
            helper.make_node("ReduceProd", ["pow2"], ["p"], name="prod", keepdims=0),
            helper.make_node("Add", ["x", "s"], ["y"], name="add_sum"),
            helper.make_node("Add", ["x", "p"], ["z"], name="add_prod"),
        ], [vi("x", [2], TensorProto.INT64)], [vi("y", None, TensorProto.INT64), vi("z", None, TensorProto.INT64)], [big, pow2], opset=13)
    if kind == "range-inf":
        # Range from +inf down to 0 in steps of 1: ceil(-inf) elements, an empty range (the
        # fold converted -inf to int64, undefined: fuzz-onnx), concatenated to x.
        f32 = lambda n, v: numpy_helper.from_array(np.array(v, np.float32), n)
        return model([helper.make_node("Range", ["start", "limit", "delta"], ["r"], name="range"),
                      helper.make_node("Concat", ["x", "r"], ["y"], name="cat", axis=0)],
                     [vi("x", [2])], [vi("y", None)],
                     [f32("start", np.inf), f32("limit", 0.0), f32("delta", 1.0)], opset=13)
    if kind == "scatter-runtime":
        # Run-time indices (run-time data and updates at constant indices compile).
        return model([helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scatter")],
                     [vi("x", [3, 4]), vi("i", [1, 1], TensorProto.INT64), vi("u", [1, 4])],
                     [vi("y", None)])
    if kind == "conv4d-chain":
        # Three 4-D (rank-6) convolutions in a chain with a 2-D one and a Relu between: each
        # failing node is reported, the nodes after it still checked (with ONNX-inferred types).
        def w(name, shape):
            return numpy_helper.from_array(np.ones(shape, np.float32), name)
        return model([
            helper.make_node("Conv", ["x", "w1"], ["a"], name="conv4d_1", pads=[1] * 8),
            helper.make_node("Relu", ["a"], ["b"], name="relu"),
            helper.make_node("Conv", ["b", "w2"], ["c"], name="conv4d_2"),
            helper.make_node("Reshape", ["c", "flat"], ["d"], name="to2d"),
            helper.make_node("Conv", ["d", "w3"], ["e"], name="conv2d"),
            helper.make_node("Add", ["e", "bad"], ["f"], name="bad_add"),
            helper.make_node("Conv", ["c", "w2"], ["y"], name="conv4d_3"),
        ], [vi("x", [1, 3, 2, 4, 8, 8])], [vi("y", None), vi("f", None)],
            [w("w1", (4, 3, 3, 3, 3, 3)), w("w2", (4, 4, 1, 1, 1, 1)), w("w3", (2, 32, 1, 1)),
             w("bad", (3, 1, 1)),
             numpy_helper.from_array(np.array([1, 32, 8, 8], np.int64), "flat")])
    if kind.startswith("conv3d-lengths-"):
        # A rank-5 Conv, MaxPool or ConvTranspose whose window attributes do not have one
        # entry per spatial axis (pads: two).
        op = {"conv": "Conv", "pool": "MaxPool", "deconv": "ConvTranspose"}[kind.split("-")[-1]]
        attrs = {"Conv": dict(kernel_shape=[3, 3, 3], strides=[1, 1], pads=[1] * 6),
                 "MaxPool": dict(kernel_shape=[2, 2], pads=[0] * 6),
                 "ConvTranspose": dict(strides=[2, 2, 2], pads=[1] * 4)}[op]
        inputs = ["x"] if op == "MaxPool" else ["x", "w"]
        inits = [] if op == "MaxPool" else [numpy_helper.from_array(np.ones((4, 4, 3, 3, 3), np.float32), "w")]
        return model([helper.make_node(op, inputs, ["y"], name="window", **attrs)],
                     [vi("x", [1, 4, 4, 8, 8])], [vi("y", None)], inits)
    if kind == "cumsum-long":
        return model([helper.make_node("CumSum", ["x", "axis"], ["y"], name="cumsum")],
                     [vi("x", [2, 2000])], [vi("y", None)],
                     [numpy_helper.from_array(np.array(-1, np.int64), "axis")])
    if kind == "mod-float-fmod0":
        return model([helper.make_node("Mod", ["x", "z"], ["y"], name="modulo")],
                     [vi("x", [2, 3]), vi("z", [2, 3])], [vi("y", None)])
    if kind == "eyelike-3d":
        return model([helper.make_node("EyeLike", ["x"], ["y"], name="eye")],
                     [vi("x", [2, 3, 4])], [vi("y", None)])
    if kind == "qdq-conv":
        # A QDQ convolution (a fuzz seed for --int8-contractions): x quantized to uint8 and
        # dequantized, int8 weights dequantized per output channel, Conv with a bias.
        inits = [numpy_helper.from_array(np.array(0.02, np.float32), "sx"),
                 numpy_helper.from_array(np.array(128, np.uint8), "zx"),
                 numpy_helper.from_array(np.arange(-54, 54, dtype=np.int8).reshape(4, 3, 3, 3), "wq"),
                 numpy_helper.from_array(np.full(4, 0.01, np.float32), "sw"),
                 numpy_helper.from_array(np.zeros(4, np.int8), "zw"),
                 numpy_helper.from_array(np.ones(4, np.float32), "b")]
        return model([helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], name="q"),
                      helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], name="dq"),
                      helper.make_node("DequantizeLinear", ["wq", "sw", "zw"], ["w"], name="dqw",
                                       axis=0),
                      helper.make_node("Conv", ["xd", "w", "b"], ["y"], name="conv",
                                       pads=[1, 1, 1, 1])],
                     [vi("x", [1, 3, 8, 8])], [vi("y", None)], inits)
    if kind == "old-opset":
        return model([helper.make_node("Relu", ["x"], ["y"])], [vi("x", [2])], [vi("y", None)],
                     opset=5)
    raise SystemExit("unknown kind " + kind)


if __name__ == "__main__":
    if sys.argv[1] == "shape-pb":
        # The TensorProto file --constant-input reads: make_model.py shape-pb OUT.pb
        with open(sys.argv[2], "wb") as f:
            f.write(numpy_helper.from_array(np.array([4, 6], np.int64), "shape")
                    .SerializeToString())
        sys.exit(0)
    onnx.save(build(sys.argv[1]), sys.argv[2])
