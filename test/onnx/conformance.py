#!/usr/bin/env python3
"""ONNX backend node-test conformance runner for tlc.

For every test directory (model.onnx + test_data_set_*/input_*.pb, output_*.pb) it compiles the
model with `tlc --shared`, runs it with `tlc-run` on the reference inputs and compares with the
reference outputs. Results are pass / fail (with the error) / unsupported (the pre-flight check
rejected an op, attribute or type). Inputs the compiler needs as constants (shapes, axes, pads
fed as graph inputs) are bound with `tlc --constant-input` when every data set feeds the same
value; the table's detail column names them. Writes a Markdown table; `--check FILE` is the CI gate: it
runs only the tests listed in FILE and fails if any of them does not pass.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

DEFAULT_DATA = "/usr/share/libonnx-testdata/data/node"
# Compile errors that mean "a feature tlc does not have" rather than a bug: unsupported ops,
# attributes and types, values that must be compile-time constants in a static-shape compiler
# (shapes, axes, pads fed as run-time inputs), empty tensors, non-default opset domains.
UNSUPPORTED_MARKERS = ["unsupported", "is not supported", "compile-time constant",
                       "must be a constant computable at compile time", "is empty",
                       "imports no default-domain", "supports 1-D and 2-D",
                       "supports 1-D, 2-D and 3-D"]


def first_error(text):
    for line in text.splitlines():
        if "error" in line.lower() or "MISMATCH" in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


CONST_INPUT_RE = re.compile(r"\(input \d+, '([^']+)'\) must be a constant computable at compile time")


def bindable_inputs(test_dir, err):
    """Graph inputs that the compile error needs as constants, when every data set feeds them
    the same value: {index among the graph's non-initializer inputs: name}. An error that
    needs a computed value constant without naming a graph input (Range bounds computed from
    an input: the _expanded tests of the window functions; a Loop trip count computed from
    inputs: Range's _expanded tests) binds every scalar input instead."""
    names = set(CONST_INPUT_RE.findall(err))
    scalars = not names and "must be compile-time constants" in err
    if not names and not scalars:
        return {}
    try:
        import onnx
    except ImportError:
        return {}
    graph = onnx.load(os.path.join(test_dir, "model.onnx")).graph
    inits = {t.name for t in graph.initializer}
    inputs = [i.name for i in graph.input if i.name not in inits]
    if names and not names & set(inputs):
        scalars = True
    if scalars:
        names = {i.name for i in graph.input if i.name not in inits and
                 all(d.HasField("dim_value") and d.dim_value == 1
                     for d in i.type.tensor_type.shape.dim)}
        if not names:
            return {}
    bound = {}
    for k, n in enumerate(inputs):
        if n not in names:
            continue
        files = glob.glob(os.path.join(test_dir, "test_data_set_*", f"input_{k}.pb"))
        contents = {open(f, "rb").read() for f in files}
        if len(contents) != 1:
            return {}
        bound[k] = n
    return bound if len(bound) == len(names) else {}


def compile_model(test_dir, args, lib, bound):
    cmd = [args.tlc, os.path.join(test_dir, "model.onnx"), "--shared", "-o", lib,
           "--name", "model"]
    for k, n in sorted(bound.items()):
        cmd += ["--constant-input",
                f"{n}={os.path.join(test_dir, 'test_data_set_0', f'input_{k}.pb')}"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)


def run_test(test_dir, args, workdir):
    name = os.path.basename(test_dir)
    lib = os.path.join(workdir, name + ".so")
    start = time.time()
    # Inputs that must be compile-time constants (shapes, axes, pads fed as inputs) are bound
    # to the test's value with --constant-input (the model is specialized to it) when all data
    # sets agree on it; the table names them.
    bound = {}
    try:
        for _ in range(8):
            p = compile_model(test_dir, args, lib, bound)
            more = bindable_inputs(test_dir, p.stderr) if p.returncode != 0 else {}
            if not more or set(more) <= set(bound):
                break
            bound.update(more)
    except subprocess.TimeoutExpired:
        return name, "fail", "compile timed out", time.time() - start
    if p.returncode != 0:
        err = p.stderr
        if any(k in err for k in UNSUPPORTED_MARKERS):
            # Collect the distinct unsupported things for the table.
            what = sorted(set(re.findall(r"error: (.*)", err)))
            return name, "unsupported", "; ".join(what)[:200], time.time() - start
        return name, "fail", "compile: " + first_error(err)[:200], time.time() - start
    status = "pass"
    detail = ("constant inputs: " + ", ".join(n for _, n in sorted(bound.items()))) if bound else ""
    for data_set in sorted(glob.glob(os.path.join(test_dir, "test_data_set_*"))):
        inputs = sorted(glob.glob(os.path.join(data_set, "input_*.pb")),
                        key=lambda s: int(re.findall(r"(\d+)\.pb$", s)[0]))
        outputs = sorted(glob.glob(os.path.join(data_set, "output_*.pb")),
                         key=lambda s: int(re.findall(r"(\d+)\.pb$", s)[0]))
        cmd = [args.tlc_run, lib, "--name", "model", "--quiet", "--rtol", str(args.rtol),
               "--atol", str(args.atol)]
        for i in inputs:
            if int(re.findall(r"(\d+)\.pb$", i)[0]) not in bound:
                cmd += ["--input", i]
        for o in outputs:
            cmd += ["--expect", o]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            status, detail = "fail", "run timed out"
            break
        if r.returncode != 0:
            status = "fail"
            detail = first_error(r.stdout + r.stderr)[:200] or f"exit {r.returncode}"
            break
    try:
        os.unlink(lib)
    except OSError:
        pass
    return name, status, detail, time.time() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-5)
    ap.add_argument("--filter", default="", help="regex on test names")
    ap.add_argument("--table", help="write the Markdown table here")
    ap.add_argument("--write-passing", help="write the names of passing tests here")
    ap.add_argument("--check", help="run only the tests listed here; fail unless all pass")
    args = ap.parse_args()

    if not os.path.isdir(args.data):
        print(f"conformance: no test data at {args.data} (install libonnx-testdata)")
        return 2
    tests = sorted(d for d in glob.glob(os.path.join(args.data, "*"))
                   if os.path.isfile(os.path.join(d, "model.onnx")))
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, os.path.basename(t))]
    listed = None
    if args.check:
        with open(args.check) as f:
            listed = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        names = set(listed)
        tests = [t for t in tests if os.path.basename(t) in names]
        missing = names - {os.path.basename(t) for t in tests}
        if missing:
            print("conformance: listed tests not found:", ", ".join(sorted(missing)))
            return 1

    results = []
    with tempfile.TemporaryDirectory(prefix="tlc-conformance-") as workdir:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_test, t, args, workdir) for t in tests]
            for f in concurrent.futures.as_completed(futures):
                results.append(f.result())
    results.sort()
    counts = {k: sum(1 for r in results if r[1] == k) for k in ("pass", "fail", "unsupported")}
    summary = (f"{counts['pass']} pass, {counts['fail']} fail, {counts['unsupported']} "
               f"unsupported of {len(results)}")
    print("conformance:", summary)

    if args.table:
        with open(args.table, "w") as f:
            f.write("# ONNX backend node tests (libonnx-testdata 1.12)\n\n")
            f.write("Generated by `test/onnx/conformance.py`; tolerances rtol "
                    f"{args.rtol}, atol {args.atol}.\n\n**{summary}**\n\n")
            f.write("| test | result | detail |\n|---|---|---|\n")
            for name, status, detail, _ in results:
                detail = detail.replace("|", "\\|")
                f.write(f"| {name} | {status} | {detail} |\n")
    if args.write_passing:
        with open(args.write_passing, "w") as f:
            f.write("# ONNX node tests tlc passes; the CI gate (onnx-conformance.test) "
                    "fails if one regresses.\n")
            for name, status, _, _ in results:
                if status == "pass":
                    f.write(name + "\n")
    if listed is not None:
        bad = [r for r in results if r[1] != "pass"]
        for name, status, detail, _ in bad:
            print(f"REGRESSION {name}: {status}: {detail}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
