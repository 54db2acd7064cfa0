#!/usr/bin/python3
"""Compiles each of tl's trigonometric, hyperbolic and rounding ops (`tl.sin %x`, ...) with
tlc, runs it with tlc-run on dense grids, wide log-spaced ranges (sin/cos up to |x| = 1e6:
the range reduction), tiny values and specials, and checks it against numpy in fp64: the
error, relative to max(|reference|, 1) for the periodic and inverse trigonometric ops and to
|reference| for the others, at most the op's bound (printed beside the measured value), NaN
where the reference is NaN, infinities where it is infinite, round() exactly numpy's
(halves to even). Prints `PASS <op> <cpu> err=...` or FAIL lines; exits non-zero on a FAIL.
"""
import argparse
import sys

import numpy as np
from tlc_eval import add_tool_arguments, evaluate

MODULE = """func.func @g(%%x: tensor<%(n)dxf32> {tl.name = "x"}) -> (tensor<%(n)dxf32> {tl.name = "y"}) {
  %%y = tl.%(op)s %%x : tensor<%(n)dxf32>
  return %%y : tensor<%(n)dxf32>
}
"""

f32 = np.float32
RNG = np.random.default_rng(5)


def logspace(lo, hi, n, signed=True):
    m = np.exp(RNG.uniform(np.log(lo), np.log(hi), n))
    return (m * (RNG.choice([-1, 1], n) if signed else 1)).astype(f32)


def grid(lo, hi, n=1 << 18):
    return np.linspace(lo, hi, n).astype(f32)


SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan], f32)
TINY = logspace(1e-30, 1e-3, 4096)

# op: (numpy reference, inputs, bound, relative to max(|ref|, 1) (else |ref|)).
CASES = {
    "sin": (np.sin, [grid(-10, 10), logspace(10, 1e6, 1 << 18), TINY], 2e-7, True),
    "cos": (np.cos, [grid(-10, 10), logspace(10, 1e6, 1 << 18), TINY], 2e-7, True),
    "tan": (np.tan, [grid(-1.5, 1.5), logspace(1, 1e4, 1 << 16), TINY], 4e-7, False),
    "asin": (np.arcsin, [grid(-1, 1), logspace(1e-6, 1, 1 << 16), TINY, [1.5, -2]], 3e-7, True),
    "acos": (np.arccos, [grid(-1, 1), logspace(1e-6, 1, 1 << 16), TINY, [1.5, -2]], 3e-7, True),
    "atan": (np.arctan, [grid(-10, 10), logspace(1e-3, 1e30, 1 << 16), TINY], 3e-7, True),
    "sinh": (np.sinh, [grid(-89, 89), logspace(1e-3, 89.4, 1 << 16), TINY, [90, -90]], 6e-7,
             False),
    "cosh": (np.cosh, [grid(-89, 89), logspace(1e-3, 89.4, 1 << 16), TINY, [90]], 6e-7, False),
    "asinh": (np.arcsinh, [grid(-10, 10), logspace(1e-3, 1e30, 1 << 16), TINY], 4e-7, False),
    "acosh": (np.arccosh, [grid(1, 10), logspace(1, 1e30, 1 << 16, signed=False),
                           1 + logspace(1e-7, 1e-2, 4096, signed=False), [0.5, -1]], 4e-7, False),
    "atanh": (np.arctanh, [grid(-0.999, 0.999), 1 - logspace(1e-7, 1e-2, 4096, signed=False),
                           TINY, [1, -1, 1.5]], 4e-7, False),
    "round": (np.round, [grid(-1e3, 1e3), np.arange(-20.5, 20.5, 0.5), logspace(1e3, 1e30,
                                                                              4096)], 0, False),
}


def check(op, cpu, args):
    ref_fn, parts, bound, periodic = CASES[op]
    # An odd total size: the vector loop's masked tail is exercised too.
    x = np.concatenate([SPECIAL] + [np.asarray(p, f32) for p in parts] + [[f32(0.25)]])
    (y,) = evaluate(args.tlc, args.tlc_run, cpu, MODULE % {"op": op, "n": x.size}, [x], ["y"],
                    suffix=".mlir")
    with np.errstate(all="ignore"):
        ref = ref_fn(x.astype(np.float64))
        # fp64 references beyond f32's range are f32 infinities.
        ref = ref.astype(f32).astype(np.float64) if op in ("sinh", "cosh") else ref
    failures = []
    nan = np.isnan(ref)
    if not np.all(np.isnan(y[nan])):
        failures.append("%d NaN references not NaN (x=%r)" % (np.sum(~np.isnan(y[nan])),
                                                             x[nan][~np.isnan(y[nan])][:3]))
    inf = np.isinf(ref)
    if not np.array_equal(y[inf], ref[inf]):
        failures.append("infinite references differ at x=%r" % x[inf][y[inf] != ref[inf]][:3])
    fin = ~nan & ~inf
    if np.any(~np.isfinite(y[fin])):
        failures.append("non-finite results at x=%r" % x[fin][~np.isfinite(y[fin])][:3])
        return failures, 0.0
    scale = np.maximum(np.abs(ref[fin]), 1.0) if periodic else np.abs(ref[fin])
    err = np.abs(y[fin] - ref[fin]) / np.where(scale == 0, 1.0, scale)
    worst = err.max()
    if worst > bound:
        i = np.argmax(err)
        failures.append("error %.3g > %.3g at x=%r (got %r, want %r)"
                        % (worst, bound, float(x[fin][i]), y[fin][i], ref[fin][i]))
    return failures, worst


def main():
    ap = argparse.ArgumentParser()
    add_tool_arguments(ap)
    ap.add_argument("ops", nargs="*", default=list(CASES))
    args = ap.parse_args()
    status = 0
    for op in args.ops:
        failures, worst = check(op, args.cpu, args)
        for f in failures:
            print("FAIL %s %s: %s" % (op, args.cpu, f))
        if not failures:
            print("PASS %s %s err=%.3g (bound %.3g)" % (op, args.cpu, worst, CASES[op][2]))
        status |= bool(failures)
    return status


if __name__ == "__main__":
    sys.exit(main())
