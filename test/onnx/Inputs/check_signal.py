#!/usr/bin/env python3
"""One-node ONNX models of DFT (real and complex input, axis 1 and 2, inverse, onesided,
dft_length padding and truncating) and STFT (with a window, with frame_length), compiled with
tlc and run with tlc-run on fresh random inputs, compared with numpy's FFT in fp64 within 1e-4
(f32; the DFT here is a contraction with a twiddle matrix, O(N) terms a point):
check_signal.py --tlc T --tlc-run R --out DIR [--target T] [--emit-tl] prints `NAME: PASS` or
`NAME: FAIL ...` per model (tlc_check.run_node_cases)."""
import sys

import numpy as np
from tlc_check import Const, run_node_cases

RNG = np.random.default_rng(41)


def as_pairs(z):
    return np.stack([z.real, z.imag], -1).astype(np.float32)


def cases():
    x = RNG.normal(0, 1, (2, 12, 5, 1)).astype(np.float32)
    yield "DFT", {"axis": 1}, [x], [as_pairs(np.fft.fft(x[..., 0].astype(np.float64), axis=1))]
    z = RNG.normal(0, 1, (3, 4, 9, 2)).astype(np.float32)
    zc = z[..., 0].astype(np.float64) + 1j * z[..., 1]
    yield "DFT", {"axis": 2, "inverse": 1}, [z], [as_pairs(np.fft.ifft(zc, axis=2))]
    # dft_length longer (zero padding) and shorter (truncation), onesided.
    yield "DFT", {"axis": 1, "onesided": 1}, [x, Const(np.array(16, np.int64))], \
        [as_pairs(np.fft.rfft(x[..., 0].astype(np.float64), n=16, axis=1))]
    yield "DFT", {"axis": 2}, [z, Const(np.array([6], np.int64))], \
        [as_pairs(np.fft.fft(zc, n=6, axis=2))]
    # STFT: 100 samples, frames of 20 every 7 (12 frames), a Hann window; onesided.
    s = RNG.normal(0, 1, (2, 100, 1)).astype(np.float32)
    window = np.hanning(20).astype(np.float32)
    frames = np.stack([s[:, f * 7:f * 7 + 20, 0] for f in range(12)], 1).astype(np.float64)
    yield "STFT", {}, [s, Const(np.array(7, np.int64)), window], \
        [as_pairs(np.fft.rfft(frames * window, axis=2))]
    yield "STFT", {"onesided": 0}, [s, Const(np.array(7, np.int64)), None,
                                    Const(np.array(20, np.int64))], \
        [as_pairs(np.fft.fft(frames, axis=2))]


if __name__ == "__main__":
    sys.exit(run_node_cases(__doc__, cases(), 17, 1e-4))
