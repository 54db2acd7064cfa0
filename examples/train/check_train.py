#!/usr/bin/python3
"""Runs the training example (examples/train/main.c) and checks what it prints: the loss falls
from about log(3) to below 0.1, the final accuracy is at least 0.95, and the state saved and
reloaded halfway is identical, and the inference from the trained state (spiral_run) classifies
at least 0.95 of the points."""
import re
import subprocess
import sys
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    out = subprocess.run([sys.argv[1], tmp + "/spiral.state"], check=True, capture_output=True,
                         text=True).stdout
print(out, end="")
losses = [float(v) for v in re.findall(r"^step +\d+ +loss ([0-9.]+)", out, re.M)]
final = re.search(r"final loss ([0-9.]+) +accuracy ([0-9.]+)", out)
problems = []
if len(losses) != 11 or not 0.9 < losses[0] < 1.5:
    problems.append("expected 11 loss lines starting near log(3), got %s" % losses)
if not final or float(final.group(1)) >= 0.1 or float(final.group(2)) < 0.95:
    problems.append("the final loss must be < 0.1 and the accuracy >= 0.95")
infer = re.search(r"inference from the trained state: accuracy ([0-9.]+)", out)
if not infer or float(infer.group(1)) < 0.95:
    problems.append("the inference from the trained state must classify >= 0.95 of the points")
if "state: identical" not in out:
    problems.append("the reloaded state differs from the saved one")
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
