#!/usr/bin/python3
"""Compiles `y = gelu(x)` (tanh or erf form) with tlc, runs it with tlc-run on a dense grid
plus special values, and checks it against the same formula in fp64: an element passes if its
error is at most --max-ulp ulp of the fp64 result where |result| >= --ulp-above, and at most
--atol absolute below (GELU's negative tail is ~x * exp(-x^2 / 2), where f32 rounding of the
argument moves the result by many ulp). Also checks NaN -> NaN, +inf -> +inf, and that -inf
gives NaN or a value within 1e-30 of 0 (the limit; PyTorch gives NaN). Prints `PASS gelu-<form> <cpu> max-ulp=... max-abs=...` or FAIL lines."""
import argparse
import math
import sys

import numpy as np
from tlc_eval import add_tool_arguments, evaluate


def reference(x, form):
    x = x.astype(np.float64)
    if form == "tanh":
        u = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
        with np.errstate(over="ignore"):
            return x / (1 + np.exp(-2 * u))  # == 0.5 x (1 + tanh u), without cancellation
    erfc = np.vectorize(math.erfc, otypes=[np.float64])
    return 0.5 * x * erfc(-x / math.sqrt(2))  # == 0.5 x (1 + erf(x / sqrt 2))


def main():
    ap = argparse.ArgumentParser()
    add_tool_arguments(ap)
    ap.add_argument("--form", choices=["tanh", "erf"], required=True)
    ap.add_argument("--max-ulp", type=float, default=4.0)
    ap.add_argument("--atol", type=float, default=1e-7)
    ap.add_argument("--ulp-above", type=float, default=1e-3)
    args = ap.parse_args()

    special = np.array([0.0, -0.0, 1.0, -1.0, np.nan, 5.0, 9.99, 10.0, 10.01, 20.0, 1e30, 3e38,
                        -9.0, -9.5, -9.6, -10.0, -14.0, -20.0, -1e30, -3e38,
                        1e-30, -1e-30, 1e-40, -1e-40], np.float32)
    grid = np.linspace(-14.0, 14.0, 1 << 20).astype(np.float32)
    small = np.geomspace(1e-12, 1.0, 4096).astype(np.float32)
    rng = np.random.default_rng(7)
    # An odd total size: the vector loop's masked tail is exercised too.
    x = np.concatenate([special, grid, small, -small, rng.normal(0, 3, 4097).astype(np.float32)])
    infs = np.array([np.inf, -np.inf], np.float32)
    x = np.concatenate([x, infs])
    approx = "tanh" if args.form == "tanh" else "none"
    # Twice: as one odd-length row (scalar code and LLVM's loop vectorizer) and as rows of
    # 1024, a multiple of 64 of them (tlc's own full-width vectors, where the AVX-512
    # expansions apply; zeros pad the last rows).
    cols = 1024
    padded = np.concatenate([x, np.zeros(-x.size % (64 * cols), np.float32)])
    layouts = [("1-d", "[%d]" % x.size, x), ("rows", "[%d, %d]" % (padded.size // cols, cols),
                                            padded.reshape(-1, cols))]
    failures = []
    name = "gelu-" + args.form
    worst_ulp = max_abs = 0.0
    for layout, shape, data in layouts:
        (y,) = evaluate(args.tlc, args.tlc_run, args.cpu,
                        'input x : f32%s\noutput y = gelu(x, approximate="%s")\n' % (shape, approx),
                        [data], ["y"])
        found, layout_ulp, layout_abs = check(x, y.reshape(-1)[:x.size], args)
        failures += ["%s: %s" % (layout, f) for f in found]
        worst_ulp, max_abs = max(worst_ulp, layout_ulp), max(max_abs, layout_abs)
    for f in failures:
        print("FAIL %s %s: %s" % (name, args.cpu, f))
    if not failures:
        print("PASS %s %s max-ulp=%.2f max-abs=%.3g" % (name, args.cpu, worst_ulp, max_abs))
    return 1 if failures else 0


def check(x, y, args):
    """Checks outputs `y` for inputs `x` (the last two are +inf and -inf): returns the
    failures, the worst ulp error where it is counted, and the largest absolute error."""
    failures = []
    y_inf, y = y[-2:], y[:-2]
    x = x[:-2]
    if not y_inf[0] == np.inf:
        failures.append("gelu(+inf) = %r, want +inf" % y_inf[0])
    if not (np.isnan(y_inf[1]) or abs(y_inf[1]) <= 1e-30):
        failures.append("gelu(-inf) = %r, want NaN or ~0" % y_inf[1])
    nan = np.isnan(x)
    if not np.all(np.isnan(y[nan])):
        failures.append("NaN input did not give NaN")
    if np.isnan(y[~nan]).any():
        failures.append("NaN for finite inputs: %s" % x[~nan][np.isnan(y[~nan])][:5])
    ref = reference(x[~nan], args.form)
    got = y[~nan]
    err = np.abs(got - ref)
    ulp = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
    ulps = err / ulp
    # The ulp bound applies where the result is at least --ulp-above in magnitude; below it
    # (GELU's negative tail, where f32 rounding of x^2 or x^3 moves the result by many ulp)
    # the absolute bound does.
    counted = np.abs(ref) >= args.ulp_above
    bad = np.where(counted, ulps > args.max_ulp, err > args.atol)
    worst_ulp = ulps[counted].max() if counted.any() else 0.0
    if bad.any():
        i = np.argmax(np.where(bad, ulps, -1))
        failures.append("%d elements off; worst %.2f ulp at x=%r (got %r, want %r)"
                        % (bad.sum(), ulps[i], float(x[~nan][i]), got[i], ref[i]))
    return failures, worst_ulp, np.nanmax(err)


if __name__ == "__main__":
    sys.exit(main())
