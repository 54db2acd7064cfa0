// The ONNX GridSample converter (opset 16: 4-D input, bilinear / nearest / bicubic, zeros /
// border / reflection padding, align_corners), as tl ops over run-time coordinates.
//
// The grid's normalized coordinates become input coordinates (elementwise), each tap a
// run-time row index into the input viewed as [N * H * W, C] (channels last) and a weight; one
// tl.gather per tap fetches the C channels of every output position, and the weighted taps
// inside the input are summed (zeros padding: those outside add 0). The coordinate arithmetic follows PyTorch's
// grid_sample (which the ONNX operator was specified after): bilinear and nearest pad the
// source coordinate (border: clipped; reflection: reflected, then clipped) before choosing
// taps; bicubic takes its 4x4 taps around the unpadded coordinate and pads each tap's.
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

enum class Padding { Zeros, Border, Reflection };

struct Sampler {
  NodeContext &cx;
  Type ft; // the grid's float type: coordinates and weights
  Padding padding;
  bool alignCorners;
  int64_t n, h, w;

  Value scalar(double v) { return cx.scalar(ft, v); }

  /// x * a + b.
  FailureOr<Value> affine(Value x, double a, double b) {
    TLC_TRY(ax, cx.binary<tl::MulOp>(x, scalar(a)));
    return cx.binary<tl::AddOp>(ax, scalar(b));
  }

  /// A normalized coordinate in [-1, 1] as a position along an axis of `size`.
  FailureOr<Value> unnormalize(Value g, int64_t size) {
    if (alignCorners)
      return affine(g, (size - 1) / 2.0, (size - 1) / 2.0);
    return affine(g, size / 2.0, (size - 1) / 2.0);
  }

  FailureOr<Value> clip(Value x, int64_t size) {
    TLC_TRY(low, cx.binary<tl::MaxOp>(x, scalar(0)));
    return cx.binary<tl::MinOp>(low, scalar(double(size - 1)));
  }

  /// x reflected into [twiceLow / 2, twiceHigh / 2] (as often as it takes).
  FailureOr<Value> reflect(Value x, int64_t twiceLow, int64_t twiceHigh) {
    if (twiceLow == twiceHigh)
      return cx.binary<tl::MulOp>(x, scalar(0));
    double low = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
    TLC_TRY(shifted, cx.binary<tl::SubOp>(x, scalar(low)));
    Value d = cx.unary<tl::AbsOp>(shifted);
    TLC_TRY(extra, cx.binary<tl::RemOp>(d, scalar(span)));
    TLC_TRY(ratio, cx.binary<tl::DivOp>(d, scalar(span)));
    Value flips = cx.unary<tl::FloorOp>(ratio);
    TLC_TRY(parity, cx.binary<tl::RemOp>(flips, scalar(2)));
    TLC_TRY(even, cx.compare(tl::ComparePredicate::eq, parity, scalar(0)));
    TLC_TRY(up, cx.binary<tl::AddOp>(extra, scalar(low)));
    TLC_TRY(downFrom, cx.binary<tl::SubOp>(scalar(span + low), extra));
    return cx.select(even, up, downFrom);
  }

  /// The padding mode applied to a coordinate along an axis of `size`.
  FailureOr<Value> pad(Value x, int64_t size) {
    if (padding == Padding::Zeros)
      return x;
    if (padding == Padding::Reflection) {
      TLC_TRY(r, alignCorners ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1));
      x = r;
    }
    return clip(x, size);
  }

  /// Whether `x` (integer-valued) lies in [0, size), and'ed with `inside` if given.
  FailureOr<Value> within(Value x, int64_t size, Value inside) {
    TLC_TRY(ge, cx.compare(tl::ComparePredicate::ge, x, scalar(0)));
    TLC_TRY(le, cx.compare(tl::ComparePredicate::le, x, scalar(double(size - 1))));
    TLC_TRY(both, cx.logicalAnd(ge, le));
    if (!inside)
      return both;
    return cx.logicalAnd(inside, both);
  }

  /// x clamped into [0, size - 1] for use as an index, NaN (from a grid of NaN) to 0.
  FailureOr<Value> indexable(Value x, int64_t size) {
    TLC_TRY(low, cx.nonNegativeOrZero(x));
    return cx.binary<tl::MinOp>(low, scalar(double(size - 1)));
  }

  /// The row of [N * H * W, C] that holds (y, x) of each output position's image (clamped into
  /// the image; taps outside have weight 0).
  FailureOr<Value> row(Value x, Value y) {
    Type i64 = cx.b.getI64Type();
    TLC_TRY(cx0, indexable(x, w));
    TLC_TRY(cy0, indexable(y, h));
    Value xi = cx.cast(cx0, i64), yi = cx.cast(cy0, i64);
    TLC_TRY(yw, cx.binary<tl::MulOp>(yi, cx.scalar(i64, double(w))));
    TLC_TRY(pos, cx.binary<tl::AddOp>(yw, xi));
    return cx.binary<tl::AddOp>(pos, cx.planeStarts({n, 1, 1}, h * w));
  }
};

/// Keys' cubic kernel (a = -0.75) at distance t in [0, 1] and in [1, 2], as tl ops.
FailureOr<Value> cubicNear(Sampler &s, Value t) {
  constexpr double a = -0.75;
  TLC_TRY(p, s.affine(t, a + 2, -(a + 3)));
  TLC_TRY(pt, s.cx.binary<tl::MulOp>(p, t));
  TLC_TRY(ptt, s.cx.binary<tl::MulOp>(pt, t));
  return s.cx.binary<tl::AddOp>(ptt, s.scalar(1));
}
FailureOr<Value> cubicFar(Sampler &s, Value t) {
  constexpr double a = -0.75;
  TLC_TRY(p, s.affine(t, a, -5 * a));
  TLC_TRY(pt, s.cx.binary<tl::MulOp>(p, t));
  TLC_TRY(q, s.cx.binary<tl::AddOp>(pt, s.scalar(8 * a)));
  TLC_TRY(qt, s.cx.binary<tl::MulOp>(q, t));
  return s.cx.binary<tl::AddOp>(qt, s.scalar(-4 * a));
}

/// The four cubic weights of fraction t: k(t + 1), k(t), k(1 - t), k(2 - t).
FailureOr<SmallVector<Value, 4>> cubicWeights(Sampler &s, Value t) {
  TLC_TRY(t1, s.cx.binary<tl::AddOp>(t, s.scalar(1)));
  TLC_TRY(u, s.cx.binary<tl::SubOp>(s.scalar(1), t));
  TLC_TRY(u1, s.cx.binary<tl::SubOp>(s.scalar(2), t));
  TLC_TRY(w0, cubicFar(s, t1));
  TLC_TRY(w1, cubicNear(s, t));
  TLC_TRY(w2, cubicNear(s, u));
  TLC_TRY(w3, cubicFar(s, u1));
  return SmallVector<Value, 4>{w0, w1, w2, w3};
}

LogicalResult convertGridSample(NodeContext &cx) {
  if (cx.rank(0) != 4 || cx.rank(1) != 4)
    return cx.emitError() << "GridSample supports a 4-D input [N, C, H, W] with a grid [N, "
                             "H_out, W_out, 2], got ranks "
                          << cx.rank(0) << " and " << cx.rank(1);
  ArrayRef<int64_t> shape = cx.shape(0), gridShape = cx.shape(1);
  if (gridShape[0] != shape[0] || gridShape[3] != 2)
    return cx.emitError() << "GridSample: the grid has shape [" << tl::formatShape(gridShape)
                          << "], expected [" << shape[0] << ", H_out, W_out, 2]";
  if (!isa<FloatType>(cx.elementType(0)) || !isa<FloatType>(cx.elementType(1)))
    return cx.emitError() << "GridSample needs a float input and a float grid";
  std::string mode = cx.attrString("mode", "bilinear");
  std::string paddingMode = cx.attrString("padding_mode", "zeros");
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    return cx.emitError() << "GridSample: mode must be 'bilinear', 'nearest' or 'bicubic', got '"
                          << mode << "'";
  if (paddingMode != "zeros" && paddingMode != "border" && paddingMode != "reflection")
    return cx.emitError() << "GridSample: padding_mode must be 'zeros', 'border' or "
                             "'reflection', got '"
                          << paddingMode << "'";
  int64_t n = shape[0], c = shape[1], ho = gridShape[1], wo = gridShape[2];
  if (RankedTensorType::get({n, c, ho, wo}, cx.elementType(0)).getNumElements() >
      (int64_t(1) << 31))
    return cx.emitError() << "GridSample: the output would have more than 2^31 elements";
  Sampler s{cx,
            cx.elementType(1),
            paddingMode == "zeros"    ? Padding::Zeros
            : paddingMode == "border" ? Padding::Border
                                      : Padding::Reflection,
            cx.attrInt("align_corners", 0) != 0,
            n,
            shape[2],
            shape[3]};
  // The grid's x (width) and y (height) components, [N, H_out, W_out] each.
  Value grid = cx.value(1);
  auto component = [&](int64_t i) -> FailureOr<Value> {
    auto t = RankedTensorType::get({n, ho, wo, 1}, s.ft);
    Value part = tl::SliceOp::create(cx.b, cx.loc, t, grid, ArrayRef<int64_t>{0, 0, 0, i},
                                     ArrayRef<int64_t>{n, ho, wo, 1},
                                     ArrayRef<int64_t>{1, 1, 1, 1})
                     .getResult();
    return cx.reshape(part, {n, ho, wo});
  };
  TLC_TRY(gx, component(0));
  TLC_TRY(gy, component(1));
  TLC_TRY(ux, s.unnormalize(gx, s.w));
  TLC_TRY(uy, s.unnormalize(gy, s.h));

  // The input as rows of channels: [N, C, H, W] -> [N * H * W, C].
  TLC_TRY(channelsLast, cx.transpose(cx.value(0), {0, 2, 3, 1}));
  TLC_TRY(rows, cx.reshape(channelsLast, {n * s.h * s.w, c}));
  Type et = cx.elementType(0);
  Value sum;
  // A tap outside the image adds 0 (a select, not a zero weight: the clamped pixel it reads
  // instead may be infinite).
  auto addTap = [&](Value x, Value y, Value weight) -> LogicalResult {
    TLC_TRY(insideX, s.within(x, s.w, Value()));
    TLC_TRY(inside, s.within(y, s.h, insideX));
    TLC_TRY(r, s.row(x, y));
    Value taps = tl::GatherOp::create(cx.b, cx.loc, RankedTensorType::get({n, ho, wo, c}, et),
                                      rows, r, 0)
                     .getResult();
    Value weighted = taps;
    if (weight) {
      TLC_TRY(w4, cx.reshape(cx.cast(weight, et), {n, ho, wo, 1}));
      TLC_TRY(product, cx.binary<tl::MulOp>(taps, w4));
      weighted = product;
    }
    TLC_TRY(inside4, cx.reshape(inside, {n, ho, wo, 1}));
    TLC_TRY(term, cx.select(inside4, weighted, cx.scalar(et, 0)));
    if (!sum) {
      sum = term;
      return success();
    }
    TLC_TRY(total, cx.binary<tl::AddOp>(sum, term));
    sum = total;
    return success();
  };

  if (mode == "bicubic") {
    Value fx = cx.unary<tl::FloorOp>(ux), fy = cx.unary<tl::FloorOp>(uy);
    TLC_TRY(tx, cx.binary<tl::SubOp>(ux, fx));
    TLC_TRY(ty, cx.binary<tl::SubOp>(uy, fy));
    TLC_TRY(wxs, cubicWeights(s, tx));
    TLC_TRY(wys, cubicWeights(s, ty));
    for (int i = 0; i < 4; ++i) {
      TLC_TRY(yi, cx.binary<tl::AddOp>(fy, s.scalar(i - 1)));
      TLC_TRY(py, s.pad(yi, s.h));
      for (int j = 0; j < 4; ++j) {
        TLC_TRY(xj, cx.binary<tl::AddOp>(fx, s.scalar(j - 1)));
        TLC_TRY(px, s.pad(xj, s.w));
        TLC_TRY(wij, cx.binary<tl::MulOp>(wys[i], wxs[j]));
        if (failed(addTap(px, py, wij)))
          return failure();
      }
    }
  } else {
    TLC_TRY(px, s.pad(ux, s.w));
    TLC_TRY(py, s.pad(uy, s.h));
    if (mode == "nearest") {
      // Halves to even, as PyTorch's nearbyint.
      if (failed(addTap(cx.unary<tl::RoundOp>(px), cx.unary<tl::RoundOp>(py), Value())))
        return failure();
    } else {
      Value x0 = cx.unary<tl::FloorOp>(px), y0 = cx.unary<tl::FloorOp>(py);
      TLC_TRY(x1, cx.binary<tl::AddOp>(x0, s.scalar(1)));
      TLC_TRY(y1, cx.binary<tl::AddOp>(y0, s.scalar(1)));
      TLC_TRY(fx1, cx.binary<tl::SubOp>(px, x0));
      TLC_TRY(fy1, cx.binary<tl::SubOp>(py, y0));
      TLC_TRY(fx0, cx.binary<tl::SubOp>(s.scalar(1), fx1));
      TLC_TRY(fy0, cx.binary<tl::SubOp>(s.scalar(1), fy1));
      Value ys[2] = {y0, y1}, xs[2] = {x0, x1}, wy[2] = {fy0, fy1}, wx[2] = {fx0, fx1};
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
          TLC_TRY(wij, cx.binary<tl::MulOp>(wy[i], wx[j]));
          if (failed(addTap(xs[j], ys[i], wij)))
            return failure();
        }
    }
  }
  TLC_TRY(out, cx.transpose(sum, {0, 3, 1, 2}));
  cx.setOutput(0, out);
  return success();
}

} // namespace

void tlc::onnx_import::registerGridSampleConverter(ConverterTable &t) {
  t["GridSample"] = {convertGridSample};
}
