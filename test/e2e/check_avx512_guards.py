#!/usr/bin/python3
"""Lint: every lit RUN line that runs AVX-512 code natively (an x86-64-v4 / AVX-512 CPU passed to
a harness that executes what it compiles) is guarded by `%if cpu-x86-64-v4` or sits in a file
that `REQUIRES: cpu-x86-64-v4`, so the suite passes on AVX2-only hosts (Zen 3 VMs run CI too).

  check_avx512_guards.py TEST_DIR...   prints 'ok N files' or one line per unguarded RUN, exit 1
"""
import pathlib
import re
import sys

# Harnesses that execute the code they compile (tlc alone only compiles).
RUNNERS = re.compile(r"run_e2e\.py|check_\w+\.py|%tlc_run|tlc-run|model_survey\.py|bench\.py")
AVX512_CPU = re.compile(r"--cpu[= ](\S*,)?(x86-64-v4|znver4|skylake-avx512|sapphirerapids)\b")


def unguarded(path):
    text = path.read_text()
    if re.search(r"REQUIRES:.*\bcpu-x86-64-v4\b", text):
        return []
    bad = []
    for number, line in enumerate(text.splitlines(), 1):
        if "RUN:" in line and RUNNERS.search(line) and AVX512_CPU.search(line) \
                and "%if cpu-x86-64-v4" not in line:
            bad.append("%s:%d: runs AVX-512 code without %%if cpu-x86-64-v4" % (path, number))
    return bad


def main():
    files = [p for d in sys.argv[1:] for p in sorted(pathlib.Path(d).rglob("*"))
             if p.suffix in (".test", ".mlir", ".tl") and "Inputs" not in p.parts]
    bad = [line for p in files for line in unguarded(p)]
    print("\n".join(bad) if bad else "ok %d files" % len(files))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
