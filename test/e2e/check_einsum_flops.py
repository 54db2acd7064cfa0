#!/usr/bin/python3
"""Checks tlc's contraction paths against numpy.einsum_path(optimize='optimal').

  check_einsum_flops.py --tlc PATH [--tlc-flag FLAG ...] MODEL.tl [MODEL2.tl ...]

For every einsum of 3-8 operands that `tlc --report=einsum --report-format=json` lists, the
path's FLOPs must not exceed those of numpy's optimal path for the same equation and shapes.
numpy's count is recomputed exactly from the path it returns, step by step with numpy's own
cost function (its printout rounds to 4 digits); both follow numpy's convention, a step of k
operands over N loop points costs N * (max(1, k - 1) + 1 if it sums a label). numpy's
'optimal' limits intermediates to the largest input or output; tlc's search does not, so it can
only do as well or better. Prints `OK location eq tlc=.. numpy=..` or `WORSE ...` lines and
`ALL OK (N einsums)` or `FAILED (k of N einsums)`; the exit status is 1 on any failure.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from numpy.core import einsumfunc

DECL = re.compile(r"^\s*(?:input|param)\s+(\w+)\s*:\s*\w+\[([^\]]*)\]")
CALL = re.compile(r'einsum\("([^"]*)"\s*((?:,\s*\w+\s*)+)\)')


def numpy_optimal_flops(eq, shapes):
    ops = [np.empty(s) for s in shapes]
    path, _ = np.einsum_path(eq, *ops, optimize="optimal")
    inputs, output, _ = einsumfunc._parse_einsum_input([eq] + ops)
    terms = inputs.split(",")
    sizes = {}
    for term, shape in zip(terms, shapes):
        for label, extent in zip(term, shape):
            if sizes.get(label, 1) == 1:
                sizes[label] = extent
    sets = [set(t) for t in terms]
    total = 0
    for contract in path[1:]:
        contract = tuple(sorted(contract, reverse=True))
        _, sets, removed, involved = einsumfunc._find_contraction(contract, sets, set(output))
        total += einsumfunc._flop_count(involved, removed, len(contract), sizes)
    return total


def einsum_calls(model):
    """(line, equation, operand shapes) of each einsum call whose operands are declared."""
    shapes, calls = {}, []
    with open(model) as f:
        for n, line in enumerate(f, 1):
            m = DECL.match(line)
            if m:
                shapes[m.group(1)] = [int(d) for d in m.group(2).split(",") if d.strip()]
            for c in CALL.finditer(line):
                names = [a.strip() for a in c.group(2).split(",") if a.strip()]
                if all(a in shapes for a in names):
                    calls.append((n, c.group(1), [shapes[a] for a in names]))
    return calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-flag", action="append", default=[])
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    checked = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models:
            report = os.path.join(tmp, "report.json")
            subprocess.run([args.tlc, model, "--emit=tl", "-o", os.devnull, "--report=einsum",
                            "--report-format=json", "--report-file", report] + args.tlc_flag,
                           check=True)
            with open(report) as f:
                einsums = [e for fn in json.load(f)["functions"] for e in fn["einsums"]]
            calls = {(line, eq): shapes for line, eq, shapes in einsum_calls(model)}
            for e in einsums:
                if e["operands"] > 8:
                    continue
                line = int(e["location"].split(":")[1])
                shapes = calls.get((line, e["equation"]))
                if shapes is None:
                    continue  # operands computed in the program: shapes unknown here
                ref = numpy_optimal_flops(e["equation"], shapes)
                checked += 1
                ok = e["flops"] <= ref
                failed += not ok
                print("%s %s %s tlc=%d numpy=%d" % ("OK" if ok else "WORSE", e["location"],
                                                   e["equation"], e["flops"], ref))
    print("ALL OK (%d einsums)" % checked if not failed else
          "FAILED (%d of %d einsums)" % (failed, checked))
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
