#!/usr/bin/python3
"""Lint: every lit RUN line that runs AVX-512 code natively (an x86-64-v4 / AVX-512 CPU passed to
a harness that executes what it compiles) is guarded by `%if cpu-x86-64-v4` or sits in a file
that `REQUIRES: cpu-x86-64-v4`, so the suite passes on AVX2-only hosts (Zen 3 VMs run CI too);
likewise bf16 code for a CPU with AVX-512 BF16 and `cpu-avx512bf16` (Intel Xeons without it).

  check_avx512_guards.py TEST_DIR...   prints 'ok N files' or one line per unguarded RUN, exit 1
"""
import pathlib
import re
import sys

# Harnesses that execute the code they compile (tlc alone only compiles).
RUNNERS = re.compile(r"run_e2e\.py|check_\w+\.py|%tlc_run|tlc-run|model_survey\.py|bench\.py")
AVX512_CPU = re.compile(r"--cpu[= ](\S*,)?(x86-64-v4|znver4|skylake-avx512|sapphirerapids)\b")


# CPUs with AVX-512 BF16: bf16 contractions compiled for them use vdpbf16ps, which x86-64-v4
# hosts without it (e.g. Skylake and Ice Lake Xeons) do not have.
BF16_CPU = re.compile(r"--cpu[= ](\S*,)?(znver4|znver5|sapphirerapids|native)\b")
BF16_PRECISION = re.compile(r"--precision=(bf16|auto)\b")


def unguarded(path):
    text = path.read_text()
    requires_v4 = re.search(r"REQUIRES:.*\bcpu-x86-64-v4\b", text)
    requires_bf16 = re.search(r"REQUIRES:.*\bcpu-avx512bf16\b", text)
    bad = []
    for number, line in enumerate(text.splitlines(), 1):
        if "RUN:" not in line or not RUNNERS.search(line):
            continue
        if not requires_v4 and AVX512_CPU.search(line) and "%if cpu-x86-64-v4" not in line:
            bad.append("%s:%d: runs AVX-512 code without %%if cpu-x86-64-v4" % (path, number))
        if not requires_bf16 and BF16_CPU.search(line) and BF16_PRECISION.search(line) \
                and "%if cpu-avx512bf16" not in line:
            bad.append("%s:%d: runs AVX-512 BF16 code without %%if cpu-avx512bf16" % (path, number))
    return bad


def main():
    files = [p for d in sys.argv[1:] for p in sorted(pathlib.Path(d).rglob("*"))
             if p.suffix in (".test", ".mlir", ".tl") and "Inputs" not in p.parts]
    bad = [line for p in files for line in unguarded(p)]
    print("\n".join(bad) if bad else "ok %d files" % len(files))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
