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
