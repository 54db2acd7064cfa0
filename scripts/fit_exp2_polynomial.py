#!/usr/bin/python3
"""Fits the polynomial of tlc's f32 exp2 (passes/ExpApproximation.cpp) and checks the
expansion, emulated in f32 with numpy, against fp64: exp2 itself over its finite range, and
GELU's tanh form written as x / (1 + exp2(x (a + b x^2))) (dialects/TL/ElementwiseBodies.cpp)
against x / (1 + exp(-2u)) in fp64.

The polynomial approximates 2^f on [-1/2, 1/2] with degree 5 and the constant term fixed to 1
(so exp2(0) == 1), minimizing the maximum relative error by Lawson's iteratively reweighted
least squares. Prints the coefficients as f32 hex floats (before the doubling the C++ applies
in its portable form) and the worst errors in ulp.
"""
import math

import numpy as np

import fit_exp_polynomial as fit_exp  # the Lawson fit and the f32 FMA / Horner emulation

f32 = np.float32


def fit(degree=5, iterations=300):
    return fit_exp.fit(degree, iterations, func=np.exp2, half=0.5)


fma = fit_exp.fma


def exp2_portable(t, c32):
    """The form for every target: 2^(k-1) from the bits of t + 1.5 * 2^23 + 126."""
    q = [f32(2 * v) for v in c32]
    shifter = f32(1.5 * 2**23 + 126)
    tc = np.where(t < f32(-126.0), f32(-126.0), t)  # NaN fails both compares and stays NaN
    tc = np.where(tc > f32(128.0), f32(128.0), tc)
    s = (tc + shifter).astype(f32)
    k = (s - shifter).astype(f32)
    f = (tc - k).astype(f32)
    return fit_exp.times_exponent_bits(fit_exp.horner(q, f), s)


def exp2_scalef(t, c32):
    """The AVX-512 form: k = roundeven(t), 2^f scaled by vscalefps (no exponent-field limits)."""
    tc = np.where(t < f32(-151.0), f32(-151.0), t)
    tc = np.where(tc > f32(129.0), f32(129.0), tc)
    k = np.round(tc).astype(f32)  # numpy rounds half to even
    f = (tc - k).astype(f32)
    p = fit_exp.horner(c32, f)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        return (np.float64(p) * np.exp2(np.float64(k))).astype(f32)


def gelu_tanh(x, exp2, c32):
    a = f32(-2 * math.sqrt(2 / math.pi) * math.log2(math.e))
    b = f32(float(a) * 0.044715)
    with np.errstate(over="ignore", invalid="ignore"):
        x2 = (x * x).astype(f32)
        t = (x * fma(b, x2, a)).astype(f32)
        return (x / (f32(1) + exp2(t, c32))).astype(f32)


def ulps(got, ref):
    return np.abs(np.float64(got) - ref) / np.spacing(np.abs(ref).astype(f32))


def main():
    c, rel = fit()
    c32 = c.astype(f32)
    print("fp64 max relative error of the fit: %.3g" % rel)
    print("coefficients (f32):", ", ".join(float(v).hex() for v in c32))
    t = np.linspace(-125.4, 127.9, 10_000_001).astype(f32)
    ref = np.exp2(np.float64(t))
    print("exp2 over [-125.4, 127.9]: portable %.2f ulp, scalef %.2f ulp"
          % (ulps(exp2_portable(t, c32), ref).max(), ulps(exp2_scalef(t, c32), ref).max()))
    x = np.linspace(-14, 14, 1 << 20).astype(f32)
    xd = np.float64(x)
    u = math.sqrt(2 / math.pi) * (xd + 0.044715 * xd**3)
    with np.errstate(over="ignore"):
        ref = xd / (1 + np.exp(-2 * u))
    big = np.abs(ref) >= 1e-3
    for name, form in (("portable", exp2_portable), ("scalef", exp2_scalef)):
        got = gelu_tanh(x, form, c32)
        print("gelu tanh (%s): %.2f ulp where |gelu| >= 1e-3, %.3g absolute below"
              % (name, ulps(got, ref)[big].max(), np.abs(np.float64(got) - ref)[~big].max()))


if __name__ == "__main__":
    main()
