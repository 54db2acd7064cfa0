#!/usr/bin/python3
"""Per-layer times of one ONNX model in tlc and in ONNX Runtime, side by side.

  benchmarks/compare_profiles.py MODEL.onnx --tlc build/bin/tlc --tlc-run build/bin/tlc-run \
      [--threads 1] [--rounds 3] [--repeats 100] [--shape 1,3,224,224] [--top 30]
  benchmarks/compare_profiles.py --tlc-profile TLC.txt --ort-profile ORT.json [--top 30]

The first form compiles MODEL with `tlc --profile --cpu native`, then alternates, --rounds
times, `tlc-run --profile` (seeded inputs) and ONNX Runtime's per-node profile of the same file
(benchmarks/peers/ort/ort_bench.js with ORT_PROFILE_PREFIX: intra-op threads = --threads, all
graph optimizations), and takes each row's median over the rounds: on a shared machine whose
speed drifts, profiles taken apart are not comparable. The second form compares a saved
`tlc-run --profile` table with a saved ONNX Runtime profile.

Each ONNX Runtime node is matched to the tlc kernel whose source list names it (ONNX Runtime
names a fused node after its last node's output, e.g. `/features.2/conv.0/Clip_output_0_nchwc`
for the Conv + Clip that ends in `/features.2/conv.0/Clip`); a tlc kernel's row sums the nodes
it covers. Rows are sorted by what tlc loses against ONNX Runtime (ms per run); kernels or nodes
matched to nothing are summed at the end. Both profiles carry their own overhead (ONNX
Runtime's is larger): compare rows, not the totals with unprofiled runs.
"""
import argparse
import collections
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from bench import ORT_DIR, ort_missing


def tlc_kernels(text):
    """(ms per run, kind, [node names]) per kernel of a tlc-run --profile table."""
    kernels = []
    row = re.compile(r"^\s*([0-9.]+)\s+[0-9.]+%\s+\S+\s+\S+\s+(\S+)\s+(.*)$")
    for line in text.splitlines():
        m = row.match(line)
        if m:
            kernels.append((float(m.group(1)), m.group(2),
                            [n.strip() for n in m.group(3).split(" + ")]))
    return kernels


def ort_nodes(path):
    """{node name: (ms per run, op)} of an ONNX Runtime profile, names as the graph's nodes."""
    events = json.load(open(path))
    runs = max(1, sum(1 for e in events if e.get("name") == "model_run"))
    total, ops = collections.defaultdict(float), {}
    for e in events:
        name = e.get("name", "")
        if e.get("cat") == "Node" and name.endswith("_kernel_time"):
            node = name[:-len("_kernel_time")]
            total[node] += e["dur"] / 1e3 / runs
            ops[node] = e.get("args", {}).get("op_name", "?")
    return {n: (t, ops[n]) for n, t in total.items()}, runs


def base_name(node):
    """The ONNX node an ONNX Runtime node name refers to (its fused output's producer)."""
    node = re.sub(r"_nchwc$", "", node)
    return re.sub(r"_output_[0-9]+$", "", node)


def compare(kernels, nodes):
    """Rows (tlc - ort, tlc ms, ort ms, kind, ort ops, first node) of the matched kernels, and
    the unmatched tlc and ONNX Runtime times."""
    owner = {}
    for i, (_, _, names) in enumerate(kernels):
        for n in names:
            owner.setdefault(n, i)
    ort_of = collections.defaultdict(list)
    unmatched_ort = 0.0
    for node, (ms, op) in nodes.items():
        i = owner.get(base_name(node), owner.get(node))
        if i is None:
            unmatched_ort += ms
        else:
            ort_of[i].append((ms, op))
    rows, unmatched_tlc = [], 0.0
    for i, (ms, kind, names) in enumerate(kernels):
        if i not in ort_of:
            unmatched_tlc += ms
            continue
        ort_ms = sum(t for t, _ in ort_of[i])
        ops = "+".join(sorted({op for _, op in ort_of[i]}))
        rows.append((ms - ort_ms, ms, ort_ms, kind, ops, names[0]))
    return rows, unmatched_tlc, unmatched_ort


def profile_rounds(args):
    """Both profiles, alternately, --rounds times: per round (tlc kernels, ONNX Runtime nodes)."""
    why = ort_missing()
    if why:
        sys.exit("compare_profiles.py: ONNX Runtime is not available: " + why)
    env = dict(os.environ, TLC_NUM_THREADS=str(args.threads))
    shape = [int(d) for d in args.shape.split(",")]
    rounds = []
    with tempfile.TemporaryDirectory(prefix="tlc-compare-") as work:
        so = os.path.join(work, "model.so")
        subprocess.run([args.tlc, args.model, "--cpu", "native", "--shared", "--profile", "-o",
                        so, "--name", "m"], check=True)
        for r in range(args.rounds):
            tlc = subprocess.run([args.tlc_run, so, "--name", "m", "--profile", "--warmup", "10",
                                  "--repeat", str(args.repeats)], capture_output=True,
                                 text=True, env=env, check=True).stdout
            prefix = os.path.join(work, "ort%d" % r)
            ort = subprocess.run(["node", os.path.join(ORT_DIR, "ort_bench.js"), args.model,
                                  str(args.threads), str(args.repeats), "1",
                                  json.dumps([shape])],
                                 capture_output=True, text=True,
                                 env=dict(env, ORT_PROFILE_PREFIX=prefix), check=True).stdout
            written = glob.glob(prefix + "_*.json")
            if len(written) != 1:
                sys.exit("compare_profiles.py: ONNX Runtime wrote no profile (%s)" % ort.strip())
            rounds.append((tlc_kernels(tlc), ort_nodes(written[0])[0]))
    return rounds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?")
    ap.add_argument("--tlc")
    ap.add_argument("--tlc-run")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=100)
    ap.add_argument("--shape", default="1,3,224,224")
    ap.add_argument("--tlc-profile")
    ap.add_argument("--ort-profile")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    if args.tlc_profile and args.ort_profile:
        rounds = [(tlc_kernels(open(args.tlc_profile).read()), ort_nodes(args.ort_profile)[0])]
    elif args.model and args.tlc and args.tlc_run:
        rounds = profile_rounds(args)
    else:
        ap.error("give MODEL with --tlc and --tlc-run, or --tlc-profile and --ort-profile")
    if not rounds[0][0]:
        sys.exit("compare_profiles.py: no kernel rows in tlc's profile")
    # Per row (a tlc kernel's first node) and per total, the median over the rounds.
    per_row = collections.defaultdict(list)
    totals = collections.defaultdict(list)
    for kernels, nodes in rounds:
        rows, unmatched_tlc, unmatched_ort = compare(kernels, nodes)
        for loss, ms, ort_ms, kind, ops, name in rows:
            per_row[(name, kind, ops)].append((ms, ort_ms))
        totals["tlc"].append(sum(k[0] for k in kernels))
        totals["ort"].append(sum(t for t, _ in nodes.values()))
        totals["unmatched tlc"].append(unmatched_tlc)
        totals["unmatched ort"].append(unmatched_ort)
    rows = []
    for (name, kind, ops), pairs in per_row.items():
        ms = statistics.median(p[0] for p in pairs)
        ort_ms = statistics.median(p[1] for p in pairs)
        rows.append((ms - ort_ms, ms, ort_ms, kind, ops, name))
    rows.sort(reverse=True)
    med = {k: statistics.median(v) for k, v in totals.items()}
    print("%d round(s), threads %d; per run: tlc kernels %.3f ms, ONNX Runtime nodes %.3f ms "
          "(medians)" % (len(rounds), args.threads, med["tlc"], med["ort"]))
    print()
    print("| tlc - ort ms | tlc ms | ort ms | tlc kind | ort ops | node |")
    print("|---|---|---|---|---|---|")
    for loss, ms, ort_ms, kind, ops, name in rows[:args.top]:
        print("| %+.4f | %.4f | %.4f | %s | %s | %s |" % (loss, ms, ort_ms, kind, ops, name))
    print()
    print("matched rows: tlc %.3f ms, ONNX Runtime %.3f ms; not matched: tlc %.3f ms (kernels "
          "naming no ONNX Runtime node: padding copies, ...), ONNX Runtime %.3f ms" %
          (sum(r[1] for r in rows), sum(r[2] for r in rows), med["unmatched tlc"],
           med["unmatched ort"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
