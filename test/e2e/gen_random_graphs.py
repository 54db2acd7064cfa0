#!/usr/bin/python3
"""Writes seeded random `.tl` graphs (f32) for end-to-end tests of tlc.

  gen_random_graphs.py --seed S --count N --out DIR      -> DIR/rand_<S+i>.tl, i < N

Graph i is a pure function of S+i: the same command always writes the same files. Each graph has
1-3 inputs, 1-3 params (random initializers with seeds) and 1-2 outputs, and mixes einsums
(matmul, batched, transposed operands, outer products, two-index contractions, diagonals and
traces, implicit outputs, `...`, three operands, random equations), broadcasting binary ops,
unary ops (log/sqrt/rsqrt/pow only on positive values such as exp(x) or abs(x)+1), softmax and
log_softmax, reductions, reshape/transpose/slice/concat/broadcast_to and select over comparisons.
Dims are 1..9.

Every candidate is checked with tlref before it is written: it must parse, evaluate to finite
values, and an f32 emulation of it (tlref's `emulate` mode, which rounds every intermediate)
must meet the e2e tolerance (run_e2e.py) with a 10x margin on the default inputs, so the graphs
are well-conditioned and a correct f32 compiler passes them at --rtol 1e-5. A rejected candidate
is redrawn from the next sub-seed (deterministically).
"""

import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tlref  # noqa: E402

MAX_DIM = 9
MAX_NUMEL = 1500


class Node:
    def __init__(self, name, shape, mag, leaf=False):
        self.name = name
        self.shape = tuple(shape)
        self.mag = mag  # rough bound on max |value|
        self.leaf = leaf
        self.uses = 0


def numel(shape):
    return int(np.prod(shape, dtype=np.int64))


def fmt_list(v):
    return "[" + ", ".join(str(int(d)) for d in v) + "]"


def fmt_num(v):
    return repr(float(v)) if not float(v).is_integer() else str(int(v))


class Graph:
    def __init__(self, rng):
        self.r = rng
        self.lines = []
        self.nodes = []
        self.n_inputs = int(rng.integers(1, 4))
        self.n_params = int(rng.integers(1, 4))
        self.inputs = []
        self.params = []
        self.tmp = 0

    # -- helpers ---------------------------------------------------------------------------------
    def rint(self, lo, hi):  # inclusive
        return int(self.r.integers(lo, hi + 1))

    def chance(self, p):
        return self.r.random() < p

    def choice(self, seq):
        return seq[int(self.r.integers(0, len(seq)))]

    def rand_shape(self, rank=None):
        rank = self.rint(1, 3) if rank is None else rank
        while True:
            s = tuple(self.rint(1, MAX_DIM) for _ in range(rank))
            if numel(s) <= MAX_NUMEL:
                return s

    def emit(self, expr, shape, mag, boolean=False):
        name = "t%d" % self.tmp
        self.tmp += 1
        self.lines.append("%s = %s" % (name, expr))
        n = Node(name, shape, mag)
        if not boolean:  # i1 values never become f32 operands
            self.nodes.append(n)
        return n

    def use(self, n):
        n.uses += 1
        return n.name

    def new_input(self, shape):
        n = Node("x%d" % len(self.inputs), shape, 4.0, leaf=True)
        self.lines.append("input %s : f32%s" % (n.name, fmt_list(shape)))
        self.inputs.append(n)
        self.nodes.append(n)
        return n

    def new_param(self, shape):
        name = "w%d" % len(self.params)
        k = self.rint(0, 9)
        seed = self.rint(0, 1 << 31)
        if k <= 3:
            std = self.choice([0.1, 0.5, 1.0])
            init, mag = "randn(seed=%d, std=%s)" % (seed, std), 4.5 * std
            if self.chance(0.3):
                init, mag = "randn(seed=%d, mean=0.5, std=%s)" % (seed, std), 0.5 + 4.5 * std
        elif k <= 6:
            init, mag = "uniform(seed=%d, low=-1, high=1)" % seed, 1.0
            if self.chance(0.4):
                init, mag = "uniform(seed=%d)" % seed, 1.0
        elif k == 7:
            step = self.choice([0.01, 0.1, -0.05])
            init, mag = "arange(start=-0.5, step=%s)" % step, 0.5 + abs(step) * numel(shape)
        elif k == 8:
            v = self.choice([0.5, -1.25, 2])
            init, mag = "full(%s)" % v, abs(v)
        else:
            init, mag = self.choice([("ones()", 1.0), ("zeros()", 0.0)])
        n = Node(name, shape, max(mag, 1e-3), leaf=True)
        self.lines.append("param %s : f32%s = %s" % (name, fmt_list(shape), init))
        self.params.append(n)
        self.nodes.append(n)
        return n

    def operand(self, shape):
        """A node of exactly `shape`: a new leaf, an existing node, or an adapted one."""
        shape = tuple(shape)
        can_in = len(self.inputs) < self.n_inputs
        can_par = len(self.params) < self.n_params
        if (can_in or can_par) and self.chance(0.35):
            if can_in and (not can_par or self.chance(0.5)):
                return self.new_input(shape)
            return self.new_param(shape)
        same = [n for n in self.nodes if n.shape == shape]
        if same and self.chance(0.8):
            same.sort(key=lambda n: n.uses)
            return same[0] if self.chance(0.6) else self.choice(same)
        return self.adapt(self.pick(), shape)

    def pick(self, min_rank=0):
        cands = [n for n in self.nodes if len(n.shape) >= min_rank]
        if not cands:
            return self.new_input(self.rand_shape(max(min_rank, 1)))
        unused = [n for n in cands if n.uses == 0]
        if unused and self.chance(0.6):
            return self.choice(unused)
        return self.choice(cands[-6:]) if self.chance(0.7) else self.choice(cands)

    def adapt(self, n, shape):
        """Rebuilds node n into `shape` with reshape/slice/broadcast_to/concat."""
        src, have, want = n.name, numel(n.shape), numel(shape)
        n.uses += 1
        if n.shape == tuple(shape):
            return n
        if have == want:
            return self.emit("reshape(%s, %s)" % (src, fmt_list(shape)), shape, n.mag)
        flat = src if len(n.shape) == 1 else None
        if have < want:
            reps = -(-want // have)
            if reps <= 3 and self.chance(0.5):
                f = self.emit("reshape(%s, [-1])" % src, (have,), n.mag) if flat is None else None
                fname = flat or f.name
                parts = ", ".join([fname] * reps)
                cat = self.emit("concat(%s, axis=0)" % parts, (have * reps,), n.mag)
            else:
                row = self.emit("reshape(%s, [1, %d])" % (src, have), (1, have), n.mag)
                b = self.emit("broadcast_to(%s, [%d, %d])" % (row.name, reps, have),
                              (reps, have), n.mag)
                cat = self.emit("reshape(%s, [%d])" % (b.name, reps * have), (reps * have,), n.mag)
            src, have, flat = cat.name, reps * have, cat.name
        if flat is None:
            flat = self.emit("reshape(%s, [%d])" % (src, have), (have,), n.mag).name
        if have > want:
            off = self.rint(0, have - want)
            if self.chance(0.5) and off == 0:
                s = self.emit("slice(%s, start=[0], end=[%d])" % (flat, want), (want,), n.mag)
            else:
                s = self.emit("slice(%s, start=[%d], end=[%d], step=[1])" % (flat, off, off + want),
                              (want,), n.mag)
            flat = s.name
        return self.emit("reshape(%s, %s)" % (flat, fmt_list(shape)), shape, n.mag)

    def tame(self, n):
        """Keeps magnitudes moderate so f32 rounding stays far below the test tolerance."""
        if n.mag > 12:
            s = float("%.1g" % (4.0 / n.mag))
            n.uses += 1
            return self.emit("%s * %s" % (n.name, fmt_num(s)), n.shape, n.mag * s)
        return n

    # -- ops -------------------------------------------------------------------------------------
    def op_einsum(self):
        L = "abcdefghijk"
        letters = list(L)
        self.r.shuffle(letters)
        size = {l: self.rint(1, MAX_DIM) for l in letters}
        kind = self.rint(0, 12)
        a, b, c, d, e = letters[:5]
        templates = [
            ["%s%s,%s%s->%s%s" % (a, b, b, c, a, c)],                       # matmul
            ["%s%s%s,%s%s%s->%s%s%s" % (d, a, b, d, b, c, d, a, c)],         # batched matmul
            ["%s%s,%s%s->%s%s" % (b, a, c, b, a, c),                          # transposed A
             "%s%s,%s%s->%s%s" % (a, b, c, b, a, c)],                         # transposed B
            ["%s,%s->%s%s" % (a, b, a, b), "%s%s,%s->%s%s%s" % (a, b, c, a, b, c)],  # outer
            ["%s%s%s,%s%s%s->%s%s" % (a, b, c, b, c, d, a, d)],               # 2-index contraction
            ["%s%s->%s" % (a, a, a), "%s%s->" % (a, a), "%s%s%s->%s%s" % (b, a, a, b, a)],  # diag
            ["%s%s,%s%s" % (a, b, b, c), "%s%s,%s%s" % (a, b, a, b), "%s%s" % (b, a)],  # implicit
            ["...%s%s,%s%s->...%s%s" % (a, b, b, c, a, c), "...%s,...%s->..." % (a, a),
             "%s...,%s...->..." % (a, a)],                                   # ellipsis
            ["%s%s,%s%s,%s%s->%s%s" % (a, b, b, c, c, d, a, d),
             "%s%s,%s%s%s,%s%s->%s%s%s" % (a, b, b, c, d, d, e, a, c, e)],   # three operands
            ["%s%s%s->%s%s%s" % (a, b, c, c, a, b)],                          # permutation
        ]
        if kind < len(templates):
            eq = self.choice(templates[kind])
        else:
            eq = self.random_equation(letters)
        lhs, _, rhs = eq.partition("->")
        terms = lhs.split(",")
        # size the labels of one operand after an existing value, so it is used as it is
        t0 = self.choice(terms)
        if "..." not in t0 and len(set(t0)) == len(t0) and self.chance(0.75):
            fits = [n for n in self.nodes if len(n.shape) == len(t0)]
            if fits:
                n = self.choice(fits[-8:])
                for l, dim in zip(t0, n.shape):
                    size[l] = dim
        ell = tuple(self.rint(1, 4) for _ in range(self.rint(0, 2))) if "..." in eq else ()
        shapes = []
        for t in terms:
            s = []
            for ch in t.replace("...", "."):
                s.extend(ell if ch == "." else [size[ch]])
            shapes.append(tuple(s))
        if any(numel(s) > MAX_NUMEL for s in shapes):
            return None
        try:
            out_shape = tlref.einsum_shape(eq, shapes, None)
        except tlref.TlError:
            return None
        if numel(out_shape) > MAX_NUMEL:
            return None
        ops = [self.operand(s) for s in shapes]
        # contraction size: product of sizes of summed labels
        in_labels = set(ch for ch in lhs if ch.isalpha())
        out_labels = set(ch for ch in (rhs if "->" in eq else "") if ch.isalpha())
        if "->" not in eq:
            occ = [ch for ch in lhs if ch.isalpha()]
            out_labels = set(ch for ch in occ if occ.count(ch) == 1)
        k = numel([size[l] for l in in_labels - out_labels]) if in_labels - out_labels else 1
        mag = k * float(np.prod([o.mag for o in ops]))
        names = ", ".join(self.use(o) for o in ops)
        return self.tame(self.emit('einsum("%s", %s)' % (eq, names), out_shape, mag))

    def random_equation(self, letters):
        labels = letters[:self.rint(2, 5)]
        terms = []
        for _ in range(self.rint(1, 3)):
            t = [self.choice(labels) for _ in range(self.rint(1, 3))]
            terms.append("".join(t))
        used = sorted(set("".join(terms)))
        if self.chance(0.3):
            return ",".join(terms)
        out = [l for l in used if self.chance(0.5)]
        self.r.shuffle(out)
        return ",".join(terms) + "->" + "".join(out)

    def bshape(self, shape):
        """A shape that broadcasts against `shape` (result == shape)."""
        s = list(shape)
        if s and self.chance(0.4):
            s = s[self.rint(0, len(s)):]
        return tuple(1 if self.chance(0.3) else d for d in s)

    def op_binary(self):
        x = self.pick(min_rank=1)
        shape = x.shape
        yshape = self.bshape(shape)
        y = self.operand(yshape)
        if self.chance(0.5):
            x, y = y, x
        op = self.choice(["add", "sub", "mul", "div", "pow", "maximum", "minimum", "lit"])
        X, Y = self.use(x), self.use(y)
        if op in ("add", "sub", "mul") and self.chance(0.6):
            sym = {"add": "+", "sub": "-", "mul": "*"}[op]
            expr = "%s %s %s" % (X, sym, Y)
        elif op == "div":
            expr = self.choice(["%s / (abs(%s) + 1)", "div(%s, exp(tanh(%s)))",
                                "%s / (1 + %s * %s)"])
            expr = expr % ((X, Y) if expr.count("%s") == 2 else (X, Y, Y))
        elif op == "pow":
            expr = self.choice(["pow(abs(%s) + 1, tanh(%s))", "pow(exp(tanh(%s)), tanh(%s) * 2)",
                                "pow(sigmoid(%s) + 0.5, %s * 0)"]) % (X, Y)
        elif op == "lit":
            expr = self.choice(["%s * 0.5 - %s", "1 - %s + %s", "%s + 2 * %s", "(%s - 0.25) / 4 + %s",
                                "-%s + %s"]) % (X, Y)
        else:
            expr = "%s(%s, %s)" % (op, X, Y)
        out_shape = tuple(np.broadcast_shapes(x.shape, y.shape))
        mag = {"mul": x.mag * y.mag, "pow": 3.0 * 3.0}.get(op, x.mag + y.mag + 2)
        return self.tame(self.emit(expr, out_shape, mag))

    def op_unary(self):
        x = self.pick()
        X = self.use(x)
        small = x.mag <= 8
        opts = [("neg(%s)", x.mag), ("-%s", x.mag), ("abs(%s)", x.mag), ("tanh(%s)", 1.0),
                ("sigmoid(%s)", 1.0), ("relu(%s)", x.mag), ("erf(%s)", 1.0),
                ("gelu(%s)", x.mag), ('gelu(%s, approximate="tanh")', x.mag),
                ('gelu(%s, approximate="none")', x.mag),
                ("exp(tanh(%s))", 2.8), ("log(abs(%s) + 1)", math.log(x.mag + 1) + 0.1),
                ("sqrt(abs(%s) + 1)", math.sqrt(x.mag + 1)), ("rsqrt(abs(%s) + 1)", 1.0),
                ("log(exp(tanh(%s)))", 1.0), ("sqrt(exp(tanh(%s)))", 1.7)]
        if small:
            opts += [("exp(%s)", math.exp(x.mag)), ("log(exp(%s))", x.mag),
                     ("rsqrt(exp(%s))", math.exp(x.mag / 2))]
        expr, mag = self.choice(opts)
        return self.tame(self.emit(expr % X, x.shape, mag))

    def op_softmax(self):
        x = self.pick(min_rank=1)
        if x.mag > 8:
            x = self.emit("tanh(%s) * 4" % self.use(x), x.shape, 4)
        r = len(x.shape)
        fn = self.choice(["softmax", "log_softmax"])
        axis = self.rint(-r, r - 1)
        if self.chance(0.25):
            expr = "%s(%s)" % (fn, self.use(x))
        else:
            expr = "%s(%s, axis=%d)" % (fn, self.use(x), axis)
        return self.emit(expr, x.shape, 1.0 if fn == "softmax" else 2 * x.mag + 3)

    def op_reduce(self):
        x = self.pick(min_rank=1)
        r = len(x.shape)
        fn = self.choice(["sum", "mean", "max", "min"])
        keep = self.chance(0.5)
        if self.chance(0.2):
            axes = list(range(r))
            expr = "%s(%s%s)" % (fn, self.use(x), ", keepdims=true" if keep else "")
        else:
            axes = sorted(set(self.rint(0, r - 1) for _ in range(self.rint(1, r))))
            shown = [a - r if self.chance(0.3) else a for a in axes]
            self.r.shuffle(shown)
            expr = "%s(%s, axes=%s, keepdims=%s)" % (fn, self.use(x), fmt_list(shown),
                                                     "true" if keep else "false")
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape) if keep or i not in axes)
        k = numel([x.shape[a] for a in axes])
        return self.tame(self.emit(expr, shape, x.mag * (k if fn == "sum" else 1)))

    def op_shape(self):
        kind = self.choice(["reshape", "transpose", "slice", "concat", "broadcast_to"])
        x = self.pick(min_rank=1)
        r = len(x.shape)
        X = x.name
        if kind == "reshape":
            n = numel(x.shape)
            divs = [d for d in range(1, min(n, MAX_DIM) + 1) if n % d == 0]
            shape = [self.choice(divs)]
            rest = n // shape[0]
            if rest > MAX_DIM:
                d2 = [d for d in range(1, MAX_DIM + 1) if rest % d == 0]
                shape.append(self.choice(d2))
                rest //= shape[-1]
            shape.append(rest)
            self.r.shuffle(shape)
            shown = list(shape)
            if self.chance(0.5):
                shown[self.rint(0, len(shown) - 1)] = -1
            self.use(x)
            return self.emit("reshape(%s, %s)" % (X, fmt_list(shown)), shape, x.mag)
        if kind == "transpose":
            perm = list(range(r))
            self.r.shuffle(perm)
            self.use(x)
            if self.chance(0.3):
                return self.emit("transpose(%s)" % X, x.shape[::-1], x.mag)
            return self.emit("transpose(%s, perm=%s)" % (X, fmt_list(perm)),
                             tuple(x.shape[p] for p in perm), x.mag)
        if kind == "slice":
            start, end, step, shape = [], [], [], []
            for d in x.shape:
                s = self.rint(0, d - 1)
                e = self.rint(s + 1, d)
                st = self.rint(1, 3)
                shape.append(len(range(s, e, st)))
                if self.chance(0.3):
                    s -= d  # negative start counts from the end
                if self.chance(0.2):
                    e = e - d if e < d else 100  # negative end, or clamped past the end
                start.append(s)
                end.append(e)
                step.append(st)
            self.use(x)
            if all(v == 1 for v in step) and self.chance(0.5):
                if all(e >= d for e, d in zip(end, x.shape)) and self.chance(0.5):
                    return self.emit("slice(%s, start=%s)" % (X, fmt_list(start)), shape, x.mag)
                return self.emit("slice(%s, start=%s, end=%s)" % (X, fmt_list(start), fmt_list(end)),
                                 shape, x.mag)
            return self.emit("slice(%s, start=%s, end=%s, step=%s)" %
                             (X, fmt_list(start), fmt_list(end), fmt_list(step)), shape, x.mag)
        if kind == "concat":
            axis = self.rint(0, r - 1)
            parts = [x]
            for _ in range(self.rint(1, 2)):
                s = list(x.shape)
                s[axis] = self.rint(1, 4)
                parts.append(self.operand(s))
            self.r.shuffle(parts)
            shape = list(x.shape)
            shape[axis] = sum(p.shape[axis] for p in parts)
            if numel(shape) > MAX_NUMEL * 2:
                return None
            shown = axis - r if self.chance(0.3) else axis
            names = ", ".join(self.use(p) for p in parts)
            return self.emit("concat(%s, axis=%d)" % (names, shown), shape,
                             max(p.mag for p in parts))
        # broadcast_to: set some dims to 1 via a keepdims reduction, or add leading dims
        shape = list(x.shape)
        lead = [self.rint(1, 4) for _ in range(self.rint(0, 1 if r >= 3 else 2))]
        src = x
        if self.chance(0.5):
            ax = self.rint(0, r - 1)
            src = self.emit("max(%s, axes=[%d], keepdims=true)" % (self.use(x), ax),
                            tuple(1 if i == ax else d for i, d in enumerate(x.shape)), x.mag)
        target = lead + shape
        if numel(target) > MAX_NUMEL * 2:
            return None
        return self.emit("broadcast_to(%s, %s)" % (self.use(src), fmt_list(target)), target, src.mag)

    def op_select(self):
        x = self.pick(min_rank=1)
        shape = x.shape
        a = self.operand(self.bshape(shape))
        cmp = self.choice(["eq", "ne", "lt", "le", "gt", "ge"])
        if cmp in ("eq", "ne"):
            # exact equality is only robust on values both sides compute exactly: compare a
            # node with itself transformed by an exact op.
            cond = "%s(%s, relu(%s))" % (cmp, self.use(x), x.name)
        elif self.chance(0.4):
            cond = "%s(%s, %s)" % (cmp, self.use(x), self.choice(["0", "0.25", "-0.5"]))
        else:
            cond = "%s(%s, %s)" % (cmp, self.use(x), self.use(a))
        c = self.emit(cond, tuple(np.broadcast_shapes(shape, a.shape)), 1, boolean=True)
        y = self.operand(self.bshape(shape))
        z = self.operand(self.bshape(shape)) if self.chance(0.7) else None
        Z = self.use(z) if z is not None else self.choice(["0", "1.5", "-2"])
        out = tuple(np.broadcast_shapes(c.shape, y.shape, z.shape if z is not None else ()))
        mag = max(y.mag, z.mag if z is not None else 2)
        return self.emit("select(%s, %s, %s)" % (self.use(c), self.use(y), Z), out, mag)

    def build(self):
        first = self.new_input(self.rand_shape())
        first.uses = 0
        n_ops = self.rint(3, 9)
        ops = [self.op_einsum] * 4 + [self.op_binary] * 3 + [self.op_unary] * 2 + \
            [self.op_softmax, self.op_reduce, self.op_shape, self.op_shape, self.op_select]
        done = 0
        guard = 0
        while done < n_ops and guard < 100:
            guard += 1
            if self.choice(ops)() is not None:
                done += 1
        # consume the leaf budget so every graph has its inputs and params
        while len(self.params) < 1:
            x = self.pick(min_rank=1)
            p = self.new_param(self.bshape(x.shape))
            self.emit("%s + %s" % (self.use(x), self.use(p)), x.shape, x.mag + p.mag)
        # no i1 outputs: every output is an f32 computed node
        cands = [n for n in self.nodes if not n.leaf]
        # fold a few dead intermediates into the last value so most of the graph is live
        last = cands[-1]
        for u in [n for n in cands[:-1] if n.uses == 0][-3:]:
            if self.chance(0.7):
                last = self.emit("%s + mean(%s)" % (self.use(last), self.use(u)), last.shape,
                                 last.mag + u.mag)
        cands = [n for n in self.nodes if not n.leaf]
        outs = [last]
        rest = [n for n in cands[:-1] if n.uses == 0] or cands[:-1]
        if rest and self.chance(0.5):
            outs.append(self.choice(rest))
        return outs

    def text(self, seed, outs):
        lines = ["# Random graph %d from gen_random_graphs.py; do not edit." % seed]
        # declarations first is not required; keep the order in which names were defined
        lines += self.lines
        for o in outs:
            lines.append("output %s" % o.name)
        if self.chance(0.3) and len(outs) == 1:
            # also exercise `output NAME = expr`
            src = outs[0]
            lines.append("output y = %s * 0.5" % src.name)
        return "\n".join(lines) + "\n"


def check(path, text):
    """True iff tlref accepts the graph, its values are finite and an f32 emulation meets the
    tolerance with a 10x margin."""
    import run_e2e  # noqa: E402 - the tolerance rule lives there
    prog = tlref.parse(path, text=text)
    if not prog.outputs:
        return False
    for in_seed in (0, 1):
        inputs = tlref.random_inputs(prog.inputs, in_seed)
        with np.errstate(all="ignore"):
            ref = tlref.evaluate(path, inputs, text=text)
            emu = tlref.evaluate(path, inputs, text=text, emulate=True)
        for name, r in ref.items():
            if not np.all(np.isfinite(r)) or np.max(np.abs(r), initial=0) > 1e6:
                return False
            ok, _ = run_e2e.compare(emu[name], r, 1e-6)
            if not ok:
                return False
    return True


REJECTED = [0]


def generate(seed):
    """The text of graph `seed`."""
    for attempt in range(200):
        REJECTED[0] += attempt > 0
        rng = np.random.default_rng([seed, attempt])
        g = Graph(rng)
        outs = g.build()
        text = g.text(seed, outs)
        try:
            if check("rand_%d.tl" % seed, text):
                return text
        except tlref.TlError as e:  # a generator bug: report it loudly
            raise RuntimeError("generated graph is invalid: %s\n%s" % (e, text))
    raise RuntimeError("no acceptable graph for seed %d" % seed)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        s = args.seed + i
        with open(os.path.join(args.out, "rand_%d.tl" % s), "w") as f:
            f.write(generate(s))
    print("wrote %d graphs to %s (%d ill-conditioned candidates redrawn)" %
          (args.count, args.out, REJECTED[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
