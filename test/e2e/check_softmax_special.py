#!/usr/bin/python3
"""Compiles softmax and log_softmax over rows with tlc, runs them with tlc-run on rows holding
special values, and checks them against numpy in fp64: a row with a NaN, a +inf, or all -inf
is NaN throughout (as in PyTorch and numpy: exp(x - max) is NaN there); a row with -inf
elements gives them 0 (softmax) or -inf (log_softmax); finite rows (huge, tiny, equal) match
within --rtol. The row maximum ignores NaN, so these cases check that NaN still propagates
through the rest of the row. Prints `PASS softmax-special <cpu>` or FAIL lines."""
import argparse
import sys

import numpy as np
from tlc_eval import add_tool_arguments, evaluate

N = 133  # not a multiple of the vector length: the masked tail sees the special values too


def rows():
    rng = np.random.default_rng(11)
    out = [rng.normal(0, 3, N) for _ in range(4)]
    out[1][7] = np.nan          # NaN inside the unrolled part
    out[2][N - 1] = np.nan      # NaN in the masked tail
    out[3][50] = np.inf
    r = rng.normal(0, 3, N)
    r[::5] = -np.inf            # some -inf: zero probability
    out.append(r)
    out.append(np.full(N, -np.inf))  # all -inf: NaN
    out.append(np.full(N, 3e38))     # huge and equal: uniform
    r = rng.normal(0, 1, N) * 1e-30
    out.append(r)
    r = rng.normal(0, 50, N)    # spread: most probabilities underflow
    out.append(r)
    out.append(np.concatenate([[np.nan], np.full(N - 1, -np.inf)]))
    return np.array(out, np.float32)


def reference(x, log):
    x = x.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.max(x, axis=-1, keepdims=True)  # NaN-propagating: NaN rows stay NaN
        d = x - m
        s = np.sum(np.exp(d), axis=-1, keepdims=True)
        return d - np.log(s) if log else np.exp(d) / s


def main():
    ap = argparse.ArgumentParser()
    add_tool_arguments(ap)
    ap.add_argument("--rtol", type=float, default=1e-5)
    args = ap.parse_args()
    failures = []
    # The rows as they are (a few rows per chunk), and repeated to 500 rows (8 per chunk, the
    # last chunk of 4: softmax and log_softmax then take each row's maximum in the previous
    # row's last pass, which for softmax also writes the row before it).
    for x in (rows(), np.tile(rows(), (50, 1))):
        failures += check(args, x)
    for f in failures:
        print("FAIL softmax-special %s: %s" % (args.cpu, f))
    if not failures:
        print("PASS softmax-special %s" % args.cpu)
    return 1 if failures else 0


def check(args, x):
    failures = []
    sm, lsm = evaluate(args.tlc, args.tlc_run, args.cpu,
                       "input x : f32[%d, %d]\noutput sm = softmax(x, axis=-1)\n"
                       "output lsm = log_softmax(x, axis=-1)\n" % x.shape, [x], ["sm", "lsm"])
    got = {"sm": sm, "lsm": lsm}
    for name, log in (("sm", False), ("lsm", True)):
        ref, out = reference(x, log), got[name]
        for r in range(x.shape[0]):
            nan_ref, nan_out = np.isnan(ref[r]), np.isnan(out[r])
            if not np.array_equal(nan_ref, nan_out):
                failures.append("%s row %d of %d: NaN at %s, want at %s" % (
                    name, r, x.shape[0], np.flatnonzero(nan_out)[:5], np.flatnonzero(nan_ref)[:5]))
                continue
            fin = ~nan_ref & np.isfinite(ref[r])
            if not np.array_equal(ref[r][~fin & ~nan_ref], out[r][~fin & ~nan_ref]):
                failures.append("%s row %d of %d: infinities differ" % (name, r, x.shape[0]))
            scale = max(1.0, np.abs(ref[r][fin]).max()) if fin.any() else 1.0
            err = np.abs(out[r][fin] - ref[r][fin])
            if (err > args.rtol * (scale + np.abs(ref[r][fin]))).any():
                failures.append("%s row %d of %d: max error %.3g" % (name, r, x.shape[0],
                                                                    err.max()))
    return failures


if __name__ == "__main__":
    sys.exit(main())
