#!/usr/bin/python3
"""Fits the polynomial of tlc's f32 atan/atan2 (passes/TrigApproximation.cpp) and checks the
expansion, emulated in f32 with numpy (FMAs in fp64, then rounded), against fp64 atan.

atan2(y, x) reduces to a = min(|x|, |y|) / max(|x|, |y|) in [0, 1], then above tan(pi/8)
to t = (a - 1) / (a + 1) (atan a = pi/4 + atan t), so |t| <= tan(pi/8):
  atan(t) ~ t + t z P(z),  z = t^2,
P of degree 4, minimizing the relative error (Lawson's iteratively reweighted least squares
on Chebyshev nodes). Prints the coefficients as f32 hex floats and the worst errors.
"""
import numpy as np

f32 = np.float32
T = float(np.tan(np.pi / 8))


def fit(degree=4, iterations=40):
    t = np.cos(np.linspace(0, np.pi, 4001)) * T / 2 + T / 2
    t = t[t > 1e-4]
    z = t * t
    a = np.vander(z, degree + 1, increasing=True) * (t * z)[:, None]
    b = np.arctan(t) - t
    scale = np.arctan(t)
    w = np.ones_like(t)
    for _ in range(iterations):
        sw = np.sqrt(w) / scale
        c = np.linalg.lstsq(a * sw[:, None], b * sw, rcond=None)[0]
        w = w * np.abs(a @ c - b) / scale
        w /= w.sum()
    return [f32(v) for v in c]


def fma(a, b, c):
    return f32(np.float64(a) * np.float64(b) + np.float64(c))


def emulate(y, x, p):
    ax, ay = np.abs(x), np.abs(y)
    a = f32(np.minimum(ax, ay) / np.maximum(ax, ay))
    big = a > f32(T)
    t = np.where(big, f32(f32(a - 1) / f32(a + 1)), a)
    z = f32(t * t)
    acc = np.full_like(z, p[-1])
    for c in reversed(p[:-1]):
        acc = fma(acc, z, c)
    r = fma(f32(t * z), acc, t)
    r = np.where(big, f32(r + f32(np.pi / 4)), r)
    r = np.where(ay > ax, f32(f32(np.pi / 2) - r), r)
    r = np.where(x < 0, f32(f32(np.pi) - r), r)
    return np.copysign(r, y)


def main():
    p = fit()
    print("P:", ", ".join(float(v).hex() + "f" for v in p))
    x = np.concatenate([np.linspace(-10, 10, 2_000_001), np.geomspace(1e-6, 1e6, 100001)])
    x = x.astype(f32)
    r = emulate(x, np.ones_like(x), p)
    ref = np.arctan(x.astype(np.float64))
    nz = ref != 0
    print("atan: max rel err %.3g" % (np.abs(r - ref)[nz] / np.abs(ref[nz])).max())


if __name__ == "__main__":
    main()
