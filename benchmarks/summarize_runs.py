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

# Every peer bench.py can run (ort: ONNX Runtime), with its column title.
FRAMEWORKS = [("onednn", "oneDNN"), ("ort", "ONNX Runtime"), ("torch", "PyTorch"), ("numpy", "numpy")]


def fmt_ms(seconds):
    ms = seconds * 1e3
    return "%.3g" % ms if ms < 1000 else "%.0f" % ms


def run_median(case, framework, threads):
    """A framework's median in one run of a case, or None where it did not run or failed."""
    r = case["runs"].get("%s@%d" % (framework, threads))
    return r.get("median") if r else None


def summarize(runs, threads):
    rows = []
    for name in [c["name"] for c in runs[0]["cases"]]:
        cases = [next(c for c in r["cases"] if c["name"] == name) for r in runs]
        present = [c for c in cases if run_median(c, "tlc", threads) is not None]
        if not present:
            continue
        tlc = [run_median(c, "tlc", threads) for c in present]
        # Per run, each other framework's median (None where it has none).
        others = [[run_median(c, fw, threads) for fw, _ in FRAMEWORKS] for c in present]
        cells = []
        for i in range(len(FRAMEWORKS)):
            vals = [o[i] for o in others if o[i] is not None]
            cells.append(fmt_ms(statistics.median(vals)) if vals else "-")
        ratios = [min(v for v in o if v is not None) / t
                  for t, o in zip(tlc, others) if any(v is not None for v in o)]
        ratio = ("%.2fx (%.2f-%.2f)" % (statistics.median(ratios), min(ratios), max(ratios))
                 if ratios else "-")
        fracs = [c["runs"]["tlc@%d" % threads].get("fraction_of_peak") for c in present]
        fracs = [f for f in fracs if f is not None]
        frac = "%d%%" % round(100 * statistics.median(fracs)) if fracs else "-"
        rows.append("| %s | %s | %s | %s | %s |" % (
            cases[0]["label"], fmt_ms(statistics.median(tlc)), " | ".join(cells), frac, ratio))
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
        titles = " | ".join(title for _, title in FRAMEWORKS)
        print("| case | tlc | %s | tlc %% of ceiling | tlc vs best other |" % titles)
        print("|---|---|%s---|---|" % ("---|" * len(FRAMEWORKS)))
        print("\n".join(summarize(runs, t)))
        print()


if __name__ == "__main__":
    main()
