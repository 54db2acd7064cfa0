#!/usr/bin/python3
"""Compiles `y = exp2(x)` (a linalg.generic over math.exp2 in MLIR: the .tl language has no
exp2; GELU's tanh form is where tlc emits it) with tlc, runs it with tlc-run on a dense grid
over exp2's f32 range plus special values, as one odd-length row and as rows of 1024 (tlc's
full-width vectors: the AVX-512 form with vscalefps applies there), and checks it against
fp64 exp2: at most --max-ulp ulp where the result is at least 2^-125, within 2^-126 and not
negative below 2^-126 (the portable form flushes to +0 there, the AVX-512 form rounds to
denormals), +inf above f32's range, NaN for NaN, exp2(0) == 1. Prints
`PASS exp2 <cpu> max-ulp=...` or FAIL lines."""
import argparse
import sys

import numpy as np
from tlc_eval import add_tool_arguments, evaluate

MODULE = """#map = affine_map<(%(dims)s) -> (%(dims)s)>
func.func @g(%%x: tensor<%(shape)sxf32> {tl.name = "x"}) -> (tensor<%(shape)sxf32> {tl.name = "y"}) {
  %%e = tensor.empty() : tensor<%(shape)sxf32>
  %%y = linalg.generic {indexing_maps = [#map, #map], iterator_types = [%(iterators)s]}
      ins(%%x : tensor<%(shape)sxf32>) outs(%%e : tensor<%(shape)sxf32>) {
  ^bb0(%%a: f32, %%b: f32):
    %%r = math.exp2 %%a : f32
    linalg.yield %%r : f32
  } -> tensor<%(shape)sxf32>
  return %%y : tensor<%(shape)sxf32>
}
"""


def module(shape):
    dims = ", ".join("d%d" % i for i in range(len(shape)))
    return MODULE % {"dims": dims, "shape": "x".join(map(str, shape)),
                     "iterators": ", ".join(['"parallel"'] * len(shape))}


def check(x, y, max_ulp):
    with np.errstate(over="ignore"):
        ref = np.exp2(x.astype(np.float64))
    failures = []
    nan = np.isnan(x)
    if not np.all(np.isnan(y[nan])):
        failures.append("NaN input did not give NaN")
    if np.isnan(y[~nan]).any():
        failures.append("NaN for non-NaN inputs: %s" % x[~nan][np.isnan(y[~nan])][:5])
    over = ~nan & (ref > np.finfo(np.float32).max)
    if not np.all(y[over] == np.inf):
        failures.append("overflow did not give +inf: %s" % x[over][y[over] != np.inf][:5])
    tiny = ~nan & (ref < 2.0 ** -126)
    bad_tiny = (np.abs(y[tiny] - ref[tiny]) > 2.0 ** -126) | np.signbit(y[tiny])
    if bad_tiny.any():
        failures.append("results below 2^-126 not within 2^-126 and >= +0: %s"
                        % x[tiny][bad_tiny][:5])
    normal = ~nan & ~over & (ref >= 2.0 ** -125)
    ulp = np.spacing(ref[normal].astype(np.float32)).astype(np.float64)
    err = np.abs(y[normal] - ref[normal]) / ulp
    worst = err.max()
    if worst > max_ulp:
        i = np.argmax(err)
        failures.append("%.2f ulp at x=%r (got %r, want %r)" % (worst, float(x[normal][i]),
                                                              y[normal][i], ref[normal][i]))
    if y[np.where(x == 0)[0]].tolist() != [1.0, 1.0]:
        failures.append("exp2(0) != 1")
    return failures, worst


def main():
    ap = argparse.ArgumentParser()
    add_tool_arguments(ap)
    ap.add_argument("--max-ulp", type=float, default=3.0)
    args = ap.parse_args()

    special = np.array([0.0, -0.0, 0.5, -0.5, 1.0, -1.0, np.inf, -np.inf, np.nan, 127.9, 127.99,
                        128.0, 128.1, 200.0, 1e30, 3e38, -125.4, -125.6, -126.0, -130.0, -149.0,
                        -149.5, -150.0, -151.0, -200.0, -1e30, -3e38], np.float32)
    grid = np.linspace(-125.4, 128.0, 1 << 20).astype(np.float32)
    rng = np.random.default_rng(11)
    # An odd total size: the vector loop's masked tail is exercised too.
    x = np.concatenate([special, grid, rng.uniform(-160, 130, 4097).astype(np.float32)])
    cols = 1024
    padded = np.concatenate([x, np.zeros(-x.size % (64 * cols), np.float32)])
    failures, worst = [], 0.0
    for layout, data in (("1-d", x), ("rows", padded.reshape(-1, cols))):
        (y,) = evaluate(args.tlc, args.tlc_run, args.cpu, module(data.shape), [data], ["y"],
                        suffix=".mlir")
        found, layout_worst = check(x, y.reshape(-1)[:x.size], args.max_ulp)
        failures += ["%s: %s" % (layout, f) for f in found]
        worst = max(worst, layout_worst)
    for f in failures:
        print("FAIL exp2 %s: %s" % (args.cpu, f))
    if not failures:
        print("PASS exp2 %s max-ulp=%.2f" % (args.cpu, worst))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
