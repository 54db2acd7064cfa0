#!/usr/bin/env python3
"""Compile time of tlc: wall time of whole runs (process start to exit) and of each stage.

Runs every given tlc binary on a model, interleaved so that load on a shared machine affects
them alike, and reports medians:

  /usr/bin/python3 benchmarks/compile_time.py --tlc build/bin/tlc [--tlc other/tlc] \
      [--model examples/mlp.tl] [--runs 30] [-- extra tlc flags]

Rows: `--version` (process start and exit alone), the compile `-o m.o` (wall, then CPU time:
on a shared machine the CPU time varies less), and the stages of `--time-report` (a separate
set of runs, since the report itself costs a little).
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# A top-level stage of --time-report: "  user (pct)  wall (pct)  name", the name indented by
# two spaces (nested passes are indented further).
STAGE = re.compile(r"^\s+[\d.]+ \(\s*[\d.]+%\)\s+([\d.]+) \(\s*[\d.]+%\)  ( *\S.*)$")


def cpu_ms():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1e3


def wall(cmd, cpu=None):
    """Wall ms of one run; appends its CPU ms (user + system, all threads) to `cpu`."""
    cpu_start = cpu_ms()
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    elapsed = (time.perf_counter() - start) * 1e3
    if cpu is not None:
        cpu.append(cpu_ms() - cpu_start)
    return elapsed


def stages(cmd):
    """Wall ms of each stage printed by --time-report, and of what is nested one level in it
    (as "stage > name", summed over repeats such as several canonicalizer runs)."""
    out = subprocess.run(cmd + ["--time-report"], check=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr
    result = {}
    stage = None
    for line in out.splitlines():
        m = STAGE.match(line)
        if not m:
            continue
        name = m.group(2)
        depth = (len(name) - len(name.lstrip(" "))) // 2
        ms = float(m.group(1)) * 1e3
        if depth == 0:
            stage = name.strip()
            result[stage] = ms
        elif depth == 1 and stage:
            key = f"{stage} > {name.strip()}"
            result[key] = result.get(key, 0.0) + ms
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tlc", action="append", required=True,
                        help="a tlc binary (repeat to compare several in the same run)")
    parser.add_argument("--model", default=os.path.join(os.path.dirname(__file__), "..",
                                                        "examples", "mlp.tl"))
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("extra", nargs="*", help="extra tlc flags (after --)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "m.o")
        version = {b: [] for b in args.tlc}
        compile_ = {b: [] for b in args.tlc}
        compile_cpu = {b: [] for b in args.tlc}
        staged = {b: {} for b in args.tlc}
        cmd = lambda b: [b, args.model, "-o", out] + args.extra
        for b in args.tlc:  # warm the page cache
            wall(cmd(b))
        for _ in range(args.runs):
            for b in args.tlc:
                version[b].append(wall([b, "--version"]))
                compile_[b].append(wall(cmd(b), compile_cpu[b]))
                for name, ms in stages(cmd(b)).items():
                    staged[b].setdefault(name, []).append(ms)

    med = statistics.median
    print(f"model {os.path.relpath(args.model)}, {args.runs} runs each, medians in ms "
          f"(min in parentheses)")
    print("| | " + " | ".join(args.tlc) + " |")
    print("|---" * (len(args.tlc) + 1) + "|")
    row = lambda label, series: print(f"| {label} | " + " | ".join(
        f"{med(s):.1f} ({min(s):.1f})" for s in series) + " |")
    row("tlc --version", [version[b] for b in args.tlc])
    row(f"tlc {os.path.basename(args.model)} -o m.o", [compile_[b] for b in args.tlc])
    row("  its CPU time (user + system)", [compile_cpu[b] for b in args.tlc])
    names = []
    for b in args.tlc:
        names += [n for n in staged[b] if n not in names]
    for name in names:
        series = [staged[b].get(name) for b in args.tlc]
        print(f"| {name} | " + " | ".join(
            f"{med(s):.1f}" if s else "-" for s in series) + " |")


if __name__ == "__main__":
    sys.exit(main())
