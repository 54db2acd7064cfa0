#!/usr/bin/env python3
"""f32 -> bf16 rounding of a compiled `cast(cast(x, to=bf16), to=f32)` against numpy.

The reference is tlref's bf16 rounding (nearest even on the f32 bits in integer arithmetic, what
PyTorch and upstream MLIR do). Inputs are the cases that break a careless conversion: ties that must go
to even (up and down), values that round up into the next binade and to infinity, the
infinities, NaNs whose payload is only in the low 16 bits (a plain rounding add would make
them infinity), signed zeros, subnormals, and random values. NaNs must stay NaN (any payload);
everything else must match bit for bit, except that with --flush-subnormals (CPUs whose
conversion instruction, vcvtneps2bf16, flushes subnormal inputs) subnormals may give a zero
of their sign.

  check_bf16_rounding.py --tlc tlc --tlc-run tlc-run --cpu x86-64-v3 [--flush-subnormals]
"""
import argparse
import sys

import numpy as np

import tlc_eval
import tlref

SPECIAL_BITS = [
    0x3F808000,  # 1 + 2^-8: a tie, the kept bit is 0 -> rounds down to 1.0
    0x3F818000,  # a tie with kept bit 1 -> rounds up (to even)
    0x3F808001,  # just above a tie -> up
    0x3F807FFF,  # just below a tie -> down
    0x3FFFFFFF,  # rounds up into the next binade (2.0)
    0x7F7FFFFF,  # the largest f32 -> +inf in bf16
    0xFF7FFFFF,  # -> -inf
    0x7F7F7FFF,  # large, rounds down (stays finite)
    0x7F800000,  # +inf
    0xFF800000,  # -inf
    0x7FC00000,  # the quiet NaN
    0x7F800001,  # a signaling NaN, payload in the low bits only
    0xFF80FFFF,  # a negative NaN, payload in the low bits only
    0x7FFFFFFF,  # a NaN with every payload bit
    0x00000000,  # +0
    0x80000000,  # -0
    0x00000001,  # the smallest subnormal
    0x80400000,  # a negative subnormal
    0x007FFFFF,  # the largest subnormal (rounds up to the smallest normal)
    0x00800000,  # the smallest normal
]


def main():
    p = argparse.ArgumentParser()
    tlc_eval.add_tool_arguments(p)
    p.add_argument("--flush-subnormals", action="store_true")
    args = p.parse_args()
    rng = np.random.default_rng(7)
    random_bits = rng.integers(0, 2**32, size=4096 - len(SPECIAL_BITS), dtype=np.uint64)
    bits = np.concatenate([np.array(SPECIAL_BITS, np.uint64), random_bits]).astype(np.uint32)
    failures = 0
    model = f"input x : f32[{bits.size}]\noutput b = cast(cast(x, to=bf16), to=f32)\n"
    # Outputs come back as f64, exact for every f32 but a NaN's payload (only NaN-ness of NaNs
    # is checked).
    (out,) = tlc_eval.evaluate(args.tlc, args.tlc_run, args.cpu, model, [bits.view(np.float32)],
                               ["b"])
    got = out.astype(np.float32).view(np.uint32)
    x = bits.view(np.float32)
    want = tlref.round_to("bf16", x).astype(np.float32).view(np.uint32)
    nan = np.isnan(x)
    bad_nan = nan & ~np.isnan(got.view(np.float32))
    subnormal = (np.abs(x) < np.finfo(np.float32).tiny) & (x != 0)
    mismatch = ~nan & (got != want)
    if args.flush_subnormals:
        flushed = subnormal & (got == (bits & 0x80000000))
        mismatch &= ~flushed
    for i in np.flatnonzero(bad_nan | mismatch)[:10]:
        print(f"FAIL {args.cpu}: x bits 0x{bits[i]:08x}: got 0x{got[i]:08x}, want 0x{want[i]:08x}"
              + (" (NaN expected)" if nan[i] else ""))
        failures += 1
    checked = bits.size
    print(f"{'FAIL' if failures else 'PASS'} {args.cpu}: {checked} values "
          f"({len(SPECIAL_BITS)} special, {int(nan.sum())} NaNs, "
          f"{int(subnormal.sum())} subnormals)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
