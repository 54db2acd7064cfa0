#!/usr/bin/python3
"""Compile time of tlc on every torchvision classification model (issue 21: each under 10 s).

  /usr/bin/python3 benchmarks/compile_survey.py --tlc build/bin/tlc [--tlc old/tlc] \\
      [--models resnet18,densenet121,...] [--runs 2] [--cache DIR] [--timeout 600] \\
      [--export-only] [-- extra tlc flags]

Exports each model once into its folder of --cache (random weights, seed 0, input 1x3x224x224, opset 13, the
same files as `bench.py --export-onnx`; all exports happen before the first compile, so they do
not load the machine during the timings), then compiles `tlc MODEL.onnx -o MODEL.o` --runs
times with each --tlc binary, the binaries alternated per run so that load on a shared machine
affects them alike. One further run of the first binary with `--time-report` splits the time
into tlc's own passes and LLVM (optimization and code generation). Prints a Markdown table:
the ONNX file's size, the median wall seconds per binary (and their ratio to the first), the
median CPU seconds of the first (all threads), LLVM's share of the wall time, and whether the
first binary stays under --limit seconds. A failed or timed-out compile, or a model PyTorch
cannot export, is a row saying so.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# A line of --time-report: "  user (pct)  wall (pct)  name".
STAGE = re.compile(r"^\s+[\d.]+ \(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)  ( *\S.*)$")


def all_models():
    import torchvision
    return torchvision.models.list_models(module=torchvision.models)


def export(name, path):
    from bench import export_onnx
    export_onnx({"kind": "model", "name": name}, path)


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compile_once(tlc, onnx, out, extra, timeout):
    """(wall s, CPU s, None) of one compile, or (None, None, why) when it fails."""
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    try:
        run = subprocess.run([tlc, onnx, "-o", out] + extra, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, "over %d s" % timeout
    wall = time.perf_counter() - t0
    if run.returncode:
        lines = run.stderr.strip().splitlines() or ["exit %d" % run.returncode]
        return None, None, lines[-1][:120]
    return wall, cpu_seconds() - cpu0, None


def llvm_share(tlc, onnx, out, extra, timeout):
    """LLVM's wall seconds over the whole wall time in --time-report."""
    try:
        run = subprocess.run([tlc, onnx, "-o", out, "--time-report"] + extra,
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return float("nan")
    llvm = total = float("nan")
    for line in run.stderr.splitlines():
        m = STAGE.match(line)
        if not m:
            continue
        name = m.group(2).strip()
        if name.startswith("LLVM:"):
            llvm = float(m.group(1))
        elif name == "Total":
            total = float(m.group(1))
    return llvm / total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlc", action="append", required=True)
    ap.add_argument("--models", default="")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--cache", default="/tmp/tlc-compile-survey")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--export-only", action="store_true")
    ap.add_argument("extra", nargs="*", help="extra tlc flags (after --)")
    args = ap.parse_args()
    names = args.models.split(",") if args.models else all_models()
    os.makedirs(args.cache, exist_ok=True)
    unexported = {}
    for name in names:
        os.makedirs(os.path.join(args.cache, name), exist_ok=True)
        path = os.path.join(args.cache, name, name + ".onnx")
        failed = path + ".export-failed"  # the exporter's message, kept for later runs
        if os.path.exists(failed):
            with open(failed) as f:
                unexported[name] = f.read()
        elif not os.path.exists(path):
            print("exporting %s" % name, file=sys.stderr, flush=True)
            try:
                export(name, path)
            except Exception as e:  # the exporter's failure is a row of the table
                unexported[name] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:100])
                with open(failed, "w") as f:
                    f.write(unexported[name])
                if os.path.exists(path):
                    os.remove(path)
    if args.export_only:
        return 0
    out = os.path.join(args.cache, "survey.o")
    heads = ["model", "ONNX MB"] + ["tlc%d s" % i for i in range(len(args.tlc))]
    heads += ["tlc%d / tlc0" % i for i in range(1, len(args.tlc))]
    heads += ["tlc0 CPU s", "LLVM share", "under %g s" % args.limit]
    print("| " + " | ".join(heads) + " |")
    print("|" + "---|" * len(heads))
    over = 0
    for name in names:
        if name in unexported:
            print("| %s | - | PyTorch's export fails (%s) |" % (name, unexported[name]))
            continue
        folder = os.path.join(args.cache, name)  # the model and its external data, if any
        onnx = os.path.join(folder, name + ".onnx")
        size = sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)
                   if not f.endswith(".export-failed"))
        walls = [[] for _ in args.tlc]
        cpus = []
        failed = None
        for _ in range(args.runs):
            for i, tlc in enumerate(args.tlc):
                wall, cpu, why = compile_once(tlc, onnx, out, args.extra, args.timeout)
                if why:
                    failed = failed or "tlc%d: %s" % (i, why)
                    continue
                walls[i].append(wall)
                if i == 0:
                    cpus.append(cpu)
        if not walls[0]:
            over += 1
            print("| %s | %.0f | %s |" % (name, size / 1e6, failed), flush=True)
            continue
        med = [statistics.median(w) if w else float("nan") for w in walls]
        share = llvm_share(args.tlc[0], onnx, out, args.extra, args.timeout)
        under = med[0] < args.limit
        over += not under
        row = [name, "%.0f" % (size / 1e6)] + ["%.1f" % m for m in med]
        row += ["%.2f" % (m / med[0]) for m in med[1:]]
        row += ["%.1f" % statistics.median(cpus), "%.0f%%" % (100 * share),
                "yes" if under else "**no**"]
        if failed:
            row[-1] += " (%s)" % failed
        print("| " + " | ".join(row) + " |", flush=True)
    print("\n%d of %d models at or over %g s (or failing) with tlc0" % (over, len(names),
                                                                        args.limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
