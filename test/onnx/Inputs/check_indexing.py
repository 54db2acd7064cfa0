#!/usr/bin/env python3
"""One-node ONNX models of TopK (largest and smallest, ties, infinities, int32, k = n), GatherND
(slices, negative components, batch_dims 1, single elements), Compress (constant conditions,
with and without an axis), ReverseSequence (run-time lengths, time- and batch-major) and
ScatterElements/ScatterND (run-time data and updates, constant indices; none, add, mul),
compiled with tlc and run with tlc-run on fresh random inputs, every output compared exactly
with numpy (a stable argsort, ties to the lower index; the spec's loops; np.compress):
check_indexing.py --tlc T --tlc-run R --out DIR [--target T] [--emit-tl] prints `NAME: PASS`
or `NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
from tlc_check import Const, run_node_cases

RNG = np.random.default_rng(31)


def top_k(x, k, axis, largest):
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    idx = np.take(order, np.arange(k), axis=axis)
    return [np.take_along_axis(x, idx, axis=axis), idx.astype(np.int64)]


def gather_nd(data, idx, b):
    """The spec's loops: each index tuple (negative components from the end) picks a slice."""
    out = []
    batch_shape = data.shape[:b]
    for bpos in np.ndindex(*batch_shape):
        rows = idx[bpos]
        for m in np.ndindex(*rows.shape[:-1]):
            out.append(data[bpos][tuple(int(i) for i in rows[m])])
    k = idx.shape[-1]
    return np.array(out, data.dtype).reshape(idx.shape[:-1] + data.shape[b + k:])


def reverse_sequence(x, lens, time_axis):
    y = x.copy()
    for b, n in enumerate(lens):
        if time_axis == 0:
            y[:n, b] = x[:n, b][::-1]
        else:
            y[b, :n] = x[b, :n][::-1]
    return y


def scatter_elements(data, idx, upd, axis, reduction):
    out = data.copy()
    for pos in np.ndindex(*idx.shape):
        target = list(pos)
        target[axis] = int(idx[pos]) % data.shape[axis]
        t = tuple(target)
        out[t] = upd[pos] if reduction == "none" else \
            out[t] + upd[pos] if reduction == "add" else out[t] * upd[pos]
    return out


def scatter_nd(data, idx, upd, reduction):
    out = data.copy()
    for pos in np.ndindex(*idx.shape[:-1]):
        t = tuple(int(i) for i in idx[pos])
        out[t] = upd[pos] if reduction == "none" else out[t] + upd[pos]
    return out


def cases():
    """(op, attrs, inputs, expected outputs)."""
    # Few distinct values: many ties; infinities among them.
    x = RNG.integers(-3, 4, (3, 11, 4)).astype(np.float32)
    x[0, 2, 1] = x[1, 5, 3] = np.inf
    x[2, 7, 0] = x[2, 8, 0] = -np.inf
    yield "TopK", {"axis": 1}, [x, Const(np.array([5], np.int64))], top_k(x, 5, 1, True)
    yield "TopK", {"largest": 0}, [x, Const(np.array([3], np.int64))], top_k(x, 3, -1, False)
    # All of an axis (a sort), with -inf entries to be taken after the others.
    y = RNG.normal(0, 1, (4, 6)).astype(np.float32)
    y[1, :3] = -np.inf
    yield "TopK", {}, [y, Const(np.array([6], np.int64))], top_k(y, 6, -1, True)
    z = RNG.integers(-50, 50, (5, 9)).astype(np.int32)
    yield "TopK", {"axis": 0, "largest": 0}, [z, Const(np.array([2], np.int64))], \
        top_k(z, 2, 0, False)
    # GatherND: slices (k < rank) with negative components, batch_dims 1, single elements.
    d = RNG.normal(0, 1, (4, 5, 6)).astype(np.float32)
    i = np.stack([RNG.integers(-4, 4, (2, 3)), RNG.integers(-5, 5, (2, 3))], -1).astype(np.int64)
    yield "GatherND", {}, [d, i], [gather_nd(d, i, 0)]
    e = RNG.integers(-100, 100, (3, 4, 5, 2)).astype(np.int32)
    j = np.stack([RNG.integers(0, 4, (3, 2)), RNG.integers(-5, 5, (3, 2))], -1).astype(np.int32)
    yield "GatherND", {"batch_dims": 1}, [e, j], [gather_nd(e, j.astype(np.int64), 1)]
    f = RNG.normal(0, 1, (5, 7)).astype(np.float32)
    l = np.stack([RNG.integers(0, 5, 6), RNG.integers(0, 7, 6)], -1).astype(np.int64)
    yield "GatherND", {}, [f, l], [gather_nd(f, l, 0)]
    # Compress with a constant condition: shorter than the axis (the rest dropped), and with
    # no axis (the flattened input).
    c = RNG.normal(0, 1, (3, 7, 2)).astype(np.float32)
    cond = np.array([1, 0, 1, 1, 0], bool)
    yield "Compress", {"axis": 1}, [c, Const(cond)], [np.compress(cond, c, axis=1)]
    cond2 = RNG.random(42) < 0.4
    yield "Compress", {}, [c, Const(cond2)], [np.compress(cond2, c)]
    # ReverseSequence with run-time lengths (0 and the full length among them).
    r = RNG.normal(0, 1, (6, 4, 3)).astype(np.float32)
    lens = np.array([0, 6, 3, 1], np.int64)
    yield "ReverseSequence", {"time_axis": 0, "batch_axis": 1}, [r, lens], \
        [reverse_sequence(r, lens, 0)]
    q = RNG.integers(-9, 9, (3, 5)).astype(np.int32)
    qlens = np.array([5, 2, 4], np.int64)
    yield "ReverseSequence", {"time_axis": 1, "batch_axis": 0}, [q, qlens], \
        [reverse_sequence(q, qlens, 1)]
    # Scatters of run-time data and updates at constant indices: replacing (the last of two
    # writes to one element wins), adding (duplicates accumulate, two rounds), multiplying;
    # negative indices; ScatterND of rows.
    sd = RNG.normal(0, 1, (4, 6)).astype(np.float32)
    si = np.array([[0, 5, -1], [2, 2, 3], [1, 0, 0]], np.int64)
    su = RNG.normal(0, 1, (3, 3)).astype(np.float32)
    for red in ("none", "add", "mul"):
        yield "ScatterElements", {"axis": 1, "reduction": red}, [sd, Const(si), su], \
            [scatter_elements(sd, si, su, 1, red)]
    nd = RNG.integers(-20, 20, (5, 3, 2)).astype(np.int64)
    ni = np.array([[4], [0], [4]], np.int64)
    nu = RNG.integers(-20, 20, (3, 3, 2)).astype(np.int64)
    yield "ScatterND", {"reduction": "add"}, [nd, Const(ni), nu], [scatter_nd(nd, ni, nu, "add")]


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, cases(), lambda op: 16 if op.startswith("Scatter") else 13))
