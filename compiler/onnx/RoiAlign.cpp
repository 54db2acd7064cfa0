// The ONNX RoiAlign converter (opsets 10 and 16): each region of interest split into
// output_height x output_width bins, each bin the average (or the maximum) of a fixed
// sampling_ratio x sampling_ratio grid of bilinear samples, as tl ops over run-time boxes.
//
// Per box the sample rows ([R, S]: S = output_height * sampling_ratio) and columns ([R, T])
// are elementwise arithmetic on the box's corners; a sample's four taps are rows of the input
// viewed as [N * H * W, C] (channels last), one tl.gather each over [R, S, T]; the weighted
// taps are summed (avg) or maxed (max), samples outside [-1, H] x [-1, W] give 0, and a
// reduction over each bin's samples makes [R, output_height, output_width, C]. The sampling
// rules (clamping at 0, the last row and column, the "max" of weighted taps) are ONNX's
// reference and ONNX Runtime's. An adaptive sampling_ratio (0: a per-box sample count, known
// only with the boxes) is not supported.
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/SizeLimit.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// Bilinear taps along one axis of `size` at coordinates `v` (already known to be in
/// [-1, size]): the low and high tap as int64 and their weights.
struct AxisTaps {
  Value low, high, lowWeight, highWeight;
};

FailureOr<AxisTaps> axisTaps(NodeContext &cx, Value v, int64_t size, Type ft) {
  Value zero = cx.scalar(ft, 0), last = cx.scalar(ft, double(size - 1));
  // Below 0 (and NaN, from boxes of NaN) -> 0, so every index is finite before its conversion.
  TLC_TRY(clamped, cx.nonNegativeOrZero(v));
  Value floor = cx.unary<tl::FloorOp>(clamped);
  // From the last row on, both taps are the last row and the low one has all the weight.
  TLC_TRY(edge, cx.compare(tl::ComparePredicate::ge, floor, last));
  TLC_TRY(low, cx.select(edge, last, floor));
  TLC_TRY(next, cx.binary<tl::AddOp>(low, cx.scalar(ft, 1)));
  TLC_TRY(high, cx.select(edge, last, next));
  TLC_TRY(offset, cx.binary<tl::SubOp>(clamped, low));
  TLC_TRY(frac, cx.select(edge, zero, offset));
  TLC_TRY(rest, cx.binary<tl::SubOp>(cx.scalar(ft, 1), frac));
  Type i64 = cx.b.getI64Type();
  return AxisTaps{cx.cast(low, i64), cx.cast(high, i64), rest, frac};
}

/// Whether each of `v` lies in [-1, size].
FailureOr<Value> sampled(NodeContext &cx, Value v, int64_t size, Type ft) {
  TLC_TRY(ge, cx.compare(tl::ComparePredicate::ge, v, cx.scalar(ft, -1)));
  TLC_TRY(le, cx.compare(tl::ComparePredicate::le, v, cx.scalar(ft, double(size))));
  return cx.logicalAnd(ge, le);
}

LogicalResult convertRoiAlign(NodeContext &cx) {
  if (cx.rank(0) != 4)
    return cx.emitError() << "RoiAlign needs a 4-D input [N, C, H, W], got rank " << cx.rank(0);
  if (cx.rank(1) != 2 || cx.shape(1)[1] != 4 || cx.rank(2) != 1 ||
      cx.shape(2)[0] != cx.shape(1)[0])
    return cx.emitError() << "RoiAlign needs rois [R, 4] and batch_indices [R]";
  if (!isa<FloatType>(cx.elementType(0)) || !isa<FloatType>(cx.elementType(1)) ||
      !isa<IntegerType>(cx.elementType(2)))
    return cx.emitError() << "RoiAlign needs a float input and rois and integer batch_indices";
  std::string mode = cx.attrString("mode", "avg");
  if (mode != "avg" && mode != "max")
    return cx.emitError() << "RoiAlign: mode must be 'avg' or 'max', got '" << mode << "'";
  // Opset 16 added the attribute; before, boxes were mapped as 'output_half_pixel' does.
  std::string transform = cx.attrString("coordinate_transformation_mode",
                                        cx.opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (transform != "half_pixel" && transform != "output_half_pixel")
    return cx.emitError() << "RoiAlign: coordinate_transformation_mode must be 'half_pixel' or "
                             "'output_half_pixel', got '"
                          << transform << "'";
  int64_t oh = cx.attrInt("output_height", 1), ow = cx.attrInt("output_width", 1);
  int64_t ratio = cx.attrInt("sampling_ratio", 0);
  double scale = cx.attrFloat("spatial_scale", 1.0);
  if (ratio == 0)
    return cx.emitError() << "RoiAlign: an adaptive sampling_ratio (0: a sample count per box, "
                             "known only with the boxes) is not supported; set it";
  if (!std::isfinite(scale))
    return cx.emitError() << "RoiAlign: spatial_scale " << scale << " is not finite";
  if (oh < 1 || ow < 1 || oh > tl::kMaxElements || ow > tl::kMaxElements || ratio < 0 ||
      ratio > 64)
    return cx.emitError() << "RoiAlign: output " << oh << "x" << ow << " with sampling_ratio "
                          << ratio << " is out of range (sizes >= 1, sampling_ratio 1 to 64)";
  ArrayRef<int64_t> shape = cx.shape(0);
  int64_t n = shape[0], c = shape[1], h = shape[2], w = shape[3], r = cx.shape(1)[0];
  int64_t rows = oh * ratio, cols = ow * ratio;
  if (!tl::checkedNumElements({r, rows, cols, c}) || n * h * w == 0)
    return cx.emitError() << "RoiAlign: " << r << " boxes of " << rows << "x" << cols
                          << " samples of " << c << " channels are out of range";
  Type ft = cx.elementType(1), et = cx.elementType(0), i64 = cx.b.getI64Type();

  // The boxes' corners, [R, 1] each, in input coordinates.
  Value rois = cx.value(1);
  double offset = transform == "half_pixel" ? 0.5 : 0.0;
  auto corner = [&](int64_t i) -> FailureOr<Value> {
    Value part = tl::SliceOp::create(cx.b, cx.loc, RankedTensorType::get({r, 1}, ft), rois,
                                     ArrayRef<int64_t>{0, i}, ArrayRef<int64_t>{r, 1},
                                     ArrayRef<int64_t>{1, 1})
                     .getResult();
    TLC_TRY(scaled, cx.binary<tl::MulOp>(part, cx.scalar(ft, scale)));
    return cx.binary<tl::SubOp>(scaled, cx.scalar(ft, offset));
  };
  // Sample coordinates along one axis, [R, bins * ratio]: start + bin * (p + (i + 0.5) / ratio)
  // for bin p and sample i, with the box's extent at least 1 under output_half_pixel.
  auto samples = [&](int64_t first, int64_t bins) -> FailureOr<Value> {
    TLC_TRY(start, corner(first));
    TLC_TRY(end, corner(first + 2));
    TLC_TRY(extent, cx.binary<tl::SubOp>(end, start));
    if (offset == 0.0) {
      TLC_TRY(atLeastOne, cx.binary<tl::MaxOp>(extent, cx.scalar(ft, 1)));
      extent = atLeastOne;
    }
    TLC_TRY(bin, cx.binary<tl::DivOp>(extent, cx.scalar(ft, double(bins))));
    SmallVector<double> steps;
    for (int64_t p = 0; p < bins; ++p)
      for (int64_t i = 0; i < ratio; ++i)
        steps.push_back(p + (i + 0.5) / ratio);
    Value at = cx.constantValue(fromDoubles(RankedTensorType::get({1, bins * ratio}, ft), steps));
    TLC_TRY(along, cx.binary<tl::MulOp>(bin, at));
    return cx.binary<tl::AddOp>(start, along);
  };
  TLC_TRY(xs, samples(0, ow)); // [R, cols]
  TLC_TRY(ys, samples(1, oh)); // [R, rows]
  TLC_TRY(xIn, sampled(cx, xs, w, ft));
  TLC_TRY(yIn, sampled(cx, ys, h, ft));
  TLC_TRY(tx, axisTaps(cx, xs, w, ft));
  TLC_TRY(ty, axisTaps(cx, ys, h, ft));

  // Each box's first row of [N * H * W, C]; batch indices clamped into [0, N) (out of range
  // is undefined by the spec; clamped, no read leaves the input).
  TLC_TRY(batch1, cx.reshape(cx.cast(cx.value(2), i64), {r, 1, 1}));
  TLC_TRY(batchLow, cx.binary<tl::MaxOp>(batch1, cx.scalar(i64, 0)));
  TLC_TRY(batch, cx.binary<tl::MinOp>(batchLow, cx.scalar(i64, double(n - 1))));
  TLC_TRY(base, cx.binary<tl::MulOp>(batch, cx.scalar(i64, double(h * w))));
  TLC_TRY(channelsLast, cx.transpose(cx.value(0), {0, 2, 3, 1}));
  TLC_TRY(pixels, cx.reshape(channelsLast, {n * h * w, c}));
  auto asRows = [&](Value v) { return cx.reshape(v, {r, rows, 1}); };
  auto asCols = [&](Value v) { return cx.reshape(v, {r, 1, cols}); };
  Value combined;
  for (auto [yi, wy] : {std::pair(ty.low, ty.lowWeight), std::pair(ty.high, ty.highWeight)})
    for (auto [xi, wx] : {std::pair(tx.low, tx.lowWeight), std::pair(tx.high, tx.highWeight)}) {
      TLC_TRY(y3, asRows(yi));
      TLC_TRY(x3, asCols(xi));
      TLC_TRY(yw, cx.binary<tl::MulOp>(y3, cx.scalar(i64, double(w))));
      TLC_TRY(inImage, cx.binary<tl::AddOp>(yw, x3));
      TLC_TRY(row, cx.binary<tl::AddOp>(base, inImage)); // [R, rows, cols]
      Value taps =
          tl::GatherOp::create(cx.b, cx.loc, RankedTensorType::get({r, rows, cols, c}, et),
                               pixels, row, 0)
              .getResult();
      TLC_TRY(wy3, asRows(wy));
      TLC_TRY(wx3, asCols(wx));
      TLC_TRY(weight, cx.binary<tl::MulOp>(wy3, wx3));
      TLC_TRY(weight4, cx.reshape(cx.cast(weight, et), {r, rows, cols, 1}));
      TLC_TRY(term, cx.binary<tl::MulOp>(taps, weight4));
      if (!combined) {
        combined = term;
        continue;
      }
      TLC_TRY(next, mode == "avg" ? cx.binary<tl::AddOp>(combined, term)
                                  : cx.binary<tl::MaxOp>(combined, term));
      combined = next;
    }
  TLC_TRY(yIn3, asRows(yIn));
  TLC_TRY(xIn3, asCols(xIn));
  TLC_TRY(inside, cx.logicalAnd(yIn3, xIn3));
  TLC_TRY(inside4, cx.reshape(inside, {r, rows, cols, 1}));
  TLC_TRY(kept, cx.select(inside4, combined, cx.scalar(et, 0)));
  // Each bin's samples: [R, oh, ratio, ow, ratio, C] reduced over the two ratio axes.
  TLC_TRY(grid, cx.reshape(kept, {r, oh, ratio, ow, ratio, c}));
  auto binsType = RankedTensorType::get({r, oh, ow, c}, et);
  DenseI64ArrayAttr axes = cx.b.getDenseI64ArrayAttr({2, 4});
  Value bins = mode == "avg"
                   ? tl::ReduceMeanOp::create(cx.b, cx.loc, binsType, grid, axes, false).getResult()
                   : tl::ReduceMaxOp::create(cx.b, cx.loc, binsType, grid, axes, false).getResult();
  TLC_TRY(out, cx.transpose(bins, {0, 3, 1, 2}));
  cx.setOutput(0, out);
  return success();
}

} // namespace

void tlc::onnx_import::registerRoiAlignConverter(ConverterTable &t) {
  t["RoiAlign"] = {convertRoiAlign};
}
