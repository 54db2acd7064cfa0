#!/usr/bin/python3
"""tlc --report=precision against an independent computation. For a three-layer model whose
inputs and weights are all given (Inputs/precision_report.tl), numpy evaluates in fp64:
- each layer's local error: the layer on the fp32 run's operands, rounded to the low format,
  against the same layer unrounded;
- each layer's accumulated error: the whole model with every contraction's operands rounded,
  against the unrounded model;
and the end-to-end output error is measured on the real objects: the model compiled at fp32 and
at the low precision (tlc --shared), run by tlc-run on the same inputs. The report's relative
errors must agree (local and output within 1%, accumulated within 3%: the compiled f32
accumulation order differs from numpy's, and a few roundings of near-tie values may differ),
and its worst layer must be numpy's. Keeping that layer in fp32 (--keep-fp32, as the report
suggests) must then cut the output error at least fourfold. Prints `PASS FORMAT ...` or `FAIL FORMAT ...` lines."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "Inputs", "precision_report.tl")


def round_bf16(a):
    """fp32 -> bf16 (round to nearest even) -> fp64."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def round_f16(a):
    return np.asarray(a, dtype=np.float32).astype(np.float16).astype(np.float64)


def rel(err, ref):
    m = np.max(np.abs(ref))
    return float(np.max(np.abs(err)) / m)


def layers(x, ws, rnd):
    """The model's three contraction results, each on operands passed through `rnd`."""
    a1 = rnd(x) @ rnd(ws[0])
    a2 = rnd(np.maximum(a1, 0)) @ rnd(ws[1])
    a3 = rnd(np.tanh(a2)) @ rnd(ws[2])
    return [a1, a2, a3]


def close(got, want, rtol):
    return abs(got - want) <= rtol * want + 1e-7


def check(args, tmp, fmt, rnd, names, inputs):
    ok = True
    report_path = os.path.join(tmp, fmt + ".json")
    subprocess.run([args.tlc, MODEL, "--precision=" + fmt, "--report=precision",
                    "--report-format=json", "--report-file=" + report_path,
                    "-o", os.path.join(tmp, fmt + ".o")] +
                   ["--report-input=" + p for p in inputs], check=True)
    report = json.load(open(report_path))
    x, ws = np.load(inputs[0]).astype(np.float64), [np.load(p).astype(np.float64)
                                                    for p in inputs[1:]]
    exact = lambda a: np.asarray(a, np.float32).astype(np.float64)
    ref = layers(x, ws, lambda a: a)
    low = layers(x, ws, rnd)
    # Local: each layer on the reference run's operands (numpy's fp64 values rounded to f32,
    # as the fp32 run holds them).
    ref_in = [exact(x), exact(np.maximum(ref[0], 0)), exact(np.tanh(ref[1]))]
    local = [rel(rnd(a) @ rnd(w) - a @ w, a @ w) for a, w in zip(ref_in, [exact(w) for w in ws])]
    accumulated = [rel(l - r, r) for l, r in zip(low, ref)]
    got = {l["name"]: l for l in report["layers"]}
    for i, name in enumerate(names):
        g = got[name]
        for kind, want, rtol in (("local", local[i], 0.01), ("accumulated", accumulated[i], 0.03)):
            have = g[kind]["relative"]
            good = close(have, want, rtol)
            ok &= good
            print("%s %s %s %s: report %.4e, numpy %.4e" %
                  ("PASS" if good else "FAIL", fmt, name, kind, have, want))
    worst = max(range(len(names)), key=lambda i: local[i])
    good = report["worst"][0] == names[worst]
    ok &= good
    print("%s %s worst layer: report %s, numpy %s" %
          ("PASS" if good else "FAIL", fmt, report["worst"][0], names[worst]))
    # The output against the real objects, both run by tlc-run on the same inputs.
    outs = {}
    for p in ("fp32", fmt):
        lib = os.path.join(tmp, p + ".so")
        subprocess.run([args.tlc, MODEL, "--precision=" + p, "--shared", "-o", lib], check=True)
        d = os.path.join(tmp, p + "-out")
        os.makedirs(d, exist_ok=True)
        subprocess.run([args.tlc_run, lib, "--quiet", "--save-outputs", d] +
                       ["--input=" + q for q in inputs], check=True, stdout=subprocess.DEVNULL)
        outs[p] = np.load(os.path.join(d, "y.npy")).astype(np.float64)
    want = rel(outs[fmt] - outs["fp32"], outs["fp32"])
    have = report["outputs"][0]["error"]["relative"]
    good = close(have, want, 0.01)
    ok &= good
    print("%s %s output y: report %.4e, objects %.4e" %
          ("PASS" if good else "FAIL", fmt, have, want))
    kept_path = os.path.join(tmp, fmt + "-kept.json")
    subprocess.run([args.tlc, MODEL, "--precision=" + fmt, "--keep-fp32=" + report["worst"][0],
                    "--report=precision", "--report-format=json", "--report-file=" + kept_path,
                    "-o", os.path.join(tmp, fmt + ".o")] +
                   ["--report-input=" + p for p in inputs], check=True)
    kept = json.load(open(kept_path))["outputs"][0]["error"]["relative"]
    good = kept * 4 <= have
    ok &= good
    print("%s %s output y with --keep-fp32=%s: %.4e (was %.4e)" %
          ("PASS" if good else "FAIL", fmt, report["worst"][0], kept, have))
    return ok


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tlc", required=True)
    p.add_argument("--tlc-run", required=True)
    args = p.parse_args()
    rng = np.random.default_rng(2026)
    arrays = [20.0 + rng.standard_normal((32, 96)),
              rng.standard_normal((96, 64)) / np.sqrt(96),
              rng.standard_normal((64, 48)) / np.sqrt(64),
              rng.standard_normal((48, 16)) / np.sqrt(48)]
    # w1's columns sum to zero, so x's offset cancels in the fp32 product but not once rounded.
    arrays[1] -= arrays[1].mean(axis=0, keepdims=True)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        inputs = []
        for name, a in zip(("x", "w1", "w2", "w3"), arrays):
            path = os.path.join(tmp, name + ".npy")
            np.save(path, a.astype(np.float32))
            inputs.append(path)
        for fmt, rnd in (("bf16", round_bf16), ("fp16", round_f16)):
            ok &= check(args, tmp, fmt, rnd, ["h1", "h2", "h3"], inputs)
    print("ALL PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
