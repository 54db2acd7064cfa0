#!/usr/bin/python3
"""Compiles `y = exp(x)` with tlc, runs it with tlc-run on a dense grid over exp's f32 range
plus special values, and checks the result against fp64 exp: at most --max-ulp ulp where the
result is at least 2^-125, +0 below 2^-126 (the expansion flushes there), +inf above f32's
range, NaN for NaN and only for NaN. Prints `PASS exp <cpu> max-ulp=...` or FAIL lines."""
import argparse
import sys

import numpy as np
from exp_family import check_exp_like
from tlc_eval import add_tool_arguments, evaluate


def main():
    ap = argparse.ArgumentParser()
    add_tool_arguments(ap)
    ap.add_argument("--max-ulp", type=float, default=3.0)
    args = ap.parse_args()

    special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 88.7, 88.72, 88.73, 89.0,
                        100.0, 1e30, -86.9, -87.3, -87.4, -88.0, -100.0, -1e30,
                        np.log(2) / 2, -np.log(2) / 2], np.float32)
    grid = np.linspace(-87.4, 88.8, 1 << 20).astype(np.float32)
    rng = np.random.default_rng(5)
    # An odd total size: the vector loop's masked tail is exercised too.
    x = np.concatenate([special, grid, rng.uniform(-10, 10, 4097).astype(np.float32)])
    (y,) = evaluate(args.tlc, args.tlc_run, args.cpu,
                    "input x : f32[%d]\noutput y = exp(x)\n" % x.size, [x], ["y"])

    with np.errstate(over="ignore"):
        ref = np.exp(x.astype(np.float64))
    failures, worst = check_exp_like("exp", x, y, ref, args.max_ulp, flush_tiny=True)
    for f in failures:
        print("FAIL exp %s: %s" % (args.cpu, f))
    if not failures:
        print("PASS exp %s max-ulp=%.2f" % (args.cpu, worst))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
