#!/usr/bin/env python3
"""One-node ONNX models of If (a constant condition: one branch inlined; a run-time one: both
computed and selected), Loop (constant trip count with loop-carried values and scan outputs;
an early exit by a condition that folds; a body reading an outer value) and Scan (opset 9+
with reversed directions and a non-zero axis; opset 8's batch axis), compiled with tlc and run
with tlc-run on fresh random inputs, compared with numpy (the spec's loops):
check_control_flow.py --tlc T --tlc-run R --out DIR [--emit-tl] prints `NAME: PASS` or
`NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from tlc_check import Const, checker_args, compile_and_check

RNG = np.random.default_rng(5)
F = TensorProto.FLOAT


def graph(name, nodes, inputs, outputs, inits=()):
    return helper.make_graph(nodes, name, inputs, outputs, list(inits))


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def cases():
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    # If: then = x * 2, else = x - 1 (reading the outer x).
    then_g = graph("then", [helper.make_node("Mul", ["x0", "two"], ["t"])], [], [vi("t", F, [3, 4])],
                   [numpy_helper.from_array(np.float32(2), "two")])
    else_g = graph("else", [helper.make_node("Sub", ["x0", "one"], ["e"])], [], [vi("e", F, [3, 4])],
                   [numpy_helper.from_array(np.float32(1), "one")])
    branches = {"then_branch": then_g, "else_branch": else_g}
    yield "If", branches, ["c"], {"c": Const(np.array(True)), "x0": x}, [x * 2]
    yield "If", branches, ["c"], {"c": Const(np.array(False)), "x0": x}, [x - 1]
    for c in (True, False):
        yield "If", branches, ["c"], {"c": np.array(c), "x0": x}, [x * 2 if c else x - 1]

    # Loop, 5 iterations: y = y + x[i] (a row of the outer x), scan output of each y, and
    # the iteration number times 10 as a second scan output.
    xs = RNG.standard_normal((5, 4)).astype(np.float32)
    body = graph("body", [
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
        helper.make_node("Unsqueeze", ["i", "zero"], ["i1"]),
        helper.make_node("Gather", ["x2", "i"], ["row"], axis=0),
        helper.make_node("Add", ["y_in", "row"], ["y_out"]),
        helper.make_node("Identity", ["y_out"], ["scan_y"]),
        helper.make_node("Mul", ["i1", "ten"], ["scan_i"]),
    ], [vi("i", TensorProto.INT64, []), vi("cond_in", TensorProto.BOOL, []),
        vi("y_in", F, [4])],
        [vi("cond_out", TensorProto.BOOL, []), vi("y_out", F, [4]), vi("scan_y", F, [4]),
         vi("scan_i", TensorProto.INT64, [1])],
        [numpy_helper.from_array(np.array([0], np.int64), "zero"),
         numpy_helper.from_array(np.array(10, np.int64), "ten")])
    y0 = RNG.standard_normal(4).astype(np.float32)
    sums = np.empty((5, 4), np.float32)
    acc = y0
    for i in range(5):  # in order, as the loop adds
        acc = acc + xs[i]
        sums[i] = acc
    yield "Loop", {"body": body}, ["m", "c", "y"], \
        {"m": Const(np.array(5, np.int64)), "c": Const(np.array(True)), "y": y0, "x2": xs}, \
        [sums[-1], sums, (np.arange(5) * 10).reshape(5, 1).astype(np.int64)]

    # Loop without a trip count: runs while the counter (a loop-carried int64) stays below 3.
    count = graph("count", [
        helper.make_node("Add", ["k_in", "one"], ["k_out"]),
        helper.make_node("Less", ["k_out", "three"], ["cond_out"]),
        helper.make_node("Mul", ["v_in", "half"], ["v_out"]),
    ], [vi("i", TensorProto.INT64, []), vi("cond_in", TensorProto.BOOL, []),
        vi("k_in", TensorProto.INT64, []), vi("v_in", F, [3, 4])],
        [vi("cond_out", TensorProto.BOOL, []), vi("k_out", TensorProto.INT64, []),
         vi("v_out", F, [3, 4])],
        [numpy_helper.from_array(np.array(1, np.int64), "one"),
         numpy_helper.from_array(np.array(3, np.int64), "three"),
         numpy_helper.from_array(np.float32(0.5), "half")])
    yield "Loop", {"body": count}, ["", "c", "k", "v"], \
        {"c": Const(np.array(True)), "k": Const(np.array(0, np.int64)), "v": x}, \
        [np.array(3, np.int64), x * np.float32(0.125)]

    # Scan (opset 9+): a running max over axis 1 of a [3, 6] input, read backwards, the
    # per-step outputs stacked along axis 1, reversed.
    s = RNG.standard_normal((3, 6)).astype(np.float32)
    body = graph("scan", [
        helper.make_node("Max", ["m_in", "col"], ["m_out"]),
        helper.make_node("Identity", ["m_out"], ["per_step"]),
    ], [vi("m_in", F, [3]), vi("col", F, [3])], [vi("m_out", F, [3]), vi("per_step", F, [3])])
    m0 = np.full(3, -np.inf, np.float32)
    run = np.maximum.accumulate(s[:, ::-1], axis=1)
    yield "Scan", {"body": body, "num_scan_inputs": 1, "scan_input_axes": [1],
                   "scan_input_directions": [1], "scan_output_axes": [1],
                   "scan_output_directions": [1]}, ["m", "s"], {"m": m0, "s": s}, \
        [run[:, -1], run[:, ::-1]]


def main():
    import os
    import subprocess

    import onnx
    args = checker_args(__doc__)
    elem = {np.dtype(np.float32): F, np.dtype(np.int64): TensorProto.INT64,
            np.dtype(np.bool_): TensorProto.BOOL}
    status, seen = 0, {}
    for op, attrs, node_inputs, graph_inputs, expected in cases():
        seen[op] = seen.get(op, 0) + 1
        name = "%s%d" % (op.lower(), seen[op])
        outs = ["y%d" % i for i in range(len(expected))]
        inits = [numpy_helper.from_array(v.value, n) for n, v in graph_inputs.items()
                 if isinstance(v, Const)]
        runtime = [(n, v) for n, v in graph_inputs.items() if not isinstance(v, Const)]
        g = helper.make_graph(
            [helper.make_node(op, node_inputs, outs, name=name, **attrs)], name,
            [vi(n, elem[v.dtype], v.shape) for n, v in runtime],
            [vi(n, elem[e.dtype], e.shape) for n, e in zip(outs, expected)], inits)
        base = os.path.join(args.out, name)
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]),
                  base + ".onnx")
        if args.emit_tl:
            print(name + ":", flush=True)
            print(subprocess.run([args.tlc, base + ".onnx", "--emit=tl", "-o", "-"], check=True,
                                 capture_output=True, text=True).stdout, flush=True)
            continue
        status |= not compile_and_check(args.tlc, args.tlc_run, base, [v for _, v in runtime],
                                        expected, 0.0)
    return status


if __name__ == "__main__":
    sys.exit(main())
