#!/usr/bin/python3
"""Gradients (tl.grad, tl-autodiff) of the neural-network ops against PyTorch autograd in
float64: conv2d (groups, strides, dilations, asymmetric pads, bias; depthwise), max pooling
(ties after a relu go to the first maximum, ceil mode), average pooling (with and without the
padding counted, ceil mode), layer norm, gather (repeated and negative indices) and constant
pad. Each case is an MLIR function @g computing loss = sum(op(...) * r) for a random r and
returning the loss and the gradients, compiled with tlc and run with tlc-run on random inputs.
Prints `PASS nn-grad <case>` or FAIL lines."""
import argparse
import sys

import numpy as np
import torch
import torch.nn.functional as F
from tlc_eval import add_tool_arguments, evaluate

RNG = np.random.default_rng(23)


def ty(shape, et="f32"):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), et)


def module(args, op_line, y_shape, wrt):
    """args: list of (name, shape, elt); op_line computes %y; loss = sum(%y * %r)."""
    params = ", ".join('%%%s: %s {tl.name = "%s"}' % (n, ty(s, e), n) for n, s, e in args)
    shapes = {n: s for n, s, _ in args}
    rank = len(y_shape)
    outs = [ty([])] + [ty(shapes[w]) for w in wrt]
    lines = ["func.func @g(%s, %%r: %s {tl.name = \"r\"}) -> (%s) {" % (params, ty(y_shape), ", ".join(
        '%s {tl.name = "o%d"}' % (t, i) for i, t in enumerate(outs)))]
    lines.append("  " + op_line)
    lines.append("  %%p = tl.mul %%y, %%r : %s, %s -> %s" % (ty(y_shape), ty(y_shape), ty(y_shape)))
    lines.append("  %%l = tl.reduce_sum %%p axes = [%s] : %s -> %s" % (
        ", ".join(str(i) for i in range(rank)), ty(y_shape), ty([])))
    for w in wrt:
        lines.append("  %%d%s = tl.grad %%l wrt %%%s : %s, %s" % (w, w, ty([]), ty(shapes[w])))
    lines.append("  return %%l%s : %s" % ("".join(", %%d%s" % w for w in wrt), ", ".join(outs)))
    lines.append("}")
    return "\n".join(lines) + "\n"


def conv_case(name, x_shape, w_shape, strides, pads, dilations, groups, bias):
    x = RNG.standard_normal(x_shape).astype(np.float32)
    w = RNG.standard_normal(w_shape).astype(np.float32)
    b = RNG.standard_normal(w_shape[0]).astype(np.float32)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    wt = torch.tensor(w, dtype=torch.float64, requires_grad=True)
    bt = torch.tensor(b, dtype=torch.float64, requires_grad=True)
    padded = F.pad(xt, (pads[1], pads[3], pads[0], pads[2]))
    y = F.conv2d(padded, wt, bt if bias else None, stride=strides, dilation=dilations, groups=groups)
    args = [("x", x_shape, "f32"), ("w", w_shape, "f32")] + ([("b", [w_shape[0]], "f32")] if bias else [])
    operands = "%x, %w" + (", %b" if bias else "")
    types = ty(x_shape) + ", " + ty(w_shape) + (", " + ty([w_shape[0]]) if bias else "")
    line = ("%%y = tl.conv2d %s strides = [%d, %d] pads = [%d, %d, %d, %d] dilations = [%d, %d] "
            "groups = %d : %s -> %s" % ((operands,) + tuple(strides) + tuple(pads) + tuple(dilations)
                                        + (groups, types, ty(list(y.shape)))))
    inputs = [x, w] + ([b] if bias else [])
    leaves = [xt, wt] + ([bt] if bias else [])
    return name, args, line, list(y.shape), y, inputs, leaves


def pool_case(name, kind, x_shape, kernel, strides, pad, ceil, include_pad=False, relu=False):
    x = RNG.standard_normal(x_shape).astype(np.float32)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    src = torch.relu(xt - 1.0) if relu else xt  # most windows all 0: ties
    if kind == "max":
        y = F.max_pool2d(src, kernel, strides, pad, ceil_mode=ceil)
    else:
        y = F.avg_pool2d(src, kernel, strides, pad, ceil_mode=ceil, count_include_pad=include_pad)
    op = "max_pool2d" if kind == "max" else "avg_pool2d"
    pre = ""
    operand = "%x"
    if relu:
        pre = ("%%c = tl.constant dense<1.0> : tensor<f32>\n  %%s = tl.sub %%x, %%c : %s, tensor<f32> -> %s\n"
               "  %%z = tl.relu %%s : %s\n  " % (ty(x_shape), ty(x_shape), ty(x_shape)))
        operand = "%z"
    line = ("%s%%y = tl.%s %s kernel = [%d, %d] strides = [%d, %d] pads = [%d, %d, %d, %d] "
            "dilations = [1, 1]%s%s : %s -> %s" % (
                pre, op, operand, kernel, kernel, strides, strides, pad, pad, pad, pad,
                " ceil_mode" if ceil else "", " count_include_pad" if include_pad else "",
                ty(x_shape), ty(list(y.shape))))
    return name, [("x", x_shape, "f32")], line, list(y.shape), y, [x], [xt]


def layer_norm_case(name, x_shape, axis):
    norm = x_shape[axis:]
    x = RNG.standard_normal(x_shape).astype(np.float32)
    s = RNG.standard_normal(norm).astype(np.float32)
    b = RNG.standard_normal(norm).astype(np.float32)
    leaves = [torch.tensor(v, dtype=torch.float64, requires_grad=True) for v in (x, s, b)]
    y = F.layer_norm(leaves[0], norm, leaves[1], leaves[2], eps=1e-5)
    line = "%%y = tl.layer_norm %%x, %%s, %%b axis = %d epsilon = 1.0e-05 : %s, %s, %s -> %s" % (
        axis, ty(x_shape), ty(norm), ty(norm), ty(x_shape))
    return name, [("x", x_shape, "f32"), ("s", norm, "f32"), ("b", norm, "f32")], line, x_shape, y, \
        [x, s, b], leaves


def gather_case(name, x_shape, idx, axis):
    x = RNG.standard_normal(x_shape).astype(np.float32)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    idx = np.array(idx, np.int64)
    norm = np.where(idx < 0, idx + x_shape[axis], idx)
    y = torch.index_select(xt, axis, torch.tensor(norm.reshape(-1)))
    y = y.reshape(x_shape[:axis] + list(idx.shape) + x_shape[axis + 1:])
    const = "%%i = tl.constant dense<%s> : %s\n  " % (str(idx.tolist()).replace(" ", ""), ty(list(idx.shape), "i64"))
    line = "%s%%y = tl.gather %%x[%%i] axis = %d : %s, %s -> %s" % (
        const, axis, ty(x_shape), ty(list(idx.shape), "i64"), ty(list(y.shape)))
    return name, [("x", x_shape, "f32")], line, list(y.shape), y, [x], [xt]


def pad_case(name, x_shape, pads):
    x = RNG.standard_normal(x_shape).astype(np.float32)
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    r = len(x_shape)
    tp = []
    for i in reversed(range(r)):
        tp += [pads[i], pads[r + i]]
    y = F.pad(xt, tuple(tp), value=1.5)
    line = "%%y = tl.pad %%x pads = [%s] mode = constant value = 1.5 : %s -> %s" % (
        ", ".join(map(str, pads)), ty(x_shape), ty(list(y.shape)))
    return name, [("x", x_shape, "f32")], line, list(y.shape), y, [x], [xt]


CASES = [
    lambda: conv_case("conv-grouped", [2, 4, 9, 8], [6, 2, 3, 3], [2, 1], [1, 0, 2, 1], [1, 2], 2, True),
    lambda: conv_case("conv-strided", [1, 3, 11, 10], [4, 3, 5, 3], [3, 2], [2, 1, 0, 1], [1, 1], 1, False),
    lambda: conv_case("conv-depthwise", [2, 5, 7, 7], [5, 1, 3, 3], [1, 1], [1, 1, 1, 1], [2, 2], 5, True),
    # groups = 1: the filter gradient as one GEMM over the patches; the input gradient padded
    # to the input's rows, or cropped where a padding is wider than the kernel reaches.
    lambda: conv_case("conv-dilated", [2, 3, 9, 9], [4, 3, 3, 3], [2, 2], [2, 1, 1, 2], [2, 1], 1, True),
    lambda: conv_case("conv-wide-pad", [1, 2, 5, 5], [3, 2, 1, 1], [1, 1], [1, 1, 1, 1], [1, 1], 1, False),
    # A batch of images with fewer output pixels than a register tile: the batch joins the
    # im2col matrix's columns (tlc-lower-convolutions' batch-columns-max-pixels).
    lambda: conv_case("conv-batch-small", [4, 3, 4, 5], [5, 3, 3, 3], [1, 1], [0, 0, 0, 0], [1, 1], 1, True),
    lambda: conv_case("conv-batch-strided", [3, 4, 5, 5], [6, 4, 3, 3], [2, 2], [1, 1, 0, 0], [1, 1], 1, False),
    lambda: pool_case("maxpool-relu-ties", "max", [2, 3, 8, 9], 3, 2, 1, False, relu=True),
    lambda: pool_case("maxpool-ceil", "max", [1, 2, 7, 7], 2, 2, 0, True),
    lambda: pool_case("avgpool-pad", "avg", [2, 2, 7, 8], 3, 2, 1, False),
    lambda: pool_case("avgpool-include-pad-ceil", "avg", [1, 3, 8, 8], 3, 2, 1, True, include_pad=True),
    lambda: layer_norm_case("layernorm-last", [3, 5, 8], 2),
    lambda: layer_norm_case("layernorm-two-axes", [4, 3, 6], 1),
    lambda: gather_case("gather-embedding", [7, 5], [[1, 6, 1], [-1, 0, 3]], 0),
    lambda: gather_case("gather-axis1", [3, 6, 2], [5, -2, 5, 0], 1),
    lambda: pad_case("pad", [2, 3, 4], [1, 0, 2, 0, 3, 1]),
]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__)
    add_tool_arguments(ap)
    ap.add_argument("--rtol", type=float, default=1e-4)
    args = ap.parse_args(argv)
    failed = 0
    for make in CASES:
        name, margs, line, y_shape, y, inputs, leaves = make()
        r = RNG.standard_normal(y_shape).astype(np.float32)
        loss = (y * torch.tensor(r, dtype=torch.float64)).sum()
        loss.backward()
        wrt = [n for n, _, _ in margs]
        source = module(margs, line, y_shape, wrt)
        outs = evaluate(args.tlc, args.tlc_run, args.cpu, source, inputs + [r],
                        ["o%d" % i for i in range(len(wrt) + 1)], suffix=".mlir")
        refs = [loss.detach().numpy()] + [t.grad.numpy() for t in leaves]
        bad, worst = [], 0.0
        for n, got, ref in zip(["loss"] + wrt, outs, refs):
            scale = max(1.0, float(np.max(np.abs(ref))))
            err = float(np.max(np.abs(got - ref))) / scale
            worst = max(worst, err)
            if got.shape != ref.shape or not np.all(np.isfinite(got)) or err > args.rtol:
                bad.append("%s: max error %.3g of scale %.3g" % (n, err, scale))
        if bad:
            failed += 1
            print("FAIL nn-grad %s: %s" % (name, "; ".join(bad)))
        else:
            print("PASS nn-grad %s (max error %.2g of the largest magnitude)" % (name, worst))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
