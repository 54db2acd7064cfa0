#!/usr/bin/env python3
"""Quantizes a float ONNX model to QDQ form as ONNX Runtime's static quantization tool does
(that tool is not installable here): every Conv, Gemm and MatMul reads its activation input
through QuantizeLinear -> DequantizeLinear (per tensor, uint8, asymmetric, the scale and zero
point from the activation's min and max over calibration inputs, widened to include 0) and its
weight through DequantizeLinear of an int8 initializer (per output channel, symmetric). The
calibration runs ONNX Runtime (ort_run.js, graph optimizations off) on a copy of the model
that also outputs every quantized activation.

  quantize_qdq.py MODEL.onnx OUT.onnx --calibrate N --work DIR [--seed S]

N calibration inputs are drawn like the float model's test input (standard normal), from seed
S; the float model's inputs must be float32."""
import argparse
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

ORT_RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                       "benchmarks", "peers", "ort", "ort_run.js")
# The activation input and the weight input (and its output-channel axis) per operator.
QUANTIZED = {"Conv": (0, 1, lambda node: 0),
             "Gemm": (0, 1, lambda node: 0 if trans_b(node) else 1),
             "MatMul": (0, 1, lambda node: 1)}


def trans_b(node):
    return any(a.name == "transB" and a.i for a in node.attribute)


def calibrate(model, names, inputs, work):
    """min and max of each tensor in `names` over the runs of `model` on each input set."""
    aug = onnx.ModelProto()
    aug.CopyFrom(model)
    for n in names:
        aug.graph.output.append(helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, None))
    path = os.path.join(work, "calibration.onnx")
    onnx.save(aug, path)
    ranges = {n: [np.inf, -np.inf] for n in names}
    for k, xs in enumerate(inputs):
        files = []
        for i, x in enumerate(xs):
            files.append(os.path.join(work, "calib%d.in%d.npy" % (k, i)))
            np.save(files[-1], x)
        out = os.path.join(work, "calib%d" % k)
        subprocess.run(["node", ORT_RUN, path, "disabled", out] + files, check=True,
                       stdout=subprocess.DEVNULL)
        for n in names:
            v = np.load(os.path.join(out, re.sub(r"[^A-Za-z0-9_.-]", "_", n) + ".npy"))
            ranges[n] = [min(ranges[n][0], float(v.min())), max(ranges[n][1], float(v.max()))]
    return ranges


def activation_qparams(lo, hi):
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    scale = np.float32((hi - lo) / 255.0) if hi > lo else np.float32(1.0)
    zero = np.uint8(np.clip(np.rint(-lo / scale), 0, 255))
    return scale, zero


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--calibrate", type=int, default=8)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    model = onnx.load(args.model)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    rng = np.random.default_rng(args.seed)
    shapes = [[d.dim_value for d in i.type.tensor_type.shape.dim] for i in graph.input
              if i.name not in inits]
    calib = [[rng.standard_normal(s).astype(np.float32) for s in shapes]
             for _ in range(args.calibrate)]
    targets = [n for n in graph.node if n.op_type in QUANTIZED]
    acts = sorted({n.input[QUANTIZED[n.op_type][0]] for n in targets} - set(inits))
    ranges = calibrate(model, acts, calib, args.work)

    new_inits, new_nodes, dq_of = [], [], {}
    for name in acts:
        scale, zero = activation_qparams(*ranges[name])
        s, z = name + "_scale", name + "_zero_point"
        new_inits += [numpy_helper.from_array(np.array(scale), s),
                      numpy_helper.from_array(np.array(zero), z)]
        new_nodes.append(helper.make_node("QuantizeLinear", [name, s, z], [name + "_q"],
                                          name=name + "_QuantizeLinear"))
        new_nodes.append(helper.make_node("DequantizeLinear", [name + "_q", s, z],
                                          [name + "_dq"], name=name + "_DequantizeLinear"))
        dq_of[name] = name + "_dq"
    for node in targets:
        a, w, axis_of = QUANTIZED[node.op_type]
        node.input[a] = dq_of.get(node.input[a], node.input[a])
        wname = node.input[w]
        if wname not in inits or wname + "_dq" in dq_of.values():
            continue
        weight = numpy_helper.to_array(inits[wname]).astype(np.float32)
        axis = axis_of(node)
        reduce = tuple(d for d in range(weight.ndim) if d != axis)
        amax = np.abs(weight).max(axis=reduce)
        scales = np.where(amax > 0, amax / 127.0, 1.0).astype(np.float32)
        shape = [1] * weight.ndim
        shape[axis] = -1
        q = np.clip(np.rint(weight / scales.reshape(shape)), -127, 127).astype(np.int8)
        new_inits += [numpy_helper.from_array(q, wname + "_quantized"),
                      numpy_helper.from_array(scales, wname + "_scale"),
                      numpy_helper.from_array(np.zeros(scales.shape, np.int8),
                                              wname + "_zero_point")]
        new_nodes.append(helper.make_node(
            "DequantizeLinear", [wname + "_quantized", wname + "_scale", wname + "_zero_point"],
            [wname + "_dq"], name=wname + "_DequantizeLinear", axis=axis))
        node.input[w] = wname + "_dq"
        dq_of[wname] = wname + "_dq"
    # Q/DQ nodes first (their inputs are graph inputs, initializers or earlier outputs), then
    # the graph in order: a stable topological order.
    order, produced = [], {i.name for i in graph.input} | set(inits) | \
        {t.name for t in new_inits}
    pending = new_nodes + list(graph.node)
    while pending:
        rest = []
        for n in pending:
            if all(i == "" or i in produced for i in n.input):
                order.append(n)
                produced.update(n.output)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            sys.exit("quantize_qdq.py: the graph has a cycle or an undefined input")
        pending = rest
    used = {i for n in order for i in n.input}
    del graph.node[:]
    graph.node.extend(order)
    kept = [t for t in graph.initializer if t.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept + new_inits)
    onnx.checker.check_model(model)
    onnx.save(model, args.out)
    print("%s: %d activations and %d weights quantized" %
          (args.out, len(acts), sum(1 for k in dq_of if k in inits)))


if __name__ == "__main__":
    main()
