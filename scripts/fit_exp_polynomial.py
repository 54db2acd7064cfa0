#!/usr/bin/python3
"""Fits the polynomial of tlc's f32 exp (passes/ExpApproximation.cpp) and checks the whole
expansion, emulated in f32 with numpy, against fp64 exp.

The polynomial approximates exp(r) on [-ln2/2, ln2/2] with degree 5 and the constant term
fixed to 1 (so exp(0) == 1), minimizing the maximum relative error by Lawson's iteratively
reweighted least squares. Prints the coefficients (as f32 hex floats, before the doubling the
C++ applies) and the worst error in ulp over [-86.9, 88.7].
"""
import numpy as np

f32 = np.float32


def fit(degree=5, iterations=300, func=np.exp, half=np.log(2) / 2):
    """Lawson's iteration: the degree-`degree` relative-error minimax fit of `func` on
    [-half, half] with the constant term fixed to 1 (func(0) == 1). Returns the coefficients
    (lowest degree first) and the fit's largest relative error."""
    r = np.cos(np.linspace(0, np.pi, 4001)) * half
    e = func(r)
    powers = np.vander(r, degree + 1, increasing=True)
    weights = np.ones_like(r)
    for _ in range(iterations):
        w = np.sqrt(weights)[:, None]
        tail, *_ = np.linalg.lstsq(powers[:, 1:] * w / e[:, None], w[:, 0] * (e - 1) / e,
                                   rcond=None)
        c = np.concatenate([[1.0], tail])
        err = np.abs(powers @ c / e - 1)
        weights = weights * err
        weights /= weights.sum()
    return c, err.max()


def fma(a, b, c):  # a product of two f32 values is exact in f64: one rounding, like an FMA
    return (np.float64(a) * np.float64(b) + np.float64(c)).astype(f32)


def horner(coefficients, x):
    """The f32 polynomial (coefficients lowest degree first) at x, one emulated FMA per degree."""
    p = np.full_like(x, f32(coefficients[-1]))
    for c in reversed(coefficients[:-1]):
        p = fma(p, x, f32(c))
    return p


def times_exponent_bits(p, shifted):
    """p * 2^(k-1), k + 126 held in the low mantissa bits of the f32 `shifted`."""
    scale = (shifted.view(np.int32) << 23).view(f32)
    with np.errstate(over="ignore", invalid="ignore"):
        return (p * scale).astype(f32)


def expansion(x, coefficients):
    q = [f32(2 * v) for v in coefficients]
    shifter = f32(1.5 * 2**23 + 126)
    ln2_hi = f32(np.log(2))
    ln2_lo = f32(np.log(2) - float(ln2_hi))
    xc = np.where(x < f32(-87.5), f32(-87.5), x)  # NaN fails both compares and stays NaN
    xc = np.where(xc > f32(88.8), f32(88.8), xc)
    with np.errstate(invalid="ignore"):
        t = fma(xc, f32(1.4426950408889634), shifter)
    k = (t - shifter).astype(f32)
    r = fma(k, -ln2_hi, xc)
    r = fma(k, -ln2_lo, r)
    return times_exponent_bits(horner(q, r), t)


def main():
    c, rel = fit()
    c32 = c.astype(f32)
    print("fp64 max relative error of the fit: %.3g" % rel)
    print("coefficients (f32):", ", ".join(float(v).hex() for v in c32))
    x = np.linspace(-86.9, 88.7, 10_000_001).astype(f32)
    ref = np.exp(np.float64(x))
    err = np.abs(np.float64(expansion(x, c32)) - ref) / np.spacing(ref.astype(f32))
    print("max error over [-86.9, 88.7]: %.2f ulp" % err.max())


if __name__ == "__main__":
    main()
