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
from exp_family import check_exp_like, layouts, report
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
    return check_exp_like("exp2", x, y, ref, max_ulp, flush_tiny=False)


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
    failures, worst = [], 0.0
    for layout, data in layouts(x, 1024):
        (y,) = evaluate(args.tlc, args.tlc_run, args.cpu, module(data.shape), [data], ["y"],
                        suffix=".mlir")
        found, layout_worst = check(x, y.reshape(-1)[:x.size], args.max_ulp)
        failures += ["%s: %s" % (layout, f) for f in found]
        worst = max(worst, layout_worst)
    return report("exp2", args.cpu, failures, worst)


if __name__ == "__main__":
    sys.exit(main())
