#!/usr/bin/python3
"""tlc benchmark harness: tlc vs oneDNN vs PyTorch vs numpy vs ONNX Runtime, same machine, same run.

  bench.py --tlc TLC --runtime-lib LIBTLCRT.a --include RUNTIME_INCLUDE
           [--dnnl-bench bench-dnnl] [--peak-bench bench-peak] [--threads 1,2] [--repeats 15]
           [--only matmul_1024,...] [--frameworks tlc,onednn,torch,numpy,ort] [--cpu native]
           [--out DIR] [--max-foreign 0.25] [--retries 2] [--quick]

For every case and thread count it times each framework in its own process (so thread variables
take effect before the libraries load): warm-up calls for at least WARMUP_SECONDS (so the
second core and the clocks are up and every pool is running: a single call left 2-thread runs of
sub-millisecond ops at their 1-thread time), then --repeats timed calls; it reports
the median with min/max, GFLOP/s or GB/s, the fraction of the machine's ceiling (the FMA peak and
STREAM-like bandwidth, measured by bench-peak in the same run, the bandwidth at the case's working
set size), and tlc's speed relative to the best competitor (> 1: tlc is faster). It also records
tlc's compile time per graph.

Foreign load: each measurement reads /proc/stat around the child process and subtracts the child's
own CPU time (getrusage of children); the rest is CPU used by other processes (plus steal) in cores. A run
with more than --max-foreign cores of foreign load is retried up to --retries times; if all tries
are contaminated the least loaded one is kept and flagged with `!` in the table and
"contaminated": true in the JSON. Load that /proc/stat does not show (another VM on the same
physical cores, presumably: 2-thread runs of every framework ran at their 1-thread speed with no
foreign load counted) is
meant to be caught by a probe: a short bench-peak FMA run at the case's thread count right before
and after each run, recorded as "available" (share of the session's FMA ceiling) in the JSON; with
--min-available > 0 a run whose probe is below it is treated the same way. Off by default: on an
idle machine one 2-thread probe run alone varies from 0.71 to 1.0 of the ceiling (a new thread
starts out on its creator's core), so it flags good runs too.

Threads: tlc via TLC_NUM_THREADS; oneDNN via OMP_NUM_THREADS; PyTorch via torch.set_num_threads
and OPENBLAS_NUM_THREADS/OMP_NUM_THREADS (its matmuls go to OpenBLAS, which ignores
set_num_threads; Debian's libopenblas0-openmp shares the OpenMP pool); numpy via
OPENBLAS_NUM_THREADS/OMP_NUM_THREADS; ONNX Runtime (the cases that come in through ONNX: the
convolutions, the CNNs, the encoder) through Node.js and the pinned npm package
onnxruntime-node (benchmarks/peers/ort, installed by scripts/setup.sh) with intra-op threads =
the thread count and all graph optimizations, its times including the Node.js call. Where Node.js
or the package is missing the ort column says why. The BLAS each Python process actually loaded
(and ONNX Runtime's version) is recorded.

Writes OUT/bench.md, OUT/bench.json and, when matplotlib is available, OUT/bench.png.
--quick runs tiny sizes at 1 thread with 3 repeats (the CI smoke test).
"""

import argparse
import json
import os
import platform
import resource
import statistics
import shutil
import subprocess
import sys
import tempfile
import time

# Every framework's timing child warms up for at least this long before its timed calls (tlc's
# harness, bench-dnnl's --warmup-seconds, the Python workers).
WARMUP_SECONDS = 0.05

# ----------------------------------------------------------------------------------------------
# Cases


def _mm(n, quick):
    n = 64 if quick else n
    return {"name": "matmul_%d" % n if not quick else "matmul_q", "label": "matmul %d^3" % n,
            "kind": "flops", "work": 2.0 * n ** 3,
            "tl": 'input a : f32[%d, %d]\ninput b : f32[%d, %d]\noutput c = einsum("ij,jk->ik", a, b)\n'
                  % (n, n, n, n),
            "inputs": [(n, n), (n, n)], "outputs": [(n, n)],
            "dnnl": ["matmul", n, n, n], "py": ("matmul", [n, n, n])}


def _mm_bf16(n, quick):
    """matmul at --precision=bf16 (operands rounded to bf16, f32 accumulation and result);
    peers: oneDNN's bf16 matmul, PyTorch's CPU bf16 autocast."""
    case = _mm(n, quick)
    case.update({"name": case["name"] + "_bf16", "label": case["label"] + " bf16",
                 "tlc_flags": ["--precision=bf16"], "dnnl": ["matmul_bf16", n, n, n],
                 "py": ("matmul_bf16", [n, n, n])})
    if quick:
        case["dnnl"] = ["matmul_bf16", 64, 64, 64]
        case["py"] = ("matmul_bf16", [64, 64, 64])
    return case


def cases(quick):
    q = quick
    m = 4096 if q else 1 << 20
    sr, sc = (64, 64) if q else (1024, 1024)
    gr, gc = (64, 128) if q else (4096, 1024)
    lm, lk, ln = (32, 64, 128) if q else (2048, 768, 3072)
    nr, nc = (64, 96) if q else (2048, 768)
    out = ([_mm(1000, q), _mm(1024, q), _mm(2048, q), _mm_bf16(1024, q), _mm_bf16(2048, q)]
           if not q else [_mm(64, q), _mm_bf16(64, q)])
    out += [
        {"name": "add_1M", "label": "add %d" % m, "kind": "bytes", "work": 12.0 * m,
         "tl": "input a : f32[%d]\ninput b : f32[%d]\noutput c = a + b\n" % (m, m),
         "inputs": [(m,), (m,)], "outputs": [(m,)], "dnnl": ["add", m], "py": ("add", [m])},
        {"name": "sum_1M", "label": "sum %d" % m, "kind": "bytes", "work": 4.0 * m,
         "tl": "input a : f32[%d]\noutput s = sum(a)\n" % m,
         "inputs": [(m,)], "outputs": [()], "dnnl": ["sum", m], "py": ("sum", [m])},
        {"name": "softmax", "label": "softmax %dx%d" % (sr, sc), "kind": "bytes",
         "work": 8.0 * sr * sc,
         "tl": "input x : f32[%d, %d]\noutput y = softmax(x, axis=-1)\n" % (sr, sc),
         "inputs": [(sr, sc)], "outputs": [(sr, sc)], "dnnl": ["softmax", sr, sc],
         "py": ("softmax", [sr, sc])},
        {"name": "gelu_tanh", "label": "gelu tanh %dx%d" % (gr, gc), "kind": "bytes",
         "work": 8.0 * gr * gc,
         "tl": 'input x : f32[%d, %d]\noutput y = gelu(x, approximate="tanh")\n' % (gr, gc),
         "inputs": [(gr, gc)], "outputs": [(gr, gc)], "dnnl": ["gelu", gr, gc, "tanh"],
         "py": ("gelu_tanh", [gr, gc])},
        {"name": "gelu_erf", "label": "gelu erf %dx%d" % (gr, gc), "kind": "bytes",
         "work": 8.0 * gr * gc,
         "tl": 'input x : f32[%d, %d]\noutput y = gelu(x, approximate="none")\n' % (gr, gc),
         "inputs": [(gr, gc)], "outputs": [(gr, gc)], "dnnl": ["gelu", gr, gc, "erf"],
         "py": ("gelu_erf", [gr, gc])},
        {"name": "linear_gelu", "label": "linear+gelu %dx%dx%d" % (lm, lk, ln), "kind": "flops",
         "work": 2.0 * lm * lk * ln,
         "tl": ("input x : f32[%d, %d]\ninput w : f32[%d, %d]\ninput b : f32[%d]\n"
                'output y = gelu(einsum("ij,jk->ik", x, w) + b, approximate="tanh")\n'
                % (lm, lk, lk, ln, ln)),
         "inputs": [(lm, lk), (lk, ln), (ln,)], "outputs": [(lm, ln)],
         "dnnl": ["linear_gelu", lm, lk, ln, "tanh"], "py": ("linear_gelu", [lm, lk, ln])},
        {"name": "layernorm", "label": "layernorm %dx%d" % (nr, nc), "kind": "bytes",
         "work": 8.0 * nr * nc,
         "tl": ("input x : f32[%d, %d]\ninput g : f32[%d]\ninput b : f32[%d]\n"
                "mu = mean(x, axes=[-1], keepdims=true)\nd = x - mu\n"
                "var = mean(d * d, axes=[-1], keepdims=true)\n"
                "output y = d * rsqrt(var + 1e-5) * g + b\n" % (nr, nc, nc, nc)),
         "inputs": [(nr, nc), (nc,), (nc,)], "outputs": [(nr, nc)],
         "dnnl": ["layernorm", nr, nc], "py": ("layernorm", [nr, nc])},
    ]
    # Convolutions and whole CNNs come in through ONNX (exported from PyTorch in a child process).
    convs = [(1, 64, 56, 56, 64, 3, 1, 1), (8, 3, 224, 224, 64, 7, 2, 3)] if not q else \
        [(1, 8, 16, 16, 8, 3, 1, 1)]
    for n, c, h, w, f, k, st, pad in convs:
        oh, ow = (h + 2 * pad - k) // st + 1, (w + 2 * pad - k) // st + 1
        dims = [n, c, h, w, f, k, st, pad]
        out.append({"name": "conv2d_%dx%dx%dx%d_k%ds%d" % (n, c, h, w, k, st),
                    "label": "conv2d %dx%dx%dx%d, %d %dx%d s%d pad %d" % (n, c, h, w, f, k, k, st, pad),
                    "kind": "flops", "work": 2.0 * n * f * oh * ow * c * k * k,
                    "onnx": {"kind": "conv2d", "dims": dims},
                    "inputs": [(n, c, h, w)], "outputs": [(n, f, oh, ow)],
                    "dnnl": ["conv2d"] + dims, "py": ("conv2d", dims)})
    if not q:
        # Work: multiply-adds x 2 of the convolutions and linear layers (torchvision's counts).
        for model, gflop in (("resnet18", 3.64), ("mobilenet_v2", 0.60)):
            out.append({"name": model, "label": "%s 1x3x224x224" % model, "kind": "flops",
                        "work": gflop * 1e9, "onnx": {"kind": "model", "name": model},
                        "inputs": [(1, 3, 224, 224)], "outputs": [(1, 1000)],
                        "py": (model, [1, 3, 224, 224])})
        # The QDQ-quantized resnet18 (test/onnx/models/quantize_qdq.py: int8 per-channel
        # weights, uint8 activations calibrated on 4 inputs) on tlc's int8 path; ONNX Runtime
        # runs the same QDQ model (its int8 kernels). Compare with the fp32 resnet18 row.
        out.append({"name": "resnet18_qdq", "label": "resnet18 QDQ int8 1x3x224x224",
                    "kind": "flops", "work": 3.64e9,
                    "onnx": {"kind": "model_qdq", "name": "resnet18"},
                    "inputs": [(1, 3, 224, 224)], "outputs": [(1, 1000)],
                    "tlc_flags": ["--int8-contractions"]})
    out += [_attention(q), _encoder(q), _train_mlp(q)]
    if not q:
        out += [_bf16(c) for c in out if c["name"] in ("resnet18", "mobilenet_v2", "encoder")]
    out += [_train_transformer(q, 6, "none"), _train_transformer(q, 12, "none"),
            _train_transformer(q, 12, "auto"), _train_resnet18(q), _optimizer_update(q)]
    out += _einsums(q)
    return out


# n-ary einsums (tl-plan-einsum-paths): op -> (equation, operand shapes) from dims.
def einsum_problem(op, dims):
    if op == "einsum_chain":  # dims: n, matrices
        n, k = dims
        labels = "abcdefghij"[:k + 1]
        eq = ",".join(labels[i:i + 2] for i in range(k)) + "->" + labels[0] + labels[k]
        return eq, [(n, n)] * k
    if op == "einsum_mps":  # dims: bond, physical, sites; boundary vectors on both ends
        bond, phys, sites = dims
        bonds, physical = "abcdefghijklm"[:sites + 1], "pqrstuvwxyz"[:sites]
        terms = [bonds[0]] + [bonds[i] + physical[i] + bonds[i + 1] for i in range(sites)] + \
            [bonds[sites]]
        return ",".join(terms) + "->" + physical, [(bond,)] + [(bond, phys, bond)] * sites + \
            [(bond,)]
    if op == "einsum_bilinear":  # dims: batch, n
        b, n = dims
        return "bi,ij,bj->b", [(b, n), (n, n), (b, n)]
    if op == "einsum_ttn":  # dims: bond, physical; a binary tree over 8 sites, all amplitudes
        bond, phys = dims
        sites, leaf_bonds, mid_bonds, top_bonds = "pqrstuvw", "abcdefgh", "ijkl", "mn"
        terms = [sites[i] + leaf_bonds[i] for i in range(8)]
        terms += [leaf_bonds[2 * i] + leaf_bonds[2 * i + 1] + mid_bonds[i] for i in range(4)]
        terms += [mid_bonds[2 * i] + mid_bonds[2 * i + 1] + top_bonds[i] for i in range(2)]
        terms.append(top_bonds)
        shapes = [(phys, bond)] * 8 + [(bond, bond, bond)] * 6 + [(bond, bond)]
        return ",".join(terms) + "->" + sites, shapes
    return None


def numpy_path_mode(op):
    """numpy.einsum_path's search for a case: 'optimal' is exhaustive (factorial in the operand
    count), so the 15-operand tree tensor network takes numpy's 'greedy' (as opt_einsum's)."""
    return "greedy" if op == "einsum_ttn" else "optimal"


def along_path(eq, tensors, path, einsum):
    """`eq` contracted pairwise in the order `path` (numpy.einsum_path's list), each step by
    `einsum`: what torch.einsum does when opt_einsum is installed (it is not here, and
    left to right the tree tensor network's leaves alone make a 4^8 * 64^8 product)."""
    lhs, out = eq.split("->")
    terms, ops = lhs.split(","), list(tensors)
    for step in path[1:]:
        picked = sorted(step, reverse=True)
        pair = [(terms.pop(i), ops.pop(i)) for i in picked]
        rest = "".join(terms) + out
        keep = "".join(dict.fromkeys(c for t, _ in pair for c in t if c in rest))
        terms.append(keep)
        ops.append(einsum("%s,%s->%s" % (pair[0][0], pair[1][0], keep), pair[0][1], pair[1][1]))
    return einsum("%s->%s" % (terms[0], out), ops[0])


def optimal_flops(eq, shapes, mode="optimal"):
    """FLOPs of numpy's path (the work of an einsum case, for its GFLOP/s)."""
    import numpy as np
    _, text = np.einsum_path(eq, *[np.empty(s, np.float32) for s in shapes], optimize=mode)
    return float(text.split("Optimized FLOP count:")[1].split()[0])


def _einsum_case(name, label, op, dims):
    eq, shapes = einsum_problem(op, dims)
    flops = optimal_flops(eq, shapes, numpy_path_mode(op))
    names = ["x%d" % i for i in range(len(shapes))]
    tl = "".join("input %s : f32[%s]\n" % (v, ", ".join(map(str, s))) for v, s in zip(names, shapes))
    tl += 'output y = einsum("%s", %s)\n' % (eq, ", ".join(names))
    lhs, rhs = eq.split("->")
    sizes = {l: d for t, s in zip(lhs.split(","), shapes) for l, d in zip(t, s)}
    return {"name": name, "label": label + " " + eq, "kind": "flops", "work": flops,
            "tl": tl, "inputs": shapes, "outputs": [tuple(sizes[l] for l in rhs)],
            "py": (op, dims)}


def _einsums(quick):
    n = 64 if quick else 1024
    bond, sites = (8, 4) if quick else (64, 8)
    out = [_einsum_case("einsum_chain3", "matrix chain %d" % n, "einsum_chain", [n, 3]),
           _einsum_case("einsum_chain4", "matrix chain %d" % n, "einsum_chain", [n, 4]),
           # --quick: 4 sites (with bond 8 and 8 sites numpy's 'optimal' search, bounded only
           # by the largest operand, explores paths for minutes).
           _einsum_case("einsum_mps", "MPS bond %d phys 4, %d sites" % (bond, sites),
                        "einsum_mps", [bond, 4, sites]),
           _einsum_case("einsum_bilinear", "bilinear form", "einsum_bilinear",
                        [64 if quick else 512, n]),
           _einsum_case("einsum_ttn", "tree tensor network, 8 sites, bond %d phys 4"
                        % (8 if quick else 64), "einsum_ttn", [8 if quick else 64, 4])]
    # The floor: the 3-chain as two matmuls written out (the same work; numpy and torch run
    # their matmuls), so tlc's path compares with tlc's own GEMMs.
    chain = dict(out[0])
    chain.update(name="einsum_chain3_2mm", label="two chained matmuls %d" % n,
                 py=("matmul_chain", [n, 3]),
                 tl=("input x0 : f32[%d, %d]\ninput x1 : f32[%d, %d]\ninput x2 : f32[%d, %d]\n"
                     't = einsum("ab,bc->ac", x0, x1)\noutput y = einsum("ac,cd->ad", t, x2)\n'
                     % ((n,) * 6)))
    return out + [chain]


def _attention(quick):
    """softmax(q k^T / sqrt(D)) v over [B, H, S, D]: tlc's tl.attention (flash attention) vs
    PyTorch's standard formulation and oneDNN's matmul + softmax + matmul."""
    b, h, s, d = (1, 2, 64, 16) if quick else (4, 8, 1024, 64)
    shape = (b, h, s, d)
    return {"name": "attention", "label": "attention b%d h%d s%d d%d" % shape, "kind": "flops",
            "work": 4.0 * b * h * s * s * d,
            "tl": ("input q : f32[%d, %d, %d, %d]\ninput k : f32[%d, %d, %d, %d]\n"
                   "input v : f32[%d, %d, %d, %d]\noutput o = attention(q, k, v)\n" % (shape * 3)),
            "inputs": [shape] * 3, "outputs": [shape], "dnnl": ["attention", b, h, s, d],
            "py": ("attention", list(shape))}


def _train_mlp(quick):
    """One AdamW training step of an MLP classifier (784-512-512-10, ReLU, cross-entropy) at
    batch 64: tlc's NAME_train_step (the state updated in place) vs PyTorch eager (zero_grad,
    forward, backward, optimizer.step). dims: batch, input, hidden, classes."""
    dims = [8, 32, 32, 4] if quick else [64, 784, 512, 10]
    b, i, h, c = dims
    tl = ("input x : f32[%d, %d]\ninput labels : i64[%d]\n"
          "param w1 : f32[%d, %d] = randn(seed=1, std=0.05)\nparam b1 : f32[%d] = zeros()\n"
          "param w2 : f32[%d, %d] = randn(seed=2, std=0.05)\nparam b2 : f32[%d] = zeros()\n"
          "param w3 : f32[%d, %d] = randn(seed=3, std=0.05)\nparam b3 : f32[%d] = zeros()\n"
          'h1 = relu(einsum("bi,ij->bj", x, w1) + b1)\n'
          'h2 = relu(einsum("bi,ij->bj", h1, w2) + b2)\n'
          'loss = cross_entropy(einsum("bi,ij->bj", h2, w3) + b3, labels)\n'
          "output loss\ntrain loss with adamw(weight_decay=0.01)\n"
          % (b, i, b, i, h, h, h, h, h, h, c, c))
    # Forward multiply-adds x 2, times 3 for the backward's two products per layer.
    work = 3 * 2.0 * b * (i * h + h * h + h * c)
    return {"name": "train_mlp", "label": "train step MLP %d-%d-%d-%d b%d (AdamW)" % (i, h, h, c, b),
            "kind": "flops", "work": work, "tl": tl, "train": True, "classes": c,
            "inputs": [(b, i), (b,)], "outputs": [()], "py": ("train_mlp", dims)}


def _optimizer_update(quick):
    """The AdamW update of 10M parameters, as a train step whose loss is sum(w * x): the
    gradient is x, so the step is the update plus one streaming pass. It must move 36 bytes
    per parameter: the forward reads w and x (8), the update reads w, x, exp_avg, exp_avg_sq and
    writes the three next values (28, the figure of the issue: fp32 AdamW moves 28 bytes per
    parameter); the work counts those 36. tlc fuses the update into one loop nest and writes
    the state in place (NAME_train_step; tlc-alias-state-outputs). PyTorch: zero_grad,
    forward, backward, AdamW.step (torch 1.13: a loop over the one parameter) on the same
    problem."""
    n = 1 << 14 if quick else 10 * 1000 * 1000
    tl = ("input x : f32[%d]\nparam w : f32[%d] = zeros()\nloss = sum(w * x)\noutput loss\n"
          "train loss with adamw(weight_decay=0.01)\n" % (n, n))
    return {"name": "optimizer_adamw", "label": "AdamW update %dM params (train step of sum(w x))"
            % (n // 1000000), "kind": "bytes", "work": 36.0 * n, "tl": tl, "train": True,
            "inputs": [(n,)], "outputs": [()], "py": ("optimizer_adamw", [n])}


def _train_resnet18(quick):
    """One AdamW training step of torchvision's resnet18 (10 classes, batch norm on the batch's
    statistics) at batch 8 x 3 x 64 x 64: the ONNX file exported for training, compiled with
    `tlc --train --loss=cross_entropy --optimizer=adamw` (its initializers become the trained
    params), timed through NAME_train_step; PyTorch eager trains the same module in train mode.
    Work: the convolutions' and the linear layer's multiply-adds x 2 at 64x64 (torchvision's
    3.64 GFLOP at 224x224, scaled by the pixel count), x 3 for forward and backward."""
    b, hw, c = (2, 32, 10) if quick else (8, 64, 10)
    return {"name": "train_resnet18", "label": "train step resnet18 b%d 3x%dx%d (AdamW, ONNX --train)"
            % (b, hw, hw), "kind": "flops", "work": 3 * b * 3.64e9 * (hw / 224.0) ** 2,
            "onnx": {"kind": "model_train", "name": "resnet18", "dims": [b, 3, hw, hw],
                     "classes": c},
            "train": True, "classes": c, "extra_outputs": [("logits", b * c)], "ort": False,
            "tlc_flags": ["--train", "--loss=cross_entropy", "--optimizer=adamw(weight_decay=0.01)"],
            "inputs": [(b, 3, hw, hw), (b,)], "outputs": [()],
            "py": ("train_resnet18", [b, 3, hw, hw, c])}


def _train_transformer(quick, layers, remat):
    """One AdamW training step of a pre-norm transformer encoder (causal attention, GELU MLP,
    token classification head, cross-entropy; benchmarks/models/gen_transformer_train.py) at
    batch 8 x 128 tokens, width 256, 4 heads: tlc's NAME_train_step with --remat=REMAT vs
    PyTorch eager (F.layer_norm, explicit causal attention, no checkpointing). dims: layers,
    batch, sequence, width, heads, classes."""
    sys.path.insert(0, os.path.join(HERE, "models"))
    import gen_transformer_train
    dims = [2, 2, 16, 32, 2, 8] if quick else [layers, 8, 128, 256, 4, 16]
    n, b, t, d, h, c = dims
    # Per token: the four projections (12 d^2 multiply-adds), attention (2 t d, half masked
    # but computed), the head; x 2 FLOPs, x 3 for forward + backward.
    work = 3 * 2.0 * b * t * (n * (12 * d * d + 2 * t * d) + d * c)
    return {"name": "train_transformer%d%s" % (n, "" if remat == "none" else "_remat_" + remat),
            "label": "train step transformer %dL d%d b%dx%d (AdamW, --remat=%s)"
                     % (n, d, b, t, remat),
            "kind": "flops", "work": work, "tl": gen_transformer_train.program(n, b, t, d, h, c),
            "train": True, "classes": c, "tlc_flags": ["--remat=" + remat],
            "inputs": [(b, t, d), (b * t,)], "outputs": [()], "py": ("train_transformer", dims)}


def _bf16(case):
    """`case` at --precision=bf16 (a `_bf16` row beside the fp32 one); peer: PyTorch's CPU bf16
    autocast. ONNX Runtime has no bf16 CPU kernels for these models: no ORT column."""
    out = dict(case, name=case["name"] + "_bf16", label=case["label"] + " bf16",
               tlc_flags=case.get("tlc_flags", []) + ["--precision=bf16"], ort=False)
    out.pop("dnnl", None)
    if "py" in case:
        out["py"] = (case["py"][0] + "_autocast", case["py"][1])
    return out


def _encoder(quick):
    """torch.nn.TransformerEncoder (post-norm, ReLU, eval) through ONNX vs PyTorch eager.
    dims: layers, d_model, heads, feed-forward width, sequence, batch."""
    dims = [1, 64, 2, 128, 16, 1] if quick else [6, 512, 8, 2048, 128, 1]
    layers, dm, heads, ff, seq, batch = dims
    # Multiply-adds x 2 of the projections, the feed-forward and the two attention matmuls.
    work = layers * batch * (2.0 * seq * dm * dm * 4 + 2.0 * seq * dm * ff * 2 + 4.0 * seq * seq * dm)
    return {"name": "encoder", "label": "transformer encoder %dx(d%d h%d ff%d) s%d b%d" % tuple(dims),
            "kind": "flops", "work": work, "onnx": {"kind": "encoder", "dims": dims},
            "inputs": [(seq, batch, dm)], "outputs": [(seq, batch, dm)],
            "py": ("encoder", dims)}


def encoder_module(dims):
    """The encoder of the `encoder` case (seed 0; batch_first=False keeps PyTorch 1.13 off its
    fused fast path, so eager runs the same graph the exporter sees)."""
    import torch
    layers, dm, heads, ff, seq, batch = dims
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=dm, nhead=heads, dim_feedforward=ff,
                                             dropout=0.1, batch_first=False)
    enc = torch.nn.TransformerEncoder(layer, num_layers=layers, enable_nested_tensor=False)
    return enc.eval(), torch.randn(seq, batch, dm)


# Suites of the issue that cannot run here; listed so the report shows the gap.
PENDING = []


def export_onnx(spec, path):
    """Writes the ONNX file of a conv2d case or a torchvision model (random weights, seed 0)."""
    import torch
    torch.manual_seed(0)
    if spec["kind"] == "encoder":
        module, x = encoder_module(spec["dims"])
    elif spec["kind"] == "conv2d":
        n, c, h, w, f, k, st, pad = spec["dims"]
        module = torch.nn.Conv2d(c, f, k, stride=st, padding=pad, bias=False)
        x = torch.randn(n, c, h, w)
    elif spec["kind"] == "model_train":
        # Exported for training: an eval-mode export folds batch norm into the convolutions.
        import torchvision
        module = getattr(torchvision.models, spec["name"])(num_classes=spec["classes"])
        torch.onnx.export(module, torch.randn(*spec["dims"]), path, opset_version=13,
                          input_names=["x"], output_names=["logits"],
                          training=torch.onnx.TrainingMode.TRAINING, do_constant_folding=False)
        return
    else:
        import torchvision
        module = getattr(torchvision.models, spec["name"])()
        x = torch.randn(1, 3, 224, 224)
    module.eval()
    if spec["kind"] != "model_qdq":
        torch.onnx.export(module, x, path, opset_version=13, input_names=["x"],
                          output_names=["y"])
        return
    # QDQ: the float model quantized as ONNX Runtime's static quantization tool does.
    with tempfile.TemporaryDirectory() as tmp:
        float_path = os.path.join(tmp, "float.onnx")
        torch.onnx.export(module, x, float_path, opset_version=13, input_names=["x"],
                          output_names=["y"])
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "..", "test", "onnx", "models",
                                                          "quantize_qdq.py"),
                        float_path, path, "--calibrate", "4", "--work", tmp], check=True,
                       stdout=subprocess.DEVNULL)

# ----------------------------------------------------------------------------------------------
# Python workers (torch, numpy): run in a child process with the thread variables already set.


def py_worker(framework, op, dims, threads, repeats):
    import numpy as np
    rng = np.random.default_rng(0)

    def rnd(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    if framework == "torch":
        import torch
        import torch.nn.functional as F
        torch.set_num_threads(threads)
        torch.set_grad_enabled(False)
        t = lambda *s: torch.from_numpy(rnd(*s))  # noqa: E731
        autocast = op.endswith("_autocast")  # the case's model under bf16 autocast
        if autocast:
            op = op[:-len("_autocast")]
        if op == "matmul":
            n = dims[0]
            a, b, c = t(n, n), t(n, n), torch.empty(n, n)
            fn = lambda: torch.matmul(a, b, out=c)  # noqa: E731
        elif op == "train_mlp":
            torch.set_grad_enabled(True)
            bsz, i, h, c = dims
            torch.manual_seed(0)
            model = torch.nn.Sequential(torch.nn.Linear(i, h), torch.nn.ReLU(), torch.nn.Linear(h, h),
                                        torch.nn.ReLU(), torch.nn.Linear(h, c))
            opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
            x, y = t(bsz, i), torch.from_numpy(rng.integers(0, c, bsz))

            def fn():
                opt.zero_grad()
                F.cross_entropy(model(x), y).backward()
                opt.step()
        elif op == "optimizer_adamw":
            torch.set_grad_enabled(True)
            w = torch.nn.Parameter(torch.zeros(dims[0]))
            x = t(dims[0])
            opt = torch.optim.AdamW([w], lr=1e-3, weight_decay=0.01)

            def fn():
                opt.zero_grad()
                (w * x).sum().backward()
                opt.step()
        elif op == "train_transformer":
            torch.set_grad_enabled(True)
            layers, bsz, seq, d, heads, c = dims
            hd = d // heads
            torch.manual_seed(0)
            ps = []
            for _ in range(layers):
                ps.append([torch.nn.Parameter(torch.randn(*s) * s[0] ** -0.5)
                           for s in ((d, 3 * d), (d, d), (d, 4 * d), (4 * d, d))] +
                          [torch.nn.Parameter(torch.ones(d)), torch.nn.Parameter(torch.ones(d))])
            head = torch.nn.Parameter(torch.randn(d, c) * d ** -0.5)
            params = [p for layer in ps for p in layer] + [head]
            opt = torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01)
            x, y = t(bsz, seq, d), torch.from_numpy(rng.integers(0, c, bsz * seq))
            causal = torch.ones(seq, seq, dtype=torch.bool).triu(1)

            def forward():
                hcur = x
                for wqkv, wo, w1, w2, ga, gb in ps:
                    n = F.layer_norm(hcur, (d,), weight=ga, eps=1e-5)
                    q, k, v = (n @ wqkv).reshape(bsz, seq, 3, heads, hd).permute(2, 0, 3, 1, 4)
                    s = (q @ k.transpose(-1, -2)) * hd ** -0.5
                    a = torch.softmax(s.masked_fill(causal, float("-inf")), -1) @ v
                    r = hcur + a.transpose(1, 2).reshape(bsz, seq, d) @ wo
                    hcur = r + F.gelu(F.layer_norm(r, (d,), weight=gb, eps=1e-5) @ w1) @ w2
                return F.cross_entropy(hcur.reshape(bsz * seq, d) @ head, y)

            def fn():
                opt.zero_grad()
                forward().backward()
                opt.step()
        elif op == "train_resnet18":
            import torchvision
            torch.set_grad_enabled(True)
            bsz, ch, hgt, wid, c = dims
            torch.manual_seed(0)
            model = torchvision.models.resnet18(num_classes=c).train()
            opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
            x = t(bsz, ch, hgt, wid)
            y = torch.tensor([(i * 2654435761) % c for i in range(bsz)])

            def fn():
                opt.zero_grad()
                F.cross_entropy(model(x), y).backward()
                opt.step()
        elif op == "matmul_bf16":
            n = dims[0]
            a, b = t(n, n), t(n, n)

            def fn():
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    return torch.matmul(a, b)
        elif op == "add":
            a, b, c = t(dims[0]), t(dims[0]), torch.empty(dims[0])
            fn = lambda: torch.add(a, b, out=c)  # noqa: E731
        elif op == "sum":
            a = t(dims[0])
            fn = lambda: torch.sum(a)  # noqa: E731
        elif op == "softmax":
            x = t(*dims)
            fn = lambda: torch.softmax(x, -1)  # noqa: E731
        elif op in ("gelu_tanh", "gelu_erf"):
            x = t(*dims)
            approx = "tanh" if op == "gelu_tanh" else "none"
            fn = lambda: F.gelu(x, approximate=approx)  # noqa: E731
        elif op == "linear_gelu":
            m, k, n = dims
            x, w, b = t(m, k), t(k, n), t(n)
            fn = lambda: F.gelu(torch.addmm(b, x, w), approximate="tanh")  # noqa: E731
        elif op == "layernorm":
            x, g, b = t(*dims), t(dims[1]), t(dims[1])
            fn = lambda: F.layer_norm(x, (dims[1],), g, b, 1e-5)  # noqa: E731
        elif op == "conv2d":
            n, c, h, w, f, k, st, pad = dims
            x, wt = t(n, c, h, w), t(f, c, k, k)
            fn = lambda: F.conv2d(x, wt, stride=st, padding=pad)  # noqa: E731
        elif op == "attention":
            q, k, v = t(*dims), t(*dims), t(*dims)
            scale = 1.0 / dims[3] ** 0.5
            fn = lambda: torch.softmax(q @ k.transpose(-2, -1) * scale, dim=-1) @ v  # noqa: E731
        elif op == "encoder":
            model, x = encoder_module(dims)
            fn = lambda: model(x)  # noqa: E731
        elif einsum_problem(op, dims):
            eq, shapes = einsum_problem(op, dims)
            ts = [t(*sh) for sh in shapes]
            fn = lambda: torch.einsum(eq, *ts)  # noqa: E731
            if op == "einsum_ttn":
                import numpy as np
                path = np.einsum_path(eq, *[np.empty(sh, np.float32) for sh in shapes],
                                      optimize="greedy")[0]
                fn = lambda: along_path(eq, ts, path, torch.einsum)  # noqa: E731
        elif op == "matmul_chain":
            n, k = dims
            ms = [t(n, n) for _ in range(k)]
            fn = lambda: torch.linalg.multi_dot(ms)  # noqa: E731
        elif op in ("resnet18", "mobilenet_v2"):
            import torchvision
            model = getattr(torchvision.models, op)().eval()
            x = t(*dims)
            fn = lambda: model(x)  # noqa: E731
        else:
            return None
        if autocast:
            plain = fn

            def fn():
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    return plain()
    else:
        if op == "matmul":
            n = dims[0]
            a, b, c = rnd(n, n), rnd(n, n), np.empty((n, n), np.float32)
            fn = lambda: np.matmul(a, b, out=c)  # noqa: E731
        elif op == "add":
            a, b, c = rnd(dims[0]), rnd(dims[0]), np.empty(dims[0], np.float32)
            fn = lambda: np.add(a, b, out=c)  # noqa: E731
        elif op == "sum":
            a = rnd(dims[0])
            fn = lambda: a.sum()  # noqa: E731
        elif op == "softmax":
            x = rnd(*dims)

            def fn():
                e = np.exp(x - x.max(axis=-1, keepdims=True))
                e /= e.sum(axis=-1, keepdims=True)
                return e
        elif op == "gelu_tanh":
            x = rnd(*dims)
            fn = lambda: 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))  # noqa: E731
        elif op == "linear_gelu":
            m, k, n = dims
            x, w, b = rnd(m, k), rnd(k, n), rnd(n)

            def fn():
                h = x @ w + b
                return 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))
        elif op == "attention":
            q, k, v = rnd(*dims), rnd(*dims), rnd(*dims)
            scale = np.float32(1.0 / np.sqrt(dims[3]))

            def fn():
                sc = np.matmul(q, k.transpose(0, 1, 3, 2)) * scale
                sc -= sc.max(axis=-1, keepdims=True)
                np.exp(sc, out=sc)
                sc /= sc.sum(axis=-1, keepdims=True)
                return np.matmul(sc, v)
        elif op == "layernorm":
            x, g, b = rnd(*dims), rnd(dims[1]), rnd(dims[1])

            def fn():
                mu = x.mean(-1, keepdims=True)
                d = x - mu
                return d / np.sqrt((d * d).mean(-1, keepdims=True) + 1e-5) * g + b
        elif einsum_problem(op, dims):
            eq, shapes = einsum_problem(op, dims)
            arrays = [rnd(*sh) for sh in shapes]
            mode = numpy_path_mode(op)
            if mode != "optimal":
                # The greedy path computed once, outside the timed calls.
                mode = np.einsum_path(eq, *arrays, optimize=mode)[0]
            fn = lambda: np.einsum(eq, *arrays, optimize=mode)  # noqa: E731
        elif op == "matmul_chain":
            n, k = dims
            ms = [rnd(n, n) for _ in range(k)]
            fn = lambda: np.linalg.multi_dot(ms)  # noqa: E731
        else:
            return None  # e.g. numpy has no erf
    w0 = time.perf_counter()
    fn()
    while time.perf_counter() - w0 < WARMUP_SECONDS:
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


def loaded_blas():
    """The BLAS/OpenMP shared objects this process mapped (after importing numpy/torch)."""
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                base = os.path.basename(path)
                if any(k in base for k in ("blas", "gomp", "libomp", "mkl", "dnnl")):
                    libs.add(path)
    except OSError:
        pass
    return sorted(libs)


# ----------------------------------------------------------------------------------------------
# Measurement with foreign-load accounting

CLK = os.sysconf("SC_CLK_TCK")


def cpu_busy_seconds():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal ...: everything but idle and iowait is busy;
    # steal (another VM on our cores) counts as foreign load too.
    return (sum(v[:8]) - v[3] - v[4]) / CLK


def children_cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(cmd, env):
    """Runs cmd; returns (stdout, wall seconds, foreign load in cores)."""
    own0, busy0, t0 = children_cpu_seconds(), cpu_busy_seconds(), time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall, busy1, own1 = time.perf_counter() - t0, cpu_busy_seconds(), children_cpu_seconds()
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(map(str, cmd)), p.returncode,
                                                   p.stderr[-500:]))
    foreign = max(0.0, (busy1 - busy0) - (own1 - own0)) / wall
    return p.stdout, wall, foreign


def timed(cmd, env, args, parse=lambda out: [float(v) for v in out.split()], probe=None):
    """Runs a timing child (prints one time per line) with retries under foreign load.
    `parse` turns the child's output into times, or None when the case does not apply.
    `probe()`, when given, returns the share of the FMA ceiling the machine delivers at the run's
    thread count; it runs before and after the child, and a run with either below
    --min-available is treated like one under foreign load (contention /proc/stat cannot see)."""
    tries = []
    for attempt in range(args.retries + 1):
        before = probe() if probe else None
        out, wall, foreign = measure(cmd, env)
        times = parse(out)
        if times is None:
            return None
        available = min(before, probe()) if probe else None
        contaminated = foreign > args.max_foreign or (
            available is not None and available < args.min_available)
        tries.append((contaminated, foreign, times, available))
        if not contaminated:
            break
        time.sleep(1.0)
    contaminated, foreign, times, available = min(tries, key=lambda t: (t[0], t[1]))
    r = {"times": times, "foreign_cores": round(foreign, 3), "tries": len(tries),
         "contaminated": contaminated}
    if available is not None:
        r["available"] = round(available, 3)
    return r


def thread_env(threads):
    env = dict(os.environ)
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TLC_NUM_THREADS"):
        env[k] = str(threads)
    return env


# ----------------------------------------------------------------------------------------------
# tlc

# benchmarks/: harness.h, the helpers every generated harness includes.
HERE = os.path.dirname(os.path.abspath(__file__))

HARNESS = r"""/* Generated by bench.py: times NAME_run. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <tlc/runtime.h>
#include "NAME.h"
#include "harness.h"


int main(int argc, char **argv) {
  int repeats = argc > 1 ? atoi(argv[1]) : 20;
  DECLS
  void *ws = NULL;
  tlc_status st = tlc_workspace_alloc(NULL, NAME_UPPER_WORKSPACE_SIZE, &ws);
  /* Warm-up: calls for at least WARMUP_SECONDS s (at least one). */
  for (double w0 = now(); st == TLC_STATUS_OK;) {
    st = NAME_run(ARGS, ws);
    if (now() - w0 >= WARMUP_SECONDS) break;
  }
  if (st != TLC_STATUS_OK) { fprintf(stderr, "NAME_run: %s\n", tlc_status_string(st)); return 1; }
  for (int r = 0; r < repeats; ++r) {
    double t0 = now();
    st = NAME_run(ARGS, ws);
    double t1 = now();
    if (st != TLC_STATUS_OK) { fprintf(stderr, "NAME_run: %s\n", tlc_status_string(st)); return 1; }
    printf("%.9f\n", t1 - t0);
  }
  tlc_workspace_free(NULL, ws);
  return 0;
}
"""


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def case_onnx(case, work):
    """The ONNX file of a case that comes in through ONNX (exported once into `work`)."""
    path = os.path.join(work, "b_" + case["name"] + ".onnx")
    if not os.path.exists(path):
        subprocess.run(["/usr/bin/python3", os.path.abspath(__file__), "--export-onnx",
                        json.dumps(case["onnx"]), "--out", path], check=True,
                       stdout=subprocess.DEVNULL)
    return path


# ONNX Runtime (CPU) through Node.js: benchmarks/peers/ort (onnxruntime-node, pinned;
# scripts/setup.sh installs it).
ORT_DIR = os.path.join(HERE, "peers", "ort")


def ort_missing():
    """Why the ONNX Runtime peer cannot run here, or None."""
    if not shutil.which("node"):
        return "no Node.js (node) on PATH: run scripts/setup.sh"
    if not os.path.exists(os.path.join(ORT_DIR, "node_modules", "onnxruntime-node")):
        return "onnxruntime-node is not installed in %s: run scripts/setup.sh" % ORT_DIR
    return None


def ort_command(model, threads, repeats, shapes):
    return ["node", os.path.join(ORT_DIR, "ort_bench.js"), model, str(threads), str(repeats),
            repr(WARMUP_SECONDS), json.dumps([list(s) for s in shapes])]


# Labels spread over the classes, as the PyTorch worker's: one class for all would drive the
# other classes' probabilities into denormals within a few steps (slow on x86).
LABELS_DECL = r"""int64_t *labels = calloc(NAME_UPPER_TRAIN_INPUT_LABELS_NUMEL, sizeof(int64_t));
  if (!labels) { fprintf(stderr, "allocation failed\n"); return 1; }
  for (int i = 0; i < NAME_UPPER_TRAIN_INPUT_LABELS_NUMEL; ++i)
    labels[i] = (int64_t)((i * 2654435761u) % NCLASSES);"""

TRAIN_HARNESS = r"""/* Generated by bench.py: times NAME_train_step (inputs x, labels). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tlc/runtime.h>
#include "NAME.h"
#include "harness.h"


int main(int argc, char **argv) {
  int repeats = argc > 1 ? atoi(argv[1]) : 20;
  float *x = buffer(sizeof(float) * NAME_UPPER_TRAIN_INPUT_X_NUMEL, 1), loss = 0;
  LABELS_DECL
  EXTRA_DECLS
  void *state = NULL, *ws = NULL;
  tlc_status st = tlc_workspace_alloc(NULL, NAME_UPPER_STATE_SIZE, &state);
  if (st == TLC_STATUS_OK)
    st = tlc_workspace_alloc(NULL, NAME_UPPER_TRAIN_WORKSPACE_SIZE, &ws);
  if (st != TLC_STATUS_OK) { fprintf(stderr, "allocation failed\n"); return 1; }
  NAME_init_state(state);
  int64_t step = 1;
  for (double w0 = now(); st == TLC_STATUS_OK;) {
    st = NAME_train_step(state, TRAIN_ARGS, 1e-3f, step++, &lossEXTRA_ARGS, ws);
    if (now() - w0 >= WARMUP_SECONDS) break;
  }
  if (st != TLC_STATUS_OK) { fprintf(stderr, "NAME_train_step: %s\n", tlc_status_string(st)); return 1; }
  for (int r = 0; r < repeats; ++r) {
    double t0 = now();
    st = NAME_train_step(state, TRAIN_ARGS, 1e-3f, step++, &lossEXTRA_ARGS, ws);
    double t1 = now();
    if (st != TLC_STATUS_OK) { fprintf(stderr, "NAME_train_step: %s\n", tlc_status_string(st)); return 1; }
    printf("%.9f\n", t1 - t0);
  }
  return 0;
}
"""


def header_define(path, macro):
    """The integer value of `#define MACRO N` in a generated header, or None."""
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "#define" and parts[1] == macro:
                return int(parts[2])
    return None


def build_tlc(case, args, work):
    name = "b_" + case["name"]
    if "onnx" in case:
        tl = case_onnx(case, work)
    else:
        tl = os.path.join(work, name + ".tl")
        with open(tl, "w") as f:
            f.write(case["tl"])
    obj, hdr = os.path.join(work, name + ".o"), os.path.join(work, name + ".h")
    cmd = [args.tlc, tl, "-o", obj, "--header", hdr, "--name", name] + (
        ["--cpu", args.cpu] if args.cpu else []) + case.get("tlc_flags", [])
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    compile_s = time.perf_counter() - t0
    bufs = ["in%d" % i for i in range(len(case["inputs"]))] + \
           ["out%d" % i for i in range(len(case["outputs"]))]
    shapes = case["inputs"] + case["outputs"]
    decls = " ".join("float *%s = buffer(sizeof(float) * %d, %d);" % (b, numel(s), b[0] == "i")
                     for b, s in zip(bufs, shapes))
    labels = case.get("classes") is not None
    src = ((TRAIN_HARNESS if case.get("train") else HARNESS).replace("WARMUP_SECONDS", repr(WARMUP_SECONDS))
           .replace("LABELS_DECL", LABELS_DECL if labels else "")
           .replace("TRAIN_ARGS", "x, labels" if labels else "x")
           .replace("NCLASSES", str(case.get("classes", 2)))
           .replace("EXTRA_DECLS", " ".join("float *%s = buffer(sizeof(float) * %d, 0);" % o
                                            for o in case.get("extra_outputs", [])))
           .replace("EXTRA_ARGS", "".join(", " + o for o, _ in case.get("extra_outputs", [])))
           .replace("DECLS", decls).replace("ARGS", ", ".join(bufs))
           .replace("NAME_UPPER", name.upper()).replace("NAME", name))
    c = os.path.join(work, name + "_main.c")
    with open(c, "w") as f:
        f.write(src)
    exe = os.path.join(work, name)
    subprocess.run([args.cc, "-O2", "-I", args.include, "-I", work, "-I", HERE, c, obj,
                    args.runtime_lib, "-o", exe, "-lm", "-lpthread"], check=True)
    return exe, compile_s


# ----------------------------------------------------------------------------------------------
# Report


def stats(times):
    return {"median": statistics.median(times), "min": min(times), "max": max(times),
            "n": len(times)}


def machine_info():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    return {"cpu": model, "cores": os.cpu_count(), "platform": platform.platform(),
            "loadavg_start": load}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlc", help="the tlc binary (build/bin/tlc); required")
    ap.add_argument("--runtime-lib", help="libtlcrt.a (build/runtime/libtlcrt.a); required")
    ap.add_argument("--include", help="the runtime's include folder (runtime/include); required")
    ap.add_argument("--dnnl-bench", help="bench-dnnl (oneDNN cases); skipped when absent")
    ap.add_argument("--peak-bench", help="bench-peak (FMA peak, bandwidth); needed for fractions")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--frameworks", default="tlc,onednn,torch,numpy,ort",
                    help="ort: ONNX Runtime, for the cases that come in through ONNX")
    ap.add_argument("--cpu", default="native", help="tlc --cpu (default: native)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--out", default="bench-results")
    ap.add_argument("--max-foreign", type=float, default=0.25,
                    help="foreign load (cores) above which a run is retried / flagged")
    ap.add_argument("--min-available", type=float, default=0.0,
                    help="share of the FMA ceiling a probe right before and after a run must "
                         "reach, else the run is retried / flagged (default 0: only recorded)")
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="tiny sizes, 1 thread, 3 repeats (CI)")
    ap.add_argument("--fail-on-error", action="store_true",
                    help="exit 1 when any framework's run failed (or its peer is missing)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--op", help=argparse.SUPPRESS)
    ap.add_argument("--dims", help=argparse.SUPPRESS)
    ap.add_argument("--export-onnx", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.export_onnx:  # child process: write one ONNX case to --out
        export_onnx(json.loads(args.export_onnx), args.out)
        return 0

    if args.worker:  # child process: time one Python case, print the times (and libraries)
        times = py_worker(args.worker, args.op, [int(d) for d in args.dims.split(",")],
                          int(os.environ.get("OMP_NUM_THREADS", "1")), args.repeats)
        if times is None:
            print("n/a")
        else:
            print("\n".join("%.9f" % t for t in times))
        print("# " + " ".join(loaded_blas()))
        return 0

    missing = [flag for flag in ("tlc", "runtime_lib", "include") if not getattr(args, flag)]
    if missing:  # the child modes above do without them
        ap.error("missing " + ", ".join("--" + m.replace("_", "-") for m in missing))
    for attr in ("tlc", "runtime_lib", "include", "dnnl_bench", "peak_bench"):
        if getattr(args, attr):
            setattr(args, attr, os.path.abspath(getattr(args, attr)))
    if args.quick:
        args.threads, args.repeats, args.retries = "1", 3, 0
    threads = [int(t) for t in args.threads.split(",")]
    frameworks = args.frameworks.split(",")
    all_cases = [c for c in cases(args.quick)
                 if not args.only or c["name"] in args.only.split(",")]
    os.makedirs(args.out, exist_ok=True)
    info = machine_info()
    results = {"machine": info, "config": {"threads": threads, "repeats": args.repeats,
                                           "tlc_cpu": args.cpu, "max_foreign": args.max_foreign,
                                           "min_available": args.min_available},
               "peak": {}, "cases": []}

    # Machine ceilings: the best of several runs, retried like the cases under foreign load (a
    # ceiling measured under load would inflate every fraction of peak).
    ceilings = {}

    def ceiling(cmd, t):
        r = timed(cmd, thread_env(t), args)
        return max(r["times"]), statistics.median(r["times"]), r

    if args.peak_bench:
        for t in threads:
            best, med, r = ceiling([args.peak_bench, "fma", str(t), "7"], t)
            ceilings[("fma", t)] = best
            results["peak"]["fma_gflops_%dt" % t] = {
                "best": best, "median": med, "foreign_cores": r["foreign_cores"],
                "contaminated": r["contaminated"]}
        for ws in sorted({int(c["work"]) for c in all_cases if c["kind"] == "bytes"} |
                         ({64 << 20} if not args.quick else set())):
            for t in threads:
                best, med, r = ceiling([args.peak_bench, "stream", str(ws), str(t), "5"], t)
                ceilings[("bw", ws, t)] = best
                results["peak"]["stream_%dB_%dt" % (ws, t)] = {
                    "best_gbs": best, "median_gbs": med, "foreign_cores": r["foreign_cores"],
                    "contaminated": r["contaminated"]}

    def probe_for(t):
        """A short FMA run at t threads, as a share of the ceiling (None without bench-peak)."""
        if not ceilings.get(("fma", t)):
            return None
        def probe():
            out, _, _ = measure([args.peak_bench, "fma", str(t), "1"], thread_env(t))
            return float(out.split()[0]) / ceilings[("fma", t)]
        return probe

    here = os.path.abspath(__file__)
    with tempfile.TemporaryDirectory(prefix="tlc-bench-") as work:
        for case in all_cases:
            entry = {"name": case["name"], "label": case["label"], "kind": case["kind"],
                     "work": case["work"], "runs": {}}
            exe = None
            if "tlc" in frameworks:
                try:
                    exe, entry["tlc_compile_s"] = build_tlc(case, args, work)
                    if case.get("train"):
                        entry["tlc_workspace_bytes"] = header_define(
                            os.path.join(work, "b_%s.h" % case["name"]),
                            "B_%s_TRAIN_WORKSPACE_SIZE" % case["name"].upper())
                except subprocess.CalledProcessError as e:
                    entry["runs"]["tlc_build_error"] = str(e)[:300]
            for t in threads:
                env, probe = thread_env(t), probe_for(t)
                for fw in frameworks:
                    key = "%s@%d" % (fw, t)
                    try:
                        if fw == "tlc":
                            if exe is None:
                                continue
                            r = timed([exe, str(args.repeats)], env, args, probe=probe)
                        elif fw == "ort":
                            if "onnx" not in case or not case.get("ort", True):
                                continue
                            missing = ort_missing()
                            if missing:
                                raise RuntimeError("ONNX Runtime peer: " + missing)
                            r = timed_child(ort_command(case_onnx(case, work), t, args.repeats,
                                                        case["inputs"]), env, args, "ort", probe)
                        elif fw == "onednn":
                            if not args.dnnl_bench or "dnnl" not in case:
                                continue
                            # "n/a": oneDNN has no such primitive on this CPU (bf16 without
                            # AVX-512); the cell says n/a, not an error.
                            r = timed([args.dnnl_bench, case["dnnl"][0], str(args.repeats)] +
                                      [str(a) for a in case["dnnl"][1:]],
                                      dict(env, BENCH_WARMUP_SECONDS=repr(WARMUP_SECONDS)), args,
                                      parse=lambda out: child_times(out)[0], probe=probe)
                            if r is None:
                                continue
                        else:
                            op, dims = case["py"]
                            cmd = ["/usr/bin/python3", here, "--worker", fw, "--op", op,
                                   "--dims", ",".join(map(str, dims)),
                                   "--repeats", str(args.repeats)]
                            r = timed_child(cmd, env, args, fw, probe)
                            if r is None:
                                continue
                    except (RuntimeError, OSError, ValueError) as e:
                        entry["runs"][key] = {"error": str(e)[:300]}
                        continue
                    s = stats(r.pop("times"))
                    r.update(s)
                    rate = case["work"] / s["median"] / 1e9
                    r["rate"] = rate
                    ceiling = (ceilings.get(("fma", t)) if case["kind"] == "flops"
                               else ceilings.get(("bw", int(case["work"]), t)))
                    if ceiling:
                        r["fraction_of_peak"] = rate / ceiling
                    entry["runs"][key] = r
            results["cases"].append(entry)
            print("done %s" % case["name"], file=sys.stderr)

    with open("/proc/loadavg") as f:
        info["loadavg_end"] = f.read().split()[:3]
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(results, f, indent=1)
    md = report(results, threads, frameworks)
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write(md)
    print(md)
    chart(results, threads, frameworks, os.path.join(args.out, "bench.png"))
    failed = [(c["name"], k) for c in results["cases"] for k, r in c["runs"].items()
              if isinstance(r, dict) and "error" in r]
    if args.fail_on_error and failed:
        print("bench.py: failed runs: " + ", ".join("%s %s" % f for f in failed), file=sys.stderr)
        return 1
    return 0


_blas_seen = {}


def child_times(out):
    """A timing child's output: its times (one per line; None when its first line is "n/a":
    the case does not apply) and its first "# " line (the library or version it loaded)."""
    lines = out.split("\n")
    notes = [v[2:] for v in lines if v.startswith("# ")]
    if lines and lines[0].strip() == "n/a":
        return None, notes[0] if notes else ""
    return [float(v) for v in lines if v.strip() and not v.startswith("#")], \
        notes[0] if notes else ""


def timed_child(cmd, env, args, key, probe=None):
    """timed() for the Python and ONNX Runtime children; records what each loaded under `key`
    (a BLAS library, the onnxruntime-node version)."""
    def parse(out):
        times, note = child_times(out)
        _blas_seen[key] = note
        return times
    return timed(cmd, env, args, parse, probe)


def report(results, threads, frameworks):
    unit = {"flops": "GFLOP/s", "bytes": "GB/s"}
    m = results["machine"]
    lines = ["# tlc benchmark", "",
             "Machine: %s, %d cores; load average at start %s, at end %s. Repeats: %d; "
             "tlc --cpu=%s. Times are medians (min/max) in ms; `!` marks a run taken under "
             "foreign load above %.2f cores%s (kept: the least loaded of its tries)."
             % (m["cpu"], m["cores"], "/".join(m["loadavg_start"]),
                "/".join(m.get("loadavg_end", ["?"])), results["config"]["repeats"],
                results["config"]["tlc_cpu"], results["config"]["max_foreign"],
                ", or with a probe before or after it below %.2f of the FMA ceiling"
                % results["config"]["min_available"]
                if results["config"].get("min_available") else ""), ""]
    if results["peak"]:
        lines.append("Ceilings (best run, same session; GFLOP/s and GB/s): " + ", ".join(
            "%s %.1f%s" % (k, v.get("best", v.get("best_gbs", 0)), " !" if v["contaminated"] else "")
            for k, v in results["peak"].items()))
        lines.append("")
    if _blas_seen:
        lines.append("Libraries loaded by the Python workers: " + "; ".join(
            "%s: %s" % (k, v or "-") for k, v in sorted(_blas_seen.items())))
        lines.append("")
    vs_ort = "ort" in frameworks
    for t in threads:
        errors = []
        lines += ["## %d thread%s" % (t, "s" if t > 1 else ""), "",
                  "| case | " + " | ".join(frameworks) + " | tlc rate | tlc % of peak "
                  "| tlc vs best other |" + (" tlc vs ort |" if vs_ort else "") +
                  " tlc compile s |",
                  "|---" * (len(frameworks) + 5 + vs_ort) + "|"]
        for c in results["cases"]:
            cells, best_other = [], None
            for fw in frameworks:
                r = c["runs"].get("%s@%d" % (fw, t))
                if not r:
                    cells.append("n/a")
                    continue
                if "error" in r:
                    cells.append("error [%d]" % (len(errors) + 1))
                    errors.append("%s, %s: %s" % (c["label"], fw, r["error"]))
                    continue
                cells.append("%.3g (%.3g/%.3g)%s" % (r["median"] * 1e3, r["min"] * 1e3,
                                                     r["max"] * 1e3, " !" if r["contaminated"] else ""))
                if fw != "tlc" and (best_other is None or r["median"] < best_other):
                    best_other = r["median"]
            tr = c["runs"].get("tlc@%d" % t)
            ok = tr and "error" not in tr
            ort = c["runs"].get("ort@%d" % t)
            ort_ok = ok and ort and "error" not in ort
            lines.append("| %s | %s | %s | %s | %s |%s %s |" % (
                c["label"], " | ".join(cells),
                "%.1f %s" % (tr["rate"], unit[c["kind"]]) if ok else "-",
                "%.0f%%" % (100 * tr["fraction_of_peak"]) if ok and "fraction_of_peak" in tr else "-",
                "%.2fx" % (best_other / tr["median"]) if ok and best_other else "-",
                (" %s |" % ("%.2fx" % (ort["median"] / tr["median"]) if ort_ok else "-"))
                if vs_ort else "",
                "%.2f" % c["tlc_compile_s"] if "tlc_compile_s" in c else "-"))
        lines.append("")
        lines += ["[%d] %s" % (i + 1, e) for i, e in enumerate(errors)]
        if errors:
            lines.append("")
    spaces = [c for c in results["cases"] if c.get("tlc_workspace_bytes")]
    if spaces:
        lines += ["Workspace of the training steps (NAME_TRAIN_WORKSPACE_SIZE):", ""]
        lines += ["- %s: %d bytes (%.1f MiB)" % (c["label"], c["tlc_workspace_bytes"],
                                                  c["tlc_workspace_bytes"] / 2 ** 20)
                  for c in spaces] + [""]
    if PENDING:
        lines += ["## Not yet measured", ""] + ["- %s: %s" % p for p in PENDING] + [""]
    lines.append("`tlc vs best other` > 1 means tlc is faster than the fastest of the others.")
    return "\n".join(lines) + "\n"


def chart(results, threads, frameworks, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(len(threads), 1, figsize=(12, 4 * len(threads)), squeeze=False)
    names = [c["name"] for c in results["cases"]]
    width = 0.8 / len(frameworks)
    for ax, t in zip(axes[:, 0], threads):
        for i, fw in enumerate(frameworks):
            vals = []
            for c in results["cases"]:
                r = c["runs"].get("%s@%d" % (fw, t), {})
                vals.append(100 * r.get("fraction_of_peak", 0))
            ax.bar([x + i * width for x in range(len(names))], vals, width, label=fw)
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(names))])
        ax.set_xticklabels(names, rotation=20, fontsize=8)
        ax.set_ylabel("% of measured peak")
        ax.set_title("%d thread(s)" % t)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
