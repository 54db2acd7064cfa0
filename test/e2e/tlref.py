#!/usr/bin/python3
"""Independent float64 reference evaluator for `.tl` einsum-graph programs (docs/tl-language.md).

This shares no code with tlc: it has its own lexer, parser, shape/type checker and a numpy
implementation of every operator and initializer, so that end-to-end tests compare the compiled
code against a second, independent reading of the language document.

Numerics: floating-point values (f16, bf16, f32, f64) are held and computed in float64; integers
(i32, i64) in int64 (i32 results wrap to 32 bits); i1 in bool. Values are rounded to their
declared dtype where the program fixes one: inputs, parameters, number literals (to the dtype of
the other operand) and `cast`. Intermediate results are NOT rounded, so the result is the exact
(float64) meaning of the program, against which compiled f32/f16 code is compared with a
tolerance.

API:
  parse(path)            -> Program with .inputs / .outputs: lists of TensorSig(name, dtype, shape)
  evaluate(path, inputs) -> dict output name -> ndarray (float64 / int64 / bool), in the order of
                            the `output` statements.
Command line: `tlref.py MODEL.tl` prints the signature; `--eval` also evaluates on seeded random
inputs and prints output statistics.
"""

import math
import os
import re
import sys
from collections import OrderedDict, namedtuple

import numpy as np

DTYPES = ("f16", "bf16", "f32", "f64", "i32", "i64", "i1")
FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")
INT_DTYPES = ("i32", "i64")
KEYWORDS = ("input", "param", "output") + DTYPES

TensorSig = namedtuple("TensorSig", "name dtype shape")


class TlError(Exception):
    """A user error in a .tl program, reported as `file:line:col: error: message`."""

    def __init__(self, msg, loc=None):
        self.msg = msg
        self.loc = loc
        super().__init__(msg if loc is None else "%s:%d:%d: error: %s" % (loc + (msg,)))


# ----------------------------------------------------------------------------------------------
# Lexer
# ----------------------------------------------------------------------------------------------

Token = namedtuple("Token", "kind text value loc")  # kind: num ident str punct nl eof

_NUM_RE = re.compile(r"[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?")
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PUNCT = "()[],:=+-*/;"


def tokenize(text, filename="<input>"):
    toks = []
    depth = 0
    i, line, col0 = 0, 1, 0  # col0: index of the line's first character
    n = len(text)
    while i < n:
        c = text[i]
        loc = (filename, line, i - col0 + 1)
        if c == "\n":
            if depth == 0:
                toks.append(Token("nl", "\n", None, loc))
            i += 1
            line += 1
            col0 = i
        elif c in " \t\r":
            i += 1
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c == '"':
            j = i + 1
            out = []
            while True:
                if j >= n or text[j] == "\n":
                    raise TlError("unterminated string", loc)
                if text[j] == "\\":
                    if j + 1 < n and text[j + 1] in '"\\':
                        out.append(text[j + 1])
                        j += 2
                        continue
                    raise TlError("invalid escape in string", (filename, line, j - col0 + 1))
                if text[j] == '"':
                    break
                out.append(text[j])
                j += 1
            toks.append(Token("str", text[i:j + 1], "".join(out), loc))
            i = j + 1
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = _NUM_RE.match(text, i)
            s = m.group(0)
            is_int = m.group(1) is None and m.group(2) is None and not s.startswith(".")
            toks.append(Token("num", s, int(s) if is_int else float(s), loc))
            i = m.end()
        elif c.isalpha() or c == "_":
            m = _IDENT_RE.match(text, i)
            toks.append(Token("ident", m.group(0), None, loc))
            i = m.end()
        elif c in _PUNCT:
            if c in "([":
                depth += 1
            elif c in ")]":
                depth = max(0, depth - 1)
            toks.append(Token("punct", c, None, loc))
            i += 1
        else:
            raise TlError("unexpected character %r" % c, loc)
    toks.append(Token("eof", "", None, (filename, line, i - col0 + 1)))
    return toks


# ----------------------------------------------------------------------------------------------
# Parser -> AST
# ----------------------------------------------------------------------------------------------

class Num(namedtuple("Num", "value is_int loc")): pass
class Name(namedtuple("Name", "id loc")): pass
class Str(namedtuple("Str", "value loc")): pass
class IntList(namedtuple("IntList", "values loc")): pass
class DtypeVal(namedtuple("DtypeVal", "dtype loc")): pass
class BoolVal(namedtuple("BoolVal", "value loc")): pass
class Call(namedtuple("Call", "fn args kwargs loc")): pass  # kwargs: list of (name, value, loc)
class BinOp(namedtuple("BinOp", "op lhs rhs loc")): pass
class Neg(namedtuple("Neg", "operand loc")): pass

Stmt = namedtuple("Stmt", "kind name type expr loc")  # kind: input param bind output


class Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def peek(self, k=0):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def at(self, kind, text=None, k=0):
        t = self.peek(k)
        return t.kind == kind and (text is None or t.text == text)

    def expect(self, kind, text=None, what=None):
        t = self.peek()
        if not self.at(kind, text):
            raise TlError("expected %s, found %s" % (what or repr(text or kind), _describe(t)), t.loc)
        return self.next()

    def program(self):
        stmts = []
        while not self.at("eof"):
            if self.at("nl") or self.at("punct", ";"):
                self.next()
                continue
            stmts.append(self.statement())
            if not (self.at("nl") or self.at("punct", ";") or self.at("eof")):
                t = self.peek()
                raise TlError("expected end of statement, found %s" % _describe(t), t.loc)
        return stmts

    def ident(self, what):
        t = self.expect("ident", what=what)
        return t

    def statement(self):
        t = self.peek()
        if t.kind == "ident" and t.text in ("input", "param"):
            self.next()
            name = self.binding_name()
            self.expect("punct", ":")
            ty = self.type_()
            expr = None
            if t.text == "param":
                self.expect("punct", "=")
                if not (self.at("ident") and self.at("punct", "(", k=1)):
                    raise TlError("expected an initializer call", self.peek().loc)
                expr = self.primary()
            return Stmt(t.text, name.text, ty, expr, name.loc)
        if t.kind == "ident" and t.text == "output":
            self.next()
            name = self.ident("an output name")
            if name.text in KEYWORDS:
                raise TlError("'%s' is a keyword" % name.text, name.loc)
            expr = None
            if self.at("punct", "="):
                self.next()
                expr = self.expr()
            return Stmt("output", name.text, None, expr, name.loc)
        name = self.binding_name()
        self.expect("punct", "=")
        return Stmt("bind", name.text, None, self.expr(), name.loc)

    def binding_name(self):
        t = self.ident("a name")
        if t.text in KEYWORDS:
            raise TlError("'%s' is a keyword and cannot be used as a name" % t.text, t.loc)
        return t

    def type_(self):
        t = self.ident("a dtype")
        if t.text not in DTYPES:
            raise TlError("unknown dtype '%s'" % t.text, t.loc)
        self.expect("punct", "[")
        dims = []
        if not self.at("punct", "]"):
            while True:
                d = self.expect("num", what="a dimension")
                if not isinstance(d.value, int):
                    raise TlError("dimension must be an integer", d.loc)
                dims.append(d.value)
                if self.at("punct", ","):
                    self.next()
                    continue
                break
        self.expect("punct", "]")
        return (t.text, tuple(dims))

    def expr(self):
        lhs = self.term()
        while self.at("punct", "+") or self.at("punct", "-"):
            op = self.next()
            lhs = BinOp({"+": "add", "-": "sub"}[op.text], lhs, self.term(), op.loc)
        return lhs

    def term(self):
        lhs = self.unary()
        while self.at("punct", "*") or self.at("punct", "/"):
            op = self.next()
            lhs = BinOp({"*": "mul", "/": "div"}[op.text], lhs, self.unary(), op.loc)
        return lhs

    def unary(self):
        if self.at("punct", "-"):
            t = self.next()
            return Neg(self.unary(), t.loc)
        return self.primary()

    def primary(self):
        t = self.peek()
        if t.kind == "num":
            self.next()
            return Num(t.value, isinstance(t.value, int), t.loc)
        if t.kind == "ident":
            if t.text in KEYWORDS:
                raise TlError("unexpected keyword '%s' in expression" % t.text, t.loc)
            self.next()
            if self.at("punct", "("):
                return self.call(t)
            return Name(t.text, t.loc)
        if self.at("punct", "("):
            self.next()
            e = self.expr()
            self.expect("punct", ")")
            return e
        raise TlError("expected an expression, found %s" % _describe(t), t.loc)

    def call(self, fn):
        self.expect("punct", "(")
        args, kwargs = [], []
        if not self.at("punct", ")"):
            while True:
                if self.at("ident") and self.at("punct", "=", k=1):
                    k = self.next()
                    self.next()
                    if any(k.text == kk for kk, _, _ in kwargs):
                        raise TlError("duplicate keyword argument '%s'" % k.text, k.loc)
                    kwargs.append((k.text, self.value(), k.loc))
                else:
                    if kwargs:
                        raise TlError("positional argument after keyword argument", self.peek().loc)
                    if self.at("str"):
                        s = self.next()
                        args.append(Str(s.value, s.loc))
                    elif self.at("punct", "["):
                        args.append(self.int_list())
                    else:
                        args.append(self.expr())
                if self.at("punct", ","):
                    self.next()
                    continue
                break
        self.expect("punct", ")")
        return Call(fn.text, args, kwargs, fn.loc)

    def value(self):
        t = self.peek()
        if t.kind == "str":
            self.next()
            return Str(t.value, t.loc)
        if self.at("punct", "["):
            return self.int_list()
        if t.kind == "ident" and t.text in DTYPES:
            self.next()
            return DtypeVal(t.text, t.loc)
        if t.kind == "ident" and t.text in ("true", "false") and not self.at("punct", "(", k=1):
            self.next()
            return BoolVal(t.text == "true", t.loc)
        return self.expr()

    def int_list(self):
        start = self.expect("punct", "[")
        vals = []
        if not self.at("punct", "]"):
            while True:
                neg = False
                if self.at("punct", "-"):
                    self.next()
                    neg = True
                d = self.expect("num", what="an integer")
                if not isinstance(d.value, int):
                    raise TlError("list elements must be integers", d.loc)
                vals.append(-d.value if neg else d.value)
                if self.at("punct", ","):
                    self.next()
                    continue
                break
        self.expect("punct", "]")
        return IntList(tuple(vals), start.loc)


def _describe(t):
    if t.kind == "eof":
        return "end of file"
    if t.kind == "nl":
        return "end of line"
    return "'%s'" % t.text


# ----------------------------------------------------------------------------------------------
# Values, dtype rounding
# ----------------------------------------------------------------------------------------------

class Tensor:
    """A typed tensor. `data` is None during shape-only checking (parse())."""
    __slots__ = ("dtype", "shape", "data")

    def __init__(self, dtype, shape, data=None):
        self.dtype = dtype
        self.shape = tuple(shape)
        self.data = data
        if data is not None:
            assert data.shape == self.shape, (data.shape, self.shape)


class Lit:
    """A number literal not yet bound to a dtype."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def storage_dtype(dtype):
    if dtype in FLOAT_DTYPES:
        return np.float64
    if dtype in INT_DTYPES:
        return np.int64
    return np.bool_


def _round_bf16(a):
    f = np.asarray(a, dtype=np.float64).astype(np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    out = rounded.view(np.float32).astype(np.float64)
    return np.where(np.isnan(f), np.nan, out)


def bf16_bits_to_f64(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def f64_to_bf16_bits(a):
    return (_round_bf16(a).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _wrap_i32(a):
    a = np.asarray(a, dtype=np.int64)
    return ((a + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def round_to(dtype, a):
    """Rounds array `a` (any numeric numpy dtype) to `dtype`, returning the storage dtype.
    Float -> int truncates toward zero; anything -> i1 is `!= 0`."""
    a = np.asarray(a)
    with np.errstate(all="ignore"):
        if dtype == "f64":
            return a.astype(np.float64)
        if dtype == "f32":
            return a.astype(np.float64).astype(np.float32).astype(np.float64)
        if dtype == "f16":
            return a.astype(np.float64).astype(np.float16).astype(np.float64)
        if dtype == "bf16":
            return _round_bf16(a)
        if dtype in INT_DTYPES:
            if a.dtype.kind == "f":
                a = np.trunc(a)
                a = np.where(np.isfinite(a), a, 0)
            a = a.astype(np.int64)
            return _wrap_i32(a) if dtype == "i32" else a
        if dtype == "i1":
            return a != 0
    raise AssertionError(dtype)


def numpy_dtype(dtype):
    """The numpy dtype of the C buffer for `dtype` (bf16 as uint16 bit patterns)."""
    return {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": np.uint16,
            "i32": np.int32, "i64": np.int64, "i1": np.uint8}[dtype]


def to_buffer(dtype, a):
    """Converts reference-domain values to the C buffer representation of `dtype`."""
    if dtype == "bf16":
        return f64_to_bf16_bits(a)
    if dtype == "i1":
        return np.asarray(a).astype(np.uint8)
    return round_to(dtype, a).astype(numpy_dtype(dtype))


def from_buffer(dtype, buf):
    """Converts a C buffer (array of numpy_dtype(dtype)) to the reference domain."""
    if dtype == "bf16":
        return bf16_bits_to_f64(buf)
    if dtype == "i1":
        return np.asarray(buf) != 0
    return np.asarray(buf).astype(storage_dtype(dtype))


# ----------------------------------------------------------------------------------------------
# The initializers' random number generator (exact, per the language document)
# ----------------------------------------------------------------------------------------------

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def splitmix64_draws(seed, n):
    """The first n draws z of splitmix64 from state `seed`, as Python ints (the specification)."""
    s = seed & MASK64
    out = []
    for _ in range(n):
        s = (s + GOLDEN) & MASK64
        z = s
        z = ((z ^ (z >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        z = z ^ (z >> 31)
        out.append(z)
    return out


def _splitmix64_draws_np(seed, n):
    """Vectorized splitmix64 (uint64 arithmetic wraps mod 2^64); equal to splitmix64_draws."""
    with np.errstate(over="ignore"):
        s = np.arange(1, n + 1, dtype=np.uint64) * np.uint64(GOLDEN) + np.uint64(seed & MASK64)
        z = (s ^ (s >> np.uint64(30))) * np.uint64(MIX1)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
        return z ^ (z >> np.uint64(31))


def uniform01(seed, n):
    """n doubles u = (z >> 11) * 2^-53 in [0, 1)."""
    if n <= 4096:
        return np.array([(z >> 11) * 2.0 ** -53 for z in splitmix64_draws(seed, n)],
                        dtype=np.float64)
    return (_splitmix64_draws_np(seed, n) >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def rng_uniform(seed, n, low=-1.0, high=1.0):
    return low + (high - low) * uniform01(seed, n)


def rng_randn(seed, n, mean=0.0, std=1.0):
    u = uniform01(seed, 2 * n)
    u1, u2 = u[0::2], u[1::2]
    return mean + std * (np.sqrt(-2.0 * np.log(1.0 - u1)) * np.cos(2.0 * math.pi * u2))


# ----------------------------------------------------------------------------------------------
# Operators
# ----------------------------------------------------------------------------------------------

def _erf(a):
    a = np.asarray(a, dtype=np.float64)
    return np.asarray(np.frompyfunc(math.erf, 1, 1)(a), dtype=np.float64).reshape(a.shape)


_UNARY = {
    "neg": lambda a: -a,
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "rsqrt": lambda a: 1.0 / np.sqrt(a),
    "tanh": np.tanh,
    "sigmoid": lambda a: 1.0 / (1.0 + np.exp(-a)),
    "relu": lambda a: np.maximum(a, 0),
    "erf": _erf,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "floor": np.floor,
    "ceil": np.ceil,
    "round": np.round,  # halves to even, as tl.round
}
_INT_OK_UNARY = ("neg", "abs", "relu")


def _int_div(a, b):
    # tlc's defined integer division (docs/tl-language.md): truncation toward zero, x / 0 = 0,
    # INT_MIN / -1 wraps to INT_MIN.
    safe = np.where(b == 0, 1, b).astype(a.dtype)
    with np.errstate(all="ignore"):
        q = a // safe
        q = q + ((a % safe != 0) & ((a < 0) != (safe < 0)))
    return np.where(b == 0, 0, q).astype(a.dtype)


def _int_pow(a, b):
    if np.any(b < 0):
        raise ValueError("negative integer exponent")
    return np.power(a, b)


_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
    "pow": np.power, "maximum": np.maximum, "minimum": np.minimum,
}
_COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}
_REDUCE = {"sum": np.sum, "mean": np.mean, "max": np.max, "min": np.min}

# Per call: positional parameter names after the tensor operands, with defaults.
_ATTRS = {
    "gelu": [("approximate", "none")],
    "softmax": [("axis", -1)], "log_softmax": [("axis", -1)],
    "cast": [("to", None)],
    "reshape": [("shape", None)],
    "transpose": [("perm", None)],
    "broadcast_to": [("shape", None)],
    "slice": [("start", None), ("end", None), ("step", None)],
}
for _r in _REDUCE:
    _ATTRS[_r] = [("axes", None), ("keepdims", False)]

_LOSSES = {
    "mse_loss": [("reduction", "mean")],
    "cross_entropy": [("label_smoothing", 0.0), ("reduction", "mean")],
    "bce_with_logits": [("reduction", "mean")],
}

_INITIALIZERS = ("zeros", "ones", "full", "randn", "uniform", "arange", "load")


def broadcast_shapes(shapes, loc):
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise TlError("shapes %s are not broadcast-compatible" %
                      ", ".join(_fmt_shape(s) for s in shapes), loc)


def _fmt_shape(s):
    return "[" + ", ".join(str(d) for d in s) + "]"


def _norm_axis(axis, rank, loc):
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TlError("axis must be an integer", loc)
    if not -rank <= axis < rank:
        raise TlError("axis %d is out of range for rank %d" % (axis, rank), loc)
    return axis % rank


def einsum_shape(eq, shapes, loc):
    """Validates einsum equation `eq` for operands of `shapes` (numpy semantics) and returns
    the result shape."""
    eq = eq.replace(" ", "")
    if eq.count("->") > 1:
        raise TlError("malformed einsum equation '%s'" % eq, loc)
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise TlError("einsum equation '%s' has %d operand(s) but %d given" %
                      (eq, len(terms), len(shapes)), loc)

    def split(term, what):
        labels, ell = [], False
        j = 0
        while j < len(term):
            if term.startswith("...", j):
                if ell:
                    raise TlError("einsum %s '%s' has more than one '...'" % (what, term), loc)
                ell = True
                labels.append("...")
                j += 3
            elif term[j].isalpha() and term[j].isascii():
                labels.append(term[j])
                j += 1
            else:
                raise TlError("invalid character '%s' in einsum equation '%s'" % (term[j], eq), loc)
        return labels

    dims = {}
    ell_shapes = []
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        labels = split(term, "operand")
        letters = [l for l in labels if l != "..."]
        if "..." in labels:
            if len(shape) < len(letters):
                raise TlError("einsum operand %d has rank %d, fewer than the %d labels of '%s'" %
                              (k, len(shape), len(letters), term), loc)
            e = labels.index("...")
            ne = len(shape) - len(letters)
            ell_shapes.append(shape[e:e + ne])
            sdims = list(shape[:e]) + list(shape[e + ne:])
        else:
            if len(shape) != len(letters):
                raise TlError("einsum operand %d has rank %d but '%s' has %d labels" %
                              (k, len(shape), term, len(letters)), loc)
            sdims = list(shape)
        local = {}
        for l, d in zip(letters, sdims):
            if l in local and local[l] != d:
                raise TlError("einsum label '%s' repeated in operand %d with sizes %d and %d" %
                              (l, k, local[l], d), loc)
            local[l] = d
        for l, d in local.items():
            if l in dims and dims[l] != d:
                if dims[l] != 1 and d != 1:
                    raise TlError("einsum label '%s' has sizes %d and %d" % (l, dims[l], d), loc)
                dims[l] = max(dims[l], d)
            else:
                dims[l] = d
    # Labels repeated within one operand but appearing in no other operand count once per
    # occurrence for the implicit output: numpy keeps labels that occur exactly once overall.
    occ = {}
    for term in terms:
        for l in split(term, "operand"):
            if l != "...":
                occ[l] = occ.get(l, 0) + 1
    ell_shape = broadcast_shapes(ell_shapes, loc) if ell_shapes else ()
    if arrow:
        out = split(rhs, "output")
        letters = [l for l in out if l != "..."]
        for l in letters:
            if l not in dims:
                raise TlError("einsum output label '%s' does not appear in an operand" % l, loc)
            if letters.count(l) > 1:
                raise TlError("einsum output label '%s' appears more than once" % l, loc)
        if "..." not in out and len(ell_shape) > 0:
            raise TlError("einsum output needs '...' to keep the broadcast dimensions", loc)
    else:
        out = (["..."] if ell_shapes else []) + sorted(l for l, c in occ.items() if c == 1)
    shape = []
    for l in out:
        if l == "...":
            shape.extend(ell_shape)
        else:
            shape.append(dims[l])
    return tuple(shape)


class Evaluator:
    """Walks the program. With compute=False only dtypes and shapes are checked (parse())."""

    def __init__(self, path, compute, text=None, emulate=False):
        self.path = path
        # emulate: round every intermediate to its dtype and run f32 contractions, reductions
        # and softmax in float32, imitating a compiler's low-precision code (for tolerance
        # self-tests of the test suite; never the reference itself).
        self.emulate = emulate
        self.dir = os.path.dirname(os.path.abspath(path))
        self.compute = compute
        if text is None:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        self.stmts = Parser(tokenize(text, path)).program()
        self.env = {}
        self.inputs = []
        self.params = []
        self.outputs = []  # (name, Tensor)

    def run(self, inputs=None):
        inputs = dict(inputs or {})
        for index, st in enumerate(self.stmts):
            self.current = index
            if st.kind in ("input", "param", "bind") or (st.kind == "output" and st.expr is not None):
                if st.name in self.env:
                    raise TlError("'%s' is already defined" % st.name, st.loc)
            if st.kind == "input":
                dtype, shape = st.type
                data = None
                if self.compute:
                    if st.name not in inputs:
                        raise TlError("no value given for input '%s'" % st.name, st.loc)
                    data = self._coerce_input(st.name, dtype, shape, inputs.pop(st.name))
                self.env[st.name] = Tensor(dtype, shape, data)
                self.inputs.append(TensorSig(st.name, dtype, shape))
            elif st.kind == "param":
                dtype, shape = st.type
                self.env[st.name] = self.initializer(st.expr, dtype, shape)
                self.params.append(TensorSig(st.name, dtype, shape))
            elif st.kind == "bind":
                self.env[st.name] = self.as_tensor(self.eval(st.expr), st.expr)
            else:
                if st.expr is not None:
                    self.env[st.name] = self.as_tensor(self.eval(st.expr), st.expr)
                elif st.name not in self.env:
                    raise TlError("'%s' is not defined" % st.name, st.loc)
                if any(n == st.name for n, _ in self.outputs):
                    raise TlError("'%s' is already an output" % st.name, st.loc)
                self.outputs.append((st.name, self.env[st.name]))
        if not self.outputs:
            raise TlError("the program has no output", (self.path, 1, 1))
        if self.compute and inputs:
            raise TlError("values given for unknown inputs: %s" % ", ".join(sorted(inputs)))

    def _coerce_input(self, name, dtype, shape, v):
        a = np.asarray(v)
        if a.shape != tuple(shape):
            raise TlError("input '%s' has shape %s, expected %s" %
                          (name, _fmt_shape(a.shape), _fmt_shape(shape)))
        if dtype == "bf16" and a.dtype == np.uint16:
            return bf16_bits_to_f64(a)
        return round_to(dtype, a)

    # -- initializers ---------------------------------------------------------------------------
    def initializer(self, call, dtype, shape):
        fn = call.fn
        if fn not in _INITIALIZERS:
            raise TlError("unknown initializer '%s'" % fn, call.loc)
        n = int(np.prod(shape, dtype=np.int64))
        spec = {"zeros": [], "ones": [], "full": [("v", None)],
                "randn": [("seed", None), ("mean", 0.0), ("std", 1.0)],
                "uniform": [("seed", None), ("low", -1.0), ("high", 1.0)],
                "arange": [("start", 0.0), ("step", 1.0)], "load": [("path", None)]}[fn]
        kwargs = call.kwargs
        if fn == "full":  # full(v) and full(value=v)
            kwargs = [(k if k != "value" else "v", v, l) for k, v, l in call.kwargs]
        vals = self.bind_attrs(Call(fn, call.args, kwargs, call.loc), call.args, spec)
        for k, v in vals.items():
            if v is None:
                raise TlError("%s() needs '%s'" % (fn, k), call.loc)
            if fn == "load":
                if not isinstance(v, str):
                    raise TlError("load() needs a file name string", call.loc)
            elif not isinstance(v, (int, float)) or isinstance(v, bool):
                raise TlError("%s(): '%s' must be a number" % (fn, k), call.loc)
        if fn in ("randn", "uniform"):
            seed = vals["seed"]
            if not isinstance(seed, int) or seed < 0:
                raise TlError("seed must be a non-negative integer", call.loc)
        if fn == "load":
            p = os.path.join(self.dir, vals["path"])
            try:
                arr = np.load(p, mmap_mode="r", allow_pickle=False)
            except Exception as e:  # noqa: BLE001 - any I/O or format problem is a user error
                raise TlError("cannot load '%s': %s" % (vals["path"], e), call.loc)
            want = {"bf16": np.uint16, "i1": np.bool_}.get(dtype, numpy_dtype(dtype))
            if arr.dtype != np.dtype(want) or tuple(arr.shape) != tuple(shape):
                raise TlError("'%s' holds %s%s, but the parameter is declared %s%s" %
                              (vals["path"], arr.dtype, _fmt_shape(arr.shape), dtype,
                               _fmt_shape(shape)), call.loc)
            if not self.compute:
                return Tensor(dtype, shape)
            a = np.array(arr)
            return Tensor(dtype, shape, bf16_bits_to_f64(a) if dtype == "bf16" else round_to(dtype, a))
        if not self.compute:
            return Tensor(dtype, shape)
        if fn == "zeros":
            v = np.zeros(n)
        elif fn == "ones":
            v = np.ones(n)
        elif fn == "full":
            v = np.full(n, float(vals["v"]))
        elif fn == "randn":
            v = rng_randn(vals["seed"], n, float(vals["mean"]), float(vals["std"]))
        elif fn == "uniform":
            v = rng_uniform(vals["seed"], n, float(vals["low"]), float(vals["high"]))
        else:
            v = float(vals["start"]) + np.arange(n, dtype=np.float64) * float(vals["step"])
        return Tensor(dtype, shape, round_to(dtype, v.reshape(shape)))

    # -- attribute binding ----------------------------------------------------------------------
    def attr_value(self, node):
        """Evaluates an attribute argument to a Python value (int, float, str, bool, tuple,
        dtype name)."""
        if isinstance(node, Str):
            return node.value
        if isinstance(node, IntList):
            return tuple(node.values)
        if isinstance(node, DtypeVal):
            return ("dtype", node.dtype)
        if isinstance(node, BoolVal):
            return node.value
        v = self.eval(node)
        if isinstance(v, Lit):
            return v.value
        if isinstance(node, Name) and node.id in ("true", "false"):
            return node.id == "true"
        raise TlError("expected a constant attribute value", node.loc)

    def bind_attrs(self, call, pos_attrs, spec):
        vals = OrderedDict((k, d) for k, d in spec)
        names = [k for k, _ in spec]
        if len(pos_attrs) > len(names):
            raise TlError("%s() takes at most %d attribute argument(s)" % (call.fn, len(names)),
                          call.loc)
        for k, node in zip(names, pos_attrs):
            vals[k] = self.attr_value(node)
        for k, node, loc in call.kwargs:
            if k not in vals:
                raise TlError("%s() has no argument '%s'" % (call.fn, k), loc)
            if k in names[:len(pos_attrs)]:
                raise TlError("%s(): '%s' given twice" % (call.fn, k), loc)
            vals[k] = self.attr_value(node)
        return vals

    # -- expressions ----------------------------------------------------------------------------
    def as_tensor(self, v, node, dtype="f32"):
        if isinstance(v, Tensor):
            return v
        data = round_to(dtype, np.array(v.value, dtype=np.float64)) if self.compute else None
        return Tensor(dtype, (), data)

    def eval(self, node):
        if isinstance(node, Num):
            return Lit(node.value)
        if isinstance(node, Name):
            if node.id not in self.env:
                raise TlError("'%s' is not defined" % node.id, node.loc)
            return self.env[node.id]
        if isinstance(node, Neg):
            v = self.eval(node.operand)
            if isinstance(v, Lit):
                return Lit(-v.value)
            return self._rounded(self.unary("neg", v, node.loc))
        if isinstance(node, BinOp):
            return self._rounded(
                self.binary(node.op, self.eval(node.lhs), self.eval(node.rhs), node.loc))
        if isinstance(node, Call):
            return self._rounded(self.call(node))
        if isinstance(node, (Str, IntList, DtypeVal, BoolVal)):
            raise TlError("expected a tensor expression", node.loc)
        raise AssertionError(node)

    def _rounded(self, v):
        if self.emulate and isinstance(v, Tensor) and v.data is not None:
            v.data = round_to(v.dtype, v.data)
        return v

    def _work(self, t):
        """The operand data an op computes on: float32 for f32 tensors when emulating."""
        if self.emulate and t.dtype == "f32":
            return t.data.astype(np.float32)
        return t.data

    def tensor_args(self, call, lo, hi=None):
        """Splits positional args into leading tensor operands [lo, hi] and attribute args."""
        hi = lo if hi is None else hi
        n = 0
        for a in call.args:
            if isinstance(a, (Str, IntList)) or n >= hi:
                break
            n += 1
        if n < lo:
            raise TlError("%s() needs %d tensor operand(s)" % (call.fn, lo), call.loc)
        ops = [self.eval(a) for a in call.args[:n]]
        return ops, call.args[n:]

    def call(self, call):
        fn = call.fn
        if fn in _INITIALIZERS:
            raise TlError("initializer '%s' can only define a param" % fn, call.loc)
        if fn == "einsum":
            if not call.args or not isinstance(call.args[0], Str):
                raise TlError("einsum() needs an equation string first", call.loc)
            if call.kwargs:
                raise TlError("einsum() takes no keyword arguments", call.loc)
            ops = [self.eval(a) for a in call.args[1:]]
            if not ops:
                raise TlError("einsum() needs at least one operand", call.loc)
            return self.einsum(call.args[0].value, ops, call.loc)
        if fn in _BINARY or fn in _COMPARE:
            ops, rest = self.tensor_args(call, 2)
            if rest or call.kwargs:
                raise TlError("%s() takes exactly two operands" % fn, call.loc)
            return self.binary(fn, ops[0], ops[1], call.loc)
        if fn in _UNARY:
            ops, rest = self.tensor_args(call, 1)
            if rest or call.kwargs:
                raise TlError("%s() takes exactly one operand" % fn, call.loc)
            return self.unary(fn, ops[0], call.loc)
        if fn == "select":
            ops, rest = self.tensor_args(call, 3)
            if rest or call.kwargs:
                raise TlError("select() takes exactly three operands", call.loc)
            return self.select(ops, call.loc)
        if fn == "concat":
            ops, rest = self.tensor_args(call, 1, 1 << 30)
            a = self.bind_attrs(call, rest, [("axis", 0)])
            return self.concat([self.as_tensor(o, call) for o in ops], a["axis"], call.loc)
        if fn == "attention":
            return self.attention(call)
        if fn == "grad":
            return self.grad(call)
        if fn in _LOSSES:
            ops, rest = self.tensor_args(call, 2)
            a = self.bind_attrs(call, rest, _LOSSES[fn])
            return self.loss(fn, self.as_tensor(ops[0], call), self.as_tensor(ops[1], call), a, call)
        if fn in _ATTRS:
            ops, rest = self.tensor_args(call, 1)
            x = self.as_tensor(ops[0], call)
            a = self.bind_attrs(call, rest, _ATTRS[fn])
            return getattr(self, "op_" + fn if fn not in _REDUCE else "reduce")(x, a, call)
        raise TlError("unknown operator '%s'" % fn, call.loc)

    # -- losses (PyTorch's definitions) ----------------------------------------------------------
    def loss(self, fn, x, y, a, call):
        if a["reduction"] not in ("mean", "sum"):
            raise TlError("reduction must be mean or sum", call.loc)
        if not self.compute:
            return Tensor(x.dtype, ())
        reduce = np.mean if a["reduction"] == "mean" else np.sum
        if fn == "mse_loss":
            v = reduce((x.data - y.data) ** 2)
        elif fn == "bce_with_logits":
            t = np.broadcast_to(y.data, x.data.shape)
            v = reduce(np.maximum(x.data, 0) - x.data * t + np.log1p(np.exp(-np.abs(x.data))))
        else:
            n, c = x.data.shape
            m = np.max(x.data, axis=1, keepdims=True)
            logp = x.data - m - np.log(np.sum(np.exp(x.data - m), axis=1, keepdims=True))
            eps = float(a["label_smoothing"])
            onehot = (y.data.reshape(n, 1) == np.arange(c)).astype(np.float64)
            target = onehot * (1 - eps) + eps / c
            v = reduce(-np.sum(target * logp, axis=1))
        return Tensor(x.dtype, (), np.array(v, dtype=np.float64))

    # -- gradients, by central finite differences in float64 ------------------------------------
    def grad(self, call):
        if len(call.args) != 2 or call.kwargs:
            raise TlError("grad() takes a loss and a name", call.loc)
        loss_node, wrt = call.args
        if not isinstance(wrt, Name):
            raise TlError("grad() differentiates with respect to a name", wrt.loc)
        loss = self.as_tensor(self.eval(loss_node), call)
        x = self.as_tensor(self.eval(wrt), call)
        if loss.shape != () or loss.dtype not in FLOAT_DTYPES or x.dtype not in FLOAT_DTYPES:
            raise TlError("grad() needs a float scalar loss and a float tensor", call.loc)
        if not self.compute:
            return Tensor(x.dtype, x.shape)
        g = np.zeros(x.data.shape)
        for i in range(x.data.size):
            h = 1e-6 * max(1.0, abs(float(x.data.flat[i])))
            f = []
            for step in (h, -h):
                v = x.data.copy()
                v.flat[i] += step
                sub = self._replay(wrt.id, v)
                f.append(float(sub.as_tensor(sub.eval(loss_node), call).data))
            g.flat[i] = (f[0] - f[1]) / (2 * h)
        return Tensor(x.dtype, x.shape, g)

    def _replay(self, name, value):
        """An evaluator holding the statements before the current one re-evaluated with `name`
        bound to `value`."""
        sub = Evaluator.__new__(Evaluator)
        sub.__dict__.update(self.__dict__)
        sub.env = {}
        # Float-to-float casts do not round here: a function rounded to f32 is flat between
        # representable values, and its differences would measure the rounding.
        sub.smooth = True
        seen = False
        for st in self.stmts[:self.current]:
            if st.kind == "output" and st.expr is None:
                continue
            if st.name == name:
                sub.env[name] = Tensor(self.env[name].dtype, self.env[name].shape, value)
                seen = True
            elif not seen or st.kind in ("input", "param") or _calls_grad(st.expr):
                # (a gradient is not differentiated again: tlc rejects second derivatives)
                sub.env[st.name] = self.env[st.name]
            else:
                sub.env[st.name] = sub.as_tensor(sub.eval(st.expr), st.expr)
        return sub

    def unary(self, fn, x, loc):
        x = self.as_tensor(x, None)
        if x.dtype == "i1" or (x.dtype in INT_DTYPES and fn not in _INT_OK_UNARY):
            raise TlError("%s() is not defined for %s" % (fn, x.dtype), loc)
        data = None
        if self.compute:
            with np.errstate(all="ignore"):
                data = _UNARY[fn](x.data)
            if x.dtype == "i32":
                data = _wrap_i32(data)
        return Tensor(x.dtype, x.shape, data)

    def _unify(self, vals, loc):
        """Gives literals the dtype of the tensor operands; all tensors must agree."""
        tensors = [v for v in vals if isinstance(v, Tensor)]
        if not tensors:
            return None
        dt = tensors[0].dtype
        for t in tensors[1:]:
            if t.dtype != dt:
                raise TlError("operand dtypes differ: %s and %s" % (dt, t.dtype), loc)
        return [v if isinstance(v, Tensor) else self.as_tensor(v, None, dt) for v in vals]

    def binary(self, fn, a, b, loc):
        if isinstance(a, Lit) and isinstance(b, Lit) and fn in _BINARY:
            av, bv = float(a.value), float(b.value)
            if fn == "div" and bv == 0:
                raise TlError("division by zero in a constant expression", loc)
            if isinstance(a.value, int) and isinstance(b.value, int) and fn != "div":
                return Lit({"add": a.value + b.value, "sub": a.value - b.value,
                            "mul": a.value * b.value, "pow": float(av ** bv),
                            "maximum": max(a.value, b.value),
                            "minimum": min(a.value, b.value)}[fn])
            return Lit(float(_BINARY[fn](np.float64(av), np.float64(bv))))
        ops = self._unify([a, b], loc) or [self.as_tensor(a, None), self.as_tensor(b, None)]
        a, b = ops
        dt = a.dtype
        shape = broadcast_shapes([a.shape, b.shape], loc)
        if fn in _COMPARE:
            data = _COMPARE[fn](a.data, b.data) if self.compute else None
            if dt == "i1" and fn not in ("eq", "ne"):
                raise TlError("%s() is not defined for i1" % fn, loc)
            return Tensor("i1", shape, data)
        if dt == "i1":
            raise TlError("%s() is not defined for i1" % fn, loc)
        data = None
        if self.compute:
            with np.errstate(all="ignore"):
                if dt in INT_DTYPES and fn == "div":
                    data = _int_div(*np.broadcast_arrays(a.data, b.data))
                elif dt in INT_DTYPES and fn == "pow":
                    data = _int_pow(a.data, b.data)
                else:
                    data = _BINARY[fn](a.data, b.data)
            if dt == "i32":
                data = _wrap_i32(data)
            data = np.broadcast_to(data, shape).copy()
        return Tensor(dt, shape, data)

    def select(self, ops, loc):
        c = self.as_tensor(ops[0], None)
        if c.dtype != "i1":
            raise TlError("select() condition must be i1, got %s" % c.dtype, loc)
        ab = self._unify(ops[1:], loc) or [self.as_tensor(o, None) for o in ops[1:]]
        shape = broadcast_shapes([c.shape, ab[0].shape, ab[1].shape], loc)
        data = np.where(c.data, ab[0].data, ab[1].data) if self.compute else None
        return Tensor(ab[0].dtype, shape, data)

    def einsum(self, eq, ops, loc):
        ops = self._unify(ops, loc) or [self.as_tensor(o, None) for o in ops]
        if ops[0].dtype == "i1":
            raise TlError("einsum() is not defined for i1", loc)
        shape = einsum_shape(eq, [o.shape for o in ops], loc)
        data = None
        if self.compute:
            data = np.einsum(eq, *[self._work(o) for o in ops], optimize=len(ops) > 2)
            data = np.asarray(data, dtype=storage_dtype(ops[0].dtype)).reshape(shape)
            if ops[0].dtype == "i32":
                data = _wrap_i32(data)
        return Tensor(ops[0].dtype, shape, data)

    def concat(self, xs, axis, loc):
        dt = xs[0].dtype
        rank = len(xs[0].shape)
        if rank == 0:
            raise TlError("concat() needs operands of rank >= 1", loc)
        ax = _norm_axis(axis, rank, loc)
        for x in xs[1:]:
            if x.dtype != dt:
                raise TlError("concat() operand dtypes differ: %s and %s" % (dt, x.dtype), loc)
            if len(x.shape) != rank or any(x.shape[i] != xs[0].shape[i]
                                           for i in range(rank) if i != ax):
                raise TlError("concat() operand shapes %s and %s differ outside axis %d" %
                              (_fmt_shape(xs[0].shape), _fmt_shape(x.shape), axis), loc)
        shape = list(xs[0].shape)
        shape[ax] = sum(x.shape[ax] for x in xs)
        data = np.concatenate([x.data for x in xs], axis=ax) if self.compute else None
        return Tensor(dt, shape, data)

    def op_gelu(self, x, a, call):
        if x.dtype not in FLOAT_DTYPES:
            raise TlError("gelu() needs a floating-point operand", call.loc)
        mode = a["approximate"]
        if mode not in ("none", "tanh"):
            raise TlError("gelu(): approximate must be \"none\" or \"tanh\"", call.loc)
        data = None
        if self.compute:
            v = x.data
            if mode == "none":
                data = 0.5 * v * (1.0 + _erf(v / math.sqrt(2.0)))
            else:
                data = 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))
        return Tensor(x.dtype, x.shape, data)

    def _softmax_common(self, x, a, call):
        if x.dtype not in FLOAT_DTYPES:
            raise TlError("%s() needs a floating-point operand" % call.fn, call.loc)
        if len(x.shape) == 0:
            raise TlError("%s() needs an operand of rank >= 1" % call.fn, call.loc)
        return _norm_axis(a["axis"], len(x.shape), call.loc)

    def op_softmax(self, x, a, call):
        ax = self._softmax_common(x, a, call)
        data = None
        if self.compute:
            v = self._work(x)
            e = np.exp(v - np.max(v, axis=ax, keepdims=True))
            data = e / np.sum(e, axis=ax, keepdims=True)
        return Tensor(x.dtype, x.shape, data)

    def op_log_softmax(self, x, a, call):
        ax = self._softmax_common(x, a, call)
        data = None
        if self.compute:
            v = self._work(x)
            s = v - np.max(v, axis=ax, keepdims=True)
            data = s - np.log(np.sum(np.exp(s), axis=ax, keepdims=True))
        return Tensor(x.dtype, x.shape, data)

    def reduce(self, x, a, call):
        fn = call.fn
        rank = len(x.shape)
        axes = a["axes"]
        if axes is None:
            axes = tuple(range(rank))
        if not isinstance(axes, tuple):
            raise TlError("%s(): axes must be a list" % fn, call.loc)
        axes = tuple(_norm_axis(ax, rank, call.loc) for ax in axes)
        if len(set(axes)) != len(axes):
            raise TlError("%s(): repeated axis" % fn, call.loc)
        keep = a["keepdims"]
        if not isinstance(keep, bool):
            raise TlError("%s(): keepdims must be true or false" % fn, call.loc)
        if x.dtype == "i1":
            raise TlError("%s() is not defined for i1" % fn, call.loc)
        for ax in axes:
            if x.shape[ax] == 0 and fn in ("max", "min", "mean"):
                raise TlError("%s() over an empty axis" % fn, call.loc)
        shape = tuple((1 if i in axes else d) for i, d in enumerate(x.shape)
                      if keep or i not in axes)
        data = None
        if self.compute:
            if fn == "mean" and x.dtype in INT_DTYPES:
                s = np.sum(x.data, axis=axes, keepdims=keep)
                data = _int_div(s, np.full_like(s, int(np.prod([x.shape[i] for i in axes]))))
            else:
                data = np.asarray(_REDUCE[fn](self._work(x), axis=axes, keepdims=keep))
            data = np.asarray(data, dtype=storage_dtype(x.dtype)).reshape(shape)
            if x.dtype == "i32":
                data = _wrap_i32(data)
        return Tensor(x.dtype, shape, data)

    def op_cast(self, x, a, call):
        to = a["to"]
        if not (isinstance(to, tuple) and len(to) == 2 and to[0] == "dtype"):
            raise TlError("cast() needs to=<dtype>", call.loc)
        to = to[1]
        if getattr(self, "smooth", False) and x.dtype in FLOAT_DTYPES and to in FLOAT_DTYPES:
            return Tensor(to, x.shape, x.data)  # unrounded: see _replay
        return Tensor(to, x.shape, round_to(to, x.data) if self.compute else None)

    def _shape_attr(self, v, call, name="shape"):
        if not isinstance(v, tuple):
            raise TlError("%s() needs a %s list" % (call.fn, name), call.loc)
        return v

    def op_reshape(self, x, a, call):
        shape = list(self._shape_attr(a["shape"], call))
        n = int(np.prod(x.shape, dtype=np.int64))
        if shape.count(-1) > 1 or any(d < -1 for d in shape):
            raise TlError("reshape(): invalid shape %s" % _fmt_shape(shape), call.loc)
        if -1 in shape:
            rest = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
            if rest == 0 or n % rest:
                raise TlError("reshape(): cannot reshape %s to %s" %
                              (_fmt_shape(x.shape), _fmt_shape(shape)), call.loc)
            shape[shape.index(-1)] = n // rest
        if int(np.prod(shape, dtype=np.int64)) != n:
            raise TlError("reshape(): cannot reshape %s (%d elements) to %s" %
                          (_fmt_shape(x.shape), n, _fmt_shape(shape)), call.loc)
        return Tensor(x.dtype, shape, x.data.reshape(shape) if self.compute else None)

    def op_transpose(self, x, a, call):
        rank = len(x.shape)
        perm = a["perm"]
        perm = tuple(reversed(range(rank))) if perm is None else self._shape_attr(perm, call, "perm")
        perm = tuple(_norm_axis(p, rank, call.loc) for p in perm) if len(perm) == rank else None
        if perm is None or sorted(perm) != list(range(rank)):
            raise TlError("transpose(): perm %s is not a permutation of %d axes" %
                          (_fmt_shape(a["perm"]), rank), call.loc)
        shape = tuple(x.shape[p] for p in perm)
        return Tensor(x.dtype, shape, np.transpose(x.data, perm).copy() if self.compute else None)

    def op_broadcast_to(self, x, a, call):
        shape = tuple(self._shape_attr(a["shape"], call))
        if any(d < 0 for d in shape):
            raise TlError("broadcast_to(): invalid shape %s" % _fmt_shape(shape), call.loc)
        try:
            data = np.broadcast_to(x.data if self.compute else np.empty(x.shape, np.int8), shape)
        except ValueError:
            raise TlError("broadcast_to(): cannot broadcast %s to %s" %
                          (_fmt_shape(x.shape), _fmt_shape(shape)), call.loc)
        return Tensor(x.dtype, shape, data.copy() if self.compute else None)

    def attention(self, call):
        """softmax(scale * q k^T + mask, causal: key j > query i masked out) v, in float64:
        the standard (quadratic-memory) formulation."""
        ops, rest = self.tensor_args(call, 3)
        if rest:
            raise TlError("attention() takes three positional operands", call.loc)
        q, k, v = [self.as_tensor(o, call) for o in ops]
        mask, causal, scale = None, False, None
        for key, node, loc in call.kwargs:
            if key == "mask":
                mask = self.as_tensor(self.eval(node), node)
            elif key == "causal":
                causal = self.attr_value(node)
                if not isinstance(causal, bool):
                    raise TlError("attention(): causal must be true or false", loc)
            elif key == "scale":
                scale = self.attr_value(node)
                if isinstance(scale, bool) or not isinstance(scale, (int, float)):
                    raise TlError("attention(): scale must be a number", loc)
            else:
                raise TlError("attention() has no argument '%s'" % key, loc)
        ts = [q, k, v] + ([mask] if mask is not None else [])
        for t in ts:
            if t.dtype != q.dtype:
                raise TlError("attention() operand dtypes differ: %s and %s" % (q.dtype, t.dtype),
                              call.loc)
        if q.dtype not in FLOAT_DTYPES:
            raise TlError("attention() needs floating-point operands", call.loc)
        r = len(q.shape)
        if r < 2 or len(k.shape) != r or len(v.shape) != r or \
                tuple(k.shape[:-2]) != tuple(q.shape[:-2]) or \
                tuple(v.shape[:-2]) != tuple(q.shape[:-2]) or \
                k.shape[-1] != q.shape[-1] or v.shape[-2] != k.shape[-2]:
            raise TlError("attention() shapes %s, %s, %s do not fit [B..., Sq, D], [B..., Sk, D], "
                          "[B..., Sk, Dv]" % (_fmt_shape(q.shape), _fmt_shape(k.shape),
                                              _fmt_shape(v.shape)), call.loc)
        sq, sk = q.shape[-2], k.shape[-2]
        scores_shape = tuple(q.shape[:-2]) + (sq, sk)
        if mask is not None and broadcast_shapes([mask.shape, scores_shape], call.loc) != scores_shape:
            raise TlError("attention() mask %s does not broadcast to %s" %
                          (_fmt_shape(mask.shape), _fmt_shape(scores_shape)), call.loc)
        if scale is None:
            scale = 1.0 / math.sqrt(q.shape[-1])
        shape = tuple(q.shape[:-1]) + (v.shape[-1],)
        data = None
        if self.compute:
            s = np.einsum("...qd,...kd->...qk", q.data, k.data) * float(scale)
            if mask is not None:
                s = s + mask.data
            if causal:
                s = np.where(np.triu(np.ones((sq, sk), dtype=bool), 1), -np.inf, s)
            with np.errstate(all="ignore"):
                s = s - np.max(s, axis=-1, keepdims=True)
                e = np.exp(s)
                p = e / np.sum(e, axis=-1, keepdims=True)
            data = np.einsum("...qk,...kd->...qd", p, v.data)
        return Tensor(q.dtype, shape, data)

    def op_slice(self, x, a, call):
        rank = len(x.shape)
        start = a["start"]
        if start is None:
            raise TlError("slice() needs start=[...]", call.loc)
        start = self._shape_attr(start, call, "start")
        n = len(start)
        end = a["end"]
        step = a["step"]
        end = (None,) * n if end is None else self._shape_attr(end, call, "end")
        step = (1,) * n if step is None else self._shape_attr(step, call, "step")
        if n > rank or len(end) != n or len(step) != n:
            raise TlError("slice(): start, end and step must have the same length, at most the "
                          "rank %d" % rank, call.loc)
        if any(s <= 0 for s in step):
            raise TlError("slice(): step must be positive", call.loc)
        idx = tuple(slice(s, e, st) for s, e, st in zip(start, end, step))
        shape = tuple(len(range(*idx[i].indices(d))) if i < n else d
                      for i, d in enumerate(x.shape))
        return Tensor(x.dtype, shape, x.data[idx].copy() if self.compute else None)


def _calls_grad(node):
    if isinstance(node, Call):
        return node.fn == "grad" or any(_calls_grad(a) for a in node.args) or any(
            _calls_grad(v) for _, v, _ in node.kwargs)
    if isinstance(node, BinOp):
        return _calls_grad(node.lhs) or _calls_grad(node.rhs)
    if isinstance(node, Neg):
        return _calls_grad(node.operand)
    return False


def parse(path, text=None):
    """Parses and type/shape-checks a program; returns the (shape-only) Evaluator, whose
    .inputs, .params and .outputs are lists of TensorSig."""
    ev = Evaluator(path, compute=False, text=text)
    ev.run()
    ev.outputs = [TensorSig(n, t.dtype, t.shape) for n, t in ev.outputs]
    return ev


def evaluate(path, inputs, text=None, emulate=False):
    """Evaluates the program at `path` on `inputs` (name -> array-like; bf16 may be given as
    uint16 bit patterns). Returns an ordered dict output name -> ndarray in the reference domain
    (float64 for float dtypes, int64 for ints, bool for i1)."""
    ev = Evaluator(path, compute=True, text=text, emulate=emulate)
    ev.run(inputs)
    return OrderedDict((n, t.data) for n, t in ev.outputs)


def random_inputs(sigs, seed):
    """Seeded random inputs for a signature list: floats ~ N(0,1) (rounded to the dtype), ints
    in [-5, 5], i1 random bools. Returns name -> array in the reference domain."""
    rng = np.random.default_rng(seed)
    out = OrderedDict()
    for s in sigs:
        if s.dtype in FLOAT_DTYPES:
            out[s.name] = round_to(s.dtype, rng.standard_normal(s.shape))
        elif s.dtype in INT_DTYPES:
            out[s.name] = rng.integers(-5, 6, size=s.shape).astype(np.int64)
        else:
            out[s.name] = rng.integers(0, 2, size=s.shape).astype(np.bool_)
    return out


def _main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--eval", action="store_true", help="evaluate on seeded random inputs")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    try:
        prog = parse(args.model)
        for kind, sigs in (("input", prog.inputs), ("output", prog.outputs)):
            for s in sigs:
                print("%s %s : %s%s" % (kind, s.name, s.dtype, _fmt_shape(s.shape)))
        if args.eval:
            res = evaluate(args.model, random_inputs(prog.inputs, args.seed))
            for n, v in res.items():
                print("%s: min=%.6g max=%.6g mean=%.6g" % (n, np.min(v), np.max(v), np.mean(v)))
    except TlError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
