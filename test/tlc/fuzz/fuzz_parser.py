#!/usr/bin/env python3
"""Mutation fuzzer for tlc-parse: seeded random edits of .tl files (and of the .npy files they
load) must give exit 0, or exit 1 with an `error:` diagnostic -- never a signal or a hang.

usage: fuzz_parser.py TLC_PARSE [--seed N] [--count N] [--jobs N] [--keep DIR] PATHS...
PATHS are .tl files or directories searched recursively for them."""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\s+|.',
                      re.S)
CHARS = list("()[],:=+-*/;#\"\\.\n\t 0123456789eE_xyzabijk") + ["\x00", "\x7f", "\xc3\xa9", "\r"]
TOKENS = ["input", "param", "output", "f16", "bf16", "f32", "f64", "i32", "i64", "i1", "true",
          "false", "einsum", "relu", "softmax", "sum", "reshape", "transpose", "broadcast_to",
          "concat", "slice", "cast", "select", "gelu", "zeros", "ones", "full", "randn", "uniform",
          "arange", "load", "axis=", "axes=", "keepdims=", "perm=", "start=", "end=", "step=",
          "to=", "seed=", "approximate=", "0", "1", "-1", "2", "7", "-3", "0.5", "1e-3", "1e400",
          "99999999999999999999", "9223372036854775807", "1099511627776", "[]", "[0]", "[-1]",
          "[1, 0]", "[2, -1]", '"ij,jk->ik"', '"...i->i"', '"ii"', '"->"', '","', '"..."',
          '"tanh"', '"Inputs/w_f32.npy"', '"Inputs"', '"/dev/null"', "(", ")", "[", "]", ",",
          "=", ":", "+", "-", "*", "/", ";", "\n", "#", '"', "x", "y", "w"]


def tokenize(text):
    return TOKEN_RE.findall(text)


def mutate(text, rng):
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(9)
        n = len(text)
        if kind == 0 and n:  # delete a character range
            i = rng.randrange(n)
            text = text[:i] + text[i + rng.randint(1, 4):]
        elif kind == 1:  # insert a character
            i = rng.randint(0, n)
            text = text[:i] + rng.choice(CHARS) + text[i:]
        elif kind == 2 and n:  # replace a character
            i = rng.randrange(n)
            text = text[:i] + rng.choice(CHARS) + text[i + 1:]
        elif kind == 3 and n:  # truncate
            text = text[:rng.randrange(n)]
        else:  # token-level edits
            toks = tokenize(text)
            if not toks:
                toks = [""]
            i = rng.randrange(len(toks))
            if kind == 4:
                del toks[i]
            elif kind == 5:
                toks.insert(i, rng.choice(TOKENS))
            elif kind == 6:
                toks[i] = rng.choice(TOKENS)
            elif kind == 7:
                toks.insert(i, toks[rng.randrange(len(toks))])
            else:
                j = rng.randrange(len(toks))
                toks[i], toks[j] = toks[j], toks[i]
            text = "".join(toks)
    return text


def mutate_bytes(data, rng):
    data = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0 and data:
        del data[rng.randrange(len(data)):]
    elif kind == 1 and data:
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == 2 and len(data) > 10:  # corrupt the header length field
        data[8] = rng.randrange(256)
        data[9] = rng.randrange(256)
    else:
        i = rng.randrange(len(data) + 1)
        data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data)


def run_case(args):
    tool, workdir, index, text, npy_mutations = args
    case_dir = os.path.join(workdir, "case%d" % index)
    os.makedirs(case_dir)
    inputs = os.path.join(case_dir, "Inputs")
    os.makedirs(inputs)
    for name, data in npy_mutations.items():
        with open(os.path.join(inputs, name), "wb") as f:
            f.write(data)
    path = os.path.join(case_dir, "mutant.tl")
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    try:
        proc = subprocess.run([tool, path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              timeout=60)
    except subprocess.TimeoutExpired:
        return index, "timed out", text
    stderr = proc.stderr.decode("utf-8", "replace")
    problem = None
    if proc.returncode < 0:
        problem = "killed by signal %d" % -proc.returncode
    elif proc.returncode not in (0, 1):
        problem = "exit status %d" % proc.returncode
    elif proc.returncode == 1 and "error:" not in stderr:
        problem = "exit 1 without an error: line"
    if problem is None:
        shutil.rmtree(case_dir, ignore_errors=True)
    return index, problem, text


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tool")
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", help="directory to keep failing cases in")
    args = parser.parse_args()

    tool = args.tool if os.sep in args.tool else shutil.which(args.tool)
    if not tool:
        sys.exit("fuzz_parser: cannot find %s" % args.tool)
    seeds, npys = [], {}
    for p in args.paths:
        files = [p] if os.path.isfile(p) else [
            os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs]
        for f in sorted(files):
            if f.endswith(".tl"):
                with open(f, encoding="utf-8") as fh:
                    seeds.append(fh.read())
            elif f.endswith(".npy"):
                with open(f, "rb") as fh:
                    npys[os.path.basename(f)] = fh.read()
    if not seeds:
        sys.exit("fuzz_parser: no .tl files found")

    rng = random.Random(args.seed)
    cases = []
    for i in range(args.count):
        text = mutate(rng.choice(seeds), rng)
        npy_mutations = dict(npys)
        if npys and rng.random() < 0.3:
            name = rng.choice(sorted(npys))
            npy_mutations[name] = mutate_bytes(npys[name], rng)
        cases.append((i, text, npy_mutations))

    workdir = tempfile.mkdtemp(prefix="tlc-parse-fuzz-")
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for index, problem, text in pool.map(
                run_case, [(tool, workdir, i, t, n) for i, t, n in cases]):
            if problem:
                failures.append((index, problem, text))
    for index, problem, text in failures[:20]:
        print("case %d: %s\n---\n%s\n---" % (index, problem, text))
    if args.keep and failures:
        shutil.copytree(workdir, args.keep, dirs_exist_ok=True)
    shutil.rmtree(workdir, ignore_errors=True)
    print("fuzz_parser: %d cases, %d failures (seed %d)" % (len(cases), len(failures), args.seed))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
