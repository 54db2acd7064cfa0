"""Compile one ONNX model with tlc and check it with tlc-run against expected outputs (shared by
the one-node model scripts of test/onnx)."""
import subprocess

import numpy as np


def compile_and_check(tlc, tlc_run, base, inputs, expected, tol, tlc_args=()):
    """Compiles BASE.onnx into BASE.so (tlc_args added), saves the inputs and expected outputs as
    .npy beside it and runs tlc-run with per-element tolerances `tol` (relative and absolute).
    Prints 'NAME: PASS' or 'NAME: FAIL' with tlc-run's output; returns whether it passed."""
    subprocess.run([tlc, base + ".onnx", *tlc_args, "--shared", "-o", base + ".so"], check=True)
    cmd = [tlc_run, base + ".so", "--quiet", "--rtol", str(tol), "--atol", str(tol)]
    for i, v in enumerate(inputs):
        np.save("%s.in%d.npy" % (base, i), v)
        cmd += ["--input", "%s.in%d.npy" % (base, i)]
    for i, e in enumerate(expected):
        np.save("%s.expected%d.npy" % (base, i), e)
        cmd += ["--expect", "%s.expected%d.npy" % (base, i)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    ok = run.returncode == 0 and "PASS" in run.stdout
    name = base.rsplit("/", 1)[-1]
    print("%s: %s" % (name, "PASS" if ok else "FAIL " + run.stdout + run.stderr), flush=True)
    return ok


class Const:
    """An input given as an initializer (a compile-time constant)."""

    def __init__(self, value):
        self.value = value


def checker_args(description, extra=None):
    """The command line of a checker: --tlc T --tlc-run R --out DIR [--target T] [--emit-tl]
    (DIR is created), plus what `extra(parser)` adds."""
    import argparse
    import os
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--emit-tl", action="store_true")
    ap.add_argument("--target", default="x86_64")
    if extra:
        extra(ap)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    return args


def run_node_cases(description, cases, opset, tol=0.0, skip=None):
    """The command line of a one-node-model checker: --tlc T --tlc-run R --out DIR [--target T]
    [--emit-tl]. `cases` yields (op, attrs, inputs, expected outputs), inputs numpy arrays or
    Consts; each becomes NAME.onnx (NAME: the op in lower case and a count), compiled and checked
    (tolerance `tol`, or tol(dtype) if callable; an op "DOMAIN::Op" is version 1 of DOMAIN), printing `NAME: PASS`/`FAIL`; with --emit-tl,
    `NAME:` and tlc's --emit=tl output; `opset` may be a function of the op; skip(inputs, target), if given, names a reason to print
    `NAME: SKIP on TARGET` instead of running. Returns the exit status."""
    import os

    import onnx
    from onnx import helper, numpy_helper
    args = checker_args(description)
    types = {np.dtype(np.bool_): onnx.TensorProto.BOOL, np.dtype(np.float32): onnx.TensorProto.FLOAT,
             np.dtype(np.float64): onnx.TensorProto.DOUBLE,
             np.dtype(np.int32): onnx.TensorProto.INT32, np.dtype(np.int64): onnx.TensorProto.INT64,
             np.dtype(np.int8): onnx.TensorProto.INT8, np.dtype(np.uint8): onnx.TensorProto.UINT8,
             np.dtype(np.int16): onnx.TensorProto.INT16, np.dtype(np.uint16): onnx.TensorProto.UINT16,
             np.dtype(np.uint32): onnx.TensorProto.UINT32}
    status, seen = 0, {}
    for op, attrs, inputs, expected in cases:
        # "DOMAIN::Op" for an operator outside the default domain (version 1 of it).
        domain, _, op = op.rpartition("::")
        seen[op] = seen.get(op, 0) + 1
        name = "%s%d" % (op.lower(), seen[op])
        names = [("x%d" % i) if v is not None else "" for i, v in enumerate(inputs)]
        outs = ["y%d" % i for i in range(len(expected))]
        inits = [numpy_helper.from_array(v.value, n) for n, v in zip(names, inputs)
                 if isinstance(v, Const)]
        graph = helper.make_graph(
            [helper.make_node(op, names, outs, name=name, domain=domain or None, **attrs)], name,
            [helper.make_tensor_value_info(n, types[v.dtype], v.shape)
             for n, v in zip(names, inputs) if v is not None and not isinstance(v, Const)],
            [helper.make_tensor_value_info(n, types[e.dtype], e.shape)
             for n, e in zip(outs, expected)], inits)
        inputs = [v for v in inputs if v is not None and not isinstance(v, Const)]
        version = opset(op) if callable(opset) else opset
        imports = [helper.make_opsetid("", version)]
        if domain:
            imports.append(helper.make_opsetid(domain, 1))
        model = helper.make_model(graph, opset_imports=imports)
        base = os.path.join(args.out, name)
        onnx.save(model, base + ".onnx")
        if skip and skip(inputs, args.target):
            print("%s: SKIP on %s" % (name, args.target), flush=True)
            continue
        if args.emit_tl:
            print(name + ":", flush=True)
            print(subprocess.run([args.tlc, base + ".onnx", "--emit=tl", "-o", "-"], check=True,
                                 capture_output=True, text=True).stdout, flush=True)
            continue
        t = tol(expected[0].dtype) if callable(tol) else tol
        status |= not compile_and_check(args.tlc, args.tlc_run, base, inputs, expected, t,
                                        ("--target", args.target))
    return status
