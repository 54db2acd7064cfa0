#!/usr/bin/python3
"""Writes seeded random n-ary einsum programs (f64) for tlc's contraction paths.

  gen_random_einsums.py --seed S --count N --out DIR [--operands LO-HI] [--chains]
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


def as_chain(rng, eq, names):
    """The einsum `eq` written as nested einsums of two operands each, bracketed at random (as
    a user writes `(x0 x1) x2`): each intermediate keeps the labels that operands outside it or
    the output still need. Returns the lines binding the intermediates and the final einsum's
    call, or None for an equation with `...` or an implicit output (kept whole)."""
    if "..." in eq or "->" not in eq:
        return None
    lhs, out = eq.split("->")
    terms = lhs.split(",")
    lines = []

    def build(lo, hi):  # operands [lo, hi): (term, expression)
        if hi - lo == 1:
            return terms[lo], names[lo]
        mid = int(rng.integers(lo + 1, hi))
        (ta, a), (tb, b) = build(lo, mid), build(mid, hi)
        outside = "".join(terms[:lo] + terms[hi:]) + out
        keep = "".join(dict.fromkeys(c for c in ta + tb if c in outside))
        if lo == 0 and hi == len(terms):
            return out, 'einsum("%s,%s->%s", %s, %s)' % (ta, tb, out, a, b)
        name = "t%d_%d" % (lo, hi)
        lines.append('%s = einsum("%s,%s->%s", %s, %s)' % (name, ta, tb, keep, a, b))
        return keep, name

    _, call = build(0, len(terms))
    return lines, call


def program(seed, lo=2, hi=8, chains=False):
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
    chain = as_chain(rng, eq, names) if chains and len(names) > 1 else None
    if chain:
        lines += chain[0]
        lines.append("output y = " + chain[1])
    else:
        lines.append('output y = einsum("%s", %s)' % (eq, ", ".join(names)))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--operands", default="2-8", help="operand counts LO-HI (default 2-8)")
    ap.add_argument("--chains", action="store_true",
                    help="write each einsum as nested two-operand einsums (tl-plan-einsum-paths "
                         "merges them back into one)")
    args = ap.parse_args()
    lo, hi = (int(v) for v in args.operands.split("-"))
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        with open(os.path.join(args.out, "einsum_%d.tl" % (args.seed + i)), "w") as f:
            f.write(program(args.seed + i, lo, hi, args.chains))


if __name__ == "__main__":
    main()
