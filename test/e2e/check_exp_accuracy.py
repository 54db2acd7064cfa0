#!/usr/bin/python3
"""Compiles `y = exp(x)` with tlc, runs it with tlc-run on a dense grid over exp's f32 range
plus special values, as one odd-length row and as rows of 1000 (tlc's full-width vector loops,
each row ending in a masked 8-lane tail: with AVX-512 the vscalefps form applies there; the odd
1-D op is left to LLVM's vectorizer, which sees the portable form), and checks the result
against fp64 exp: at most --max-ulp ulp where the result is at least 2^-125, +0 below 2^-126
(the portable expansion flushes there), +inf above f32's range, NaN for NaN and only for NaN.
With --gradual-underflow (the AVX-512 form) results below 2^-126 may be denormals; in the rows
layout they must be, within half a denormal step plus --max-ulp relative. Prints
`PASS exp <cpu> max-ulp=...` or FAIL lines."""
import argparse
import sys

import numpy as np
from exp_family import check_exp_like, layouts, report
from tlc_eval import add_tool_arguments, evaluate


def check_denormals(x, y, ref, max_ulp):
    """vscalefps rounds exp(r) * 2^k once: a result below 2^-126 is within half a denormal
    step plus the polynomial's relative error of fp64 exp, and some are nonzero (else the
    gradually underflowing form was not reached)."""
    failures = []
    tiny = ~np.isnan(x) & (ref < 2.0 ** -126)
    bad = np.abs(y[tiny] - ref[tiny]) > 2.0 ** -149 + max_ulp * 2.0 ** -23 * ref[tiny]
    if bad.any():
        failures.append("results below 2^-126 off by more than 2^-149 + %g ulp: %s"
                        % (max_ulp, x[tiny][bad][:5]))
    if not (y[tiny] > 0).any():
        failures.append("no denormal results (all flushed to +0)")
    return failures


def main():
    ap = argparse.ArgumentParser()
    add_tool_arguments(ap)
    ap.add_argument("--max-ulp", type=float, default=3.0)
    ap.add_argument("--gradual-underflow", action="store_true",
                    help="results below 2^-126 may be denormals (else they must be +0)")
    args = ap.parse_args()

    special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 88.7, 88.72, 88.73, 89.0,
                        100.0, 1e30, -86.9, -87.3, -87.4, -88.0, -100.0, -1e30,
                        np.log(2) / 2, -np.log(2) / 2, -103.27, -103.97, -104.0, -104.1,
                        -110.0], np.float32)
    grid = np.linspace(-87.4, 88.8, 1 << 20).astype(np.float32)
    # Results below 2^-126: +0 or denormals, down to where exp rounds to +0 (about -103.97).
    tiny = np.linspace(-105.0, -87.4, 1 << 14).astype(np.float32)
    rng = np.random.default_rng(5)
    # An odd total size: the vector loop's masked tail is exercised too.
    x = np.concatenate([special, grid, tiny, rng.uniform(-10, 10, 4097).astype(np.float32)])
    with np.errstate(over="ignore"):
        ref = np.exp(x.astype(np.float64))
    failures, worst = [], 0.0
    for layout, data in layouts(x, 1000):
        (y,) = evaluate(args.tlc, args.tlc_run, args.cpu,
                        "input x : f32[%s]\noutput y = exp(x)\n" % ", ".join(map(str, data.shape)),
                        [data], ["y"])
        y = y.reshape(-1)[:x.size]
        found, layout_worst = check_exp_like("exp", x, y, ref, args.max_ulp,
                                             flush_tiny=not args.gradual_underflow)
        if args.gradual_underflow and layout == "rows":
            found += check_denormals(x, y, ref, args.max_ulp)
        failures += ["%s: %s" % (layout, f) for f in found]
        worst = max(worst, layout_worst)
    return report("exp", args.cpu, failures, worst)


if __name__ == "__main__":
    sys.exit(main())
