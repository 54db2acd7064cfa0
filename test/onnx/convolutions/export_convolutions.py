#!/usr/bin/env python3
"""Exports small convolution models covering the shapes tlc-lower-convolutions distinguishes.

For each case writes NAME.onnx, NAME.input.npy and NAME.expected.npy into --out and prints the
case name. The expected output is PyTorch's, computed in float64 from the same float32 weights
and input. Cases: stride 1 and 2 (square and not), padding (symmetric and not), dilation,
batch > 1, images split into row tiles and small ones that are not, grouped and depthwise
convolutions, 1x1 convolutions with and without stride, bias + ReLU + residual epilogues, and
tiled strided convolutions (stride 2 and 3, kernels 2 to 7, odd and even sizes, pad 0 to 3).
"""
import argparse
import os

import numpy as np
import torch
import torch.nn as nn


class Block(nn.Module):
    """conv (+ ReLU) (+ residual of the input) (+ a second conv): the epilogues resnets have."""

    def __init__(self, conv, relu=False, residual=False, then=None):
        super().__init__()
        self.conv, self.relu, self.residual, self.then = conv, relu, residual, then

    def forward(self, x):
        y = self.conv(x)
        if self.relu:
            y = torch.relu(y)
        if self.residual:
            y = y + x
        if self.then is not None:
            y = self.then(y)
        return y


# name: (input shape, module). The first ten have im2col matrices over 4 MB and take the
# tiled path (tlc-lower-convolutions' defaults); the small ones take the untiled path.
def cases():
    C = nn.Conv2d
    return {
        "s1_pad_bias_relu": ((1, 16, 128, 128), Block(C(16, 32, 3, padding=1), relu=True)),
        "k7s2_batch": ((2, 3, 128, 128), Block(C(3, 16, 7, stride=2, padding=3, bias=False))),
        "s2_odd": ((2, 16, 131, 133), Block(C(16, 24, 3, stride=2, padding=1))),
        "dilation2": ((1, 16, 96, 96), Block(C(16, 16, 3, padding=2, dilation=2), relu=True)),
        "dilation2_s2_prime_rows": ((1, 16, 261, 261), Block(C(16, 16, 3, stride=2, padding=2,
                                                            dilation=2))),
        "rect_stride_kernel": ((2, 8, 100, 128), Block(C(8, 20, (3, 5), stride=(2, 1),
                                                       padding=(1, 2)))),
        "no_pad_odd_channels": ((1, 5, 230, 227), Block(C(5, 20, 3))),
        "residual": ((1, 32, 64, 64), Block(C(32, 32, 3, padding=1), relu=True, residual=True)),
        "two_convs": ((1, 16, 256, 256), Block(C(16, 16, 3, stride=2, padding=1), relu=True,
                                            then=C(16, 16, 3, padding=1))),
        # 14 row tiles (7 per thread) whose 576-deep reduction is split at cache-k into a part
        # that starts from zero in registers and two that accumulate onto it.
        "deep_k_bias_relu": ((1, 64, 56, 56), Block(C(64, 64, 3, padding=1), relu=True)),
        # Winograd F(2x2, 3x3): odd output sizes (the last tiles overhang, cropped), a batch of
        # two, channel counts that split into chunks of 6 and 5; and no padding at all.
        "winograd_odd_batch": ((2, 48, 15, 13), Block(C(48, 40, 3, padding=1), relu=True)),
        "winograd_no_pad": ((1, 32, 30, 30), Block(C(32, 32, 3), residual=False)),
        # A pointwise convolution (+ ReLU) writing the depthwise convolution's padded input in
        # place: its output rows kept (tlc-lower-convolutions' pointwise-rows-min-width).
        "pointwise_into_depthwise": ((1, 8, 112, 112), Block(C(8, 24, 1), relu=True,
                                                         then=C(24, 24, 3, stride=2, padding=1,
                                                                groups=24))),
        "small_image": ((1, 16, 8, 8), Block(C(16, 64, 3, padding=1), relu=True)),
        "small_odd": ((1, 5, 13, 11), Block(C(5, 20, 3))),
        "groups2": ((1, 16, 14, 14), Block(C(16, 32, 3, padding=1, groups=2))),
        "depthwise_relu": ((1, 16, 12, 12), Block(C(16, 16, 3, padding=1, groups=16),
                                                  relu=True)),
        "pointwise": ((1, 16, 15, 15), Block(C(16, 24, 1))),
        "pointwise_s2": ((1, 8, 15, 15), Block(C(8, 16, 1, stride=2))),
        # One block of pixels: the filter (m) blocks run on threads, one launch per k block
        # (tlc-tile-contractions' parallel-min-flops); 200 filters leave a partial m block.
        "few_pixels_deep": ((1, 256, 14, 14), Block(C(256, 256, 3, padding=1), relu=True)),
        "few_pixels_odd": ((1, 96, 7, 7), Block(C(96, 200, 3, padding=1), residual=False)),
        # Strided, tiled: row phases read in place (one row-phase group when the stride divides
        # the kernel size, else two), odd and even kernels and input sizes, pad 0 to 3.
        "s2_k3_even_pad1": ((1, 32, 128, 128), Block(C(32, 16, 3, stride=2, padding=1),
                                                     relu=True)),
        "s2_k4_odd_pad0": ((1, 20, 131, 129), Block(C(20, 24, 4, stride=2))),
        "s2_k5_pad2": ((2, 8, 111, 111), Block(C(8, 12, 5, stride=2, padding=2))),
        "s2_k2_even": ((1, 80, 128, 128), Block(C(80, 32, 2, stride=2))),
        "s2_k7_pad3_odd": ((1, 3, 224, 227), Block(C(3, 64, 7, stride=2, padding=3))),
        "s3_k5_pad1": ((1, 16, 196, 196), Block(C(16, 16, 5, stride=3, padding=1))),
    }


def export_cases(models, out):
    """Writes NAME.onnx, NAME.input.npy and NAME.expected.npy into `out` for each case of
    `models` (name: (input shape, module)) and prints its name."""
    os.makedirs(out, exist_ok=True)
    for i, (name, (shape, module)) in enumerate(models.items()):
        torch.manual_seed(i)
        module.eval()
        x = torch.randn(*shape)
        path = os.path.join(out, name)
        torch.onnx.export(module, x, path + ".onnx", opset_version=13, input_names=["x"],
                          output_names=["y"])
        with torch.no_grad():
            expected = module.double()(x.double()).float()
        np.save(path + ".input.npy", x.numpy())
        np.save(path + ".expected.npy", expected.numpy())
        print(name)


def export_main(models):
    """The command line of the export scripts: --out DIR, then export_cases."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    export_cases(models, ap.parse_args().out)


if __name__ == "__main__":
    export_main(cases())
