#!/usr/bin/env python3
"""Exports grouped convolution models (1 < groups < channels, as in ResNeXt and RegNet) for
grouped.test, like export_convolutions.py: stride-1 ones that contract the input in place
group by group (with bias + ReLU and residual epilogues, batch 2 with dilation, a rectangular
kernel, group widths that are not multiples of a vector), a strided one large enough for
per-tile im2col blocks, and small strided and 1x1 ones lowered whole.
"""
import os
import sys

import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_convolutions import Block, export_main  # noqa: E402


def cases():
    C = nn.Conv2d
    return {
        # Direct tiles (stride 1): 8 groups of 8 filters over 8 channels.
        "g8_direct_bias_relu": ((1, 64, 20, 20), Block(C(64, 64, 3, padding=1, groups=8),
                                                       relu=True)),
        # ResNeXt's 32 groups of 4 channels, with a residual epilogue.
        "g32_resnext_residual": ((1, 128, 28, 28), Block(C(128, 128, 3, padding=1, groups=32),
                                                         relu=True, residual=True)),
        # Batch 2, dilation 2, 3 groups of 12 filters over 8 channels.
        "g3_batch2_dilation2": ((2, 24, 17, 19), Block(C(24, 36, 3, padding=2, dilation=2,
                                                         groups=3))),
        # A 3x5 kernel, 5 groups of 4 filters over 6 channels, odd image sizes.
        "g5_rect_kernel": ((1, 30, 13, 11), Block(C(30, 20, (3, 5), padding=(1, 2), groups=5))),
        # 6 groups of 10 filters over 6 channels.
        "g6_odd_widths": ((1, 36, 16, 16), Block(C(36, 60, 3, padding=1, groups=6),
                                                 relu=True)),
        # Strided with a 7 MB im2col matrix: per-tile im2col blocks, contracted group by group.
        "g16_s2_tiled": ((1, 64, 112, 112), Block(C(64, 64, 3, stride=2, padding=1, groups=16))),
        # Small and strided: one im2col matrix, one contraction batched over the groups.
        "g4_s2_whole": ((1, 32, 15, 15), Block(C(32, 48, 3, stride=2, padding=1, groups=4))),
        # 1x1 (the input is the im2col matrix).
        "g4_pointwise": ((1, 32, 9, 9), Block(C(32, 64, 1, groups=4))),
    }


if __name__ == "__main__":
    export_main(cases())
