#!/usr/bin/env python3
"""Writes the .npy and .pb tensor files tlc-run must refuse (or accept): make_tensor_files.py
PREFIX writes PREFIX.KIND.npy / PREFIX.KIND.pb."""
import sys

import numpy as np
from onnx import TensorProto

prefix = sys.argv[1]


def npy(name, header, data=b""):
    """A version 1.0 .npy file with `header` (padded as numpy pads it) and raw `data`."""
    h = header.encode()
    h += b" " * ((64 - (10 + len(h) + 1) % 64) % 64) + b"\n"
    with open("%s.%s.npy" % (prefix, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + data)


def shape_header(shape):
    return "{'descr': '<i4', 'fortran_order': False, 'shape': (%s), }" % shape


npy("bad-dim", shape_header("abc,"))
npy("huge-dim", shape_header("99999999999999999999,"))
npy("neg-dim", shape_header("-1,"))
npy("wrap-dim", shape_header("4611686018427387904, 4"))
npy("short", shape_header("2, 4"), np.zeros(3, np.int32).tobytes())
for name, dims in (("neg", [-3]), ("huge", [1 << 40, 1 << 40]), ("empty", [0])):
    t = TensorProto()
    t.data_type = TensorProto.INT32
    t.dims.extend(dims)
    with open("%s.%s.pb" % (prefix, name), "wb") as f:
        f.write(t.SerializeToString())
x = np.arange(8, dtype=np.int32)
np.save("%s.i32-2x4.npy" % prefix, x.reshape(2, 4))
np.save("%s.i32-4x2.npy" % prefix, x.reshape(4, 2))
np.save("%s.i32-2x4-doubled.npy" % prefix, 2 * x.reshape(2, 4))
