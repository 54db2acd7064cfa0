#!/usr/bin/python3
"""Fits the rational function of tlc's f32 erf (passes/ErfApproximation.cpp) and checks the
whole expansion, emulated in f32 with numpy, against fp64 erf.

erf(x) ~ x P(x^2) / Q(x^2) on [-4, 4] (odd, like erf), P of degree 6 and Q of degree 4 with
Q(0) = 1, minimizing the maximum relative error (so tiny x keep erf's relative accuracy):
Loeb's linearization (x P - erf Q = 0, weighted by 1 / (erf Q) with Q from the previous step)
inside Lawson's iteratively reweighted least
squares, fp64. Beyond |x| = 4, erf is 1 to f32 precision (1 - erf(4) = 1.5e-8). Prints the
coefficients as f32 hex floats and the worst f32 errors (absolute, and in ulp where
|erf| >= 2^-10).
"""
import math

import numpy as np

f32 = np.float32
LIMIT = 4.0


def fit(p_degree=6, q_degree=4, iterations=60):
    x = np.cos(np.linspace(0, np.pi, 6001)) * LIMIT / 2 + LIMIT / 2
    x = x[x > 1e-4]
    f = np.array([math.erf(v) for v in x])
    s = (x / LIMIT) ** 2  # scaled for conditioning; undone below
    vp = np.vander(s, p_degree + 1, increasing=True)
    vq = np.vander(s, q_degree + 1, increasing=True)
    a = np.hstack([x[:, None] * vp, -f[:, None] * vq[:, 1:]])
    q_prev = np.ones_like(x)
    weights = np.ones_like(x)
    best = None
    for _ in range(iterations):
        w = np.sqrt(weights) / (q_prev * f)
        c, *_ = np.linalg.lstsq(a * w[:, None], f * w, rcond=None)
        p, q = c[:p_degree + 1], np.concatenate([[1.0], c[p_degree + 1:]])
        q_prev = vq @ q
        err = np.abs(x * (vp @ p) / q_prev - f) / f
        if best is None or err.max() < best[0]:
            best = (err.max(), p, q)
        weights = weights * (err + 1e-300)
        weights /= weights.sum()
    err, p, q = best
    p = p / LIMIT ** (2 * np.arange(p.size))
    q = q / LIMIT ** (2 * np.arange(q.size))
    return p, q, err


def fma(a, b, c):  # a product of two f32 values is exact in f64: one rounding, like an FMA
    return (np.float64(a) * np.float64(b) + np.float64(c)).astype(f32)


def expansion(x, p, q):
    with np.errstate(invalid="ignore"):
        xc = np.where(x < f32(-LIMIT), f32(-LIMIT), x)  # NaN fails both compares
        xc = np.where(xc > f32(LIMIT), f32(LIMIT), xc)
        s = (xc * xc).astype(f32)
        num = np.full_like(s, p[-1])
        for c in reversed(p[:-1]):
            num = fma(num, s, c)
        den = np.full_like(s, q[-1])
        for c in reversed(q[:-1]):
            den = fma(den, s, c)
        r = ((xc * num).astype(f32) / den).astype(f32)
        r = np.where(r > f32(1), f32(1), r)
        return np.where(r < f32(-1), f32(-1), r)


def main():
    p, q, err = fit()
    p32, q32 = p.astype(f32), q.astype(f32)
    print("fp64 max relative error of the fit: %.3g" % err)
    print("P (f32):", ", ".join(float(v).hex() for v in p32))
    print("Q (f32):", ", ".join(float(v).hex() for v in q32))
    x = np.concatenate([np.linspace(-6, 6, 4_000_001), np.geomspace(1e-30, 1, 100_001)])
    x = x.astype(f32)
    ref = np.array([math.erf(float(v)) for v in x])
    got = expansion(x, p32, q32).astype(np.float64)
    abs_err = np.abs(got - ref)
    big = np.abs(ref) >= 2.0 ** -10
    ulp = abs_err[big] / np.spacing(np.abs(ref[big]).astype(f32))
    small = ~big & (x != 0)
    rel_small = (abs_err[small] / np.abs(ref[small])).max()
    print("f32 expansion: max abs error %.3g, max %.2f ulp where |erf| >= 2^-10, max relative "
          "error %.3g below" % (abs_err.max(), ulp.max(), rel_small))
    print("max |erf|: %r" % np.abs(got).max())


if __name__ == "__main__":
    main()
