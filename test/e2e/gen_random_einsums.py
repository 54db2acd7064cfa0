#!/usr/bin/python3
"""Writes seeded random n-ary einsum programs (f64) for tlc's contraction paths.

  gen_random_einsums.py --seed S --count N --out DIR [--operands LO-HI]
      -> DIR/einsum_<S+i>.tl, i < N

Program i is a pure function of S+i and the operand range. Each holds one einsum of 2-8
operands (--operands) over f64 inputs (and sometimes a param, so constant operands are covered
too) with random label sets and extents 1-5: labels summed out (some in one operand only),
labels repeated within an operand (diagonals), implicit outputs, and `...` broadcasting with
size-1 axes. Every loop nest stays below 2^20 points, so numpy's einsum (tlref, float64)
evaluates it quickly.
"""

import argparse
import os

import numpy as np

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_POINTS = 1 << 20


def fmt_shape(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def draw(rng, lo, hi):
    n = int(rng.integers(lo, hi + 1))
    nlabels = int(rng.integers(2, 9))
    labels = LETTERS[:nlabels]
    while True:
        sizes = {l: 1 if rng.random() < 0.15 else int(rng.integers(2, 6)) for l in labels}
        if np.prod(list(sizes.values()), dtype=np.int64) <= MAX_POINTS:
            break
    # Every label in at least one operand; each operand 1-4 labels, sometimes one repeated.
    terms = [list(rng.choice(list(labels), size=int(rng.integers(1, min(4, nlabels) + 1)),
                             replace=False)) for _ in range(n)]
    for l in labels:
        if not any(l in t for t in terms):
            terms[int(rng.integers(0, n))].append(l)
    for t in terms:
        if rng.random() < 0.1:
            t.insert(int(rng.integers(0, len(t) + 1)), t[int(rng.integers(0, len(t)))])
    # `...`: a batch of 1-2 axes on some operands, some of them size 1 (broadcast).
    ellipsis = rng.random() < 0.25
    batch = [int(rng.integers(2, 4)) for _ in range(int(rng.integers(1, 3)))]
    used = [l for l in labels if any(l in t for t in terms)]
    if rng.random() < 0.2 and not ellipsis:
        output = None  # implicit: labels seen once, sorted
    else:
        output = [l for l in used if rng.random() < 0.4]
        rng.shuffle(output)
    shapes, texts = [], []
    for t in terms:
        shape = [sizes[l] for l in t]
        text = "".join(t)
        if ellipsis and rng.random() < 0.6:
            rank = int(rng.integers(1, len(batch) + 1))
            shape = [1 if rng.random() < 0.3 else b for b in batch[len(batch) - rank:]] + shape
            text = "..." + text
        shapes.append(shape)
        texts.append(text)
    if ellipsis and not any(t.startswith("...") for t in texts):
        shapes[0] = [batch[-1]] + shapes[0]
        texts[0] = "..." + texts[0]
    eq = ",".join(texts)
    if output is not None:
        eq += "->" + ("..." if ellipsis else "") + "".join(output)
    return eq, shapes


def program(seed, lo=2, hi=8):
    rng = np.random.default_rng(seed)
    eq, shapes = draw(rng, lo, hi)
    lines = ["# einsum_%d: %s" % (seed, eq)]
    names = []
    for i, shape in enumerate(shapes):
        name = "x%d" % i
        if i > 0 and rng.random() < 0.15:
            lines.append("param  %s : f64%s = randn(seed=%d)" % (name, fmt_shape(shape),
                                                                 seed * 10 + i))
        else:
            lines.append("input  %s : f64%s" % (name, fmt_shape(shape)))
        names.append(name)
    lines.append('output y = einsum("%s", %s)' % (eq, ", ".join(names)))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--operands", default="2-8", help="operand counts LO-HI (default 2-8)")
    args = ap.parse_args()
    lo, hi = (int(v) for v in args.operands.split("-"))
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        with open(os.path.join(args.out, "einsum_%d.tl" % (args.seed + i)), "w") as f:
            f.write(program(args.seed + i, lo, hi))


if __name__ == "__main__":
    main()
