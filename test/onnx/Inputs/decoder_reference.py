#!/usr/bin/env python3
"""Input and PyTorch reference output of make_model.py's `decoder` model:
decoder_reference.py MODEL.onnx OUT_PREFIX writes OUT_PREFIX.input.npy and .expected.npy."""
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper


def main():
    m = onnx.load(sys.argv[1])
    inits = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy()) for t in m.graph.initializer}
    x = torch.from_numpy(np.random.RandomState(1).randn(1, 4, 5, 6).astype(np.float32))
    c = F.conv_transpose2d(x, inits["w"], inits["b"], stride=2, padding=1, output_padding=1,
                           groups=2)
    # half_pixel linear is align_corners=False; asymmetric/floor nearest is PyTorch's 'nearest'.
    r = F.interpolate(c, scale_factor=2, mode="bilinear", align_corners=False)
    y = F.interpolate(r, size=(30, 36), mode="nearest")
    np.save(sys.argv[2] + ".input.npy", x.numpy())
    np.save(sys.argv[2] + ".expected.npy", y.numpy())


if __name__ == "__main__":
    main()
