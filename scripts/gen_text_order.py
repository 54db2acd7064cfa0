#!/usr/bin/env python3
"""Regenerates tools/tlc/text-order.tar.xz: the functions a tlc compile executes, for lld's
--symbol-ordering-file.

tlc's text is ~58 MB of LLVM and MLIR, of which a compile runs ~30k functions scattered
through it; every 64 KiB of text first touched is a page fault. Laid out together (the
link reads this list; tools/tlc/CMakeLists.txt; sorted by name, which also compresses best:
callgrind does not record when a function first ran), the MLP example's compile went 144 -> 132 ms
and `tlc --version` 26.5 -> 20.0 ms (medians of 31 alternating runs, Zen 5 VM).

The list comes from callgrind runs (valgrind; a developer tool, not a build dependency) of
a few representative compiles. A stale list costs nothing but speed: names the link does
not find are ignored, functions not listed follow the listed ones. Rerun after upgrading
LLVM or after large changes to the pipeline:

  /usr/bin/python3 scripts/gen_text_order.py --tlc build/bin/tlc
"""
import argparse
import io
import os
import re
import subprocess
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What the list is measured on: inference from .tl (x86-64 default and AVX-512 code, bf16,
# a shared library), attention, einsum paths, training. Paths relative to the repository.
WORKLOADS = [
    ["examples/mlp.tl", "-o", "{tmp}/a.o"],
    ["examples/mlp.tl", "--cpu=znver4", "--precision=bf16", "-o", "{tmp}/b.o"],
    ["examples/attention.tl", "--shared", "-o", "{tmp}/c.so"],
    ["examples/tensor_network.tl", "--header", "{tmp}/d.h", "-o", "{tmp}/d.o"],
    ["benchmarks/models/encoder_layer.tl", "--cpu=x86-64-v3,x86-64-v4", "-o", "{tmp}/e.o"],
]

FUNCTION = re.compile(r"^c?fn=\(\d+\) (.+)$")


def executed_functions(tlc, args, tmp, env):
    """Mangled names of the functions one compile runs, in the order callgrind names them."""
    out = os.path.join(tmp, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
                    tlc] + [a.format(tmp=tmp) for a in args],
                   check=True, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    names = []
    with open(out) as f:
        for line in f:
            m = FUNCTION.match(line.rstrip("\n"))
            if m and not m.group(1).startswith("0x") and " " not in m.group(1):
                names.append(m.group(1))
    return names


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tlc", required=True)
    p.add_argument("--out", default=os.path.join(ROOT, "tools/tlc/text-order.tar.xz"))
    args = p.parse_args()
    order, seen = [], set()
    with tempfile.TemporaryDirectory() as tmp:
        # valgrind 3.19 cannot read the DWARF 5 of clang-22's debug info: a copy without it.
        tlc = os.path.join(tmp, "tlc")
        subprocess.run(["strip", "--strip-debug", "-o", tlc, args.tlc], check=True)
        # The copy is not beside the build's runtime library, which --shared links.
        env = dict(os.environ)
        env.setdefault("TLC_RUNTIME_LIB", os.path.join(os.path.dirname(os.path.dirname(
            os.path.abspath(args.tlc))), "runtime", "libtlcrt.a"))
        for workload in WORKLOADS:
            names = executed_functions(tlc, workload, tmp, env)
            new = [n for n in names if n not in seen]
            seen.update(new)
            order.extend(new)
            print(f"{' '.join(workload)}: {len(names)} functions, {len(new)} new")
    data = ("\n".join(sorted(order)) + "\n").encode()
    info = tarfile.TarInfo("text-order.txt")
    info.size = len(data)
    with tarfile.open(args.out, "w:xz", preset=9) as tar:
        tar.addfile(info, io.BytesIO(data))
    print(f"{args.out}: {len(order)} functions")


if __name__ == "__main__":
    main()
