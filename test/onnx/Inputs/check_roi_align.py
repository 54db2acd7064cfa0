#!/usr/bin/env python3
"""One-node ONNX RoiAlign models (avg and max; half_pixel, output_half_pixel and opset 10's
default; boxes partly outside the image, smaller than a pixel, on several images of a batch;
spatial_scale), compiled with tlc and run with tlc-run on fresh random inputs. avg is compared
with torchvision's roi_align (aligned = half_pixel), max with a float64 numpy evaluation of the
spec's loops (ONNX Runtime's sampling: a sample's largest weighted tap, samples outside the
image 0), both within 1e-5: check_roi_align.py --tlc T --tlc-run R --out DIR [--emit-tl]
prints `NAME: PASS` or `NAME: FAIL ...` per model (tlc_check.run_node_cases);
[--opset10]: RoiAlign-10's models instead."""
import sys

import numpy as np
import torch
from torchvision.ops import roi_align
from tlc_check import run_node_cases

RNG = np.random.default_rng(59)


def taps(v, size):
    v = max(v, 0.0)
    low = int(np.floor(v))
    if low >= size - 1:
        return size - 1, size - 1, 1.0, 0.0
    return low, low + 1, 1.0 - (v - low), v - low


def reference_max(x, rois, batch, oh, ow, ratio, scale, half):
    r, c = len(rois), x.shape[1]
    h, w = x.shape[2:]
    out = np.zeros((r, c, oh, ow))
    off = 0.5 if half else 0.0
    for k in range(r):
        x1, y1, x2, y2 = rois[k].astype(np.float64) * scale - off
        rw, rh = x2 - x1, y2 - y1
        if not half:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        img = x[batch[k]].astype(np.float64)
        for p in range(oh):
            for q in range(ow):
                best = None
                for i in range(ratio):
                    yy = y1 + rh / oh * (p + (i + 0.5) / ratio)
                    for j in range(ratio):
                        xx = x1 + rw / ow * (q + (j + 0.5) / ratio)
                        if yy < -1 or yy > h or xx < -1 or xx > w:
                            val = np.zeros(c)
                        else:
                            yl, yh, wyl, wyh = taps(yy, h)
                            xl, xh, wxl, wxh = taps(xx, w)
                            val = np.max([wyl * wxl * img[:, yl, xl], wyl * wxh * img[:, yl, xh],
                                          wyh * wxl * img[:, yh, xl], wyh * wxh * img[:, yh, xh]],
                                         axis=0)
                        best = val if best is None else np.maximum(best, val)
                out[k, :, p, q] = best
    return out.astype(np.float32)


def case(mode, half, oh, ow, ratio, scale=1.0, opset16=True):
    n, c, h, w = 2, 3, 9, 11
    x = RNG.standard_normal((n, c, h, w)).astype(np.float32)
    lo = RNG.uniform(-3, 9, (5, 2)) / scale
    size = np.concatenate([RNG.uniform(0.3, 8, (4, 2)), [[0.2, 0.4]]]) / scale
    rois = np.ascontiguousarray(np.concatenate([lo, lo + size], axis=1), dtype=np.float32)
    batch = RNG.integers(0, n, 5).astype(np.int64)
    if mode == "avg":
        boxes = torch.from_numpy(np.concatenate([batch[:, None], rois], 1).astype(np.float32))
        y = roi_align(torch.from_numpy(x), boxes, (oh, ow), scale, ratio, half).numpy()
    else:
        y = reference_max(x, rois, batch, oh, ow, ratio, scale, half)
    attrs = {"mode": mode, "output_height": oh, "output_width": ow, "sampling_ratio": ratio,
             "spatial_scale": scale}
    if opset16:
        attrs["coordinate_transformation_mode"] = "half_pixel" if half else "output_half_pixel"
    return "RoiAlign", attrs, [x, rois, batch], [y]


def cases(opset10):
    if opset10:  # RoiAlign-10: no coordinate_transformation_mode, boxes as output_half_pixel
        yield case("avg", False, 2, 3, 2, opset16=False)
        yield case("max", False, 3, 3, 2, opset16=False)
        return
    yield case("avg", True, 3, 4, 2)
    yield case("avg", False, 2, 2, 3, scale=0.5)
    yield case("max", True, 3, 2, 2)
    yield case("max", False, 4, 3, 1, scale=2.0)


if __name__ == "__main__":
    opset10 = "--opset10" in sys.argv
    if opset10:
        sys.argv.remove("--opset10")
    sys.exit(run_node_cases(__doc__ + " --opset10: the opset-10 models.", cases(opset10),
                            10 if opset10 else 16, tol=1e-5))
