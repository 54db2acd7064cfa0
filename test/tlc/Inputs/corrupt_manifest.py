"""Copies a shared library with one field of its NAME_manifest damaged (tlc-run must refuse it).

usage: corrupt_manifest.py KIND IN.so OUT.so
KIND: root (the root table's offset points past the buffer), prefix (the size prefix disagrees
with the symbol's size), vector (the input list's length is huge), misalign (the first input's
shape, an 8-byte vector, moved by 4 bytes: FlatBuffers 2.0.8's verifier accepts that, tlc-run must
not read it; found by fuzz-manifest). The manifest is found by its
file identifier "TLCM" (bytes 8..12 of the size-prefixed buffer), which must occur once.
"""
import struct
import sys

kind, src, dst = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
assert data.count(b"TLCM") == 1, "expected one manifest in the library"
start = data.find(b"TLCM") - 8
if kind == "root":
    data[start + 4:start + 8] = struct.pack("<I", 0x7FFFFFF0)
elif kind == "prefix":
    (size,) = struct.unpack_from("<I", data, start)
    data[start:start + 4] = struct.pack("<I", size + 8)
elif kind == "vector":
    # Model's vtable: field 5 (inputs) -> the vector's offset -> its length.
    table = start + 4 + struct.unpack_from("<I", data, start + 4)[0]
    vtable = table - struct.unpack_from("<i", data, table)[0]
    (field,) = struct.unpack_from("<H", data, vtable + 4 + 2 * 5)
    vector = table + field + struct.unpack_from("<I", data, table + field)[0]
    data[vector:vector + 4] = struct.pack("<I", 0x10000000)
elif kind == "misalign":
    def field(table, index):
        vtable = table - struct.unpack_from("<i", data, table)[0]
        return table + struct.unpack_from("<H", data, vtable + 4 + 2 * index)[0]
    def deref(at):
        return at + struct.unpack_from("<I", data, at)[0]
    model = start + 4 + struct.unpack_from("<I", data, start + 4)[0]
    tensor = deref(deref(field(model, 5)) + 4)  # inputs[0]
    shape_field = field(tensor, 2)
    vector = deref(shape_field)
    # The vector 4 bytes later: its length is the low half of the first dimension (4), its
    # elements lie 4 bytes off their alignment, still inside the buffer.
    data[shape_field:shape_field + 4] = struct.pack("<I", vector + 4 - shape_field)
else:
    sys.exit("unknown kind " + kind)
open(dst, "wb").write(data)
