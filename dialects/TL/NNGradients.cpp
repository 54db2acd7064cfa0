// Vector-Jacobian products of the neural-network tl ops (convolution, pooling, layer norm,
// gather, pad), built from tl ops: a convolution's input gradient is a convolution of the
// zero-interleaved result gradient with the flipped filters, its filter gradient a convolution
// of the input with the result gradient; pooling routes the gradient window offset by window
// offset. Ties in max pooling go to the first maximum of the window, as in PyTorch.
#include "TL/GradientBuilders.h"
#include "TL/TLDialect.h"

#include <limits>

using namespace mlir;
using namespace tlc::tl;
using namespace tlc::tl::grad;

namespace {
Value reshape(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, tensorOf(x).getElementType());
  return type == tensorOf(x) ? x : ReshapeOp::create(b, loc, type, x).getResult();
}

Value transpose(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> perm) {
  return TransposeOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm));
}

Value slice(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> offsets,
            ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides = {}) {
  SmallVector<int64_t> ones(offsets.size(), 1);
  if (llvm::equal(sizes, tensorOf(x).getShape()) && strides.empty())
    return x;
  return SliceOp::create(b, loc, x, b.getDenseI64ArrayAttr(offsets),
                         b.getDenseI64ArrayAttr(sizes),
                         b.getDenseI64ArrayAttr(strides.empty() ? ArrayRef<int64_t>(ones) : strides));
}

/// Pads with `value`; `pads` holds the leading amounts, then the trailing ones.
Value pad(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> pads, double value = 0.0) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return x;
  RankedTensorType t = tensorOf(x);
  SmallVector<int64_t> shape(t.getShape());
  for (size_t i = 0; i < shape.size(); ++i)
    shape[i] += pads[i] + pads[i + shape.size()];
  return PadOp::create(b, loc, RankedTensorType::get(shape, t.getElementType()), x,
                       b.getDenseI64ArrayAttr(pads), PadModeAttr::get(b.getContext(), PadMode::constant),
                       b.getF64FloatAttr(value));
}

/// `g` (N x C x OH x OW) with `s - 1` zeros between neighbours along the spatial axes:
/// N x C x ((OH-1) sh + 1) x ((OW-1) sw + 1).
Value interleaveZeros(OpBuilder &b, Location loc, Value g, ArrayRef<int64_t> s) {
  if (s[0] == 1 && s[1] == 1)
    return g;
  ArrayRef<int64_t> d = tensorOf(g).getShape();
  Value x = reshape(b, loc, g, {d[0], d[1], d[2], 1, d[3], 1});
  x = pad(b, loc, x, {0, 0, 0, 0, 0, 0, 0, 0, 0, s[0] - 1, 0, s[1] - 1});
  x = reshape(b, loc, x, {d[0], d[1], d[2] * s[0], d[3] * s[1]});
  return slice(b, loc, x, {0, 0, 0, 0},
               {d[0], d[1], (d[2] - 1) * s[0] + 1, (d[3] - 1) * s[1] + 1});
}

/// `x` reversed along `axis` (a gather with descending positions).
Value reverse(OpBuilder &b, Location loc, Value x, int64_t axis) {
  int64_t n = tensorOf(x).getDimSize(axis);
  if (n == 1)
    return x;
  Value idx = positions(b, loc, n, b.getI64Type(), {n}, /*descending=*/true);
  return GatherOp::create(b, loc, x.getType(), x, idx, axis);
}

Value conv(OpBuilder &b, Location loc, Value x, Value w, ArrayRef<int64_t> strides,
           ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations, int64_t groups) {
  ArrayRef<int64_t> xs = tensorOf(x).getShape(), ws = tensorOf(w).getShape();
  SmallVector<int64_t> shape{xs[0], ws[0], 0, 0};
  for (int i = 0; i < 2; ++i)
    shape[2 + i] =
        (xs[2 + i] + pads[i] + pads[2 + i] - ((ws[2 + i] - 1) * dilations[i] + 1)) / strides[i] + 1;
  return Conv2DOp::create(b, loc, RankedTensorType::get(shape, tensorOf(x).getElementType()), x,
                          w, Value(), b.getDenseI64ArrayAttr(strides), b.getDenseI64ArrayAttr(pads),
                          b.getDenseI64ArrayAttr(dilations), b.getI64IntegerAttr(groups));
}

/// The rows [top, top + size) of `full` along `axis`, padding zeros at the end where `full`
/// is shorter (the padded input's rows no window reached).
Value cropAxis(OpBuilder &b, Location loc, Value full, int64_t axis, int64_t top, int64_t size) {
  RankedTensorType t = tensorOf(full);
  int64_t have = t.getDimSize(axis);
  if (have < top + size) {
    SmallVector<int64_t> pads(2 * t.getRank(), 0);
    pads[t.getRank() + axis] = top + size - have;
    full = pad(b, loc, full, pads);
  }
  SmallVector<int64_t> offsets(t.getRank(), 0), sizes(tensorOf(full).getShape());
  offsets[axis] = top;
  sizes[axis] = size;
  return slice(b, loc, full, offsets, sizes);
}
} // namespace

namespace {
/// The filter gradient of a convolution as one GEMM written in the filter's layout:
/// dW[f, (c, kh, kw)] = sum over (n, oh, ow) of g[f, (n, oh, ow)] * patches[(n, oh, ow), (c, kh,
/// kw)], the patches gathered from the padded input with the pixels outer. (As a convolution
/// of the input by the gradient its result comes out [C, F, KH, KW], with only KH x KW output
/// columns per GEMM, and needs a transpose; the optimizer update then reads it across rows.)
Value filterGradientGEMM(OpBuilder &b, Location loc, Value x, Value g, RankedTensorType wt,
                         ArrayRef<int64_t> s, ArrayRef<int64_t> p, ArrayRef<int64_t> d) {
  RankedTensorType xt = tensorOf(x), gt = tensorOf(g);
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(1), f = wt.getDimSize(0);
  int64_t kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  int64_t oh = gt.getDimSize(2), ow = gt.getDimSize(3);
  Value padded = pad(b, loc, x, {0, 0, p[0], p[1], 0, 0, p[2], p[3]});
  SmallVector<Value> taps;
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      Value tap = slice(b, loc, padded, {0, 0, i * d[0], j * d[1]}, {n, c, oh, ow},
                        {1, 1, s[0], s[1]});
      taps.push_back(reshape(b, loc, transpose(b, loc, tap, {0, 2, 3, 1}), {n, oh, ow, c, 1}));
    }
  Value patches = taps.size() == 1
                      ? taps[0]
                      : ConcatOp::create(b, loc, taps, b.getI64IntegerAttr(4)).getResult();
  patches = reshape(b, loc, patches, {n * oh * ow, c * kh * kw});
  Value rows = reshape(b, loc, transpose(b, loc, g, {1, 0, 2, 3}), {f, n * oh * ow});
  auto type = RankedTensorType::get({f, c * kh * kw}, xt.getElementType());
  Value dw = EinsumOp::create(b, loc, type, b.getStringAttr("ij,jk->ik"), ValueRange{rows, patches})
                 .getResult();
  return reshape(b, loc, dw, {f, c, kh, kw});
}

/// The filter gradient of a grouped convolution: the input (channels of a group as the batch,
/// the batch as channels) convolved with the gradient as filters; strides and dilations trade
/// places.
Value filterGradientConv(OpBuilder &b, Location loc, Value x, Value g, RankedTensorType wt,
                         ArrayRef<int64_t> s, ArrayRef<int64_t> p, ArrayRef<int64_t> d,
                         int64_t groups) {
  RankedTensorType xt = tensorOf(x);
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(1), f = wt.getDimSize(0);
  int64_t cg = c / groups, kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  Value xr = reshape(b, loc, x, {n, groups, cg, xt.getDimSize(2), xt.getDimSize(3)});
  xr = reshape(b, loc, transpose(b, loc, xr, {2, 1, 0, 3, 4}),
               {cg, groups * n, xt.getDimSize(2), xt.getDimSize(3)});
  Value gr = transpose(b, loc, g, {1, 0, 2, 3});
  Value dwFull = conv(b, loc, xr, gr, d, p, s, groups);
  Value dw = slice(b, loc, dwFull, {0, 0, 0, 0}, {cg, f, kh, kw});
  return transpose(b, loc, dw, {1, 0, 2, 3});
}
} // namespace

LogicalResult Conv2DOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  Location loc = getLoc();
  RankedTensorType xt = tensorOf(getInput()), wt = tensorOf(getFilter());
  if (xt.getElementType() != tensorOf(g).getElementType())
    return emitError("the gradient of a mixed-precision convolution is not implemented");
  ArrayRef<int64_t> s = getStrides(), p = getPads(), d = getDilations();
  int64_t groups = getGroups();
  int64_t c = xt.getDimSize(1), f = wt.getDimSize(0);
  int64_t cg = c / groups, fg = f / groups, kh = wt.getDimSize(2), kw = wt.getDimSize(3);
  grads.assign(getNumOperands(), Value());

  // Input: the zero-interleaved gradient, convolved (stride 1, the same dilations) with the
  // filters flipped and transposed per group, covers the padded input from its first row.
  // Both spatial axes reversed at once: the taps' flattened index i * KW + j, reversed, is
  // (KH - 1 - i) * KW + (KW - 1 - j) (one pass over the filter instead of two).
  Value w = reshape(b, loc, getFilter(), {f, cg, kh * kw});
  w = reshape(b, loc, reverse(b, loc, w, 2), {groups, fg, cg, kh, kw});
  w = reshape(b, loc, transpose(b, loc, w, {0, 2, 1, 3, 4}), {c, fg, kh, kw});
  // Padded so that its output rows are exactly the input's: row y of the full convolution
  // (padded by d * (k - 1) on both sides) is the input's row y - p_top, so the padding before
  // is d * (k - 1) - p_top and the padding after makes H rows; where the convolution padded
  // p_top rows more than that (a negative pad), the full result is cropped instead. (Always
  // computing the full result and cropping ran resnet18's 2x2 layer-4 gradients on 4x4.)
  Value spread = interleaveZeros(b, loc, g, s);
  int64_t h = xt.getDimSize(2), wd = xt.getDimSize(3);
  int64_t oh = tensorOf(g).getDimSize(2), ow = tensorOf(g).getDimSize(3);
  int64_t ph = d[0] * (kh - 1), pw = d[1] * (kw - 1);
  int64_t top = ph - p[0], left = pw - p[1];
  int64_t bottom = h - 1 - (oh - 1) * s[0] + p[0], right = wd - 1 - (ow - 1) * s[1] + p[1];
  if (top >= 0 && left >= 0 && bottom >= 0 && right >= 0) {
    grads[0] = conv(b, loc, spread, w, {1, 1}, {top, left, bottom, right}, d, groups);
  } else {
    Value full = conv(b, loc, spread, w, {1, 1}, {ph, pw, ph, pw}, d, groups);
    Value dx = cropAxis(b, loc, full, 2, p[0], h);
    grads[0] = cropAxis(b, loc, dx, 3, p[1], wd);
  }

  grads[1] = groups == 1 ? filterGradientGEMM(b, loc, getInput(), g, wt, s, p, d)
                         : filterGradientConv(b, loc, getInput(), g, wt, s, p, d, groups);

  if (getBias())
    grads[2] = ReduceSumOp::create(b, loc, g, b.getDenseI64ArrayAttr({0, 2, 3}), UnitAttr());
  return success();
}


namespace {
/// The pooling geometry shared by max and average pooling: `x` padded with `fill` so that
/// every window of the N x C x OH x OW result lies inside, and each window offset's strided
/// view of it.
struct PoolWindows {
  Value padded;
  int64_t padTop, padLeft;
  SmallVector<int64_t> outShape, kernel, strides, dilations;

  Value window(OpBuilder &b, Location loc, int64_t i, int64_t j) const {
    return slice(b, loc, padded, {0, 0, i * dilations[0], j * dilations[1]}, outShape,
                 {1, 1, strides[0], strides[1]});
  }

  /// `v` (N x C x OH x OW) placed at window offset (i, j) of a zero tensor of the padded shape.
  Value place(OpBuilder &b, Location loc, Value v, int64_t i, int64_t j) const {
    Value z = interleaveZeros(b, loc, v, strides);
    ArrayRef<int64_t> zs = tensorOf(z).getShape(), ps = tensorOf(padded).getShape();
    int64_t top = i * dilations[0], left = j * dilations[1];
    return pad(b, loc, z, {0, 0, top, left, 0, 0, ps[2] - top - zs[2], ps[3] - left - zs[3]});
  }

  /// The input's part of a gradient of the padded shape.
  Value crop(OpBuilder &b, Location loc, Value dPadded, RankedTensorType input) const {
    return slice(b, loc, dPadded, {0, 0, padTop, padLeft}, input.getShape());
  }
};

template <typename OpTy>
PoolWindows poolWindows(OpTy op, OpBuilder &b, Value x, double fill) {
  PoolWindows w;
  RankedTensorType xt = tensorOf(x);
  w.outShape.assign(tensorOf(op.getResult()).getShape().begin(),
                    tensorOf(op.getResult()).getShape().end());
  w.kernel.assign(op.getKernel().begin(), op.getKernel().end());
  w.strides.assign(op.getStrides().begin(), op.getStrides().end());
  w.dilations.assign(op.getDilations().begin(), op.getDilations().end());
  ArrayRef<int64_t> p = op.getPads();
  w.padTop = p[0];
  w.padLeft = p[1];
  SmallVector<int64_t> pads{0, 0, p[0], p[1], 0, 0, 0, 0};
  for (int i = 0; i < 2; ++i) {
    // Ceil mode may let the last window reach past the trailing padding.
    int64_t reach = (w.outShape[2 + i] - 1) * w.strides[i] + (w.kernel[i] - 1) * w.dilations[i] + 1;
    int64_t have = xt.getDimSize(2 + i) + p[i];
    pads[6 + i] = std::max(p[2 + i], reach - have);
  }
  w.padded = pad(b, op.getLoc(), x, pads, fill);
  return w;
}
} // namespace

LogicalResult MaxPool2DOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  Location loc = getLoc();
  PoolWindows w = poolWindows(*this, b, getInput(), -std::numeric_limits<double>::infinity());
  auto boolType = RankedTensorType::get(w.outShape, b.getI1Type());
  Value no = ConstantOp::create(b, loc, DenseElementsAttr::get(boolType, false));
  Value taken = no, sum;
  for (int64_t i = 0; i < w.kernel[0]; ++i)
    for (int64_t j = 0; j < w.kernel[1]; ++j) {
      // The first offset (row-major) holding the window's maximum takes the gradient.
      Value hit = compare(b, loc, ComparePredicate::eq, w.window(b, loc, i, j), getResult());
      hit = SelectOp::create(b, loc, taken, no, hit);
      taken = SelectOp::create(b, loc, taken, taken, hit);
      Value part = w.place(b, loc, where(b, loc, hit, g), i, j);
      sum = sum ? add(b, loc, sum, part) : part;
    }
  grads.assign(1, w.crop(b, loc, sum, tensorOf(getInput())));
  return success();
}

LogicalResult AvgPool2DOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  Location loc = getLoc();
  RankedTensorType xt = tensorOf(getInput());
  PoolWindows w = poolWindows(*this, b, getInput(), 0.0);
  // The divisor of each window: its input elements, or (count_include_pad) its elements
  // inside the padded input, counted on a 1 x 1 mask of the padded shape.
  ArrayRef<int64_t> ps = tensorOf(w.padded).getShape(), p = getPads();
  SmallVector<int64_t> inside{1, 1, xt.getDimSize(2), xt.getDimSize(3)};
  int64_t top = w.padTop, left = w.padLeft;
  if (getCountIncludePad()) {
    inside[2] += p[0] + p[2];
    inside[3] += p[1] + p[3];
    top = left = 0;
  }
  auto maskType = RankedTensorType::get(inside, xt.getElementType());
  Value ones = ConstantOp::create(b, loc, DenseElementsAttr::get(maskType, b.getFloatAttr(xt.getElementType(), 1.0)));
  PoolWindows m = w;
  m.padded = pad(b, loc, ones, {0, 0, top, left, 0, 0, ps[2] - top - inside[2], ps[3] - left - inside[3]});
  m.outShape[0] = m.outShape[1] = 1;
  Value count;
  for (int64_t i = 0; i < w.kernel[0]; ++i)
    for (int64_t j = 0; j < w.kernel[1]; ++j) {
      Value v = m.window(b, loc, i, j);
      count = count ? add(b, loc, count, v) : v;
    }
  Value share = div(b, loc, g, count);
  Value sum;
  for (int64_t i = 0; i < w.kernel[0]; ++i)
    for (int64_t j = 0; j < w.kernel[1]; ++j) {
      Value part = w.place(b, loc, share, i, j);
      sum = sum ? add(b, loc, sum, part) : part;
    }
  grads.assign(1, w.crop(b, loc, sum, xt));
  return success();
}

LogicalResult LayerNormOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  // x^ = (x - mean) rstd; dx = rstd (gs - mean(gs) - x^ mean(gs x^)) with gs = g scale;
  // dscale = sum(g x^), dbias = sum(g) over the leading axes.
  Location loc = getLoc();
  Value x = getInput();
  RankedTensorType xt = tensorOf(x);
  SmallVector<int64_t> axes;
  for (int64_t a = getNormalizedAxis(); a < xt.getRank(); ++a)
    axes.push_back(a);
  auto mean = [&](Value v) {
    return ReduceMeanOp::create(b, loc, v, b.getDenseI64ArrayAttr(axes), b.getUnitAttr())
        .getResult();
  };
  Value centered = sub(b, loc, x, mean(x));
  Value var = mean(mul(b, loc, centered, centered));
  Value rstd = unary<RsqrtOp>(b, loc, add(b, loc, var, scalar(b, loc, x, getEpsilon().convertToDouble())));
  Value xhat = mul(b, loc, centered, rstd);
  Value gs = mul(b, loc, g, getScale());
  Value dx = sub(b, loc, sub(b, loc, gs, mean(gs)), mul(b, loc, xhat, mean(mul(b, loc, gs, xhat))));
  grads.assign(3, Value());
  grads[0] = mul(b, loc, rstd, dx);
  grads[1] = sumToShape(b, loc, mul(b, loc, g, xhat), tensorOf(getScale()));
  grads[2] = sumToShape(b, loc, g, tensorOf(getBias()));
  return success();
}

LogicalResult GatherOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  // The gradient scattered back by a one-hot contraction over the (normalized, clamped)
  // indices: d input[p, v, s] = sum_j [idx_j = v] g[p, j, s].
  grads.assign(2, Value());
  if (!isFloatTensor(getInput()))
    return success();
  Location loc = getLoc();
  RankedTensorType xt = tensorOf(getInput()), it = tensorOf(getIndices());
  int64_t axis = getAxis() < 0 ? getAxis() + xt.getRank() : getAxis();
  int64_t v = xt.getDimSize(axis);
  Type idxElt = it.getElementType();
  auto intScalar = [&](int64_t value) {
    auto t = RankedTensorType::get({}, idxElt);
    return ConstantOp::create(b, loc, DenseElementsAttr::get(t, b.getIntegerAttr(idxElt, value)))
        .getResult();
  };
  Value idx = getIndices();
  idx = SelectOp::create(b, loc, compare(b, loc, ComparePredicate::lt, idx, intScalar(0)),
                         add(b, loc, idx, intScalar(v)), idx);
  idx = MaxOp::create(b, loc, MinOp::create(b, loc, idx, intScalar(v - 1)), intScalar(0));
  Value iota = positions(b, loc, v, idxElt, {v});
  SmallVector<int64_t> column(it.getShape());
  column.push_back(1);
  Value hit = compare(b, loc, ComparePredicate::eq, reshape(b, loc, idx, column), iota);
  SmallVector<int64_t> oneHotShape(it.getShape());
  oneHotShape.push_back(v);
  Value oneHot = CastOp::create(b, loc, RankedTensorType::get(oneHotShape, xt.getElementType()), hit);
  // Labels: p (axis of them), j (rank of indices), s (the rest), v.
  auto letter = [](int64_t d) { return static_cast<char>(d < 26 ? 'a' + d : 'A' + d - 26); };
  int64_t pj = axis + it.getRank(), rest = xt.getRank() - axis - 1;
  if (pj + rest + 1 > 52)
    return emitError("the gradient of a gather of more than 51 dimensions is not implemented");
  std::string gl, ol, sl;
  for (int64_t i = 0; i < pj + rest; ++i)
    gl += letter(i);
  for (int64_t i = axis; i < pj; ++i)
    ol += letter(i);
  char vl = letter(pj + rest);
  std::string out = gl.substr(0, axis) + vl + gl.substr(pj);
  grads[0] = EinsumOp::create(b, loc, xt, b.getStringAttr(gl + "," + ol + vl + "->" + out),
                              ValueRange{g, oneHot});
  return success();
}

LogicalResult PadOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  grads.assign(1, Value());
  if (!isFloatTensor(getInput()))
    return success();
  if (getMode() != PadMode::constant)
    return emitError("the gradient of a reflect or edge pad is not implemented");
  RankedTensorType in = tensorOf(getInput());
  ArrayRef<int64_t> pads = getPads();
  grads[0] = slice(b, getLoc(), g, pads.take_front(in.getRank()), in.getShape());
  return success();
}

LogicalResult AttentionOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  // The probabilities P are recomputed (the forward never forms them); with dS = P (dP -
  // rowsum(dP P)) and dP = dO V^T: dQ = scale dS K, dK = scale dS^T Q, dV = P^T dO, and the
  // mask's gradient is dS itself, summed to its shape.
  Location loc = getLoc();
  int64_t nb = getNumBatchDims();
  if (nb > 20)
    return emitError("the gradient of attention with more than 20 batch axes is not implemented");
  std::string batch;
  for (int64_t i = 0; i < nb; ++i)
    batch += static_cast<char>('A' + i);
  RankedTensorType qt = tensorOf(getQuery()), kt = tensorOf(getKey()), vt = tensorOf(getValue());
  Type et = qt.getElementType();
  SmallVector<int64_t> bshape(qt.getShape().drop_back(2));
  int64_t sq = qt.getDimSize(nb), sk = kt.getDimSize(nb);
  auto shape = [&](int64_t r, int64_t c) {
    SmallVector<int64_t> s(bshape);
    s.append({r, c});
    return RankedTensorType::get(s, et);
  };
  auto einsum = [&](StringRef lhs, StringRef rhs, StringRef out, Value x, Value y,
                    RankedTensorType type) {
    std::string eq = batch + lhs.str() + "," + batch + rhs.str() + "->" + batch + out.str();
    return EinsumOp::create(b, loc, type, b.getStringAttr(eq), ValueRange{x, y}).getResult();
  };
  double scale = getScale().convertToDouble();
  Value scores = mul(b, loc, einsum("qd", "kd", "qk", getQuery(), getKey(), shape(sq, sk)),
                     scalar(b, loc, getQuery(), scale));
  if (getMask())
    scores = add(b, loc, scores, getMask());
  if (getCausal()) {
    Type i64 = b.getI64Type();
    Value later = compare(b, loc, ComparePredicate::gt, positions(b, loc, sk, i64, {sk}),
                          positions(b, loc, sq, i64, {sq, 1}));
    scores = SelectOp::create(b, loc, later,
                              scalar(b, loc, getQuery(), -std::numeric_limits<double>::infinity()),
                              scores);
  }
  Value p = SoftmaxOp::create(b, loc, scores.getType(), scores, b.getI64IntegerAttr(nb + 1));
  Value dv = einsum("qk", "qe", "ke", p, g, vt);
  Value dp = einsum("qe", "ke", "qk", g, getValue(), shape(sq, sk));
  Value ds = mul(b, loc, p, sub(b, loc, dp, sumKeep(b, loc, mul(b, loc, dp, p), {nb + 1})));
  Value scaled = mul(b, loc, ds, scalar(b, loc, ds, scale));
  grads.assign(getNumOperands(), Value());
  grads[0] = einsum("qk", "kd", "qd", scaled, getKey(), qt);
  grads[1] = einsum("qk", "qd", "kd", scaled, getQuery(), kt);
  grads[2] = dv;
  if (getMask())
    grads[3] = sumToShape(b, loc, ds, tensorOf(getMask()));
  return success();
}
