#!/usr/bin/python3
"""Writes a large graph, to check that compile time grows linearly with graph size.

  make_big_graph.py tl-concat N      a .tl concat of N computed operands (to stdout)
  make_big_graph.py tl-concat-inputs N  a .tl concat of N inputs
  make_big_graph.py tl-chain N       a .tl chain of N elementwise ops
  make_big_graph.py onnx-concat N OUT.onnx  an ONNX Concat of N computed operands
  make_big_graph.py onnx-chain N OUT.onnx   an ONNX chain of N elementwise nodes
  make_big_graph.py onnx-maxpool3d N OUT.onnx  a 3-D MaxPool over [1, 3, N, N, N]

The chains cycle through ops that keep values in a small range, so a numeric check of the
result means something after thousands of ops.
"""
import sys

CHAIN = ["tanh({p})", "{p} * 0.9", "{p} + 0.1", "relu({p})", "{p} - 0.05"]


def tl_concat(n, inputs):
    lines = []
    if inputs:
        lines += [f"input x{i} : f32[4, 8]" for i in range(n)]
        names = [f"x{i}" for i in range(n)]
    else:
        lines.append("input x : f32[4, 8]")
        lines += [f"a{i} = x * {1 + i / n:.6f}" for i in range(n)]
        names = [f"a{i}" for i in range(n)]
    lines.append(f"output y = concat({', '.join(names)}, axis=0)")
    return "\n".join(lines) + "\n"


def tl_chain(n):
    lines = ["input x : f32[16, 16]", "h0 = x"]
    for i in range(1, n + 1):
        lines.append(f"h{i} = " + CHAIN[i % len(CHAIN)].format(p=f"h{i - 1}"))
    lines.append(f"output y = h{n}")
    return "\n".join(lines) + "\n"


def onnx_model(kind, n):
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8])
    if kind == "concat":
        names = []
        for i in range(n):
            inits.append(numpy_helper.from_array(np.array(1 + i / n, np.float32), f"c{i}"))
            nodes.append(helper.make_node("Mul", ["x", f"c{i}"], [f"a{i}"], name=f"mul{i}"))
            names.append(f"a{i}")
        nodes.append(helper.make_node("Concat", names, ["y"], axis=0, name="concat"))
        shape = [4 * n, 8]
    else:
        inits.append(numpy_helper.from_array(np.array(0.9, np.float32), "k"))
        prev = "x"
        ops = ["Tanh", "Mul", "Relu", "Sigmoid"]
        for i in range(n):
            op = ops[i % len(ops)]
            out = "y" if i == n - 1 else f"h{i}"
            inputs = [prev, "k"] if op == "Mul" else [prev]
            nodes.append(helper.make_node(op, inputs, [out], name=f"n{i}"))
            prev = out
        shape = [4, 8]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)
    graph = helper.make_graph(nodes, "big", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def onnx_maxpool3d(n):
    """A 3-D MaxPool (kernel 2, stride 1) over [1, 3, n, n, n]: as two 2-D poolings, the
    second over planes of n - 1 rows of (n - 1)^2 elements."""
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, n, n, n])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3] + [n - 1] * 3)
    node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2, 2], name="pool")
    graph = helper.make_graph([node], "maxpool3d", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    if kind == "tl-concat":
        sys.stdout.write(tl_concat(n, inputs=False))
    elif kind == "tl-concat-inputs":
        sys.stdout.write(tl_concat(n, inputs=True))
    elif kind == "tl-chain":
        sys.stdout.write(tl_chain(n))
    elif kind in ("onnx-concat", "onnx-chain"):
        import onnx
        onnx.save(onnx_model(kind[5:], n), sys.argv[3])
    elif kind == "onnx-maxpool3d":
        import onnx
        onnx.save(onnx_maxpool3d(n), sys.argv[3])
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    main()
