#!/usr/bin/env python3
"""Builds one-node ONNX RNN, GRU and LSTM models over the attributes and optional inputs the
spec defines (directions, layouts, sequence_lens, initial states, peepholes, biases,
linear_before_reset, input_forget, clip, activations with alpha/beta), compiles each with tlc,
runs it with tlc-run on fresh random inputs and compares with a float64 numpy reference
written from the ONNX operator spec, one sequence at a time (so sequence_lens is checked
against its definition, not against tlc's masking):
check_recurrent.py --tlc T --tlc-run R --out DIR [--emit-tl NAME]. Prints `NAME: PASS` or
`NAME: FAIL ...` per model; with --emit-tl NAME, writes that model and prints tlc's
--emit=tl output instead (for FileCheck)."""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from tlc_check import compile_and_check

RNG = np.random.default_rng(2021)
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
# (alpha, beta) defaults of the activations that take them.
PARAMS = {"affine": (1.0, 0.0), "leakyrelu": (0.01, None), "thresholdedrelu": (1.0, None),
          "scaledtanh": (1.0, 1.0), "hardsigmoid": (0.2, 0.5), "elu": (1.0, None)}


def activation(name, alpha, beta):
    n = name.lower()
    return {
        "relu": lambda x: np.maximum(x, 0),
        "tanh": np.tanh,
        "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
        "affine": lambda x: alpha * x + beta,
        "leakyrelu": lambda x: np.where(x >= 0, x, alpha * x),
        "thresholdedrelu": lambda x: np.where(x > alpha, x, 0),
        "scaledtanh": lambda x: alpha * np.tanh(beta * x),
        "hardsigmoid": lambda x: np.clip(alpha * x + beta, 0, 1),
        "elu": lambda x: np.where(x >= 0, x, alpha * (np.exp(x) - 1)),
        "softsign": lambda x: x / (1 + np.abs(x)),
        "softplus": lambda x: np.log1p(np.exp(x)),
    }[n]


def activations(op, attrs, dirs):
    """Per direction, the activation functions; alphas/betas are consumed in order by the
    functions that take them."""
    names = list(attrs.get("activations", DEFAULT_ACTS[op]))
    if len(names) == len(DEFAULT_ACTS[op]) and dirs == 2:
        names = names * 2
    alphas = list(attrs.get("activation_alpha", []))
    betas = list(attrs.get("activation_beta", []))
    fns = []
    for n in names:
        alpha, beta = PARAMS.get(n.lower(), (None, None))
        if alpha is not None and alphas:
            alpha = alphas.pop(0)
        if beta is not None and betas:
            beta = betas.pop(0)
        fns.append(activation(n, alpha, beta))
    per = len(DEFAULT_ACTS[op])
    return [fns[d * per:(d + 1) * per] for d in range(dirs)]


def reference(op, attrs, X, W, R, B=None, lens=None, h0=None, c0=None, P=None):
    """Y, Y_h (and Y_c) by the spec's equations, in float64, one sequence at a time."""
    f64 = lambda a: None if a is None else a.astype(np.float64)
    X, W, R, B, h0, c0, P = map(f64, (X, W, R, B, h0, c0, P))
    layout = attrs.get("layout", 0)
    if layout:
        X = X.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    T, N, _ = X.shape
    D, H = W.shape[0], R.shape[2]
    clip = attrs.get("clip")
    cl = (lambda v: np.clip(v, -clip, clip)) if clip is not None else (lambda v: v)
    acts = activations(op, attrs, D)
    Y = np.zeros((T, D, N, H))
    Yh, Yc = np.zeros((D, N, H)), np.zeros((D, N, H))
    for d in range(D):
        reverse = attrs.get("direction") == "reverse" or d == 1
        g = GATES[op]
        wb = B[d, :g * H] if B is not None else np.zeros(g * H)
        rb = B[d, g * H:] if B is not None else np.zeros(g * H)
        for n in range(N):
            L = T if lens is None else int(lens[n])
            h = h0[d, n] if h0 is not None else np.zeros(H)
            c = c0[d, n] if c0 is not None else np.zeros(H)
            for t in (range(L - 1, -1, -1) if reverse else range(L)):
                x = X[t, n]
                if op == "RNN":
                    f = acts[d][0]
                    h = f(cl(W[d] @ x + R[d] @ h + wb + rb))
                elif op == "GRU":
                    f, gg = acts[d]
                    Wz, Wr, Wh = np.split(W[d], 3)
                    Rz, Rr, Rh = np.split(R[d], 3)
                    wbz, wbr, wbh = np.split(wb, 3)
                    rbz, rbr, rbh = np.split(rb, 3)
                    z = f(cl(Wz @ x + Rz @ h + wbz + rbz))
                    r = f(cl(Wr @ x + Rr @ h + wbr + rbr))
                    if attrs.get("linear_before_reset", 0):
                        ht = gg(cl(Wh @ x + r * (Rh @ h + rbh) + wbh))
                    else:
                        ht = gg(cl(Wh @ x + Rh @ (r * h) + rbh + wbh))
                    h = (1 - z) * ht + z * h
                else:
                    f, gg, hh = acts[d]
                    Wi, Wo, Wf, Wc = np.split(W[d], 4)
                    Ri, Ro, Rf, Rc = np.split(R[d], 4)
                    wbi, wbo, wbf, wbc = np.split(wb, 4)
                    rbi, rbo, rbf, rbc = np.split(rb, 4)
                    pi, po, pf = np.split(P[d], 3) if P is not None else (0, 0, 0)
                    i = f(cl(Wi @ x + Ri @ h + pi * c + wbi + rbi))
                    if attrs.get("input_forget", 0):
                        fg = 1 - i
                    else:
                        fg = f(cl(Wf @ x + Rf @ h + pf * c + wbf + rbf))
                    ct = gg(cl(Wc @ x + Rc @ h + wbc + rbc))
                    c = fg * c + i * ct
                    o = f(cl(Wo @ x + Ro @ h + po * c + wbo + rbo))
                    h = o * hh(c)
                Y[t, d, n] = h
            Yh[d, n], Yc[d, n] = h, c
    if layout:
        Y, Yh, Yc = Y.transpose(2, 0, 1, 3), Yh.transpose(1, 0, 2), Yc.transpose(1, 0, 2)
    return Y, Yh, Yc


class Const:
    """An input given as an initializer (a compile-time constant)."""

    def __init__(self, value):
        self.value = value


def case(name, op, T, N, I, H, attrs, bias=True, lens=None, lens_const=False, init=False,
         peep=False, outputs=(0, 1, 2), weights_const=True, scale=0.5):
    D = 2 if attrs.get("direction") == "bidirectional" else 1
    g = GATES[op]
    layout = attrs.get("layout", 0)
    f32 = lambda *s: RNG.uniform(-scale, scale, s).astype(np.float32)
    X = RNG.standard_normal((N, T, I) if layout else (T, N, I)).astype(np.float32)
    W, R = f32(D, g * H, I), f32(D, g * H, H)
    state = (N, D, H) if layout else (D, N, H)
    vals = {"X": X, "W": W, "R": R}
    if bias:
        vals["B"] = f32(D, 2 * g * H)
    if lens is not None:
        vals["sequence_lens"] = np.array(lens, np.int32)
    if init:
        vals["initial_h"] = RNG.standard_normal(state).astype(np.float32)
        if op == "LSTM":
            vals["initial_c"] = RNG.standard_normal(state).astype(np.float32)
    if peep:
        vals["P"] = f32(D, 3 * H)
    ref = reference(op, attrs, X, W, R, vals.get("B"), vals.get("sequence_lens"),
                    vals.get("initial_h"), vals.get("initial_c"), vals.get("P"))
    order = ["X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c", "P"]
    order = order[:8 if op == "LSTM" else 6]
    last = max(i for i, n in enumerate(order) if n in vals)
    node_inputs = [n if n in vals else "" for n in order[:last + 1]]
    out_names = ["Y", "Y_h", "Y_c"][:3 if op == "LSTM" else 2]
    node_outputs = [n if i in outputs else "" for i, n in enumerate(out_names)]
    while node_outputs[-1] == "":
        node_outputs.pop()
    const = {"W", "R", "B", "P"} if weights_const else set()
    if lens_const:
        const.add("sequence_lens")
    node = helper.make_node(op, node_inputs, node_outputs, name=name, hidden_size=H, **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, onnx.TensorProto.INT32 if n == "sequence_lens"
                                       else onnx.TensorProto.FLOAT, vals[n].shape)
         for n in order if n in vals and n not in const],
        [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, ref[i].shape)
         for i, n in enumerate(out_names) if node_outputs[i:i + 1] and node_outputs[i]],
        [numpy_helper.from_array(vals[n], n) for n in order if n in vals and n in const])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    inputs = [vals[n] for n in order if n in vals and n not in const]
    expected = [ref[i].astype(np.float32) for i in range(len(out_names))
                if node_outputs[i:i + 1] and node_outputs[i]]
    return name, model, inputs, expected


def cases():
    yield case("lstm_fwd_peep", "LSTM", 7, 3, 5, 4, {}, init=True, peep=True)
    yield case("lstm_bidi_lens_layout1", "LSTM", 6, 4, 3, 5,
               {"direction": "bidirectional", "layout": 1}, lens=[6, 2, 4, 1], init=True,
               peep=True)
    yield case("lstm_rev_clip_forget_acts", "LSTM", 5, 2, 4, 3,
               {"direction": "reverse", "clip": 0.7, "input_forget": 1,
                "activations": ["HardSigmoid", "Softsign", "ScaledTanh"],
                "activation_alpha": [0.3, 0.9], "activation_beta": [0.4, 1.3]}, scale=2.0)
    yield case("lstm_bidi_inputs_yh_only", "LSTM", 4, 2, 3, 4, {"direction": "bidirectional"},
               weights_const=False, outputs=(1,))
    yield case("gru_fwd", "GRU", 7, 3, 5, 4, {}, init=True)
    yield case("gru_bidi_lbr_lens_layout1", "GRU", 6, 3, 4, 5,
               {"direction": "bidirectional", "linear_before_reset": 1, "layout": 1},
               lens=[3, 6, 5], lens_const=True, init=True)
    yield case("gru_rev_acts_clip", "GRU", 5, 2, 3, 4,
               {"direction": "reverse", "clip": 1.5, "activations": ["LeakyRelu", "Elu"],
                "activation_alpha": [0.2, 0.8]}, scale=1.0)
    yield case("gru_lbr_nobias", "GRU", 4, 2, 3, 3, {"linear_before_reset": 1}, bias=False)
    yield case("rnn_tanh_lens", "RNN", 8, 4, 6, 5, {}, lens=[8, 3, 5, 0], init=True)
    yield case("rnn_bidi_layout1_acts", "RNN", 5, 3, 4, 4,
               {"direction": "bidirectional", "layout": 1,
                "activations": ["Affine", "Softplus"], "activation_alpha": [0.5],
                "activation_beta": [0.25]}, init=True)
    yield case("rnn_rev_relu_thresholded", "RNN", 5, 2, 4, 3,
               {"direction": "bidirectional",
                "activations": ["Relu", "ThresholdedRelu"], "activation_alpha": [0.1]})
    yield case("rnn_sigmoid_lens_all_full", "RNN", 3, 2, 2, 3, {"activations": ["Sigmoid"]},
               lens=[3, 3], lens_const=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--emit-tl", help="print this case's tl IR instead of checking all")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    status = 0
    for name, model, inputs, expected in cases():
        base = os.path.join(args.out, name)
        onnx.save(model, base + ".onnx")
        if args.emit_tl:
            if name == args.emit_tl:
                subprocess.run([args.tlc, base + ".onnx", "--emit=tl", "-o", "-"], check=True)
            continue
        status |= not compile_and_check(args.tlc, args.tlc_run, base, inputs, expected, 1e-5)
    return status


if __name__ == "__main__":
    sys.exit(main())
