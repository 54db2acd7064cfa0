// Converters for ONNX ops that change spatial resolution: ConvTranspose (a zero-inserted,
// flipped-kernel tl.conv2d, or a 3-D convolution composed of one), Resize and Upsample (per-axis tl.gather with host-computed
// indices, plus a weighted sum for linear interpolation).
#include "HostEval.h"
#include "NodeContext.h"
#include "TensorData.h"
#include "VolumeWindows.h"

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

FailureOr<Value> pad(NodeContext &cx, Value x, ArrayRef<int64_t> pads) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return x;
  TLC_TRY(type, tl::padType(cast<RankedTensorType>(x.getType()), pads,
                            [&] { return cx.emitError(); }));
  return tl::PadOp::create(cx.b, cx.loc, type, x, cx.b.getDenseI64ArrayAttr(pads),
                           tl::PadModeAttr::get(cx.ctx(), tl::PadMode::constant),
                           cx.b.getF64FloatAttr(0.0))
      .getResult();
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

/// ConvTranspose(x, w) = conv(zero-inserted x, flipped w with in/out channels swapped per
/// group), stride 1, padded by dilation*(k-1) - pads (negative amounts crop).
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
  // From here on n is 2 or 3 (spatial axes 2 .. 2 + n).
  n = kernel.size();
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t batch = xt.getDimSize(0);
  ArrayRef<int64_t> spatial = xt.getShape().drop_front(2);

  // Zero insertion: [N,C,S1,..] -> [N,C,S1,1,S2,1,..], pad the unit axes to the strides, merge.
  if (llvm::any_of(strides, [](int64_t s) { return s > 1; })) {
    SmallVector<int64_t> split = {batch, cin}, zeroPads(4 + 4 * n, 0), merged = {batch, cin};
    for (size_t i = 0; i < n; ++i) {
      split.append({spatial[i], 1});
      zeroPads[(2 + 2 * n) + 2 + 2 * i + 1] = strides[i] - 1;
      merged.push_back(spatial[i] * strides[i]);
    }
    TLC_TRY(xs, cx.reshape(x, split));
    TLC_TRY(ps, pad(cx, xs, zeroPads));
    TLC_TRY(xm, cx.reshape(ps, merged));
    x = xm;
  }
  // The merged tensor has (s - 1) zeros past the last element that the ideal zero-inserted
  // input does not; fold them into the trailing amount.
  SmallVector<int64_t> lo, hi;
  for (size_t i = 0; i < n; ++i) {
    int64_t span = dilations[i] * (kernel[i] - 1);
    lo.push_back(span - pads[i]);
    hi.push_back(span - pads[i + n] + outPad[i] - (strides[i] - 1));
  }
  ArrayRef<int64_t> zShape = cast<RankedTensorType>(x.getType()).getShape();
  if (llvm::any_of(lo, [](int64_t v) { return v < 0; }) ||
      llvm::any_of(hi, [](int64_t v) { return v < 0; })) {
    SmallVector<int64_t> offsets = {0, 0}, sizes = {zShape[0], zShape[1]};
    for (size_t i = 0; i < n; ++i) {
      offsets.push_back(std::max<int64_t>(0, -lo[i]));
      sizes.push_back(zShape[2 + i] - offsets.back() - std::max<int64_t>(0, -hi[i]));
      if (sizes.back() <= 0)
        return cx.emitError() << "pads " << tl::formatShape(cx.attrInts("pads"))
                              << " leave an empty output";
    }
    SmallVector<int64_t> unit(2 + n, 1);
    TLC_TRY(t, tl::sliceType(cast<RankedTensorType>(x.getType()), offsets, sizes, unit,
                             [&] { return cx.emitError(); }));
    x = tl::SliceOp::create(cx.b, cx.loc, t, x, offsets, sizes, unit).getResult();
  }
  SmallVector<int64_t> convPads;
  for (size_t i = 0; i < 2 * n; ++i)
    convPads.push_back(std::max<int64_t>(0, i < n ? lo[i] : hi[i - n]));

  // Filter: [Cin, Cout/g, k..] -> [g, Cin/g, Cout/g, k..] -> swap -> [Cout, Cin/g, k..], then
  // flip every spatial axis. Weights are rearranged on the host (the graph's constant folding
  // stops at small tensors, and the convolution strategies need a constant filter).
  int64_t coutPerGroup = wShape[1], cinPerGroup = cin / groups;
  SmallVector<int64_t> grouped = {groups, cinPerGroup, coutPerGroup}, perm = {0, 2, 1},
                       swapped = {groups * coutPerGroup, cinPerGroup};
  for (size_t i = 0; i < n; ++i) {
    grouped.push_back(kernel[i]);
    perm.push_back(3 + i);
    swapped.push_back(kernel[i]);
  }
  Value filter;
  DenseElementsAttr filterWeights;
  if (DenseElementsAttr weights = cx.constant(1)) {
    Type et = weights.getElementType();
    DenseElementsAttr t =
        hostTranspose(weights.reshape(RankedTensorType::get(grouped, et)), perm);
    auto type = RankedTensorType::get(swapped, et);
    SmallVector<int64_t> strides = rowMajorStrides(swapped);
    filterWeights = hostRemap(t.reshape(type), type, [&](int64_t i) {
      int64_t src = i;
      for (size_t d = 0; d < n; ++d) {
        int64_t k = swapped[2 + d], at = i / strides[2 + d] % k;
        src += (k - 1 - 2 * at) * strides[2 + d];
      }
      return src;
    });
    filter = cx.constantValue(filterWeights);
  } else {
    TLC_TRY(wg, cx.reshape(w, grouped));
    TLC_TRY(wt, cx.transpose(wg, perm));
    TLC_TRY(f, cx.reshape(wt, swapped));
    filter = f;
    for (size_t i = 0; i < n; ++i) {
      if (kernel[i] == 1)
        continue;
      SmallVector<int64_t> rev;
      for (int64_t j = kernel[i] - 1; j >= 0; --j)
        rev.push_back(j);
      TLC_TRY(flipped, gatherAxis(cx, filter, rev, 2 + i));
      filter = flipped;
    }
  }
  Value bias = cx.hasInput(2) ? cx.value(2) : Value();
  SmallVector<int64_t> ones(n, 1);
  Value y;
  if (n == 3) {
    TLC_TRY(r, conv3dAsConv2d(cx, x, filter, filterWeights, bias, ones, convPads, dilations,
                              groups));
    y = r;
  } else {
    TLC_TRY(type, tl::conv2dType(cast<RankedTensorType>(x.getType()),
                                 cast<RankedTensorType>(filter.getType()), ones, convPads,
                                 dilations, groups, [&] { return cx.emitError(); }));
    y = tl::Conv2DOp::create(cx.b, cx.loc, type, x, filter, bias, ones, convPads, dilations,
                             groups)
            .getResult();
    if (cx.rank(0) == 3) {
      TLC_TRY(r, cx.reshape(y, {type.getDimSize(0), type.getDimSize(1), type.getDimSize(3)}));
      y = r;
    }
  }
  cx.setOutput(0, y);
  return success();
}

//===----------------------------------------------------------------------===//
// Resize / Upsample
//===----------------------------------------------------------------------===//

struct ResizeMode {
  bool linear = false;
  std::string coordinates = "half_pixel";
  std::string nearest = "round_prefer_floor";
};

/// The input coordinate of output index `i` along an axis of `len` -> `out` with `scale`
/// (ONNX's coordinate_transformation_mode).
/// As in ONNX's reference, the output extent in align_corners and pytorch_half_pixel is
/// `len * scale`, which need not be an integer when scales (not sizes) are given.
double sourceCoordinate(const ResizeMode &m, int64_t i, int64_t len, double scale) {
  const std::string &c = m.coordinates;
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

/// Resamples axis `axis` of `x` from `len` to `out` elements.
FailureOr<Value> resampleAxis(NodeContext &cx, Value x, int64_t axis, int64_t out, double scale,
                              const ResizeMode &m) {
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t len = xt.getDimSize(axis);
  auto clampIdx = [&](int64_t i) { return std::clamp<int64_t>(i, 0, len - 1); };
  SmallVector<int64_t> i0, i1;
  SmallVector<double> frac;
  for (int64_t i = 0; i < out; ++i) {
    double src = sourceCoordinate(m, i, len, scale);
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

void checkResize(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *a = findAttr(node, "mode"))
    if (a->s() != "nearest" && a->s() != "linear" && a->s() != "bilinear")
      problems.push_back("mode '" + a->s() + "' is not supported (nearest and linear are)");
  if (const onnx::AttributeProto *a = findAttr(node, "coordinate_transformation_mode"))
    if (a->s() == "tf_crop_and_resize")
      problems.push_back("coordinate_transformation_mode 'tf_crop_and_resize' is not supported");
}

/// The longest axis Resize resamples: its index tables are built at import (2^24 entries).
constexpr int64_t kMaxResizeAxis = int64_t(1) << 24;

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
    if (sizes[d] != shape[d] && sizes[d] > kMaxResizeAxis)
      return cx.emitError() << "output size " << sizes[d] << " along axis " << d
                            << " is too large to resample (at most " << kMaxResizeAxis << ")";
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
