#!/usr/bin/python3
"""Writes (or, with --check, verifies) the README's list of supported ONNX operators between the
markers <!-- onnx-operators:begin --> and <!-- onnx-operators:end -->, from `tlc --list-onnx-ops`
(the importer's converter table), so the list cannot drift from the code.

  scripts/onnx_operators.py --tlc build/bin/tlc [--readme README.md] [--check]
"""
import argparse
import subprocess
import sys

BEGIN, END = "<!-- onnx-operators:begin -->", "<!-- onnx-operators:end -->"


def block(ops):
    return "%s\n%d operators (the default domain, and others as DOMAIN::Op; generated from the " \
           "converter table by " \
           "`scripts/onnx_operators.py`): %s.\n%s" % (BEGIN, len(ops), ", ".join(
               "`%s`" % op for op in ops), END)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--readme", default="README.md")
    ap.add_argument("--check", action="store_true", help="fail if the README's list differs")
    args = ap.parse_args()
    ops = subprocess.run([args.tlc, "--list-onnx-ops"], check=True, capture_output=True,
                         text=True).stdout.split()
    text = open(args.readme).read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        sys.exit("%s: no %s ... %s block" % (args.readme, BEGIN, END))
    updated = text[:start] + block(ops) + text[end + len(END):]
    if args.check:
        if updated != text:
            sys.exit("%s: the ONNX operator list differs from `tlc --list-onnx-ops`; run "
                     "scripts/onnx_operators.py --tlc build/bin/tlc" % args.readme)
        print("README operator list matches: %d operators" % len(ops))
        return
    open(args.readme, "w").write(updated)


if __name__ == "__main__":
    main()
