#!/usr/bin/python3
"""Rematerialization (tlc --remat) changes where forward values come from, never what the step
computes: a training step compiled with each policy (none, cheap, segments=N, auto) takes the
same steps in a C program through the training ABI, and its losses and final state must be
bitwise those of --remat=none; with auto, the planned workspace (NAME_WORKSPACE_SIZE) must
shrink (a fixed policy may not: its size is printed). Models: a 2-layer transformer encoder (attention, layer-norm arithmetic,
GELU MLP, cross-entropy, AdamW; benchmarks/models/gen_transformer_train.py) and the spiral
classifier of examples/train. Prints `PASS remat MODEL POLICY (workspace A -> B bytes)` or FAIL
lines."""
import os
import subprocess
import sys
import tempfile

import numpy as np
from train_harness import harness_arguments, train_through_c_abi, train_workspace_size

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "models"))
import gen_transformer_train  # noqa: E402

STEPS = 3


def run(args, tmp, name, source, policy, batches, extra):
    d = os.path.join(tmp, policy.replace("=", ""))
    os.makedirs(d, exist_ok=True)
    tl = os.path.join(d, name + ".tl")
    with open(tl, "w") as f:
        f.write(source)
    subprocess.run([args.tlc, tl, "--remat=" + policy, "-o", os.path.join(d, name + ".o"),
                    "--header", os.path.join(d, name + ".h")], check=True)
    losses, state = train_through_c_abi(args, d, name, batches, [1e-3] * STEPS, extra)
    return losses, state, train_workspace_size(os.path.join(d, name + ".h"), name)


def main(argv):
    ap = harness_arguments(__doc__.splitlines()[0])
    args = ap.parse_args(argv)
    rng = np.random.default_rng(20261127)
    with open(os.path.join(ROOT, "examples", "train", "spiral.tl")) as f:
        spiral = f.read()
    models = [
        ("encoder", gen_transformer_train.program(2, 2, 16, 32, 2, 8), (2, 16, 32), 32, 8,
         ["cheap", "segments=2", "segments=3", "segments=6", "auto"], ()),
        ("spiral", spiral, (300, 2), 300, 3, ["cheap", "segments=2", "segments=4", "auto"],
         ("logits",)),
    ]
    failures = 0
    for name, source, xshape, nlabels, classes, policies, extra in models:
        batches = [(rng.standard_normal(xshape).astype(np.float32),
                    rng.integers(0, classes, nlabels).astype(np.int64)) for _ in range(STEPS)]
        with tempfile.TemporaryDirectory() as tmp:
            ref_losses, ref_state, ref_ws = run(args, tmp, name, source, "none", batches, extra)
            for policy in policies:
                losses, state, ws = run(args, tmp, name, source, policy, batches, extra)
                same = losses.tobytes() == ref_losses.tobytes() and set(state) == set(ref_state) \
                    and all(state[k].tobytes() == ref_state[k].tobytes() for k in state)
                smaller = ws < ref_ws if policy == "auto" else True
                ok = same and smaller
                failures += not ok
                why = "" if ok else (" (results differ)" if not same else " (did not shrink)")
                print("%s remat %s %s (workspace %d -> %d bytes)%s"
                      % ("PASS" if ok else "FAIL", name, policy, ref_ws, ws, why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
