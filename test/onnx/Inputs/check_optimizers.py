#!/usr/bin/env python3
"""One-node ONNX models of the ai.onnx.preview.training optimizers (Adagrad with decay and
regularization; Momentum standard and nesterov; Adam with both norm coefficients; two tensor
groups each; the step count T 0 and 3), compiled with tlc and run with tlc-run on fresh random
inputs, compared within 1e-5 with numpy in fp64 from the operator specifications:
check_optimizers.py --tlc T --tlc-run R --out DIR [--emit-tl] prints `NAME: PASS` or
`NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
from tlc_check import run_node_cases

RNG = np.random.default_rng(43)
D = "ai.onnx.preview.training::"


def tensors():
    shapes = [(3, 4), (5,)]
    return [RNG.normal(0, 1, s).astype(np.float32) for s in shapes]


def adagrad(r, t, x, g, h, decay, eps, norm):
    r = r / (1 + t * decay)
    gr = norm * x + g
    h_new = h + gr * gr
    return x - r * gr / (np.sqrt(h_new) + eps), h_new


def momentum(r, t, x, g, v, alpha, beta, norm, nesterov):
    gr = norm * x + g
    v_new = alpha * v + (beta if t > 0 else 1.0) * gr
    return (x - r * (gr + alpha * v_new) if nesterov else x - r * v_new), v_new


def adam(r, t, x, g, v, h, alpha, beta, eps, norm, post):
    gr = norm * x + g
    v_new = alpha * v + (1 - alpha) * gr
    h_new = beta * h + (1 - beta) * gr * gr
    ra = r * np.sqrt(1 - beta ** t) / (1 - alpha ** t) if t > 0 else r
    return (1 - post) * (x - ra * v_new / (np.sqrt(h_new) + eps)), v_new, h_new


def f64(*arrays):
    return [a.astype(np.float64) for a in arrays]


def cases():
    r = np.array(0.1, np.float32)
    for t in (np.array(0, np.int64), np.array(3, np.int64)):
        xs, gs, hs = tensors(), tensors(), [np.abs(a) for a in tensors()]
        outs = [adagrad(0.1, int(t), *f64(x, g, h), 0.1, 1e-6, 0.01) for x, g, h in zip(xs, gs, hs)]
        yield D + "Adagrad", {"decay_factor": 0.1, "norm_coefficient": 0.01}, \
            [r, t] + xs + gs + hs, [o[0] for o in outs] + [o[1] for o in outs]
        for nesterov in (False, True):
            xs, gs, vs = tensors(), tensors(), tensors()
            outs = [momentum(0.1, int(t), *f64(x, g, v), 0.9, 0.5, 0.02, nesterov)
                    for x, g, v in zip(xs, gs, vs)]
            yield D + "Momentum", {"alpha": 0.9, "beta": 0.5, "norm_coefficient": 0.02,
                                   "mode": "nesterov" if nesterov else "standard"}, \
                [r, t] + xs + gs + vs, [o[0] for o in outs] + [o[1] for o in outs]
        xs, gs, vs, hs = tensors(), tensors(), tensors(), [np.abs(a) for a in tensors()]
        outs = [adam(0.1, int(t), *f64(x, g, v, h), 0.9, 0.99, 1e-3, 0.01, 0.05)
                for x, g, v, h in zip(xs, gs, vs, hs)]
        yield D + "Adam", {"alpha": 0.9, "beta": 0.99, "epsilon": 1e-3, "norm_coefficient": 0.01,
                           "norm_coefficient_post": 0.05}, \
            [r, t] + xs + gs + vs + hs, [o[k] for k in range(3) for o in outs]


def float32(cases):
    for op, attrs, inputs, expected in cases:
        yield op, attrs, inputs, [e.astype(np.float32) for e in expected]


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, float32(cases()), 17, 1e-5))
