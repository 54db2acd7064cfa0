"""Compiles a .tl graph with tlc into a shared object and runs it once with tlc-run: the
accuracy checks (check_*_accuracy.py, check_softmax_special.py) share this."""
import os
import subprocess
import tempfile

import numpy as np


def add_tool_arguments(ap):
    """The options every check takes: the tlc and tlc-run binaries and the CPU to compile for."""
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--cpu", default="x86-64-v3")


def evaluate(tlc, tlc_run, cpu, source, inputs, outputs, suffix=".tl"):
    """Compiles `source` (.tl text, or MLIR with suffix=".mlir" and a function @g) for `cpu`,
    runs it on `inputs` (arrays, in the graph's input order) and returns the named `outputs` as
    fp64 arrays."""
    with tempfile.TemporaryDirectory() as tmp:
        tl, so = os.path.join(tmp, "g" + suffix), os.path.join(tmp, "g.so")
        with open(tl, "w") as f:
            f.write(source)
        subprocess.run([tlc, tl, "--cpu=" + cpu, "--shared", "-o", so], check=True)
        cmd = [tlc_run, so, "--name", "g"]
        for i, x in enumerate(inputs):
            path = os.path.join(tmp, "in%d.npy" % i)
            np.save(path, x)
            cmd += ["--input", path]
        subprocess.run(cmd + ["--save-outputs", tmp, "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        return [np.load(os.path.join(tmp, n + ".npy")).astype(np.float64) for n in outputs]
