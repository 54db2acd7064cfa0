#!/usr/bin/python3
"""Times compiled models in alternation with tlc-run, to compare builds on a noisy machine:
each round runs every library once (`--repeat` timed calls after `--warmup`, tlc-run's
median), starting one library later than the round before, and the report gives each
library's median and minimum over the rounds.

  benchmarks/alternate_runs.py --tlc-run build/bin/tlc-run --threads 1 --rounds 10 \\
      old.so:gelu new.so:gelu relu.so:relu

A library is `PATH` (its model name is the file stem) or `PATH:NAME`.
"""
import argparse
import os
import re
import statistics
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--threads", default="1")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("libs", nargs="+")
    args = ap.parse_args()
    env = dict(os.environ, TLC_NUM_THREADS=args.threads)
    libs = []
    for spec in args.libs:
        path, _, name = spec.partition(":")
        libs.append((spec, path, name or os.path.splitext(os.path.basename(path))[0]))
    times = {spec: [] for spec, _, _ in libs}
    for r in range(args.rounds):
        # Each round starts one library later: the position in a round biases its time (on
        # the 2026-11-26 VM the first run of a round was 2-3% faster, and at 1 thread runs
        # alternated between two speeds), so the libraries take the positions in turn.
        for spec, path, name in libs[r % len(libs):] + libs[:r % len(libs)]:
            out = subprocess.run([args.tlc_run, path, "--name", name, "--repeat", str(args.repeat),
                                  "--warmup", str(args.warmup)],
                                 capture_output=True, text=True, env=env, check=True).stdout
            times[spec].append(float(re.search(r"median ([0-9.]+) ms", out).group(1)))
    print("threads %s, %d rounds, ms" % (args.threads, args.rounds))
    for spec, _, _ in libs:
        t = times[spec]
        print("%-24s median %.3f  min %.3f  (%s)" % (spec, statistics.median(t), min(t),
                                                     " ".join("%.3f" % v for v in t)))


if __name__ == "__main__":
    main()
