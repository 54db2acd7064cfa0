// Converters for ONNX ops that change spatial resolution: ConvTranspose (a stride-1
// convolution per output phase, interleaved), Resize and Upsample (per-axis tl.gather with
// host-computed indices, plus a weighted sum for linear and cubic interpolation).
#include "NodeContext.h"
#include "TensorData.h"
#include "TransposedConvolution.h"

#include "TL/NNShapes.h"
#include "TL/Shapes.h"
#include "TL/SizeLimit.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

FailureOr<Value> gatherAxis(NodeContext &cx, Value x, ArrayRef<int64_t> indices, int64_t axis) {
  auto idxType = RankedTensorType::get({(int64_t)indices.size()}, cx.b.getI64Type());
  Value idx = cx.constantValue(fromInts(idxType, indices));
  TLC_TRY(type, tl::gatherType(cast<RankedTensorType>(x.getType()), idxType, axis,
                               [&] { return cx.emitError(); }));
  return tl::GatherOp::create(cx.b, cx.loc, type, x, idx, axis).getResult();
}

//===----------------------------------------------------------------------===//
// ConvTranspose
//===----------------------------------------------------------------------===//

void checkConvTranspose(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *a = findAttr(node, "auto_pad"))
    if (a->s() != "NOTSET" && a->s() != "VALID" && a->s() != "SAME_UPPER" &&
        a->s() != "SAME_LOWER")
      problems.push_back("auto_pad '" + a->s() + "' is not supported");
}

/// ConvTranspose: the attributes normalized (auto_pad and output_shape to pads, 1-D to 2-D),
/// then one stride-1 convolution per output phase (TransposedConvolution.cpp).
LogicalResult convertConvTranspose(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (rank < 3 || rank > 5)
    return cx.emitError() << "ConvTranspose supports 1-D, 2-D and 3-D convolutions, got input "
                             "rank "
                          << rank;
  if (cx.rank(1) != rank)
    return cx.emitError() << "weight rank " << cx.rank(1) << " differs from input rank " << rank;
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << "ConvTranspose needs a float input";
  size_t n = rank - 2;
  ArrayRef<int64_t> in = cx.shape(0).drop_front(2);
  ArrayRef<int64_t> wShape = cx.shape(1);
  int64_t groups = cx.attrInt("group", 1);
  int64_t cin = cx.shape(0)[1];
  if (groups < 1 || wShape[0] != cin || cin % groups != 0)
    return cx.emitError() << "weight shape " << tl::formatShape(wShape)
                          << " does not match input channels " << cin << " and group " << groups;
  SmallVector<int64_t> kernel = cx.attrInts("kernel_shape");
  if (kernel.empty())
    kernel.append(wShape.begin() + 2, wShape.end());
  SmallVector<int64_t> strides = cx.attrInts("strides"), dilations = cx.attrInts("dilations"),
                       pads = cx.attrInts("pads"), outPad = cx.attrInts("output_padding"),
                       outShape = cx.attrInts("output_shape");
  if (strides.empty())
    strides.assign(n, 1);
  if (dilations.empty())
    dilations.assign(n, 1);
  if (pads.empty())
    pads.assign(2 * n, 0);
  if (outPad.empty())
    outPad.assign(n, 0);
  if (outShape.size() == n + 2)
    outShape.erase(outShape.begin(), outShape.begin() + 2);
  if (failed(cx.checkSpatialLength("kernel_shape", kernel.size(), n)) ||
      failed(cx.checkSpatialLength("strides", strides.size(), n)) ||
      failed(cx.checkSpatialLength("dilations", dilations.size(), n)) ||
      failed(cx.checkSpatialLength("pads", pads.size(), n, 2)) ||
      failed(cx.checkSpatialLength("output_padding", outPad.size(), n)) ||
      (!outShape.empty() && failed(cx.checkSpatialLength("output_shape", outShape.size(), n))))
    return failure();
  if (ArrayRef<int64_t>(kernel) != wShape.drop_front(2))
    return cx.emitError() << "kernel_shape " << tl::formatShape(kernel)
                          << " differs from the weight's " << tl::formatShape(wShape.drop_front(2));
  std::string autoPad = cx.attrString("auto_pad", "NOTSET");
  if (autoPad == "VALID")
    pads.assign(2 * n, 0);
  if (outShape.empty() && (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER"))
    for (size_t i = 0; i < n; ++i)
      outShape.push_back(in[i] * strides[i]);
  if (!outShape.empty())
    for (size_t i = 0; i < n; ++i) {
      int64_t total = strides[i] * (in[i] - 1) + outPad[i] + (kernel[i] - 1) * dilations[i] +
                      1 - outShape[i];
      // Floor division (as ONNX's Python reference): a negative total crops at the end.
      int64_t half = llvm::divideFloorSigned(total, 2);
      bool upper = autoPad == "SAME_UPPER";
      pads[i] = upper ? half : total - half;
      pads[i + n] = upper ? total - half : half;
    }

  // Normalize to 2-D (a 1-D op is 2-D over a height of 1).
  Value x = cx.value(0), w = cx.value(1);
  if (n == 1) {
    TLC_TRY(x4, cx.reshape(x, {cx.shape(0)[0], cin, 1, in[0]}));
    TLC_TRY(w4, cx.reshape(w, {wShape[0], wShape[1], 1, wShape[2]}));
    x = x4;
    w = w4;
    kernel.insert(kernel.begin(), 1);
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    outPad.insert(outPad.begin(), 0);
    pads = {0, pads[0], 0, pads[1]};
  }
  DenseElementsAttr weights = cx.constant(1);
  if (weights)
    weights = weights.reshape(cast<RankedTensorType>(w.getType()));
  TransposedWindow window{strides, pads, dilations, outPad, groups};
  Value bias = cx.hasInput(2) ? cx.value(2) : Value();
  TLC_TRY(y, transposedConvolution(cx, x, w, weights, bias, window));
  if (rank == 3) {
    auto t = cast<RankedTensorType>(y.getType());
    TLC_TRY(r, cx.reshape(y, {t.getDimSize(0), t.getDimSize(1), t.getDimSize(3)}));
    cx.setOutput(0, r);
    return success();
  }
  cx.setOutput(0, y);
  return success();
}

//===----------------------------------------------------------------------===//
// Resize / Upsample
//===----------------------------------------------------------------------===//

struct ResizeMode {
  bool linear = false;
  bool cubic = false;
  double cubicA = -0.75;       // cubic_coeff_a
  bool excludeOutside = false; // exclude_outside: taps outside the input get weight 0
  std::string coordinates = "half_pixel";
  std::string nearest = "round_prefer_floor";
  // tf_crop_and_resize: the crop box per axis (normalized starts then ends; ONNX's roi input)
  // and the value of outputs whose source lies outside the input.
  SmallVector<double> roi;
  double extrapolation = 0;
};

/// The input coordinate of output index `i` along an axis of `len` -> `out` with `scale`
/// (ONNX's coordinate_transformation_mode).
/// As in ONNX's reference, the output extent in align_corners and pytorch_half_pixel is
/// `len * scale`, which need not be an integer when scales (not sizes) are given.
/// tf_crop_and_resize maps the `resized` outputs of `axis` onto its crop box instead.
double sourceCoordinate(const ResizeMode &m, int64_t i, int64_t len, double scale, int64_t axis,
                        int64_t resized) {
  const std::string &c = m.coordinates;
  if (c == "tf_crop_and_resize") {
    int64_t rank = m.roi.size() / 2;
    double start = m.roi[axis], end = m.roi[axis + rank];
    double v = resized == 1
                   ? 0.5 * (start + end) * (len - 1)
                   : start * (len - 1) + i * (end - start) * (len - 1) / double(resized - 1);
    // Outside [0, len - 1] the output is extrapolation_value anyway; kept within [-1, len],
    // a crop box far outside the image still gives tap indices an int64 holds.
    return std::clamp(v, -1.0, double(len));
  }
  double out = len * scale;
  if (c == "align_corners")
    return out == 1.0 ? 0.0 : (double)i * (len - 1) / (out - 1.0);
  if (c == "asymmetric")
    return i / scale;
  if (c == "pytorch_half_pixel")
    return out == 1.0 ? -0.5 : (i + 0.5) / scale - 0.5;
  if (c == "tf_half_pixel_for_nn")
    return (i + 0.5) / scale;
  return (i + 0.5) / scale - 0.5; // half_pixel
}

/// Keys' cubic convolution kernel with parameter `a` at distance `x`.
double cubicKernel(double x, double a) {
  x = std::fabs(x);
  if (x <= 1)
    return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2)
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

/// Cubic resampling of axis `axis` of `x` to `out` elements: output i is the weighted sum of
/// the four inputs around its source coordinate (floor - 1 .. floor + 2, clamped to the edge),
/// with Keys' weights; with exclude_outside, taps past the edge get weight 0 and the others are
/// renormalized. Four gathers and a weighted sum, the weights a host-computed [out, 1, ...]
/// table per tap.
FailureOr<Value> resampleAxisCubic(NodeContext &cx, Value x, int64_t axis, int64_t out,
                                   double scale, const ResizeMode &m) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t len = xt.getDimSize(axis);
  SmallVector<int64_t> taps[4];
  SmallVector<double> weights[4];
  bool identity = out == len;
  for (int64_t i = 0; i < out; ++i) {
    double src = sourceCoordinate(m, i, len, scale, axis, out);
    double fl = std::floor(src), r = src - fl;
    identity = identity && r == 0.0 && (int64_t)fl == i;
    double w[4] = {cubicKernel(r + 1, m.cubicA), cubicKernel(r, m.cubicA),
                   cubicKernel(1 - r, m.cubicA), cubicKernel(2 - r, m.cubicA)};
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      int64_t t = (int64_t)fl - 1 + k;
      if (m.excludeOutside && (t < 0 || t >= len))
        w[k] = 0;
      sum += w[k];
    }
    for (int k = 0; k < 4; ++k) {
      taps[k].push_back(std::clamp<int64_t>((int64_t)fl - 1 + k, 0, len - 1));
      weights[k].push_back(m.excludeOutside && sum != 0 ? w[k] / sum : w[k]);
    }
  }
  if (identity)
    return x;
  SmallVector<int64_t> wShape = {out};
  wShape.append(xt.getRank() - axis - 1, 1);
  auto wType = RankedTensorType::get(wShape, xt.getElementType());
  Value y;
  for (int k = 0; k < 4; ++k) {
    TLC_TRY(g, gatherAxis(cx, x, taps[k], axis));
    TLC_TRY(term, cx.binary<tl::MulOp>(g, cx.constantValue(fromDoubles(wType, weights[k]))));
    if (!y) {
      y = term;
      continue;
    }
    TLC_TRY(sum, cx.binary<tl::AddOp>(y, term));
    y = sum;
  }
  return y;
}

/// Resamples axis `axis` of `x` from `len` to `out` elements.
FailureOr<Value> interpolateAxis(NodeContext &cx, Value x, int64_t axis, int64_t out,
                                 double scale, const ResizeMode &m) {
  if (m.cubic)
    return resampleAxisCubic(cx, x, axis, out, scale, m);
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t len = xt.getDimSize(axis);
  auto clampIdx = [&](int64_t i) { return std::clamp<int64_t>(i, 0, len - 1); };
  SmallVector<int64_t> i0, i1;
  SmallVector<double> frac;
  for (int64_t i = 0; i < out; ++i) {
    double src = sourceCoordinate(m, i, len, scale, axis, out);
    double fl = std::floor(src), r = src - fl;
    if (m.linear) {
      i0.push_back(clampIdx((int64_t)fl));
      i1.push_back(clampIdx((int64_t)fl + 1));
      frac.push_back(r);
      continue;
    }
    bool up = r != 0.0 && (m.nearest == "ceil" ||
                           (m.nearest == "round_prefer_ceil" && r >= 0.5) ||
                           (m.nearest == "round_prefer_floor" && r > 0.5));
    i0.push_back(clampIdx((int64_t)fl + (up ? 1 : 0)));
  }
  bool identity = out == len;
  for (int64_t i = 0; i < out && identity; ++i)
    identity = i0[i] == i && (!m.linear || frac[i] == 0.0 || i1[i] == i);
  if (identity)
    return x;
  TLC_TRY(g0, gatherAxis(cx, x, i0, axis));
  if (!m.linear)
    return g0;
  TLC_TRY(g1, gatherAxis(cx, x, i1, axis));
  // y = g0 + (g1 - g0) * frac, frac shaped [out, 1, ...] to broadcast along `axis`.
  SmallVector<int64_t> wShape = {out};
  wShape.append(xt.getRank() - axis - 1, 1);
  Value w = cx.constantValue(fromDoubles(RankedTensorType::get(wShape, xt.getElementType()), frac));
  TLC_TRY(d, cx.binary<tl::SubOp>(g1, g0));
  TLC_TRY(dw, cx.binary<tl::MulOp>(d, w));
  return cx.binary<tl::AddOp>(g0, dw);
}

/// interpolateAxis, then under tf_crop_and_resize the extrapolation value wherever the source
/// coordinate lies outside the input (a select by an [out, 1, ...] mask; later axes then
/// interpolate between equal values, which keeps them).
FailureOr<Value> resampleAxis(NodeContext &cx, Value x, int64_t axis, int64_t out, double scale,
                              const ResizeMode &m) {
  TLC_TRY(y, interpolateAxis(cx, x, axis, out, scale, m));
  if (m.coordinates != "tf_crop_and_resize")
    return y;
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t len = xt.getDimSize(axis);
  SmallVector<int64_t> outside;
  for (int64_t i = 0; i < out; ++i) {
    double src = sourceCoordinate(m, i, len, scale, axis, out);
    outside.push_back(src < 0 || src > len - 1);
  }
  if (llvm::none_of(outside, [](int64_t o) { return o; }))
    return y;
  SmallVector<int64_t> maskShape = {out};
  maskShape.append(xt.getRank() - axis - 1, 1);
  Value mask =
      cx.constantValue(fromInts(RankedTensorType::get(maskShape, cx.b.getI1Type()), outside));
  return cx.select(mask, cx.scalar(xt.getElementType(), m.extrapolation), y);
}

void checkResize(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *a = findAttr(node, "mode"))
    if (a->s() != "nearest" && a->s() != "linear" && a->s() != "bilinear" && a->s() != "cubic")
      problems.push_back("mode '" + a->s() + "' is not supported (nearest, linear and cubic are)");
}

/// floor(size * scale) as an integer; past the size limit (or NaN) it is -1, which callers
/// reject (a double out of int64's range cannot be converted).
int64_t scaledSize(int64_t size, double scale) {
  double v = std::floor(size * scale);
  return v >= 0 && v <= (double)tl::kMaxElements ? (int64_t)v : -1;
}

/// Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) and Upsample (X, scales; asymmetric
/// coordinates, nearest rounds down). Scales or sizes must be compile-time constants.
template <bool Upsample> LogicalResult convertResize(NodeContext &cx) {
  bool upsample = Upsample;
  ResizeMode m;
  std::string mode = cx.attrString("mode", "nearest");
  m.linear = mode == "linear" || mode == "bilinear";
  m.cubic = mode == "cubic";
  m.cubicA = cx.attrFloat("cubic_coeff_a", -0.75);
  m.excludeOutside = cx.attrInt("exclude_outside", 0) != 0;
  if (upsample || cx.opset < 11) {
    m.coordinates = "asymmetric";
    m.nearest = "floor";
  } else {
    m.coordinates = cx.attrString("coordinate_transformation_mode", "half_pixel");
    m.nearest = cx.attrString("nearest_mode", "round_prefer_floor");
  }
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << cx.node.op_type() << " needs a float input";
  ArrayRef<int64_t> shape = cx.shape(0);
  int64_t rank = shape.size();
  if (m.coordinates == "tf_crop_and_resize") {
    if (!cx.hasInput(1))
      return cx.emitError() << "coordinate_transformation_mode 'tf_crop_and_resize' needs the "
                               "roi input";
    if (!cx.constant(1))
      return cx.emitError() << "roi (input 1, '" << cx.node.input(1)
                            << "') must be a constant computable at compile time";
    m.roi = toDoubles(cx.constant(1));
    if ((int64_t)m.roi.size() != 2 * rank)
      return cx.emitError() << "roi has " << m.roi.size() << " entries for an input of rank "
                            << rank << " (expected " << 2 * rank << ")";
    if (llvm::any_of(m.roi, [](double v) { return !std::isfinite(v); }))
      return cx.emitError() << "roi has a value that is not finite";
    m.extrapolation = cx.attrFloat("extrapolation_value", 0.0);
  }
  size_t scalesInput = upsample || cx.opset < 11 ? 1 : 2, sizesInput = 3;
  SmallVector<double> scales;
  SmallVector<int64_t> sizes;
  if (cx.hasInput(sizesInput) &&
      (!cx.constant(sizesInput) || cx.constant(sizesInput).getNumElements() > 0)) {
    TLC_TRY(s, cx.constInts(sizesInput, "sizes"));
    sizes = s;
    for (int64_t d = 0; d < rank && d < (int64_t)sizes.size(); ++d)
      scales.push_back((double)sizes[d] / shape[d]);
  } else if (cx.hasInput(scalesInput)) {
    if (!cx.constant(scalesInput))
      return cx.emitError() << "scales (input " << scalesInput << ", '"
                            << cx.node.input(scalesInput)
                            << "') must be a constant computable at compile time";
    scales = toDoubles(cx.constant(scalesInput));
    for (int64_t d = 0; d < rank && d < (int64_t)scales.size(); ++d)
      sizes.push_back(scaledSize(shape[d], scales[d]));
  } else if (upsample && cx.hasAttr("scales")) {
    const onnx::AttributeProto *a = cx.attr("scales");
    scales.assign(a->floats().begin(), a->floats().end());
    for (int64_t d = 0; d < rank && d < (int64_t)scales.size(); ++d)
      sizes.push_back(scaledSize(shape[d], scales[d]));
  } else {
    return cx.emitError() << cx.node.op_type() << " needs constant scales or sizes";
  }
  if ((int64_t)sizes.size() != rank || (int64_t)scales.size() != rank)
    return cx.emitError() << "scales/sizes have " << sizes.size()
                          << " entries for an input of rank " << rank;
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] <= 0 || !(scales[d] > 0))
      return cx.emitError() << "output size " << sizes[d] << " along axis " << d
                            << " is not positive (or past the size limit)";
  // Before any table the size of the output is built.
  if (!tl::checkedNumElements(sizes))
    return cx.emitError() << "output of shape " << tl::formatShape(sizes)
                          << " has too many elements (more than 2^40)";
  // Each resampled axis is an index table built at import and embedded in the object.
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] != shape[d] && sizes[d] > kMaxTable)
      return cx.emitError() << "output size " << sizes[d] << " along axis " << d
                            << " is too large to resample (at most " << kMaxTable << ")";
  Value y = cx.value(0);
  for (int64_t d = 0; d < rank; ++d) {
    TLC_TRY(r, resampleAxis(cx, y, d, sizes[d], scales[d], m));
    y = r;
  }
  cx.setOutput(0, y);
  return success();
}

} // namespace

void tlc::onnx_import::registerResamplingConverters(ConverterTable &t) {
  t["ConvTranspose"] = {convertConvTranspose, checkConvTranspose};
  t["Resize"] = {convertResize<false>, checkResize};
  t["Upsample"] = {convertResize<true>, checkResize};
}
