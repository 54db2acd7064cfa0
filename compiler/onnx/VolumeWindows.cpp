// 3-D (volume, NCDHW) convolution and pooling as compositions of the 2-D tl ops.
#include "VolumeWindows.h"
#include "HostEval.h"

#include "TL/NNShapes.h"
#include "TL/Shapes.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// The output extent of a 1-D window over `extent` (checked like a 2-D window's).
FailureOr<int64_t> windowExtent(NodeContext &cx, int64_t extent, int64_t kernel, int64_t stride,
                                int64_t padLo, int64_t padHi, int64_t dilation, bool ceilMode) {
  int64_t k[] = {kernel, 1}, s[] = {stride, 1}, d[] = {dilation, 1}, hw[] = {extent, 1};
  int64_t p[] = {padLo, 0, padHi, 0};
  TLC_TRY(out, tl::window2DOutputShape(hw, k, s, p, d, ceilMode, [&] { return cx.emitError(); }));
  return out[0];
}

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

} // namespace

FailureOr<Value> tlc::onnx_import::conv3dAsConv2d(NodeContext &cx, Value x, Value filter,
                                                  DenseElementsAttr weights, Value bias,
                                                  ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                                  ArrayRef<int64_t> dilations, int64_t groups) {
  ArrayRef<int64_t> xs = typeOf(x).getShape(), ws = typeOf(filter).getShape();
  int64_t n = xs[0], c = xs[1], d = xs[2], h = xs[3], w = xs[4];
  int64_t f = ws[0], kd = ws[2], kh = ws[3], kw = ws[4];
  if (groups < 1 || c % groups != 0 || f % groups != 0 || ws[1] * groups != c)
    return cx.emitError() << "weight shape " << tl::formatShape(ws) << " does not match " << c
                          << " input channels in " << groups << " groups";
  TLC_TRY(od, windowExtent(cx, d, kd, strides[0], pads[0], pads[3], dilations[0], false));
  int64_t cg = c / groups;

  // Zero padding of the depth axis only; the 2-D convolution pads H and W itself.
  Value padded = x;
  if (pads[0] != 0 || pads[3] != 0) {
    SmallVector<int64_t> p = {0, 0, pads[0], 0, 0, 0, 0, pads[3], 0, 0};
    TLC_TRY(t, tl::padType(typeOf(x), p, [&] { return cx.emitError(); }));
    padded = tl::PadOp::create(cx.b, cx.loc, t, x, cx.b.getDenseI64ArrayAttr(p),
                               tl::PadModeAttr::get(cx.ctx(), tl::PadMode::constant),
                               cx.b.getF64FloatAttr(0.0))
                 .getResult();
  }
  // Unfold: the input slices tap `k` reads, for every output depth, side by side per group:
  // [N, G, KD, C/G, OD, H, W] -> [N, OD, G, KD, C/G, H, W] -> [N*OD, G*KD*C/G, H, W], the
  // channel order of the filter below (conv2d groups are contiguous channel blocks).
  SmallVector<Value> taps;
  for (int64_t k = 0; k < kd; ++k) {
    Value tap = padded;
    int64_t depth = typeOf(padded).getDimSize(2);
    if (!(kd == 1 && strides[0] == 1 && od == depth)) {
      SmallVector<int64_t> offsets = {0, 0, k * dilations[0], 0, 0};
      SmallVector<int64_t> sizes = {n, c, od, h, w}, steps = {1, 1, strides[0], 1, 1};
      TLC_TRY(t,
              tl::sliceType(typeOf(padded), offsets, sizes, steps, [&] { return cx.emitError(); }));
      tap = tl::SliceOp::create(cx.b, cx.loc, t, padded, offsets, sizes, steps).getResult();
    }
    TLC_TRY(r, cx.reshape(tap, {n, groups, 1, cg, od, h, w}));
    taps.push_back(r);
  }
  Value unfolded = taps.front();
  if (kd > 1) {
    auto t = RankedTensorType::get({n, groups, kd, cg, od, h, w}, typeOf(x).getElementType());
    unfolded = tl::ConcatOp::create(cx.b, cx.loc, t, taps, 2).getResult();
  }
  TLC_TRY(images, cx.transpose(unfolded, {0, 4, 1, 2, 3, 5, 6}));
  TLC_TRY(input2d, cx.reshape(images, {n * od, c * kd, h, w}));
  // Filter [F, C/G, KD, KH, KW] -> [F, KD, C/G, KH, KW] -> [F, KD*C/G, KH, KW]. Weights are
  // permuted here: the graph's constant folding stops at small tensors, and the convolution
  // strategies (Winograd, packed filters) need a constant filter.
  SmallVector<int64_t> filterPerm = {0, 2, 1, 3, 4}, filterShape = {f, kd * cg, kh, kw};
  Value filter2d;
  if (weights) {
    filter2d = cx.constantValue(
        hostTranspose(weights, filterPerm)
            .reshape(RankedTensorType::get(filterShape, weights.getElementType())));
  } else {
    TLC_TRY(ft, cx.transpose(filter, filterPerm));
    TLC_TRY(r, cx.reshape(ft, filterShape));
    filter2d = r;
  }
  SmallVector<int64_t> s2 = {strides[1], strides[2]}, d2 = {dilations[1], dilations[2]};
  SmallVector<int64_t> p2 = {pads[1], pads[2], pads[4], pads[5]};
  TLC_TRY(type, tl::conv2dType(typeOf(input2d), typeOf(filter2d), s2, p2, d2, groups,
                               [&] { return cx.emitError(); }));
  Value y = tl::Conv2DOp::create(cx.b, cx.loc, type, input2d, filter2d, bias, s2, p2, d2, groups)
                .getResult();
  // [N*OD, F, OH, OW] -> [N, OD, F, OH, OW] -> [N, F, OD, OH, OW].
  int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
  TLC_TRY(y5, cx.reshape(y, {n, od, type.getDimSize(1), oh, ow}));
  if (od == 1)
    return cx.reshape(y5, {n, type.getDimSize(1), 1, oh, ow});
  return cx.transpose(y5, {0, 2, 1, 3, 4});
}

FailureOr<Value> tlc::onnx_import::pool3dAsPool2d(NodeContext &cx, Value x, bool average,
                                                  ArrayRef<int64_t> kernel,
                                                  ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                                  ArrayRef<int64_t> dilations, bool ceilMode,
                                                  bool countIncludePad) {
  ArrayRef<int64_t> xs = typeOf(x).getShape();
  int64_t n = xs[0], c = xs[1], d = xs[2];
  Type et = typeOf(x).getElementType();
  auto pool = [&](Value in, ArrayRef<int64_t> k, ArrayRef<int64_t> s, ArrayRef<int64_t> p,
                  ArrayRef<int64_t> dl) -> FailureOr<Value> {
    ArrayRef<int64_t> is = typeOf(in).getShape();
    TLC_TRY(hw, tl::window2DOutputShape(is.drop_front(2), k, s, p, dl, ceilMode,
                                        [&] { return cx.emitError(); }));
    auto t = RankedTensorType::get({is[0], is[1], hw[0], hw[1]}, et);
    if (average)
      return tl::AvgPool2DOp::create(cx.b, cx.loc, t, in, k, s, p, dl, ceilMode, countIncludePad)
          .getResult();
    return tl::MaxPool2DOp::create(cx.b, cx.loc, t, in, k, s, p, dl, ceilMode).getResult();
  };
  // Over (H, W) for every depth slice: [N, C*D, H, W].
  TLC_TRY(planes, cx.reshape(x, {n, c * d, xs[3], xs[4]}));
  Value y = planes;
  SmallVector<int64_t> k2 = {kernel[1], kernel[2]}, s2 = {strides[1], strides[2]},
                       d2 = {dilations[1], dilations[2]}, p2 = {pads[1], pads[2], pads[4], pads[5]};
  bool planeWindow = llvm::any_of(k2, [](int64_t v) { return v != 1; }) ||
                     llvm::any_of(s2, [](int64_t v) { return v != 1; }) ||
                     llvm::any_of(p2, [](int64_t v) { return v != 0; });
  if (planeWindow) {
    TLC_TRY(r, pool(planes, k2, s2, p2, d2));
    y = r;
  }
  int64_t oh = typeOf(y).getDimSize(2), ow = typeOf(y).getDimSize(3);
  // Then over D, with the pooled planes flattened into one row: [N, C, D, OH*OW].
  TLC_TRY(rows, cx.reshape(y, {n, c, d, oh * ow}));
  y = rows;
  if (kernel[0] != 1 || strides[0] != 1 || pads[0] != 0 || pads[3] != 0) {
    SmallVector<int64_t> k1 = {kernel[0], 1}, s1 = {strides[0], 1}, d1 = {dilations[0], 1},
                         p1 = {pads[0], 0, pads[3], 0};
    TLC_TRY(r, pool(rows, k1, s1, p1, d1));
    y = r;
  }
  return cx.reshape(y, {n, c, typeOf(y).getDimSize(2), oh, ow});
}
