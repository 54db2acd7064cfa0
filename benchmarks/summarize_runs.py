#!/usr/bin/python3
"""Summarizes several runs of bench.py (their bench.json) into one Markdown table: per case and
thread count, the median over the runs of each framework's median time, tlc's fraction of the
run's ceiling, and the range over the runs of tlc's ratio to the fastest other framework of the
same run (so a ratio is always taken within one run, never across runs).

  benchmarks/summarize_runs.py run1/bench.json run2/bench.json run3/bench.json
"""
import argparse
import json
import statistics

FRAMEWORKS = ["onednn", "torch", "numpy"]


def fmt_ms(seconds):
    ms = seconds * 1e3
    return "%.3g" % ms if ms < 1000 else "%.0f" % ms


def summarize(runs, threads):
    names = [c["name"] for c in runs[0]["cases"]]
    rows = []
    for name in names:
        cases = [next(c for c in r["cases"] if c["name"] == name) for r in runs]
        key = "tlc@%d" % threads
        present = [c for c in cases if key in c["runs"]]
        if not present:
            continue
        tlc = statistics.median(c["runs"][key]["median"] for c in present)
        frac = statistics.median(c["runs"][key].get("fraction_of_peak") or 0 for c in present)
        others, ratios = [], []
        for fw in FRAMEWORKS:
            k = "%s@%d" % (fw, threads)
            vals = [c["runs"][k]["median"] for c in present if k in c["runs"]]
            others.append(fmt_ms(statistics.median(vals)) if vals else "-")
        for c in present:
            best = min((c["runs"]["%s@%d" % (fw, threads)]["median"] for fw in FRAMEWORKS
                        if "%s@%d" % (fw, threads) in c["runs"]), default=None)
            if best:
                ratios.append(best / c["runs"][key]["median"])
        ratio = ("%.2fx (%.2f-%.2f)" % (statistics.median(ratios), min(ratios), max(ratios))
                 if ratios else "-")
        rows.append("| %s | %s | %s | %s | %s | %d%% | %s |" % (
            cases[0]["label"], fmt_ms(tlc), others[0], others[1], others[2], round(frac * 100),
            ratio))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+", help="bench.json files of bench.py runs")
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    runs = [json.load(open(p)) for p in args.json]
    print("%d runs; medians over the runs of each run's median, ms; ratio: tlc vs the fastest "
          "other of the same run, median (min-max) over the runs\n" % len(runs))
    for t in [int(x) for x in args.threads.split(",")]:
        print("%d thread%s\n" % (t, "" if t == 1 else "s"))
        print("| case | tlc | oneDNN | PyTorch | numpy | tlc % of ceiling | tlc vs best other |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(summarize(runs, t)))
        print()


if __name__ == "__main__":
    main()
