#!/usr/bin/python3
"""Checks the mlp demo's printed probabilities against tlref's float64 evaluation of
examples/mlp.tl on the same input (x[i] = sin(0.01 i)), with run_e2e's tolerance rule.

  check_demo.py [--rtol 1e-5] DEMO_EXECUTABLE     runs the demo and checks its output
  check_demo.py [--rtol 1e-5] -                   checks demo output given on stdin

Prints `demo matches numpy: max_abs_err=... max_rel_err=...` and exits 0, or explains and exits 1.
"""

import argparse
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "e2e"))
import run_e2e  # noqa: E402
import tlref  # noqa: E402


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("demo", help="the demo executable, or - to read its output from stdin")
    ap.add_argument("--model", default=os.path.join(ROOT, "examples", "mlp.tl"))
    ap.add_argument("--rtol", type=float, default=1e-5)
    args = ap.parse_args(argv)
    if args.demo == "-":
        text = sys.stdin.read()
    else:
        p = subprocess.run([args.demo], stdout=subprocess.PIPE, text=True)
        if p.returncode != 0:
            print("demo failed with exit status %d" % p.returncode)
            return 1
        text = p.stdout
    sys.stdout.write(text)

    prog = tlref.parse(args.model)
    (x,) = prog.inputs
    n = int(np.prod(x.shape))
    xv = np.sin(0.01 * np.arange(n, dtype=np.float64)).reshape(x.shape)
    ref = tlref.evaluate(args.model, {x.name: xv})["probs"]

    rows = {}
    for line in text.splitlines():
        m = re.match(r"row (\d+):((?:\s+\S+)+?)\s+argmax (\d+)$", line)
        if m:
            rows[int(m.group(1))] = ([float(v) for v in m.group(2).split()], int(m.group(3)))
    if sorted(rows) != list(range(ref.shape[0])):
        print("demo output has rows %s, expected 0..%d" % (sorted(rows), ref.shape[0] - 1))
        return 1
    got = np.array([rows[r][0] for r in range(ref.shape[0])])
    ok, info = run_e2e.compare(got, ref, args.rtol)
    # The printed values carry 9 significant digits, far below the tolerance.
    argmax_ok = all(rows[r][1] == int(np.argmax(got[r])) for r in rows)
    if not ok or not argmax_ok:
        print("demo does NOT match numpy: max_abs_err=%.3g max_rel_err=%.3g; worst at %s: "
              "got %r, expected %r%s" % (info["max_abs"], info["max_rel"], info["worst"],
                                         info["got"], info["want"],
                                         "" if argmax_ok else "; wrong argmax"))
        return 1
    print("demo matches numpy: max_abs_err=%.3g max_rel_err=%.3g" % (info["max_abs"],
                                                                      info["max_rel"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
