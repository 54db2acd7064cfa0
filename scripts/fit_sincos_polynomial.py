#!/usr/bin/python3
"""Fits the polynomials of tlc's f32 sin/cos/tan (passes/TrigApproximation.cpp), prints the
reduction constants, and checks the whole expansion, emulated in f32 with numpy (FMAs in
fp64, then rounded), against fp64 sin and cos.

The argument is reduced to r = x - k pi/2, k = roundeven(x 2/pi), with pi/2 split into three
f32 parts (Cody-Waite; each step one FMA). Kernels on |r| <= R = 1.5, well beyond pi/4:
for large x, x 2/pi rounded to f32 may give a k one or more away from the nearest integer:
  sin(r) ~ r + r z S(z),  cos(r) ~ 1 - z/2 + z^2 C(z),  z = r^2,
S and C of degree 3, minimizing the relative error (Lawson's iteratively reweighted least
squares on Chebyshev nodes). Prints the coefficients as f32 hex floats and the worst errors.
"""
from fractions import Fraction

import numpy as np

f32 = np.float32
R = 1.5
PI = Fraction("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196")


def split_half_pi():
    parts, rest = [], PI / 2
    for _ in range(3):
        p = f32(float(rest))
        parts.append(p)
        rest -= Fraction(float(p))
    return parts


def fit(target, degree=3, iterations=40):
    r = np.cos(np.linspace(0, np.pi, 4001)) * R / 2 + R / 2
    r = r[r > 1e-3]
    z = r * r
    v = np.vander(z, degree + 1, increasing=True)
    if target == "sin":  # (sin r - r) / (r z)
        a, b, scale = v * (r * z)[:, None], np.sin(r) - r, np.abs(np.sin(r))
    else:  # (cos r - 1 + z/2) / z^2
        a, b, scale = v * (z * z)[:, None], np.cos(r) - 1 + z / 2, np.abs(np.cos(r))
    w = np.ones_like(r)
    for _ in range(iterations):
        sw = np.sqrt(w) / scale
        c = np.linalg.lstsq(a * sw[:, None], b * sw, rcond=None)[0]
        err = np.abs(a @ c - b) / scale
        w = w * err
        w /= w.sum()
    return [f32(x) for x in c]


def fma(a, b, c):
    return f32(np.float64(a) * np.float64(b) + np.float64(c))


def horner(cs, z):
    acc = np.full_like(z, cs[-1])
    for c in reversed(cs[:-1]):
        acc = fma(acc, z, c)
    return acc


def emulate(x, s, c, parts):
    k = np.round(f32(x * f32(2 / np.pi)))  # numpy rounds halves to even
    r = fma(-k, parts[0], x)
    r = fma(-k, parts[1], r)
    r = fma(-k, parts[2], r)
    z = f32(r * r)
    sr = fma(f32(r * z), horner(s, z), r)
    cr = fma(f32(z * z), horner(c, z), fma(z, f32(-0.5), f32(1)))
    q = (k - 4 * np.floor(k * f32(0.25))).astype(np.int32)
    sin = np.where(q & 1, cr, sr) * np.where(q & 2, -1, 1)
    q1 = (q + 1) & 3
    cos = np.where(q1 & 1, cr, sr) * np.where(q1 & 2, -1, 1)
    return sin.astype(f32), cos.astype(f32)


def main():
    parts = split_half_pi()
    s, c = fit("sin"), fit("cos")
    print("pi/2 parts:", ", ".join(float(p).hex() + "f" for p in parts))
    print("S:", ", ".join(float(v).hex() + "f" for v in s))
    print("C:", ", ".join(float(v).hex() + "f" for v in c))
    for hi in (4.0, 1e3, 1e5, 1e6, 1e7):
        x = np.linspace(-hi, hi, 2_000_001).astype(f32)
        sin, cos = emulate(x, s, c, parts)
        xs = x.astype(np.float64)
        print("|x| <= %g: sin max abs err %.3g, cos %.3g" %
              (hi, np.abs(sin - np.sin(xs)).max(), np.abs(cos - np.cos(xs)).max()))


if __name__ == "__main__":
    main()
