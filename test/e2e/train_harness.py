"""Trains a model compiled with a training step through its C training ABI (NAME_init_state,
NAME_train_step) from a generated C program: shared by check_training.py and
check_onnx_training.py."""
import argparse
import os
import shlex
import subprocess

import numpy as np

HARNESS = r"""
#include <stdio.h>
#include <stdlib.h>
#include "NAME.h"
/* Trains NAME for STEPS steps on the batches in batches.bin (x then labels per step) with the
 * learning rates in lr.bin; writes the losses, then the final state, to result.bin, then what
 * NAME_run (the inference from the trained state) computes from the last batch. */
int main(void) {
  enum { STEPS = NSTEPS, XN = UPPER_INPUT_X_NUMEL, LN = UPPER_INPUT_LABELS_NUMEL };
  static float x[STEPS][XN], lrs[STEPS], losses[STEPS];
  static int64_t labels[STEPS][LN];
  EXTRA_DECLS
  FILE *f = fopen("batches.bin", "rb");
  for (int t = 0; t < STEPS; ++t)
    if (fread(x[t], sizeof(float), XN, f) != XN || fread(labels[t], sizeof(int64_t), LN, f) != LN)
      return 2;
  fclose(f);
  f = fopen("lr.bin", "rb");
  if (fread(lrs, sizeof(float), STEPS, f) != STEPS)
    return 2;
  fclose(f);
  void *state = aligned_alloc(64, UPPER_STATE_SIZE);
  void *workspace = aligned_alloc(64, UPPER_TRAIN_WORKSPACE_SIZE);
  NAME_init_state(state);
  for (int t = 0; t < STEPS; ++t)
    if (NAME_train_step(state, x[t], labels[t], lrs[t], t + 1, &losses[t]EXTRA_ARGS, workspace) !=
        TLC_STATUS_OK)
      return 3;
  f = fopen("result.bin", "wb");
  fwrite(losses, sizeof(float), STEPS, f);
  fwrite(state, 1, UPPER_STATE_SIZE, f);
  INFER
  fclose(f);
  return 0;
}
"""


def infer_call(upper, name, inputs, outputs):
    """C code that calls NAME_run(state, INPUTS of the last batch, OUTPUTS, workspace) and
    appends the outputs (float buffers) to result.bin (open as f)."""
    code = ["void *infer_ws = aligned_alloc(64, %s_WORKSPACE_SIZE ? %s_WORKSPACE_SIZE : 64);"
            % (upper, upper)]
    code += ["static float infer_%s[%s_OUTPUT_%s_NUMEL];" % (o, upper, o.upper()) for o in outputs]
    args = ["state"] + ["%s[STEPS - 1]" % i for i in inputs] + ["infer_" + o for o in outputs]
    code.append("if (%s_run(%s, infer_ws) != TLC_STATUS_OK) return 4;" % (name, ", ".join(args)))
    code += ["fwrite(infer_%s, sizeof(float), %s_OUTPUT_%s_NUMEL, f);" % (o, upper, o.upper())
             for o in outputs]
    return "\n  ".join(code)


def train_through_c_abi(args, tmp, name, batches, lrs, extra_outputs=(), infer=None):
    """Builds and runs the harness for `name` (tmp/NAME.o and tmp/NAME.h already compiled): one
    step per (x, labels) batch at the learning rates `lrs`. `extra_outputs` names the outputs
    after the loss (float buffers). `infer`, a dict {"inputs": [...], "outputs": [...]}, has
    NAME_run (the inference from the trained state) run on the last batch's inputs named
    (x, labels); its float outputs are returned in infer["got"] = {name: float32 array (flat)}.
    Returns the losses (float64) and the final state as {state tensor name: float32 array
    (flat)}."""
    upper = name.upper()
    decls = " ".join("static float %s[%s_OUTPUT_%s_NUMEL];" % (o, upper, o.upper())
                     for o in extra_outputs)
    # The step is NAME_train (NAME_train_run): its outputs' macros are NAME_TRAIN_OUTPUT_*.
    decls = decls.replace("%s_OUTPUT_" % upper, "%s_TRAIN_OUTPUT_" % upper)
    src = (HARNESS.replace("NSTEPS", str(len(batches))).replace("EXTRA_DECLS", decls)
           .replace("EXTRA_ARGS", "".join(", " + o for o in extra_outputs))
           .replace("INFER", infer_call(upper, name, infer["inputs"], infer["outputs"])
                    if infer else "")
           .replace("UPPER_INPUT_", "UPPER_TRAIN_INPUT_")
           .replace("UPPER", upper).replace("NAME", name))
    with open(os.path.join(tmp, "main.c"), "w") as f:
        f.write(src)
    with open(os.path.join(tmp, "batches.bin"), "wb") as f:
        for x, y in batches:
            f.write(x.tobytes())
            f.write(y.tobytes())
    np.array(lrs, np.float32).tofile(os.path.join(tmp, "lr.bin"))
    subprocess.run(shlex.split(args.cc) + [
        "-O2", "-std=c11", "-I", os.path.abspath(args.include), "-I", tmp, "main.c", name + ".o",
        os.path.abspath(args.runtime_lib), "-o", "harness", "-lm", "-lpthread"], check=True, cwd=tmp)
    subprocess.run(["./harness"], check=True, cwd=tmp)
    raw = np.fromfile(os.path.join(tmp, "result.bin"), np.uint8)
    steps = len(batches)
    losses = raw[:4 * steps].view(np.float32).astype(np.float64)
    blob = raw[4 * steps:]
    prefix = "#define %s_STATE_" % upper
    state = {}
    with open(os.path.join(tmp, name + ".h")) as f:
        header = f.read()
    if infer:
        at = 4 * steps + macro(header, upper + "_STATE_SIZE")
        infer["got"] = {}
        for o in infer["outputs"]:
            n = macro(header, "%s_OUTPUT_%s_NUMEL" % (upper, o.upper()))
            infer["got"][o] = raw[at:at + 4 * n].view(np.float32)
            at += 4 * n
    for line in header.splitlines():
        if line.startswith(prefix) and "_OFFSET" in line:
            key = line.split()[1][len(prefix) - len("#define "):-len("_OFFSET")].lower()
            offset = int(line.split()[2])
            numel = 1
            for d in line.split("[")[1].split("]")[0].split(","):
                numel *= int(d)
            state[key] = blob[offset:offset + 4 * numel].view(np.float32)
    return losses, state


def macro(text, name):
    """The integer value of `#define NAME VALUE` in the header text `text`."""
    prefix = "#define %s " % name
    for line in text.splitlines():
        if line.startswith(prefix):
            return int(line.split()[2])
    raise ValueError("the header has no %s" % name)


def train_workspace_size(header, name):
    """NAME_TRAIN_WORKSPACE_SIZE (bytes: the training step's) from the generated header
    `header`."""
    with open(header) as f:
        return macro(f.read(), "%s_TRAIN_WORKSPACE_SIZE" % name.upper())


def harness_arguments(description):
    """A parser with the options train_through_c_abi reads (--tlc, --runtime-lib, --include,
    --cc), for the scripts to add their own to."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--runtime-lib", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cc", default="cc")
    return ap
