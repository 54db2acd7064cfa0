#!/usr/bin/python3
"""Unit tests of tlref (the numpy reference evaluator) against direct numpy expressions.

Run: /usr/bin/python3 test/e2e/test_tlref.py   (exits non-zero on the first failure)
"""

import math
import os
import struct
import sys
import tempfile
import traceback

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tlref  # noqa: E402

TMP = tempfile.mkdtemp(prefix="tlref-test-")
_count = 0


def run(text, inputs=None, name="t.tl"):
    global _count
    _count += 1
    path = os.path.join(TMP, "%d_%s" % (_count, name))
    with open(path, "w") as f:
        f.write(text)
    sig = tlref.parse(path)
    res = tlref.evaluate(path, inputs or {})
    for s in sig.outputs:  # parse()'s shape inference must agree with evaluation
        assert res[s.name].shape == s.shape, (s, res[s.name].shape)
        assert res[s.name].dtype == tlref.storage_dtype(s.dtype), (s, res[s.name].dtype)
    return res


def expect_error(text, fragment, line=None):
    global _count
    _count += 1
    path = os.path.join(TMP, "%d_err.tl" % _count)
    with open(path, "w") as f:
        f.write(text)
    for fn in (lambda: tlref.parse(path), lambda: tlref.evaluate(path, {})):
        try:
            fn()
        except tlref.TlError as e:
            assert fragment in str(e), "expected %r in %r" % (fragment, str(e))
            if line is not None:
                assert e.loc is not None and e.loc[1] == line, (str(e), line)
            assert str(e).startswith(path + ":") or e.loc is None, str(e)
            return
    raise AssertionError("no error for %r" % text)


def close(a, b, tol=1e-12):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True), (a, b)


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


R = np.random.default_rng(1234)


def rnd(*shape):
    return f32(R.standard_normal(shape))


# ---------------------------------------------------------------------------------------------
def test_rng_known_values():
    # Published splitmix64 test vector for seed 0.
    z = tlref.splitmix64_draws(0, 3)
    assert z == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F], [hex(v) for v in z]


def _independent_uniform(seed, n, low, high):
    # A second reading of the document's formula, using struct to do the 64-bit wrapping.
    out = []
    s = seed
    for _ in range(n):
        s = struct.unpack("<Q", struct.pack("<Q", (s + 0x9E3779B97F4A7C15) % 2 ** 64))[0]
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2 ** 64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2 ** 64
        z ^= z >> 31
        out.append(low + (high - low) * (math.ldexp(z >> 11, -53)))
    return out


def test_rng_uniform_matches_formula():
    for seed in (0, 1, 42, 2 ** 63 + 5):
        got = tlref.rng_uniform(seed, 50, -2.0, 3.0)
        want = _independent_uniform(seed, 50, -2.0, 3.0)
        assert list(got) == want, seed  # bit-exact
    res = run("param p : f64[3, 4] = uniform(seed=7, low=0.5, high=2)\noutput p\n")
    assert list(res["p"].ravel()) == _independent_uniform(7, 12, 0.5, 2.0)
    res = run("param p : f32[5] = uniform(seed=7)\noutput p\n")
    assert list(res["p"]) == list(f32(_independent_uniform(7, 5, -1.0, 1.0)))


def test_rng_vectorized_equals_python_ints():
    for seed in (0, 3, 123456789, 2 ** 64 - 1):
        n = 100000
        a = tlref._splitmix64_draws_np(seed, n)
        b = tlref.splitmix64_draws(seed, n)
        assert [int(v) for v in a] == b, seed
    # uniform01 switches implementation at 4096 draws; both sides must agree bit-exactly.
    small = tlref.uniform01(9, 4096)
    large = tlref.uniform01(9, 5000)
    assert np.array_equal(small, large[:4096])


def test_randn():
    a = tlref.rng_randn(5, 100000)
    b = tlref.rng_randn(5, 100000)
    assert np.array_equal(a, b)
    assert abs(a.mean()) < 0.02 and abs(a.std() - 1) < 0.02, (a.mean(), a.std())
    # element i uses draws 2i, 2i+1
    u = _independent_uniform(5, 6, 0.0, 1.0)
    for i in range(3):
        want = math.sqrt(-2 * math.log(1 - u[2 * i])) * math.cos(2 * math.pi * u[2 * i + 1])
        assert abs(a[i] - want) < 1e-15, (a[i], want)
    res = run("param p : f32[200, 300] = randn(seed=3, mean=2, std=0.5)\noutput p\n")
    p = res["p"]
    assert np.array_equal(p, f32(p)), "params must be rounded to f32"
    assert np.array_equal(p.ravel(), f32(tlref.rng_randn(3, 60000, 2.0, 0.5)))
    assert abs(p.mean() - 2) < 0.01 and abs(p.std() - 0.5) < 0.01
    res2 = run("param p : f32[200, 300] = randn(seed=3, mean=2, std=0.5)\noutput p\n")
    assert np.array_equal(p, res2["p"])
    res = run("param q : i32[1000] = randn(seed=1, std=10)\noutput q\n")
    assert np.array_equal(res["q"], np.trunc(tlref.rng_randn(1, 1000, 0, 10)).astype(np.int64))


def test_other_initializers(tmp=TMP):
    res = run("param a : f32[2,3] = zeros()\nparam b : f64[4] = ones()\n"
              "param c : f32[2,2] = full(0.1)\nparam d : f32[2,3] = arange(start=1, step=0.5)\n"
              "param e : i64[5] = arange()\nparam f : f16[3] = full(-1e-3)\n"
              "output a; output b; output c; output d; output e; output f\n")
    close(res["a"], np.zeros((2, 3)))
    close(res["b"], np.ones(4))
    assert np.array_equal(res["c"], np.full((2, 2), f32(0.1)))
    close(res["d"], (1 + 0.5 * np.arange(6)).reshape(2, 3))
    assert np.array_equal(res["e"], np.arange(5))
    assert np.array_equal(res["f"], np.full(3, np.float16(-1e-3)).astype(np.float64))
    w = R.standard_normal((3, 4)).astype(np.float32)
    np.save(os.path.join(TMP, "w.npy"), w)
    res = run('param w : f32[3, 4] = load("w.npy")\noutput w\n')
    assert np.array_equal(res["w"], w.astype(np.float64))
    expect_error('param w : f32[4, 3] = load("w.npy")\noutput w\n', "declared f32[4, 3]", 1)
    expect_error('param w : f64[3, 4] = load("w.npy")\noutput w\n', "declared f64", 1)
    expect_error('param w : f32[3] = randn(std=1)\noutput w\n', "needs 'seed'", 1)


def test_lexing_and_syntax():
    x = rnd(2, 3)
    res = run("# comment\ninput x : f32[2,\n 3]  # trailing\n"
              "y = einsum(\"ij->ji\",\n  x) ; z = y * 2.5E+0 - 1e-1\n\n"
              "output z\noutput w = -z / 2 + (3 - -1)\n", {"x": x})
    close(res["z"], x.T * 2.5 - f32(0.1))
    close(res["w"], -(x.T * 2.5 - f32(0.1)) / 2 + 4)
    res = run("input x : f32[]\noutput y = x * x\n", {"x": np.array(3.0)})
    assert res["y"].shape == () and res["y"] == 9
    res = run("output c = 2 * 3\n")  # a literal on its own is an f32 scalar
    assert res["c"].shape == () and res["c"] == 6
    expect_error("input x : f32[2]\ny = x +\noutput y\n", "expected an expression", 2)
    expect_error("input x : f32[2]\noutput y = z\n", "'z' is not defined", 2)
    expect_error("input x : f32[2]\nx = x\noutput x\n", "already defined", 2)
    expect_error("input f32 : f32[2]\noutput f32\n", "keyword", 1)
    expect_error("input x : f33[2]\noutput x\n", "unknown dtype", 1)
    expect_error("input x : f32[2]\n", "no output")
    expect_error("input x : f32[2]\noutput y = foo(x)\n", "unknown operator 'foo'", 2)
    expect_error("input x : f32[2]\noutput y = x $ 2\n", "unexpected character", 2)
    expect_error('input x : f32[2]\noutput y = einsum("i->i, x)\n', "unterminated string", 2)
    expect_error("input x : f32[2]\ninput x2 : f32[3]\noutput y = x + x2\n",
                 "not broadcast-compatible", 3)
    expect_error("input x : f32[2]\ninput k : i32[2]\noutput y = x + k\n", "dtypes differ", 3)
    expect_error("input x : f32[2]\noutput y = x\noutput y\n", "already an output", 3)


def test_elementwise():
    a, b = rnd(2, 1, 4), rnd(3, 1)
    pos = f32(np.abs(rnd(3, 4)) + 0.5)
    res = run("input a : f32[2,1,4]\ninput b : f32[3,1]\ninput p : f32[3,4]\n"
              "output o1 = a + b\noutput o2 = a - b\noutput o3 = a * b\noutput o4 = a / (abs(b) + 1)\n"
              "output o5 = pow(p, b)\noutput o6 = maximum(a, b)\noutput o7 = minimum(a, b)\n"
              "output o8 = add(a, 1)\noutput o9 = sub(1, a)\noutput o10 = mul(b, 0.1)\n"
              "output o11 = div(a, 4)\n",
              {"a": a, "b": b, "p": pos})
    close(res["o1"], a + b)
    close(res["o2"], a - b)
    close(res["o3"], a * b)
    close(res["o4"], a / (np.abs(b) + 1))
    close(res["o5"], pos ** b)
    close(res["o6"], np.maximum(a, b))
    close(res["o7"], np.minimum(a, b))
    close(res["o8"], a + 1)
    close(res["o9"], 1 - a)
    close(res["o10"], b * f32(0.1))  # the literal takes the operand's dtype (f32)
    close(res["o11"], a / 4)
    x = rnd(4, 5)
    p = f32(np.abs(x) + 0.1)
    src = "input x : f32[4,5]\ninput p : f32[4,5]\n"
    ops = {"neg": -x, "abs": np.abs(x), "exp": np.exp(x), "log": np.log(p), "sqrt": np.sqrt(p),
           "rsqrt": 1 / np.sqrt(p), "tanh": np.tanh(x), "sigmoid": 1 / (1 + np.exp(-x)),
           "relu": np.maximum(x, 0), "erf": np.vectorize(math.erf)(x)}
    for k in ops:
        src += "output %s_ = %s(%s)\n" % (k, k, "p" if k in ("log", "sqrt", "rsqrt") else "x")
    src += 'output g1 = gelu(x)\noutput g2 = gelu(x, approximate="tanh")\n'
    res = run(src, {"x": x, "p": p})
    for k, v in ops.items():
        close(res[k + "_"], v)
    close(res["g1"], np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.ravel()])
          .reshape(x.shape))
    close(res["g2"], 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))))
    assert np.max(np.abs(res["g1"] - res["g2"])) < 1e-3


def test_compare_select():
    a, b = rnd(3, 4), rnd(4)
    res = run("input a : f32[3,4]\ninput b : f32[4]\n"
              "output e = eq(a, a)\noutput n = ne(a, b)\noutput l = lt(a, b)\noutput le_ = le(a, 0)\n"
              "output g = gt(a, b)\noutput ge_ = ge(a, b)\n"
              "output s = select(gt(a, b), a, b)\noutput s0 = select(lt(a, 0), 0, a)\n",
              {"a": a, "b": b})
    assert res["e"].dtype == np.bool_ and res["e"].all()
    assert np.array_equal(res["n"], a != b)
    assert np.array_equal(res["l"], a < b)
    assert np.array_equal(res["le_"], a <= 0)
    assert np.array_equal(res["g"], a > b)
    assert np.array_equal(res["ge_"], a >= b)
    close(res["s"], np.where(a > b, a, b))
    close(res["s0"], np.where(a < 0, 0, a))
    c = R.integers(0, 2, (3, 1)).astype(bool)
    res = run("input c : i1[3,1]\ninput a : f32[4]\ninput b : f32[3,4]\n"
              "output s = select(c, a, b)\n", {"c": c, "a": a[0], "b": a})
    close(res["s"], np.where(c, a[0], a))
    expect_error("input a : f32[2]\noutput s = select(a, a, a)\n", "condition must be i1", 2)


def test_reductions_softmax():
    x = rnd(2, 3, 4)
    res = run("input x : f32[2,3,4]\n"
              "output s = sum(x)\noutput s1 = sum(x, axes=[1])\n"
              "output m = mean(x, axes=[0, -1], keepdims=true)\noutput mx = max(x, axes=[2])\n"
              "output mn = min(x, axes=[-1, 0], keepdims=false)\n"
              "output sm = softmax(x)\noutput sm0 = softmax(x, axis=0)\n"
              "output ls = log_softmax(x, axis=1)\n", {"x": x})
    close(res["s"], x.sum())
    assert res["s"].shape == ()
    close(res["s1"], x.sum(1))
    close(res["m"], x.mean(axis=(0, 2), keepdims=True))
    close(res["mx"], x.max(2))
    close(res["mn"], x.min(axis=(0, 2)))

    def softmax(v, ax):
        e = np.exp(v - v.max(ax, keepdims=True))
        return e / e.sum(ax, keepdims=True)
    close(res["sm"], softmax(x, -1))
    close(res["sm0"], softmax(x, 0))
    close(res["ls"], np.log(softmax(x, 1)))
    big = np.array([[1000.0, 0.0, -1000.0]])
    res = run("input x : f64[1,3]\noutput y = softmax(x)\noutput z = log_softmax(x)\n", {"x": big})
    close(res["y"], [[1, 0, 0]])
    close(res["z"], [[0, -1000, -2000]])
    expect_error("input x : f32[2]\noutput y = sum(x, axes=[2])\n", "out of range", 2)


def test_shape_ops():
    x = rnd(2, 3, 4)
    res = run("input x : f32[2,3,4]\n"
              "output r = reshape(x, [4, -1])\noutput r0 = reshape(x, [24])\n"
              "output t = transpose(x)\noutput t2 = transpose(x, perm=[1, 0, 2])\n"
              "output b = broadcast_to(sum(x, axes=[0], keepdims=true), [5, 2, 3, 4])\n"
              "output c = concat(x, x * 2, x, axis=1)\noutput c2 = concat(x, x, axis=-1)\n"
              "output s1 = slice(x, start=[0, 1, 0], end=[2, 3, 4], step=[1, 1, 2])\n"
              "output s2 = slice(x, start=[-1, -2, 1])\n"
              "output s3 = slice(x, start=[-100, 0, 1], end=[100, -1, -1], step=[2, 2, 1])\n",
              {"x": x})
    close(res["r"], x.reshape(4, 6))
    close(res["r0"], x.reshape(24))
    close(res["t"], x.transpose())
    close(res["t2"], x.transpose(1, 0, 2))
    close(res["b"], np.broadcast_to(x.sum(0, keepdims=True), (5, 2, 3, 4)))
    close(res["c"], np.concatenate([x, 2 * x, x], axis=1))
    close(res["c2"], np.concatenate([x, x], axis=2))
    close(res["s1"], x[0:2, 1:3, 0:4:2])
    close(res["s2"], x[-1:, -2:, 1:])
    close(res["s3"], x[-100:100:2, 0:-1:2, 1:-1])
    expect_error("input x : f32[2,3]\noutput y = reshape(x, [4, 2])\n", "cannot reshape", 2)
    expect_error("input x : f32[2,3]\noutput y = transpose(x, perm=[0, 0])\n", "permutation", 2)
    expect_error("input x : f32[2,3]\noutput y = broadcast_to(x, [3, 3])\n", "cannot broadcast", 2)
    expect_error("input x : f32[2,3]\noutput y = concat(x, transpose(x), axis=0)\n", "differ", 2)
    expect_error("input x : f32[2,3]\noutput y = slice(x, start=[0], step=[1, 1])\n", "same length", 2)
    expect_error("input x : f32[2,3]\noutput y = slice(x, start=[0], step=[-1])\n", "positive", 2)


def test_cast_and_dtypes():
    x = np.array([1.0 + 2 ** -12, -2.7, 65504.0 * 2, 1e-8, 3.999])
    res = run("input x : f64[5]\noutput h = cast(x, to=f16)\noutput b = cast(x, to=bf16)\n"
              "output i = cast(x, to=i32)\noutput f = cast(x, to=f32)\noutput z = cast(x, to=i1)\n",
              {"x": x})
    with np.errstate(over="ignore"):
        assert np.array_equal(res["h"], x.astype(np.float16).astype(np.float64))
    assert np.array_equal(res["i"], [1, -2, 131008, 0, 3])
    assert np.array_equal(res["f"], x.astype(np.float32).astype(np.float64))
    assert np.array_equal(res["z"], [True, True, True, True, True])
    # bf16: round to nearest even on the top 16 bits of the f32 pattern.
    b = res["b"]
    assert b[0] == 1.0 and b[1] == -2.703125 and b[4] == 4.0, b
    bits = tlref.f64_to_bf16_bits(np.array([1.0, -2.0, 1.0 + 2 ** -8, 1.0 + 3 * 2 ** -8]))
    assert list(bits) == [0x3F80, 0xC000, 0x3F80, 0x3F82], [hex(v) for v in bits]
    # inputs are rounded to their declared dtype
    res = run("input x : f32[2]\noutput y = x * 1\n", {"x": np.array([0.1, 1 / 3])})
    assert np.array_equal(res["y"], f32([0.1, 1 / 3]))
    # integers
    res = run("input k : i32[4]\noutput d = k / 2\noutput s = sum(k)\noutput m = k * 2147483647\n",
              {"k": np.array([7, -7, 3, 2])})
    assert list(res["d"]) == [3, -3, 1, 1]
    assert res["s"] == 5
    assert list(res["m"]) == [int(np.int32(np.int64(v) * 2147483647 % 2 ** 32 - 2 ** 32
                                              if (v * 2147483647) % 2 ** 32 >= 2 ** 31
                                              else (v * 2147483647) % 2 ** 32))
                              for v in [7, -7, 3, 2]]


def test_einsum():
    a, b, c = rnd(3, 4), rnd(4, 5), rnd(5, 2)
    bat = rnd(2, 3, 4)
    sq = rnd(4, 4)
    t3 = rnd(4, 5, 6)
    res = run("input a : f32[3,4]\ninput b : f32[4,5]\ninput c : f32[5,2]\ninput bat : f32[2,3,4]\n"
              "input sq : f32[4,4]\ninput t3 : f32[4,5,6]\n"
              'output mm = einsum("ij,jk->ik", a, b)\n'
              'output imp = einsum("ij,jk", a, b)\n'
              'output tr = einsum("ii", sq)\noutput dg = einsum("ii->i", sq)\n'
              'output ch = einsum("ab,bc,cd->ad", a, b, c)\n'
              'output outer = einsum("i,j->ij", sum(a, axes=[1]), sum(b, axes=[0]))\n'
              'output bm = einsum("bij,jk->bik", bat, b)\n'
              'output el = einsum("...j,jk->...k", bat, b)\n'
              'output el2 = einsum("...ij,...ij", bat, bat)\n'
              'output two = einsum("ijk,ij->k", t3, b)\n'
              'output tt = einsum("ij,kj->ik", a, a)\n'
              'output perm = einsum("ijk->kij", t3)\n',
              {"a": a, "b": b, "c": c, "bat": bat, "sq": sq, "t3": t3})
    close(res["mm"], a @ b)
    close(res["imp"], a @ b)
    close(res["tr"], np.trace(sq))
    close(res["dg"], np.diag(sq))
    close(res["ch"], a @ b @ c)
    close(res["outer"], np.outer(a.sum(1), b.sum(0)))
    close(res["bm"], bat @ b)
    close(res["el"], bat @ b)
    close(res["el2"], (bat * bat).sum(axis=(1, 2)))
    close(res["two"], np.einsum("ijk,ij->k", t3, b))
    close(res["tt"], a @ a.T)
    close(res["perm"], t3.transpose(2, 0, 1))
    expect_error('input a : f32[3,4]\noutput y = einsum("ij,jk->ik", a, a)\n', "sizes", 2)
    expect_error('input a : f32[3,4]\noutput y = einsum("ijk->i", a)\n', "rank", 2)
    expect_error('input a : f32[3,4]\noutput y = einsum("ij->iz", a)\n', "does not appear", 2)
    expect_error('input a : f32[3,4]\noutput y = einsum("ij,jk->ik", a)\n', "operand", 2)
    expect_error('input a : f32[3,3]\noutput y = einsum("ij->ii", a)\n', "more than once", 2)


def test_einsum_shape_matches_numpy():
    rng = np.random.default_rng(7)
    letters = "abcdeAB"
    n_checked = 0
    for _ in range(3000):
        nops = rng.integers(1, 4)
        size = {l: int(rng.integers(1, 4)) for l in letters}
        terms, shapes = [], []
        ell = rng.random() < 0.3
        for _k in range(nops):
            k = int(rng.integers(0, 4))
            labs = list(rng.choice(list(letters), size=k))
            sh = [size[l] for l in labs]
            if ell and rng.random() < 0.7:
                e = int(rng.integers(0, 3))
                pos = int(rng.integers(0, len(labs) + 1))
                labs.insert(pos, "...")
                esh = [int(rng.choice([1, 2])) for _ in range(e)]
                sh = sh[:pos] + esh + sh[pos:]
            terms.append("".join(labs))
            shapes.append(tuple(sh))
        eq = ",".join(terms)
        if rng.random() < 0.5:
            used = sorted(set(c for c in eq if c.isalpha()))
            out = list(rng.choice(used, size=min(len(used), int(rng.integers(0, 3))),
                                  replace=False)) if used else []
            if "..." in eq and rng.random() < 0.8:
                out.insert(int(rng.integers(0, len(out) + 1)), "...")
            eq += "->" + "".join(out)
        arrays = [np.ones(s) for s in shapes]
        try:
            want = np.einsum(eq, *arrays).shape
        except ValueError:
            want = None
        try:
            got = tlref.einsum_shape(eq, shapes, None)
        except tlref.TlError:
            got = None
        assert got == want, (eq, shapes, got, want)
        n_checked += want is not None
    assert n_checked > 1000, n_checked


def main():
    tests = [(k, v) for k, v in globals().items() if k.startswith("test_") and callable(v)]
    failed = 0
    for name, fn in tests:
        try:
            fn()
            print("PASS", name)
        except Exception:  # noqa: BLE001 - report every failing test
            failed += 1
            print("FAIL", name)
            traceback.print_exc()
    print("%d/%d tests passed" % (len(tests) - failed, len(tests)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
