#!/usr/bin/python3
"""Torchvision models beyond the harness's three: tlc against PyTorch 1.13 and ONNX Runtime, to
find the models (and so the layers) where tlc falls behind what users would run instead.

  benchmarks/model_survey.py --tlc build/bin/tlc --tlc-run build/bin/tlc-run \\
      [--models resnext50_32x4d,regnet_y_400mf,...] [--threads 1] [--repeats 20] [--rounds 1]
      [--out DIR]

Per model (random weights, seed 0, input 1x3x224x224, 299x299 for inception_v3): exports the
ONNX file, compiles it with `tlc --cpu native --shared`, checks tlc's output against PyTorch's
float64 output (max error over max magnitude at most --max-rel), then times both at
--threads threads: tlc with tlc-run (median of --repeats calls after warm-up), PyTorch eager
in this process (torch.set_num_threads, no grad; median of --repeats calls after 3), ONNX
Runtime on the same ONNX file through bench.py's Node.js peer (benchmarks/peers/ort: intra-op
threads = --threads, all graph optimizations, seeded random inputs; its column says why where
Node.js or onnxruntime-node is missing). Prints a Markdown table: compile seconds, the three
medians, PyTorch / tlc and ONNX Runtime / tlc (> 1: tlc is faster). With --rounds N, tlc
and ONNX Runtime run alternately N times: their columns are the medians of the rounds'
medians, ONNX Runtime / tlc the median of the rounds' ratios and their range. It is
a survey, not the harness: one process, no load checks, the torch timings taken right after
tlc's; compare ratios, not absolute times.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

from bench import child_times, ort_command, ort_missing

DEFAULT_MODELS = ("resnet50,resnext50_32x4d,wide_resnet50_2,regnet_y_400mf,densenet121,"
                  "googlenet,squeezenet1_1,shufflenet_v2_x1_0,mobilenet_v3_large,mnasnet1_0,"
                  "efficientnet_b0")


def tlc_median(stdout):
    """The median tlc-run printed, in ms (NaN if it printed none)."""
    median = re.search(r"median ([0-9.]+) ms", stdout)
    return float(median.group(1)) if median else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=1,
                    help="alternate tlc and ONNX Runtime this many times; the times are the "
                    "medians of the rounds' medians, ort / tlc the median of the rounds' "
                    "ratios with their range (a shared machine's load comes and goes)")
    ap.add_argument("--max-rel", type=float, default=1e-4)
    ap.add_argument("--out", default="model-survey")
    args = ap.parse_args()
    os.environ["OMP_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"] = str(args.threads)
    import numpy as np
    import torch
    import torchvision
    torch.set_num_threads(args.threads)
    torch.set_grad_enabled(False)
    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ, TLC_NUM_THREADS=str(args.threads))
    print("threads %d; times are medians in ms\n" % args.threads)
    ort_why = ort_missing()
    if ort_why:
        print("ONNX Runtime: not run (%s)\n" % ort_why)
    print("| model | compile s | tlc | torch | ort | torch / tlc | ort / tlc | output |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.models.split(","):
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)().eval()
        size = 299 if name == "inception_v3" else 224
        x = torch.randn(1, 3, size, size)
        base = os.path.join(args.out, name)
        torch.onnx.export(model, x, base + ".onnx", opset_version=13, input_names=["x"],
                          output_names=["y"])
        expected = model.double()(x.double())
        model.float()
        np.save(base + ".x.npy", x.numpy())
        np.save(base + ".y.npy", expected.float().numpy())
        t0 = time.perf_counter()
        built = subprocess.run([args.tlc, base + ".onnx", "--cpu", "native", "--shared",
                                "-o", base + ".so", "--name", "m"],
                               capture_output=True, text=True)
        compile_s = time.perf_counter() - t0
        if built.returncode:
            print("| %s | fails: %s | | | | | | |" % (name, built.stderr.strip().splitlines()[-1]))
            continue
        run = subprocess.run([args.tlc_run, base + ".so", "--name", "m", "--input",
                              base + ".x.npy", "--expect", base + ".y.npy", "--max-rel",
                              str(args.max_rel), "--repeat", str(args.repeats), "--warmup", "3"],
                             capture_output=True, text=True, env=env)
        tlc_rounds = [tlc_median(run.stdout)]
        verdict = "ok" if run.returncode == 0 else "MISMATCH"
        for _ in range(3):
            model(x)
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - t0) * 1e3)
        torch_ms = statistics.median(times)
        ort_rounds, ort_cell = [], "n/a"
        for r in range(max(1, args.rounds)):
            if r > 0:
                again = subprocess.run([args.tlc_run, base + ".so", "--name", "m", "--repeat",
                                        str(args.repeats), "--warmup", "3"],
                                       capture_output=True, text=True, env=env)
                tlc_rounds.append(tlc_median(again.stdout))
            if ort_why or ort_cell.startswith("fails"):
                continue
            ort = subprocess.run(ort_command(base + ".onnx", args.threads, args.repeats,
                                             [tuple(x.shape)]),
                                 capture_output=True, text=True, env=env)
            if ort.returncode == 0:
                ort_rounds.append(1e3 * statistics.median(child_times(ort.stdout)[0]))
            else:
                ort_cell = "fails: " + (ort.stderr.strip().splitlines() or ["?"])[-1]
        tlc_ms = statistics.median(tlc_rounds)
        ratio_cell = "-"
        if ort_rounds and not ort_cell.startswith("fails"):
            ort_cell = "%.2f" % statistics.median(ort_rounds)
            ratios = [o / t for o, t in zip(ort_rounds, tlc_rounds)]
            ratio_cell = "%.2fx" % statistics.median(ratios)
            if len(ratios) > 1:
                ratio_cell += " (%.2f-%.2f)" % (min(ratios), max(ratios))
        print("| %s | %.1f | %.2f | %.2f | %s | %.2fx | %s | %s |" % (
            name, compile_s, tlc_ms, torch_ms, ort_cell, torch_ms / tlc_ms, ratio_cell,
            verdict), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
