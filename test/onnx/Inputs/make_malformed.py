#!/usr/bin/env python3
"""Writes the malformed (and the oddly-formed valid) ONNX models the reliability tests compile:
make_malformed.py KIND OUT.onnx. Each kind used to crash tlc, or was accepted silently."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64


def model(nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def vi(name, shape, t=F):
    return helper.make_tensor_value_info(name, t, shape)


def ints(name, v):
    return numpy_helper.from_array(np.array(v, np.int64), name)


def conv(**attrs):
    w = numpy_helper.from_array(np.ones((2, 1, 3, 3), np.float32), "w")
    return model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv", **attrs)],
                 [vi("x", [1, 1, 8, 8])], [vi("y", None)], [w])


def recurrent(op, x_shape=(4, 2, 3), w_shape=None, r_shape=None, extra=(), extra_inits=(),
              x_type=F, **attrs):
    """A one-node RNN/GRU/LSTM over x (hidden size 4 unless the shapes say otherwise)."""
    g = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    w = numpy_helper.from_array(np.zeros(w_shape or (1, 4 * g, x_shape[2]), np.float32), "w")
    r = numpy_helper.from_array(np.zeros(r_shape or (1, 4 * g, 4), np.float32), "r")
    node = helper.make_node(op, ["x", "w", "r"] + list(extra), ["y"], name=op.lower(), **attrs)
    return model([node], [vi("x", list(x_shape), x_type)], [vi("y", None)],
                 [w, r] + list(extra_inits), opset=14)


def build(kind):
    if kind == "dup-output":
        # Valid: one tensor listed as two graph outputs (and an input passed through twice).
        return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                     [vi("x", [2, 3])], [vi("y", [2, 3]), vi("y", [2, 3]), vi("x", [2, 3]),
                                         vi("x", [2, 3])])
    if kind == "dup-output-cse":
        # Valid: two nodes computing the same thing, merged into one value by CSE.
        return model([helper.make_node("Relu", ["x"], ["a"], name="relu_a"),
                      helper.make_node("Relu", ["x"], ["b"], name="relu_b")],
                     [vi("x", [2, 3])], [vi("a", [2, 3]), vi("b", [2, 3])])
    if kind == "cast-no-to":
        return model([helper.make_node("Cast", ["x"], ["y"], name="cast")],
                     [vi("x", [2])], [vi("y", None)])
    if kind == "axis-string":
        return model([helper.make_node("Softmax", ["x"], ["y"], name="softmax", axis="1")],
                     [vi("x", [2, 3])], [vi("y", None)])
    if kind == "strides-zero-same":
        return conv(strides=[0, 0], auto_pad="SAME_UPPER")
    if kind == "strides-zero":
        return conv(strides=[1, 0])
    if kind == "kernel-mismatch":
        return conv(kernel_shape=[5, 5])
    if kind == "convtranspose-weight-rank":
        # A rank-2 weight: libonnx's own shape inference (asked for the failed node's output
        # type) read past the weight's dimensions; found by fuzz-onnx.
        w = numpy_helper.from_array(np.ones((3, 3), np.float32), "w")
        return model([helper.make_node("ConvTranspose", ["x", "w"], ["t"], name="deconv"),
                      helper.make_node("Relu", ["t"], ["y"], name="relu")],
                     [vi("x", [1, 1, 3, 3])], [vi("y", None)], [w])
    if kind == "hardmax-huge":
        # Used to build a 2^31-element constant of positions along the axis (fuzz-onnx).
        return model([helper.make_node("Hardmax", ["x"], ["y"], name="hardmax")],
                     [vi("x", [3, 2 ** 31])], [vi("y", None)])
    if kind == "layernorm-axis":
        # An axis of -5 for a rank-4 input: libonnx's inference (asked for the failed node's
        # output types) read out of bounds; found by fuzz-onnx.
        return model([helper.make_node("LayerNormalization", ["x", "s", "b"], ["y"], name="ln",
                                       axis=-5)],
                     [vi("x", [2, 3, 4, 5]), vi("s", [5]), vi("b", [5])], [vi("y", None)],
                     opset=17)
    if kind == "convtranspose-huge-stride":
        # A stride of 2^31 - 1: one convolution per output phase built ops without end (found
        # by scripts/campaign.py, a protobuf field mutation of the node test model).
        return model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up",
                                       strides=[2 ** 31 - 1, 2], pads=[1, 2, 1, 2])],
                     [vi("x", [1, 1, 3, 3]), vi("w", [1, 2, 3, 3])], [vi("y", None)])
    if kind == "convtranspose-long-filter":
        # A run-time filter 2^31 taps wide: each of the two phases listed 2^31 taps (found by
        # fuzz-onnx, a timeout).
        return model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up",
                                       strides=[2, 2], auto_pad="SAME_UPPER")],
                     [vi("x", [1, 1, 3, 3]), vi("w", [1, 2, 3, 2 ** 31])], [vi("y", None)])
    if kind == "constantofshape-long-shape":
        # A shape computed at run time with 2^32 elements: after the node's error, libonnx's
        # inference built an output of 2^32 unknown dimensions (scripts/campaign.py: a hang).
        return model([helper.make_node("ConstantOfShape", ["x"], ["y"], name="fill")],
                     [vi("x", [2 ** 32], TensorProto.INT64)], [vi("y", None)])
    if kind == "layernorm-rank0":
        # A rank-0 constant as input and scale, and the default axis (-1): libonnx's inference,
        # asked for the failed node's output types, read through a null pointer (fuzz-onnx).
        return model([helper.make_node("LayerNormalization", ["c", "c"], ["y", "mean"],
                                       name="ln0")],
                     [vi("x", [1])], [vi("y", None)], [ints("c", 7)], opset=17)
    if kind == "reshape-overflow":
        # A target shape whose product overflows int64 (fuzz-onnx: signed overflow).
        return model([helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")],
                     [vi("x", [])], [vi("y", None)], [ints("shape", [2 ** 32, 2 ** 32])])
    if kind == "pow-huge-exponent":
        # Valid: a folded integer power with a huge exponent wraps like the compiled code
        # (used to overflow, UBSan, and would loop 2^62 times; fuzz-onnx).
        return model([helper.make_node("Pow", ["a", "e"], ["y"], name="pow")],
                     [], [vi("y", None, I64)], [ints("a", [3, -1, 2]), ints("e", [2 ** 62 + 1, 2 ** 62 + 1, 64])])
    if kind == "split-overflow":
        # Split sizes whose sum overflows int64 (fuzz-onnx, UBSan).
        return model([helper.make_node("Split", ["x", "split"], ["a", "b"], name="split")],
                     [vi("x", [4, 6])], [vi("a", None), vi("b", None)],
                     [ints("split", [2 ** 62 + 1, 2 ** 62 + 1])])
    if kind == "dup-input":
        return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                     [vi("x", [2]), vi("x", [2])], [vi("y", None)])
    if kind == "two-writers":
        return model([helper.make_node("Relu", ["x"], ["y"], name="first"),
                      helper.make_node("Neg", ["x"], ["y"], name="second"),
                      helper.make_node("Abs", ["x"], ["x"], name="over_input")],
                     [vi("x", [2])], [vi("y", None)])
    if kind == "output-shape":
        return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                     [vi("x", [2, 3])], [vi("y", [2, 4])])
    if kind == "output-dtype":
        return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                     [vi("x", [2, 3])], [vi("y", [2, 3], I64)])
    if kind == "blocksize-untyped":
        # The attribute's type left UNDEFINED (as old writers do): its range is checked anyway.
        node = helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2 ** 32)
        node.attribute[0].ClearField("type")
        return model([node], [vi("x", [1, 4, 2, 2])], [vi("y", None)])
    if kind == "depth-mode":
        return model([helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2,
                                       mode="XYZ")],
                     [vi("x", [1, 4, 2, 2])], [vi("y", None)])
    if kind == "variadic-empty":
        return model([helper.make_node("Concat", ["x", ""], ["y"], name="cat", axis=0)],
                     [vi("x", [2])], [vi("y", None)])
    if kind == "blocksize-huge":
        return model([helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s",
                                       blocksize=1 << 32)],
                     [vi("x", [1, 4, 2, 2])], [vi("y", None)])
    if kind == "huge-input":
        return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                     [vi("x", [1 << 31, 1 << 31, 4])], [vi("y", None)])
    if kind == "huge-pad":
        return model([helper.make_node("Pad", ["x", "pads"], ["y"], name="pad")],
                     [vi("x", [2, 2])], [vi("y", None)],
                     [ints("pads", [0, 0, 1 << 40, 1 << 40])])
    if kind == "huge-expand":
        return model([helper.make_node("Expand", ["x", "shape"], ["y"], name="expand")],
                     [vi("x", [1])], [vi("y", None)],
                     [ints("shape", [1 << 32, 1 << 32])])
    if kind == "huge-resize":
        # 2^30 along one axis: within the element limit, but an index table of 2^30 entries.
        return model([helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="resize")],
                     [vi("x", [1, 1, 1, 2])], [vi("y", None)],
                     [ints("sizes", [1, 1, 1, 1 << 30])])
    if kind == "huge-classes":
        # A loss over 2^31 - 1 classes (a campaign's field mutation): its one-hot mask compares
        # the labels with a table of class indices, which had 2^31 entries.
        return model([helper.make_node("SoftmaxCrossEntropyLoss", ["x", "t"], ["y"], name="sce",
                                       reduction="sum")],
                     [vi("x", [3, (1 << 31) - 1]), vi("t", [3], TensorProto.INT64)],
                     [vi("y", None)], opset=13)
    if kind == "rnn-long-sequence":
        # An RNN over 2^32 steps: valid (within 2^40 elements), but its state history started
        # as a splat constant of (2^32 + 1) x 3 x 4 elements, which LLVM expanded until it ran
        # out of memory.
        return model([helper.make_node("RNN", ["x", "w", "r"], ["", "h"], name="rnn",
                                       hidden_size=4)],
                     [vi("x", [1 << 32, 3, 2]), vi("w", [1, 4, 2]), vi("r", [1, 4, 4])],
                     [vi("h", [1, 3, 4])], opset=14)
    if kind == "fold-broadcast":
        # Two constants within the host-folding limit whose broadcast has 2^32 elements.
        a = numpy_helper.from_array(np.zeros((65536, 1), np.float32), "a")
        b = numpy_helper.from_array(np.zeros((65536,), np.float32), "b")
        return model([helper.make_node("Add", ["a", "b"], ["s"], name="add"),
                      helper.make_node("ReduceSum", ["s"], ["y"], name="sum", keepdims=0)],
                     [], [vi("y", None)], [a, b])
    if kind == "fold-gather":
        # A constant row gathered 2^16 times: 2^32 elements.
        d = numpy_helper.from_array(np.zeros((1, 65536), np.float32), "d")
        return model([helper.make_node("Gather", ["d", "i"], ["g"], name="gather", axis=0),
                      helper.make_node("ReduceSum", ["g"], ["y"], name="sum", keepdims=0)],
                     [], [vi("y", None)], [d, ints("i", np.zeros(65536))])
    if kind == "huge-trilu":
        return model([helper.make_node("Trilu", ["x"], ["y"], name="trilu")],
                     [vi("x", [1 << 20, 1 << 20])], [vi("y", None)], opset=14)
    if kind.startswith("onehot-"):
        # OneHot with a run-time depth, a zero depth, three values, an axis out of range.
        values = numpy_helper.from_array(
            np.array([0, 1, 2] if kind == "onehot-values" else [0, 1], np.float32), "v")
        attrs = {"axis": 3} if kind == "onehot-axis" else {}
        inits = [values]
        inputs = [vi("i", [2, 3], TensorProto.INT64)]
        if kind == "onehot-depth-input":
            inputs.append(vi("d", [], TensorProto.INT64))
        else:
            inits.append(ints("d", np.array(0 if kind == "onehot-depth-zero" else 4)))
        return model([helper.make_node("OneHot", ["i", "d", "v"], ["y"], name="hot", **attrs)],
                     inputs, [vi("y", None)], inits, opset=11)
    if kind == "maxpool-indices-window":
        # Indices of a 40x40 window: 1,600 taps, each unrolled at import.
        return model([helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool",
                                       kernel_shape=[40, 40])],
                     [vi("x", [1, 1, 48, 48])], [vi("y", None), vi("i", None, TensorProto.INT64)])
    if kind == "maxpool-indices-wide":
        # Indices over rows of 2^20 (fuzz-onnx): a position table per tap of all the outputs
        # (9 x 30 x 2^20 entries, 20 s and 3 GiB before another error was reported).
        return model([helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool",
                                       kernel_shape=[3, 3], pads=[2, 2, 2, 2])],
                     [vi("x", [1, 3, 28, 1 << 20])],
                     [vi("y", None), vi("i", None, TensorProto.INT64)], opset=12)
    if kind == "maxunpool-rank1-indices":
        # Indices of rank 1 (fuzz-onnx): libonnx's MaxUnpool inference, asked for the types of
        # the failed node's outputs, read their second dimension and crashed.
        return model([helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="unpool",
                                       kernel_shape=[2, 2], strides=[2, 2])],
                     [vi("x", [1, 2, 3, 3])], [vi("y", None)], [ints("i", [1, 2, 6])], opset=11)
    if kind == "gathernd-negative-batch-dims":
        # batch_dims of -2^31 (a campaign's attribute mutation): refused by the converter, then
        # libonnx's GatherND inference (asked for the failed node's output types) indexed
        # shapes by it and crashed.
        return model([helper.make_node("GatherND", ["x", "i"], ["y"], name="gnd",
                                       batch_dims=-(1 << 31))],
                     [vi("x", [2, 2, 2]), vi("i", [2, 1], TensorProto.INT64)], [vi("y", None)])
    if kind == "pad-int64-min":
        # A Pad of -2^63 on an axis (fuzz-onnx, 2026-12-02): negating it to a crop offset
        # overflowed (UBSan).
        pads = numpy_helper.from_array(np.array([-(1 << 63), 0, 0, 0], np.int64), "p")
        return model([helper.make_node("Pad", ["x", "p"], ["y"], name="pad")],
                     [vi("x", [2, 3])], [vi("y", None)], [pads])
    if kind == "huge-reshape-chain":
        # A Reshape past the size limit read on by a Transpose (a campaign's field mutation of
        # an expanded loss): the refused Reshape's output got the type libonnx inferred for it,
        # whose element count wrapped, and the Transpose folded a placeholder of that type.
        return model([helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape"),
                      helper.make_node("Transpose", ["r"], ["y"], name="transpose",
                                       perm=[0, 2, 1])],
                     [vi("x", [3, 5])], [vi("y", None)], [ints("s", [0, 0, 1 << 62])])
    if kind == "huge-constant-of-shape":
        # A ConstantOfShape output of 2^32 elements: valid, but as a splat constant it became
        # a global LLVM expanded until it ran out of memory.
        return model([helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos",
                                       value=numpy_helper.from_array(
                                           np.array([1.5], np.float32)))],
                     [], [vi("y", None)], [ints("s", [1 << 16, 1 << 16])])
    if kind == "dft-huge-length":
        # A dft_length whose twiddle matrix would wrap int64 in the size check.
        return model([helper.make_node("DFT", ["x", "n"], ["y"], name="dft", axis=1)],
                     [vi("x", [1, 8, 1])], [vi("y", None)], [ints("n", np.array(2 ** 62))],
                     opset=17)
    if kind == "dft-last-axis":
        # A DFT along the component axis.
        return model([helper.make_node("DFT", ["x"], ["y"], name="dft", axis=2)],
                     [vi("x", [1, 8, 1])], [vi("y", None)], opset=17)
    if kind == "stft-long-frame":
        # Frames longer than the signal.
        return model([helper.make_node("STFT", ["x", "step", "", "len"], ["y"], name="stft")],
                     [vi("x", [1, 8, 1])], [vi("y", None)],
                     [ints("step", np.array(2)), ints("len", np.array(9))], opset=17)
    if kind == "expand-negative":
        # A target shape with a negative entry (fuzz-onnx: a float weight read as the shape;
        # the fold then asked for a negative element count, an LLVM fatal error).
        return model([helper.make_node("Expand", ["x", "s"], ["y"], name="grow")],
                     [], [vi("y", None)],
                     [numpy_helper.from_array(np.ones((2, 1), np.float32), "x"),
                      ints("s", np.array([2, -3]))])
    if kind == "compress-none":
        # A constant condition that selects nothing: an empty result.
        return model([helper.make_node("Compress", ["x", "c"], ["y"], name="pick", axis=0)],
                     [vi("x", [3, 2])], [vi("y", None)],
                     [numpy_helper.from_array(np.zeros(3, bool), "c")])
    if kind.startswith("window-"):
        # A Hann window of size 0, of a run-time size.
        if kind == "window-zero":
            return model([helper.make_node("HannWindow", ["n"], ["y"], name="win")], [],
                         [vi("y", None)], [ints("n", np.array(0))], opset=17)
        return model([helper.make_node("HannWindow", ["n"], ["y"], name="win")],
                     [vi("n", [], TensorProto.INT64)], [vi("y", None)], opset=17)
    if kind.startswith("int-"):
        # Integer and quantization ops on what they do not take: BitShift of int32 (the spec's
        # types are unsigned), an unknown direction, QuantizeLinear to a 16-bit zero point's
        # type, a per-axis scale of the wrong length, MaxPool of uint32.
        U8, U16, U32 = TensorProto.UINT8, TensorProto.UINT16, TensorProto.UINT32
        if kind == "int-shift-signed":
            return model([helper.make_node("BitShift", ["x", "s"], ["y"], name="shift",
                                           direction="LEFT")],
                         [vi("x", [4], TensorProto.INT32), vi("s", [4], TensorProto.INT32)],
                         [vi("y", [4], TensorProto.INT32)])
        if kind == "int-shift-direction":
            return model([helper.make_node("BitShift", ["x", "s"], ["y"], name="shift",
                                           direction="UP")],
                         [vi("x", [4], U8), vi("s", [4], U8)], [vi("y", [4], U8)])
        if kind == "int-quantize-u16":
            return model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q")],
                         [vi("x", [4])], [vi("y", [4], U16)],
                         [numpy_helper.from_array(np.float32(0.1), "s"),
                          numpy_helper.from_array(np.uint16(7), "z")])
        if kind == "int-dequantize-axis":
            return model([helper.make_node("DequantizeLinear", ["x", "s"], ["y"], name="dq",
                                           axis=1)],
                         [vi("x", [2, 3], U8)], [vi("y", [2, 3])],
                         [numpy_helper.from_array(np.ones(4, np.float32), "s")])
        return model([helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                                       kernel_shape=[2, 2])],
                     [vi("x", [1, 1, 4, 4], U32)], [vi("y", None, U32)])
    if kind.startswith("gridsample-"):
        # GridSample on a 5-D input (volumetric sampling), with an unknown mode.
        vol = kind == "gridsample-5d"
        attrs = {} if vol else {"mode": "area"}
        return model([helper.make_node("GridSample", ["x", "g"], ["y"], name="gs", **attrs)],
                     [vi("x", [1, 2, 3, 4, 5] if vol else [1, 2, 3, 4]),
                      vi("g", [1, 3, 4, 5, 3] if vol else [1, 3, 4, 2])], [vi("y", None)],
                     opset=16)
    if kind.startswith("gathernd-"):
        # GatherND with index tuples longer than the data's rank, batch dims that differ.
        batch = kind == "gathernd-batch"
        idx = vi("i", [2, 1] if batch else [2, 4], TensorProto.INT64)
        return model([helper.make_node("GatherND", ["x", "i"], ["y"], name="g",
                                       batch_dims=1 if batch else 0)],
                     [vi("x", [3, 4, 5]), idx], [vi("y", None)])
    if kind.startswith("topk-"):
        # TopK with k past the axis length, with k 0, with a run-time k.
        k = {"topk-long": 9, "topk-zero": 0}.get(kind)
        inputs = [vi("x", [3, 8])]
        inits = [] if k is None else [ints("k", np.array([k]))]
        if k is None:
            inputs.append(vi("k", [1], TensorProto.INT64))
        return model([helper.make_node("TopK", ["x", "k"], ["v", "i"], name="top")], inputs,
                     [vi("v", None), vi("i", None, TensorProto.INT64)], inits)
    if kind.startswith("nll-"):
        # NegativeLogLikelihoodLoss with a target of the wrong shape, weights of the wrong
        # length, an unknown reduction; SoftmaxCrossEntropyLoss on rank-1 scores.
        sce = kind == "nll-rank1"
        x = vi("x", [5] if sce else [4, 3, 2])
        t = vi("t", [5] if sce else [4, 3] if kind == "nll-target-shape" else [4, 2],
               TensorProto.INT64)
        inputs, names = [x, t], ["x", "t"]
        if kind == "nll-weight-shape":
            inputs.append(vi("w", [4]))
            names.append("w")
        attrs = {"reduction": "average"} if kind == "nll-reduction" else {}
        op = "SoftmaxCrossEntropyLoss" if sce else "NegativeLogLikelihoodLoss"
        return model([helper.make_node(op, names, ["y"], name="loss", **attrs)], inputs,
                     [vi("y", None)])
    if kind == "inf-range":
        f32 = lambda n, v: numpy_helper.from_array(np.array(v, np.float32), n)
        return model([helper.make_node("Range", ["a", "b", "d"], ["y"], name="range")],
                     [], [vi("y", None)], [f32("a", 0), f32("b", np.inf), f32("d", 1)])
    if kind == "min-div":
        # Constant folding on the host: INT64_MIN / -1 and 7 / 0.
        return model([helper.make_node("Div", ["a", "b"], ["q"], name="div"),
                      helper.make_node("Add", ["x", "q"], ["y"], name="add")],
                     [vi("x", [2], I64)], [vi("y", [2], I64)],
                     [ints("a", [-(1 << 63), 7]), ints("b", [-1, 0])])
    if kind == "float-sizes":
        # Found by fuzz-onnx: Resize sizes read from a float constant beyond int64's range.
        sizes = numpy_helper.from_array(np.array([1, 1, 1e30, 4], np.float32), "sizes")
        return model([helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="resize")],
                     [vi("x", [1, 1, 2, 2])], [vi("y", None)], [sizes])
    if kind == "lstm-w-shape":
        return recurrent("LSTM", w_shape=(1, 12, 3))
    if kind == "gru-hidden-size":
        return recurrent("GRU", hidden_size=5)
    if kind == "rnn-attrs":
        # Every unsupported attribute value of the node at once.
        return recurrent("RNN", direction="sideways", layout=2, activations=["Swish"], clip=-1.0)
    if kind == "lstm-activation-count":
        return recurrent("LSTM", direction="bidirectional", w_shape=(2, 16, 3),
                         r_shape=(2, 16, 4), activations=["Sigmoid", "Tanh"])
    if kind == "rnn-x-rank":
        return recurrent("RNN", x_shape=(4, 2, 3, 1))
    if kind == "rnn-r-rank":
        return recurrent("RNN", r_shape=(1, 4))
    if kind == "rnn-empty-hidden":
        return recurrent("RNN", w_shape=(1, 0, 3), r_shape=(1, 0, 0))
    if kind == "rnn-x-int":
        return recurrent("RNN", x_type=TensorProto.INT32)
    if kind == "gru-initial-h-shape":
        h0 = numpy_helper.from_array(np.zeros((1, 3, 4), np.float32), "h0")
        return recurrent("GRU", extra=["", "", "h0"], extra_inits=[h0])
    if kind == "rnn-bias-type":
        b = numpy_helper.from_array(np.zeros((1, 8), np.float64), "b")
        return recurrent("RNN", extra=["b"], extra_inits=[b])
    if kind == "rnn-lens-type":
        lens = numpy_helper.from_array(np.full(2, 4, np.float32), "lens")
        return recurrent("RNN", extra=["", "lens"], extra_inits=[lens])
    if kind == "rnn-lens-range":
        lens = numpy_helper.from_array(np.array([5, 2], np.int32), "lens")
        return recurrent("RNN", extra=["", "lens"], extra_inits=[lens])
    if kind == "lstm-dynamic-seq":
        return recurrent("LSTM", x_shape=("T", 2, 3))
    if kind == "mixed-element-types":
        # X is f64, W f32: ConvTranspose's type variable T binds both (found by fuzz-onnx: the
        # host transpose of W read it as f64, past its end).
        w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
        return model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up1",
                                       group=2, strides=[2, 2])],
                     [vi("x", [1, 4, 5, 16], TensorProto.DOUBLE)], [vi("y", None)], [w])
    if kind == "maxunpool-overflow":
        # (H - 1) * stride leaves int64: 2^20 rows, stride 2^40.
        shape = [1, 1, 1 << 20, 1]
        return model([helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="unpool",
                                       kernel_shape=[1, 1], strides=[1 << 40, 1])],
                     [vi("x", shape), vi("i", shape, I64)], [vi("y", None)], opset=11)
    if kind in ("maxunpool-3d", "maxunpool-index-shape", "maxunpool-output-shape",
                "maxunpool-huge"):
        shape = [1, 1, 2, 2, 2] if kind == "maxunpool-3d" else [1, 2, 3, 3]
        idx_shape = [1, 2, 3, 4] if kind == "maxunpool-index-shape" else shape
        k = 4096 if kind == "maxunpool-huge" else 2
        kernel = [k] * (len(shape) - 2)
        inits = [ints("os", [1, 2, 6])] if kind == "maxunpool-output-shape" else []
        return model([helper.make_node("MaxUnpool", ["x", "i"] + (["os"] if inits else []),
                                       ["y"], name="unpool", kernel_shape=kernel,
                                       strides=kernel)],
                     [vi("x", shape), vi("i", idx_shape, I64)], [vi("y", None)], inits,
                     opset=11)
    if kind in ("roialign-adaptive", "roialign-boxes", "roialign-mode", "roialign-scale"):
        attrs = {"sampling_ratio": 0 if kind == "roialign-adaptive" else 2}
        if kind == "roialign-scale":
            attrs["spatial_scale"] = float("nan")
        if kind == "roialign-mode":
            attrs["mode"] = "median"
        boxes = [3, 5] if kind == "roialign-boxes" else [3, 4]
        return model([helper.make_node("RoiAlign", ["x", "rois", "b"], ["y"], name="roi",
                                       **attrs)],
                     [vi("x", [1, 2, 8, 8]), vi("rois", boxes), vi("b", [3], I64)],
                     [vi("y", None)], opset=16)
    if kind == "resize-crop-roi":
        return model([helper.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], name="resize",
                                       mode="linear",
                                       coordinate_transformation_mode="tf_crop_and_resize")],
                     [vi("x", [1, 1, 4, 4]), vi("roi", [8])], [vi("y", None)],
                     [ints("sizes", [1, 1, 3, 3])])
    raise SystemExit("unknown kind " + kind)


if __name__ == "__main__":
    onnx.save(build(sys.argv[1]), sys.argv[2])
