#!/usr/bin/env python3
"""Exports depthwise convolution models (each output channel from its own input channel, as in
MobileNet) for depthwise.test, like export_convolutions.py: rows that fit one register tile,
rows split into equal tiles and rows whose last tile is peeled, rows shorter than one vector,
batch > 1 without bias (the zero fill of the output starts the accumulators), a 5x5 kernel,
stride 2 (rows read at stride 2) and a channel multiplier of 2, with ReLU6 epilogues (which run on each row while it is
in registers), and a bias + ReLU + residual epilogue.
"""
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_convolutions import Block, export_main  # noqa: E402


def depthwise(c, k=3, stride=1, padding=1, multiplier=1, bias=True, relu6=True):
    conv = nn.Conv2d(c, c * multiplier, k, stride=stride, padding=padding, groups=c, bias=bias)
    return nn.Sequential(conv, nn.ReLU6()) if relu6 else conv


def cases():
    return {
        # 56 columns: one tile of a 64-lane row, the last 8 lanes masked off.
        "dw_rows56_relu6": ((1, 32, 56, 56), depthwise(32)),
        # 70 columns: two tiles of 35.
        "dw_rows70": ((1, 8, 70, 70), depthwise(8)),
        # 67 columns (no divisor between one vector and 64): a tile of 64, then a peeled 3.
        "dw_rows67_peeled": ((1, 4, 67, 67), depthwise(4, relu6=False)),
        # 7 columns: less than one vector.
        "dw_rows7": ((1, 64, 7, 7), depthwise(64)),
        "dw_batch2_no_bias": ((2, 16, 20, 20), depthwise(16, bias=False, relu6=False)),
        "dw_k5": ((1, 24, 30, 30), depthwise(24, k=5, padding=2)),
        "dw_s2": ((1, 16, 33, 33), depthwise(16, stride=2)),
        "dw_multiplier2": ((1, 8, 24, 24), depthwise(8, multiplier=2)),
        # bias + ReLU + residual: an epilogue reading a second row operand.
        "dw_residual": ((1, 16, 40, 40), Block(nn.Conv2d(16, 16, 3, padding=1, groups=16),
                                              relu=True, residual=True)),
    }


if __name__ == "__main__":
    export_main(cases())
