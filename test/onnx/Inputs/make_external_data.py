#!/usr/bin/python3
"""Writes a model whose tensors are stored as ONNX external data (what exporters write for
models over 2 GiB) into the folder DIR: DIR/model.onnx (y = relu(x @ W + b), W and b in
DIR/weights.bin, a Constant node's value in DIR/scale.bin), x.npy and the expected y.npy;
and broken copies: missing.onnx (its file is absent), short.onnx (a tensor past the file's
end), escape.onnx (a location outside the folder)."""
import copy
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)
w = rng.standard_normal((16, 24)).astype(np.float32)
b = rng.standard_normal(24).astype(np.float32)
scale = np.float32(0.5) * np.ones(24, np.float32)
x = rng.standard_normal((3, 16)).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("Constant", [], ["s"], value=numpy_helper.from_array(scale, "s_value")),
     helper.make_node("MatMul", ["x", "W"], ["xw"]),
     helper.make_node("Add", ["xw", "b"], ["z"]),
     helper.make_node("Mul", ["z", "s"], ["zs"]),
     helper.make_node("Relu", ["zs"], ["y"])],
    "external",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 16])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 24])],
    [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "b")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def external(tensor, location, offset, data):
    """Stores `data` (bytes) as `tensor`'s external data at `offset` of `location`."""
    tensor.ClearField("raw_data")
    tensor.ClearField("float_data")
    tensor.data_location = TensorProto.EXTERNAL
    del tensor.external_data[:]
    for k, v in (("location", location), ("offset", str(offset)), ("length", str(len(data)))):
        entry = tensor.external_data.add()
        entry.key, entry.value = k, v


# W and b in one file (b after 64 bytes of padding), the Constant's value in its own.
blob = w.tobytes() + bytes(64) + b.tobytes()
with open(os.path.join(out, "weights.bin"), "wb") as f:
    f.write(blob)
with open(os.path.join(out, "scale.bin"), "wb") as f:
    f.write(scale.tobytes())
external(model.graph.initializer[0], "weights.bin", 0, w.tobytes())
external(model.graph.initializer[1], "weights.bin", w.nbytes + 64, b.tobytes())
external(model.graph.node[0].attribute[0].t, "scale.bin", 0, scale.tobytes())
onnx.save(model, os.path.join(out, "model.onnx"))
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), np.maximum((x @ w + b) * scale, 0).astype(np.float32))

missing = copy.deepcopy(model)
missing.graph.initializer[1].external_data[0].value = "absent.bin"
onnx.save(missing, os.path.join(out, "missing.onnx"))
short = copy.deepcopy(model)
short.graph.initializer[1].external_data[1].value = str(len(blob) - 8)
onnx.save(short, os.path.join(out, "short.onnx"))
escape = copy.deepcopy(model)
escape.graph.initializer[0].external_data[0].value = "../weights.bin"
onnx.save(escape, os.path.join(out, "escape.onnx"))
