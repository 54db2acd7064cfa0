#!/usr/bin/python3
"""Compiles `y = erf(x)` with tlc, runs it with tlc-run on a dense grid over [-6, 6], tiny
values and specials, and checks it against fp64 erf: at most --max-abs absolute error, at
most --max-rel relative error where |x| < 2^-5 (tiny inputs keep erf's relative accuracy:
erf(x) ~ 2x / sqrt(pi)), |y| <= 1, exactly +-1 for |x| >= 4, odd symmetry, NaN -> NaN,
+-inf -> +-1. Prints `PASS erf <cpu> max-abs=... max-rel-tiny=...` or FAIL lines."""
import argparse
import math
import sys

import numpy as np
from tlc_eval import add_tool_arguments, evaluate


def main():
    ap = argparse.ArgumentParser()
    add_tool_arguments(ap)
    ap.add_argument("--max-abs", type=float, default=5e-7)
    ap.add_argument("--max-rel", type=float, default=5e-7)
    args = ap.parse_args()

    grid = np.linspace(-6, 6, 1 << 20).astype(np.float32)
    tiny = np.geomspace(1e-38, 2.0 ** -5, 4096).astype(np.float32)
    special = np.array([0.0, -0.0, 4.0, -4.0, 1e30, -1e30, np.inf, -np.inf, np.nan],
                       np.float32)
    # An odd total size: the vector loop's masked tail is exercised too.
    x = np.concatenate([special, grid, tiny, -tiny, [np.float32(0.5)]])
    (y,) = evaluate(args.tlc, args.tlc_run, args.cpu,
                    "input x : f32[%d]\noutput y = erf(x)\n" % x.size, [x], ["y"])

    failures = []
    nan = np.isnan(x)
    if not np.all(np.isnan(y[nan])):
        failures.append("NaN input did not give NaN")
    xs, ys = x[~nan], y[~nan]
    ref = np.array([math.erf(float(v)) for v in xs])
    err = np.abs(ys - ref)
    if err.max() > args.max_abs:
        i = np.argmax(err)
        failures.append("%.3g absolute error at x=%r (got %r, want %r)"
                        % (err[i], float(xs[i]), ys[i], ref[i]))
    small = (np.abs(xs) < 2.0 ** -5) & (xs != 0)
    rel = (err[small] / np.abs(ref[small])).max()
    if rel > args.max_rel:
        failures.append("%.3g relative error for a tiny input" % rel)
    if np.abs(ys).max() > 1:
        failures.append("|erf| > 1: %r" % np.abs(ys).max())
    sat = np.abs(xs) >= 4
    if not np.all(ys[sat] == np.sign(xs[sat])):
        failures.append("erf(|x| >= 4) is not exactly +-1")
    if not np.all(ys[xs == 0] == 0):
        failures.append("erf(0) != 0")
    grid_y = y[len(special):len(special) + grid.size]
    if not np.array_equal(grid_y, -grid_y[::-1]):
        failures.append("erf is not odd on the symmetric grid")
    for f in failures:
        print("FAIL erf %s: %s" % (args.cpu, f))
    if not failures:
        print("PASS erf %s max-abs=%.3g max-rel-tiny=%.3g" % (args.cpu, err.max(), rel))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
