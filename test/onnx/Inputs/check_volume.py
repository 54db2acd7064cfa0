#!/usr/bin/env python3
"""Builds one-node ONNX models of the 3-D (NCDHW) window ops over the attributes the spec
defines: Conv (strides, dilations, symmetric and asymmetric pads, auto_pad, groups, depthwise,
bias), ConvTranspose (strides, pads, output_padding, output_shape, dilations, groups),
MaxPool and AveragePool (pads, strides, dilations, ceil_mode, count_include_pad),
BatchNormalization, GlobalAveragePool and GlobalMaxPool. Compiles each with tlc, runs it
with tlc-run on random inputs and compares with PyTorch's float64 functional ops (an
independent reference; asymmetric pads applied with F.pad), per element atol 1e-5 + rtol 1e-5:
check_volume.py --tlc T --tlc-run R --out DIR [--emit-tl NAME]. Prints `NAME: PASS` or
`NAME: FAIL ...` per model; with --emit-tl NAME, writes that model and prints tlc's
--emit=tl output instead (for FileCheck)."""
import argparse
import os
import subprocess
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(3)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def t64(a):
    return torch.from_numpy(a.astype(np.float64))


def split_pads(pads):
    """ONNX [d0, h0, w0, d1, h1, w1] -> F.pad's (w0, w1, h0, h1, d0, d1)."""
    return (pads[2], pads[5], pads[1], pads[4], pads[0], pads[3])


def conv_case(x_shape, w_shape, bias=False, strides=(1, 1, 1), pads=(0,) * 6,
              dilations=(1, 1, 1), group=1, auto_pad=None, weight_input=False):
    x, w = rand(*x_shape), rand(*w_shape)
    b = rand(w_shape[0]) if bias else None
    attrs = dict(strides=list(strides), dilations=list(dilations), group=group)
    if auto_pad:
        attrs["auto_pad"] = auto_pad
        # SAME_UPPER: total padding so the output is ceil(in / stride); the extra one at the end.
        pads = [0] * 6
        for i in range(3):
            out = -(-x_shape[2 + i] // strides[i])
            total = max(0, (out - 1) * strides[i] + (w_shape[2 + i] - 1) * dilations[i] + 1
                        - x_shape[2 + i])
            pads[i], pads[i + 3] = total // 2, total - total // 2
    else:
        attrs["pads"] = list(pads)
    ref = F.conv3d(F.pad(t64(x), split_pads(pads)), t64(w), None if b is None else t64(b),
                   stride=strides, dilation=dilations, groups=group).numpy()
    inits = {"w": w} if b is None else {"w": w, "b": b}
    if weight_input:
        # The weights as a run-time input: the filter is rearranged by the compiled code.
        return "Conv", ["x"] + list(inits), attrs, {"x": x, **inits}, {}, ref
    return "Conv", ["x"] + list(inits), attrs, {"x": x}, inits, ref


def deconv_case(x_shape, w_shape, bias=False, strides=(1, 1, 1), pads=(0,) * 6,
                output_padding=(0, 0, 0), dilations=(1, 1, 1), group=1, output_shape=None):
    x, w = rand(*x_shape), rand(*w_shape)
    b = rand(w_shape[1] * group) if bias else None
    attrs = dict(strides=list(strides), dilations=list(dilations), group=group)
    if output_shape:
        # The spec's padding for output_shape (auto_pad NOTSET: the extra one at the start).
        attrs["output_shape"] = list(output_shape)
        full = [strides[i] * (x_shape[2 + i] - 1) + (w_shape[2 + i] - 1) * dilations[i] + 1
                for i in range(3)]
        total = [full[i] - output_shape[i] for i in range(3)]
        pads = [total[i] - total[i] // 2 for i in range(3)] + [total[i] // 2 for i in range(3)]
    else:
        attrs["pads"] = list(pads)
        attrs["output_padding"] = list(output_padding)
    y = F.conv_transpose3d(t64(x), t64(w), None if b is None else t64(b), stride=strides,
                           dilation=dilations, groups=group,
                           output_padding=tuple(output_padding)).numpy()
    # PyTorch pads symmetrically; crop ONNX's (possibly asymmetric) pads from the full output.
    sl = tuple(slice(pads[i], y.shape[2 + i] - pads[i + 3]) for i in range(3))
    ref = y[(slice(None), slice(None)) + sl]
    inits = {"w": w} if b is None else {"w": w, "b": b}
    return "ConvTranspose", ["x"] + list(inits), attrs, {"x": x}, inits, ref


def pool_case(op, x_shape, kernel, strides=(1, 1, 1), pads=(0,) * 6, dilations=None,
              ceil_mode=0, count_include_pad=0):
    x = rand(*x_shape)
    attrs = dict(kernel_shape=list(kernel), strides=list(strides), pads=list(pads),
                 ceil_mode=ceil_mode)
    symmetric = list(pads[:3]) == list(pads[3:])
    if op == "MaxPool":
        if dilations:
            attrs["dilations"] = list(dilations)
        xp = t64(x) if symmetric else F.pad(t64(x), split_pads(pads), value=-np.inf)
        ref = F.max_pool3d(xp, kernel, strides, list(pads[:3]) if symmetric else 0,
                           dilations or 1, ceil_mode=bool(ceil_mode)).numpy()
    else:
        assert symmetric, "PyTorch's avg_pool3d pads symmetrically"
        attrs["count_include_pad"] = count_include_pad
        ref = F.avg_pool3d(t64(x), kernel, strides, list(pads[:3]), ceil_mode=bool(ceil_mode),
                           count_include_pad=bool(count_include_pad)).numpy()
    return op, ["x"], attrs, {"x": x}, {}, ref


def batchnorm_case():
    x = rand(2, 5, 3, 6, 7)
    s, b, m = rand(5), rand(5), rand(5)
    v = RNG.uniform(0.5, 1.5, 5).astype(np.float32)
    ref = F.batch_norm(t64(x), t64(m), t64(v), t64(s), t64(b), False, 0.0, 1e-3).numpy()
    inits = {"s": s, "b": b, "m": m, "v": v}
    return ("BatchNormalization", ["x", "s", "b", "m", "v"], dict(epsilon=1e-3), {"x": x},
            inits, ref)


def global_case(op):
    x = rand(2, 4, 3, 5, 6)
    r = t64(x).mean(dim=(2, 3, 4), keepdim=True) if op == "GlobalAveragePool" else \
        t64(x).amax(dim=(2, 3, 4), keepdim=True)
    return op, ["x"], {}, {"x": x}, {}, r.numpy()


CASES = {
    "conv_k3_pad1": lambda: conv_case((1, 4, 5, 9, 8), (6, 4, 3, 3, 3), pads=(1,) * 6),
    "conv_bias_batch2_stride2": lambda: conv_case((2, 3, 7, 10, 9), (8, 3, 3, 3, 3), bias=True,
                                                  strides=(2, 2, 2), pads=(1,) * 6),
    "conv_k1x7x7_space_stride": lambda: conv_case((1, 3, 4, 16, 16), (8, 3, 1, 7, 7),
                                                  strides=(1, 2, 2), pads=(0, 3, 3, 0, 3, 3)),
    "conv_k3x1x1_temporal": lambda: conv_case((1, 8, 6, 5, 5), (4, 8, 3, 1, 1), bias=True,
                                              pads=(1, 0, 0, 1, 0, 0)),
    "conv_pointwise_stride2": lambda: conv_case((1, 6, 5, 8, 8), (10, 6, 1, 1, 1),
                                                strides=(2, 2, 2)),
    "conv_dilated_asym_pads": lambda: conv_case((1, 2, 9, 9, 9), (3, 2, 3, 2, 3),
                                                dilations=(2, 1, 2), pads=(2, 0, 1, 1, 1, 0),
                                                strides=(1, 2, 1)),
    "conv_groups2": lambda: conv_case((1, 8, 4, 6, 6), (6, 4, 3, 3, 3), bias=True, group=2,
                                      pads=(1,) * 6),
    "conv_depthwise": lambda: conv_case((1, 6, 5, 7, 7), (6, 1, 3, 3, 3), group=6,
                                        strides=(1, 2, 2), pads=(1,) * 6),
    "conv_weight_input": lambda: conv_case((2, 4, 4, 5, 6), (6, 2, 2, 3, 3), bias=True,
                                           group=2, pads=(1, 1, 0, 0, 1, 1), weight_input=True),
    "conv_same_upper": lambda: conv_case((1, 3, 5, 8, 7), (4, 3, 2, 3, 4), strides=(2, 2, 1),
                                         auto_pad="SAME_UPPER"),
    "deconv_stride2_outpad": lambda: deconv_case((1, 4, 3, 4, 5), (4, 3, 3, 3, 3), bias=True,
                                                 strides=(2, 2, 2), pads=(1,) * 6,
                                                 output_padding=(1, 1, 1)),
    "deconv_groups_dilated": lambda: deconv_case((2, 4, 3, 3, 4), (4, 2, 2, 3, 2), group=2,
                                                 dilations=(2, 1, 2), strides=(1, 2, 1)),
    "deconv_asym_pads": lambda: deconv_case((1, 2, 4, 3, 3), (2, 3, 3, 3, 2),
                                            strides=(2, 1, 3), pads=(0, 1, 2, 1, 0, 0)),
    # Kernel 1 at stride 3 along D: two of three output phases get no tap (the bias alone).
    "deconv_kernel_below_stride": lambda: deconv_case((1, 3, 3, 3, 4), (3, 2, 1, 2, 3),
                                                      bias=True, strides=(3, 2, 2)),
    "deconv_output_shape": lambda: deconv_case((1, 3, 3, 4, 4), (3, 2, 3, 3, 3),
                                               strides=(2, 2, 2), output_shape=(6, 8, 7)),
    "maxpool_k3s2p1": lambda: pool_case("MaxPool", (1, 4, 7, 9, 9), (3, 3, 3), (2, 2, 2),
                                        (1,) * 6),
    "maxpool_k1x3x3": lambda: pool_case("MaxPool", (2, 3, 4, 8, 8), (1, 3, 3), (1, 2, 2),
                                        (0, 1, 1, 0, 1, 1)),
    "maxpool_dilated_ceil": lambda: pool_case("MaxPool", (1, 2, 8, 9, 10), (2, 2, 3),
                                              (2, 2, 2), dilations=(2, 1, 2), ceil_mode=1),
    "maxpool_asym_pads": lambda: pool_case("MaxPool", (1, 3, 5, 6, 7), (2, 3, 2), (1, 2, 2),
                                           (1, 0, 1, 0, 2, 0)),
    "avgpool_exclude_pad": lambda: pool_case("AveragePool", (1, 3, 6, 7, 8), (3, 3, 3),
                                             (2, 2, 2), (1,) * 6),
    "avgpool_include_pad_ceil": lambda: pool_case("AveragePool", (2, 2, 5, 7, 6), (2, 3, 3),
                                                  (2, 2, 2), (1,) * 6, ceil_mode=1,
                                                  count_include_pad=1),
    "avgpool_temporal_only": lambda: pool_case("AveragePool", (1, 4, 8, 3, 3), (4, 1, 1),
                                               (2, 1, 1)),
    "batchnorm": batchnorm_case,
    "global_avg": lambda: global_case("GlobalAveragePool"),
    "global_max": lambda: global_case("GlobalMaxPool"),
}


def write(name, case, out):
    op, inputs, attrs, feeds, inits, ref = case
    node = helper.make_node(op, inputs, ["y"], name=name, **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(k, TensorProto.FLOAT, v.shape) for k, v in feeds.items()],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ref.shape)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    path = os.path.join(out, name)
    onnx.save(model, path + ".onnx")
    for i, v in enumerate(feeds.values()):
        np.save(f"{path}.input{i}.npy", v)
    return path


def run(name, args):
    case = CASES[name]()
    ref = case[-1]
    path = write(name, case, args.out)
    c = subprocess.run([args.tlc, path + ".onnx", "--shared", "-o", path + ".so"],
                       capture_output=True, text=True)
    if c.returncode != 0:
        return f"FAIL compile: {c.stderr.strip()[:400]}"
    os.makedirs(path + ".out", exist_ok=True)
    cmd = [args.tlc_run, path + ".so", "--quiet", "--save-outputs", path + ".out"]
    for i in range(len(case[3])):
        cmd += ["--input", f"{path}.input{i}.npy"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return f"FAIL run: {(r.stderr or r.stdout).strip()[:400]}"
    got = np.load(os.path.join(path + ".out", "y.npy")).astype(np.float64)
    if got.shape != ref.shape:
        return f"FAIL shape {got.shape} != {ref.shape}"
    err = np.abs(got - ref) - (1e-5 + 1e-5 * np.abs(ref))
    if (err > 0).any():
        return f"FAIL max abs error {np.abs(got - ref).max():.3g}"
    return "PASS"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tlc", required=True)
    ap.add_argument("--tlc-run", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--emit-tl")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.emit_tl:
        path = write(args.emit_tl, CASES[args.emit_tl](), args.out)
        r = subprocess.run([args.tlc, path + ".onnx", "--emit=tl", "-o", "-"],
                           capture_output=True, text=True)
        sys.stdout.write(r.stdout + r.stderr)
        return r.returncode
    failed = 0
    for name in CASES:
        result = run(name, args)
        failed += result != "PASS"
        print(f"{name}: {result}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
