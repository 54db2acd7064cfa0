#!/usr/bin/env python3
"""A campaign of malformed inputs against the release tlc and tlc-run (issue 19).

    /usr/bin/python3 scripts/campaign.py --tlc build/bin/tlc --tlc-run build/bin/tlc-run \
        --out DIR [--count 9900] [--seed 1] [--jobs 2] [--timeout 20]

Kinds (shares of --count): structured ONNX variants (one semantic mutation of a seed model,
some of which no valid model has), protobuf field mutations, byte mutations of ONNX files,
token mutations of .tl programs, absurd driver flags, corrupt .npy/.pb inputs of tlc-run.
Seeds: the ONNX backend node test models and every .tl of examples/ and test/.

Each run is classified: `crash` (killed by a signal), `fatal` (LLVM ERROR, an assertion, an
uncaught exception, a stack dump), `hang` (past --timeout, or past the 6 GiB address-space
limit), `accepted` (exit 0 for a variant that no valid model has), `unclear` (non-zero exit
without a located `error:` line or the option parser's message), else `ok`. Findings (all but ok) are kept in DIR/findings
with the command that reproduces them; DIR/summary.md has the table. Exit status 1 when any.
Everything derives from --seed, so a campaign can be repeated exactly.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import defs, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARES = [("onnx-structured", 0.30), ("onnx-fields", 0.15), ("onnx-bytes", 0.15),
          ("tl-tokens", 0.20), ("flags", 0.10), ("tensor-files", 0.10)]
FATAL = re.compile(r"LLVM ERROR|PLEASE submit a bug report|Assertion .* failed|"
                   r"terminate called|Stack dump|UNREACHABLE|AddressSanitizer|runtime error:")
# A located error: something (a path, file:line:col, a node) before "error:", or the command
# line parser naming the option it refuses.
LOCATED = re.compile(r"^\S.*?:\s.*error:|^\S+:\d+:\d+: error:|^[^:\s]+: error:|"
                     r"^tlc(-run)?: (for the .* option:|Unknown command line argument|"
                     r"Too many positional|Not enough positional)", re.M)
INTERESTING_INTS = [0, 1, -1, 2, 3, 7, 2**31 - 1, -2**31, 2**32, 2**62, 2**63 - 1, -2**63,
                    1 << 40, 65536]


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))


def run(cmd, timeout, cwd=None):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, preexec_fn=limit_memory,
                           cwd=cwd)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, ""


def classify(rc, err, must_reject):
    if rc is None:
        return "hang"
    if rc < 0 or rc >= 128:
        return "crash"
    if FATAL.search(err):
        # bad_alloc under the address-space limit: memory without bound
        return "hang" if "std::bad_alloc" in err else "fatal"
    if rc == 0:
        return "accepted" if must_reject else "ok"
    return "ok" if LOCATED.search(err) else "unclear"


# ---- ONNX variants ----------------------------------------------------------------------

def node_seeds():
    return sorted(glob.glob("/usr/share/libonnx-testdata/data/node/*/model.onnx"))


def schema(node, model):
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
    try:
        return defs.get_schema(node.op_type, opset, node.domain or "")
    except Exception:
        return None


def structured(model, rng):
    """One semantic mutation; returns (description, whether no valid model looks like it)."""
    g = model.graph
    if not g.node:
        return None
    i = rng.randrange(len(g.node))
    n = g.node[i]
    s = schema(n, model)
    choice = rng.choice(["drop-required-attr", "attr-wrong-type", "empty-required-input",
                         "undefined-input", "duplicate-writer", "duplicate-graph-input",
                         "unknown-op", "bad-opset", "cycle", "init-size-mismatch",
                         "attr-absurd-int", "attr-absurd-ints", "declared-output-shape",
                         "input-dim", "input-elem-type"])
    if choice == "drop-required-attr":
        req = [a for a in n.attribute if s and a.name in s.attributes and s.attributes[a.name].required]
        if not req:
            return None
        n.attribute.remove(req[0])
        return f"{choice} {n.op_type}.{req[0].name}", True
    if choice == "attr-wrong-type":
        if not n.attribute:
            return None
        a = rng.choice(list(n.attribute))
        name = a.name
        n.attribute.remove(a)
        wrong = helper.make_attribute(name, "abc") if a.type != onnx.AttributeProto.STRING \
            else helper.make_attribute(name, [1.5, 2.5])
        n.attribute.append(wrong)
        return f"{choice} {n.op_type}.{name}", True
    if choice == "empty-required-input":
        if not s or not n.input:
            return None
        req = [k for k, f in enumerate(s.inputs[:len(n.input)])
               if f.option == defs.OpSchema.FormalParameterOption.Single]
        if not req:
            return None
        n.input[rng.choice(req)] = ""
        return f"{choice} {n.op_type}", True
    if choice == "undefined-input":
        if not n.input:
            return None
        n.input[rng.randrange(len(n.input))] = "no_such_tensor"
        return f"{choice} {n.op_type}", True
    if choice == "duplicate-writer":
        if len(g.node) < 2 or not n.output:
            return None
        j = rng.choice([k for k in range(len(g.node)) if k != i])
        if not g.node[j].output:
            return None
        g.node[j].output[0] = n.output[0]
        return choice, True
    if choice == "duplicate-graph-input":
        if not g.input:
            return None
        g.input.append(g.input[0])
        return choice, True
    if choice == "unknown-op":
        n.op_type = "NoSuchOp"
        return choice, True
    if choice == "bad-opset":
        default = [o for o in model.opset_import if o.domain in ("", "ai.onnx")]
        if not default:  # e.g. a training-domain model: nothing to mutate
            return None
        for o in default:
            o.version = rng.choice([0, -3, 10000])
        return choice, True
    if choice == "cycle":
        last = g.node[-1]
        if len(g.node) < 2 or not g.node[0].input or not last.output:
            return None
        g.node[0].input[0] = last.output[0]
        return choice, True
    if choice == "init-size-mismatch":
        inits = [t for t in g.initializer if t.raw_data or t.float_data or t.int64_data]
        if not inits:
            return None
        t = rng.choice(inits)
        t.dims.append(7)
        return choice, True
    if choice == "attr-absurd-int":
        ints = [a for a in n.attribute if a.type == onnx.AttributeProto.INT]
        if not ints:
            return None
        rng.choice(ints).i = rng.choice(INTERESTING_INTS)
        return f"{choice} {n.op_type}", False
    if choice == "attr-absurd-ints":
        lists = [a for a in n.attribute if a.type == onnx.AttributeProto.INTS]
        if not lists:
            return None
        a = rng.choice(lists)
        values = [rng.choice(INTERESTING_INTS) for _ in range(rng.choice([0, 1, len(a.ints), 9]))]
        del a.ints[:]
        a.ints.extend(values)
        return f"{choice} {n.op_type}", False
    if choice == "declared-output-shape":
        out = g.output[0] if g.output else None
        dims = out.type.tensor_type.shape.dim if out and out.type.HasField("tensor_type") else []
        if not dims or not all(d.HasField("dim_value") for d in dims):
            return None
        rng.choice(list(dims)).dim_value += 3
        return choice, True
    if choice == "input-dim":
        dims = g.input[0].type.tensor_type.shape.dim if g.input else []
        if not dims:
            return None
        rng.choice(list(dims)).dim_value = rng.choice(INTERESTING_INTS)
        return choice, False
    if g.input:
        g.input[0].type.tensor_type.elem_type = rng.choice([0, 2, 3, 6, 8, 10, 11, 16, 99])
        return "input-elem-type", False
    return None


def mutate_fields(model, rng):
    """Sets one numeric or enum field somewhere in the ModelProto to an interesting value;
    returns (description, False): a valid model may look like the result."""
    found = []

    def walk(msg):
        for field, value in msg.ListFields():
            if field.type == field.TYPE_MESSAGE:
                for m in (value if field.label == field.LABEL_REPEATED else [value]):
                    walk(m)
            elif field.type not in (field.TYPE_STRING, field.TYPE_BYTES, field.TYPE_BOOL):
                found.append((msg, field))
    walk(model)
    if not found:
        return None
    msg, field = rng.choice(found)
    v = rng.choice(INTERESTING_INTS)
    if field.type in (field.TYPE_FLOAT, field.TYPE_DOUBLE):
        v = rng.choice([0.0, -1.0, 1e30, float("inf"), float("nan")])
    try:
        if field.label == field.LABEL_REPEATED:
            seq = getattr(msg, field.name)
            seq[rng.randrange(len(seq))] = v
        else:
            setattr(msg, field.name, v)
    except (ValueError, TypeError):
        return None
    return f"field {msg.DESCRIPTOR.name}.{field.name} = {v}", False


def mutate_bytes(data, rng):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(5)
        if not data:
            break
        k = rng.randrange(len(data))
        if op == 0:
            data[k] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[k] = rng.randrange(256)
        elif op == 2:
            data[k:k] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op == 3:
            del data[k:k + rng.randint(1, 16)]
        else:
            del data[k:]
    return bytes(data)


# ---- .tl token mutations ----------------------------------------------------------------

TOKEN = re.compile(r"\s+|[A-Za-z_][A-Za-z_0-9]*|\d+\.?\d*(?:e[-+]?\d+)?|\.\.\.|->|.", re.S)
TL_POOL = ["0", "-1", "1e300", "99999999999999999999", "2147483648", "nan", "inf", "0.0",
           "input", "output", "param", "randn", "zeros", "ones", "full", "einsum", "concat",
           "relu", "tanh", "softmax", "f32", "bf16", "i64", "[", "]", "(", ")", ",", ":", "=",
           "->", "...", "\"", "'", "#", "\n", "axis=", "x", "y", "\"ij,jk->ik\"", "\"i->\""]


def mutate_tl(text, pool, rng):
    toks = TOKEN.findall(text)
    for _ in range(rng.randint(1, 4)):
        if not toks:
            break
        k = rng.randrange(len(toks))
        op = rng.randrange(4)
        if op == 0:
            toks[k] = rng.choice(pool if rng.random() < 0.5 else TL_POOL)
        elif op == 1:
            del toks[k]
        elif op == 2:
            toks.insert(k, toks[rng.randrange(len(toks))])
        else:
            j = rng.randrange(len(toks))
            toks[k], toks[j] = toks[j], toks[k]
    return "".join(toks)


# ---- flags ------------------------------------------------------------------------------

def absurd_flags(rng, out_dir):
    long_name = "m" * 5000
    return rng.sample([
        "--cpu=garbage", "--cpu=", "--cpu=x86-64-v3,x86-64-v3", "--cpu=,", "-O", "7", "-O=-1",
        "--precision=fp8", "--keep-fp32=nonexistent", "--keep-fp32=", "--target=nonsense",
        "--target=aarch64", "--gpu=sm_1", "--einsum-path=x", "--emit=nonsense", "--name=1bad",
        "--name=a b", f"--name={long_name}", "--max-workspace=-5", "--max-workspace=1e99",
        "--max-workspace=0", "--input-shape=x=0", "--input-shape=x=-1", "--input-shape=nosuch=3",
        "--input-shape=x=99999999999999", "--input-shape=x=", "--constant-input=x=/dev/null",
        "--constant-input=x=/dev/zero", "--report=nonsense", "--report=memory",
        "--report-format=x", "--report-file=/nonexistent/r.txt", "--train", "--loss=foo",
        "--optimizer=adamw lr=-1", "--optimizer=adam(", "--remat=garbage", "--freeze=nosuch",
        "--header=/dev/full", f"--header={out_dir}", "--shared", "--winograd", "--profile",
        "--precision=bf16", "--precision=fp16", "--report=precision", "--report-input=/dev/zero",
        "--time-report", "--target=cuda", "--target=vulkan", "--target=metal",
    ], rng.randint(1, 3))


# ---- the campaign -----------------------------------------------------------------------

def make_cases(args, rng, work):
    nodes = node_seeds()
    tls = sorted(set(glob.glob(f"{ROOT}/examples/**/*.tl", recursive=True) +
                     glob.glob(f"{ROOT}/test/**/*.tl", recursive=True)))
    tl_pool = [t for f in tls[:50] for t in TOKEN.findall(open(f).read()) if t.strip()]
    counts = {kind: int(round(args.count * share)) for kind, share in SHARES}
    cases = []
    model_cache = {}

    def load(path):
        if path not in model_cache:
            model_cache[path] = onnx.load(path).SerializeToString()
        m = onnx.ModelProto()
        m.ParseFromString(model_cache[path])
        return m

    for kind, n in counts.items():
        made = 0
        while made < n:
            name = f"{kind}-{made:05d}"
            if kind in ("onnx-structured", "onnx-fields", "onnx-bytes"):
                seed = rng.choice(nodes)
                path = f"{work}/{name}.onnx"
                must_reject = False
                if kind == "onnx-bytes":
                    what = "bytes"
                    data = mutate_bytes(open(seed, "rb").read(), rng)
                else:
                    m = load(seed)
                    r = structured(m, rng) if kind == "onnx-structured" else mutate_fields(m, rng)
                    if r is None:
                        continue
                    what, must_reject = r
                    data = m.SerializeToString()
                with open(path, "wb") as f:
                    f.write(data)
                cmd = [args.tlc, path, "-o", f"{work}/{name}.o"]
                note = f"{os.path.basename(os.path.dirname(seed))}: {what}"
            elif kind == "tl-tokens":
                seed = rng.choice(tls)
                path = f"{work}/{name}.tl"
                with open(path, "w") as f:
                    f.write(mutate_tl(open(seed).read(), tl_pool, rng))
                cmd, must_reject = [args.tlc, path, "-o", f"{work}/{name}.o"], False
                note = os.path.relpath(seed, ROOT)
            elif kind == "flags":
                seed = rng.choice([f"{ROOT}/examples/mlp.tl", f"{ROOT}/examples/attention.tl",
                                   rng.choice(nodes)])
                flags = absurd_flags(rng, work)
                cmd, must_reject = [args.tlc, seed, *flags, "-o", f"{work}/{name}.o"], False
                note = " ".join(flags)[:200]
            else:
                good = rng.choice(args.tensor_seeds)
                data = open(good, "rb").read()
                path = f"{work}/{name}{os.path.splitext(good)[1]}"
                with open(path, "wb") as f:
                    f.write(mutate_bytes(data, rng))
                flag = "--input" if rng.random() < 0.7 else "--expect"
                cmd, must_reject = [args.tlc_run, args.model_so, f"{flag}={path}", "--quiet"], False
                note = f"{flag} from {os.path.basename(good)}"
            cases.append((name, kind, cmd, must_reject, note))
            made += 1
    return cases


def prepare_tlc_run_model(args, work):
    """A small model compiled once, and valid input/expect files for it."""
    src = f"{work}/tensor_model.tl"
    with open(src, "w") as f:
        f.write("input x : f32[4, 8]\ninput k : i64[3]\nparam w : f32[8, 5] = randn(seed=1)\n"
                "output y = relu(einsum(\"bi,ij->bj\", x, w))\noutput z = k * 2\n")
    so = f"{work}/tensor_model.so"
    subprocess.run([args.tlc, src, "--shared", "-o", so], check=True)
    seeds = []
    for name, arr in [("x", np.random.default_rng(0).standard_normal((4, 8), np.float32)),
                      ("k", np.arange(3, dtype=np.int64))]:
        np.save(f"{work}/{name}.npy", arr)
        with open(f"{work}/{name}.pb", "wb") as f:
            f.write(numpy_helper.from_array(arr, name).SerializeToString())
        seeds += [f"{work}/{name}.npy", f"{work}/{name}.pb"]
    return so, seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=9900)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20)
    args = ap.parse_args()
    work = os.path.abspath(f"{args.out}/work")
    os.makedirs(work, exist_ok=True)
    # Copies: a rebuild during the campaign must neither change nor remove the binaries it runs.
    # The copy of tlc finds libtlcrt.a (for --shared) where the build tree keeps it.
    os.environ.setdefault("TLC_RUNTIME_LIB", os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(args.tlc))), "runtime", "libtlcrt.a"))
    for attr in ("tlc", "tlc_run"):
        copy = os.path.join(args.out, os.path.basename(getattr(args, attr)))
        shutil.copy2(getattr(args, attr), copy)
        setattr(args, attr, os.path.abspath(copy))
    os.makedirs(f"{args.out}/findings", exist_ok=True)
    args.model_so, args.tensor_seeds = prepare_tlc_run_model(args, work)
    rng = random.Random(args.seed)
    cases = make_cases(args, rng, work)

    def one(case):
        name, kind, cmd, must_reject, note = case
        rc, err = run(cmd, args.timeout, cwd=work)
        verdict = classify(rc, err, must_reject)
        for suffix in (".o", ".o.h"):
            if os.path.exists(f"{work}/{name}{suffix}"):
                os.remove(f"{work}/{name}{suffix}")
        return name, kind, cmd, verdict, rc, err, note

    table = collections.defaultdict(collections.Counter)
    findings = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, kind, cmd, verdict, rc, err, note in pool.map(one, cases):
            table[kind][verdict] += 1
            table[kind]["inputs"] += 1
            if verdict != "ok":
                for a in cmd:
                    if a.startswith(work) and os.path.isfile(a) and not a.endswith(".so"):
                        shutil.copy(a, f"{args.out}/findings/")
                findings.append({"name": name, "kind": kind, "verdict": verdict, "rc": rc,
                                 "note": note, "cmd": " ".join(cmd),
                                 "stderr": err[-2000:]})
    columns = ["inputs", "ok", "accepted", "unclear", "crash", "fatal", "hang"]
    lines = [f"campaign.py --count {args.count} --seed {args.seed} --timeout {args.timeout}", "",
             "| kind | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for kind, _ in SHARES:
        lines.append(f"| {kind} | " + " | ".join(str(table[kind][c]) for c in columns) + " |")
    total = collections.Counter()
    for c in table.values():
        total.update(c)
    lines.append("| all | " + " | ".join(str(total[c]) for c in columns) + " |")
    summary = "\n".join(lines) + "\n"
    with open(f"{args.out}/summary.md", "w") as f:
        f.write(summary)
    with open(f"{args.out}/findings.json", "w") as f:
        json.dump(findings, f, indent=1)
    print(summary)
    for x in findings[:40]:
        print(f"{x['verdict']}: {x['name']} ({x['note']}): {x['cmd']}\n  "
              + x["stderr"].strip().replace("\n", "\n  ")[-600:])
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
