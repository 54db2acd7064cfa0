#!/usr/bin/python3
"""Top-1 agreement of two compiled classifiers (e.g. a bf16 and an fp32 compile of one model).

  top1_agreement.py REFERENCE.so CANDIDATE.so --name NAME --shape 1,3,64,64 --classes 1000
                    [--count 200] [--seed 0] [--min-agreement 0.99]

Both shared libraries (tlc --shared --name NAME) are called through NAME_run(input, output,
workspace) on the same seeded standard-normal inputs; prints how many argmaxes agree, and the
largest relative output difference; exits 1 (after printing FAIL) below --min-agreement.
"""
import argparse
import ctypes
import os

import numpy as np


def load(path, name):
    lib = ctypes.CDLL(os.path.abspath(path))
    run = getattr(lib, name + "_run")
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p] * 3
    return run


def aligned(nbytes, alignment=64):
    raw = np.empty(nbytes + alignment, np.uint8)
    start = -raw.ctypes.data % alignment
    return raw[start:start + nbytes]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("candidate")
    ap.add_argument("--name", required=True)
    ap.add_argument("--shape", required=True)
    ap.add_argument("--classes", type=int, required=True)
    ap.add_argument("--workspace", type=int, default=64 << 20, help="bytes (>= NAME_WORKSPACE_SIZE)")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--min-agreement", type=float, default=0.0)
    args = ap.parse_args()
    shape = [int(d) for d in args.shape.split(",")]
    runs = [load(args.reference, args.name), load(args.candidate, args.name)]
    workspace = aligned(args.workspace)
    rng = np.random.default_rng(args.seed)
    agree, worst = 0, 0.0
    for _ in range(args.count):
        x = rng.standard_normal(shape).astype(np.float32)
        outs = []
        for run in runs:
            y = np.empty(args.classes, np.float32)
            status = run(x.ctypes.data, y.ctypes.data, workspace.ctypes.data)
            if status != 0:
                raise SystemExit("NAME_run returned status %d" % status)
            outs.append(y)
        agree += int(np.argmax(outs[0]) == np.argmax(outs[1]))
        worst = max(worst, float(np.max(np.abs(outs[0] - outs[1])) / np.max(np.abs(outs[0]))))
    ok = agree >= args.min_agreement * args.count
    print("%s top-1 agreement %d/%d (%.1f%%), max relative output difference %.3g"
          % ("PASS" if ok else "FAIL", agree, args.count, 100.0 * agree / args.count, worst))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
