// ConvTranspose as one stride-1 convolution per output phase, interleaved.
#include "TransposedConvolution.h"
#include "HostEval.h"
#include "TensorData.h"
#include "VolumeWindows.h"

#include "TL/NNShapes.h"
#include "TL/Shapes.h"
#include "llvm/Support/MathExtras.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// Most output phases (the product of the strides) of a transposed convolution.
constexpr int64_t kMaxTransposedPhases = 4096;
/// Longest filter axis of a transposed convolution (each phase lists its taps at import) and
/// largest dilated extent (dilation x (kernel - 1) + 1, in checked arithmetic).
constexpr int64_t kMaxTransposedKernel = 1 << 16;
constexpr int64_t kMaxTransposedExtent = int64_t(1) << 31;

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// One axis of one phase: the filter taps it reads (in convolution order) and the input
/// window they slide over: input [lo, hi] padded by padLo/padHi, taps `spacing` apart.
/// `taps` empty: no tap reaches the phase (its outputs are the bias alone).
struct PhaseAxis {
  SmallVector<int64_t> taps;
  int64_t spacing = 1, lo = 0, hi = -1, padLo = 0, padHi = 0;
};

/// Phase `r` of one axis whose output has `q` positions per phase.
PhaseAxis phaseAxis(int64_t r, int64_t q, int64_t input, int64_t kernel, int64_t stride,
                    int64_t dilation, int64_t padBegin) {
  PhaseAxis a;
  // Taps in descending k give ascending input offsets c = (r + padBegin - k*d) / s. The k with
  // k*d = r + padBegin (mod s) form one residue class modulo s / gcd(d, s): the largest is
  // found among the top `period` values of k, and the others step down from it by `period`
  // (a scan of every k per phase took stride x kernel steps: minutes for a long kernel).
  int64_t period = stride / std::gcd(dilation, stride);
  int64_t top = kernel - 1;
  for (; top >= 0 && top > kernel - 1 - period; --top)
    if (llvm::mod(r + padBegin - top * dilation, stride) == 0) // mod is non-negative
      break;
  SmallVector<int64_t> offsets;
  if (top >= 0 && top > kernel - 1 - period)
    for (int64_t k = top; k >= 0; k -= period) {
      a.taps.push_back(k);
      offsets.push_back(llvm::divideFloorSigned(r + padBegin - k * dilation, stride));
    }
  if (a.taps.empty())
    return a;
  if (offsets.size() > 1)
    a.spacing = offsets[1] - offsets[0];
  int64_t first = offsets.front(), last = (q - 1) + offsets.back();
  a.lo = std::max<int64_t>(0, first);
  a.hi = std::min<int64_t>(input - 1, last);
  a.padLo = a.lo - first;
  a.padHi = last - a.hi;
  return a;
}

/// `weights` (Cout x Cin/g x K... of `shape`) restricted to `taps` along each spatial axis, in
/// that order.
DenseElementsAttr hostTaps(DenseElementsAttr weights, ArrayRef<int64_t> shape,
                           ArrayRef<SmallVector<int64_t>> taps) {
  SmallVector<int64_t> subShape(shape.take_front(2));
  for (const SmallVector<int64_t> &t : taps)
    subShape.push_back(t.size());
  auto type = RankedTensorType::get(subShape, weights.getElementType());
  SmallVector<int64_t> from = rowMajorStrides(shape), to = rowMajorStrides(subShape);
  return hostRemap(weights, type, [&](int64_t i) {
    int64_t src = 0;
    for (size_t d = 0; d < subShape.size(); ++d) {
      int64_t at = i / to[d] % subShape[d];
      src += (d < 2 ? at : taps[d - 2][at]) * from[d];
    }
    return src;
  });
}

/// The run-time `filter` restricted to `taps` along each spatial axis (tl.gather per axis).
FailureOr<Value> selectTaps(NodeContext &cx, Value filter, ArrayRef<SmallVector<int64_t>> taps) {
  ArrayRef<int64_t> shape = typeOf(filter).getShape();
  Value f = filter;
  for (size_t d = 0; d < taps.size(); ++d) {
    bool all = (int64_t)taps[d].size() == shape[2 + d];
    for (size_t j = 0; all && j < taps[d].size(); ++j)
      all = taps[d][j] == (int64_t)j;
    if (all)
      continue;
    auto idxType = RankedTensorType::get({(int64_t)taps[d].size()}, cx.b.getI64Type());
    Value idx = cx.constantValue(fromInts(idxType, taps[d]));
    TLC_TRY(type, tl::gatherType(typeOf(f), idxType, 2 + d, [&] { return cx.emitError(); }));
    f = tl::GatherOp::create(cx.b, cx.loc, type, f, idx, 2 + d).getResult();
  }
  return f;
}

/// Bias alone (or zeros) over `shape` (N x Cout x Q...): a phase no tap reaches.
FailureOr<Value> biasOnly(NodeContext &cx, ArrayRef<int64_t> shape, Type et, Value bias) {
  auto type = RankedTensorType::get(shape, et);
  Value zeros = cx.constantValue(DenseElementsAttr::get(type, cx.b.getZeroAttr(et)));
  if (!bias)
    return zeros;
  SmallVector<int64_t> channel = {shape[1]};
  channel.append(shape.size() - 2, 1);
  TLC_TRY(b, cx.reshape(bias, channel));
  return cx.binary<tl::AddOp>(zeros, b);
}

} // namespace

FailureOr<Value> tlc::onnx_import::transposedConvolution(NodeContext &cx, Value x, Value w,
                                                         DenseElementsAttr weights, Value bias,
                                                         const TransposedWindow &win) {
  ArrayRef<int64_t> xs = typeOf(x).getShape(), ws = typeOf(w).getShape();
  size_t n = xs.size() - 2;
  int64_t batch = xs[0], cin = xs[1], groups = win.groups;
  int64_t coutPerGroup = ws[1], cinPerGroup = cin / groups, cout = groups * coutPerGroup;
  Type et = typeOf(x).getElementType();

  // The filter as a convolution's: [Cin, Cout/g, K...] -> [g, Cin/g, Cout/g, K...] -> swap
  // -> [Cout, Cin/g, K...] (unflipped: each phase picks its taps in convolution order).
  SmallVector<int64_t> grouped = {groups, cinPerGroup, coutPerGroup}, perm = {0, 2, 1},
                       swapped = {cout, cinPerGroup};
  for (size_t i = 0; i < n; ++i) {
    grouped.push_back(ws[2 + i]);
    perm.push_back(3 + i);
    swapped.push_back(ws[2 + i]);
  }
  Value filter;
  DenseElementsAttr swappedWeights;
  if (weights) {
    swappedWeights = hostTranspose(weights.reshape(RankedTensorType::get(grouped, et)), perm)
                         .reshape(RankedTensorType::get(swapped, et));
  } else {
    TLC_TRY(wg, cx.reshape(w, grouped));
    TLC_TRY(wt, cx.transpose(wg, perm));
    TLC_TRY(f, cx.reshape(wt, swapped));
    filter = f;
  }

  // One convolution per phase: strides whose product is absurd would build that many (a fuzzed
  // stride of 2^31 - 1 built ops without end).
  int64_t phases = 1;
  for (int64_t s : win.strides) {
    if (s > kMaxTransposedPhases / phases)
      return cx.emitError() << "strides " << tl::formatShape(win.strides) << " make more than "
                            << kMaxTransposedPhases
                            << " output phases (one convolution each); not supported";
    phases *= s;
  }
  // A run-time filter's shape is not bounded by the model's size (a fuzzed [1, 2, 3, 2^31]
  // listed 2^31 taps per phase).
  for (size_t i = 0; i < n; ++i) {
    int64_t k = ws[2 + i];
    if (k < 1 || k > kMaxTransposedKernel || win.dilations[i] > kMaxTransposedExtent / k)
      return cx.emitError() << "filter extent " << k << " with dilation " << win.dilations[i]
                            << " along spatial axis " << i
                            << " is not supported (at most " << kMaxTransposedKernel
                            << " taps spanning at most 2^31)";
  }

  // Output extent and positions per phase along each axis.
  SmallVector<int64_t> out, perPhase;
  for (size_t i = 0; i < n; ++i) {
    int64_t o = win.strides[i] * (xs[2 + i] - 1) + win.outputPadding[i] +
                win.dilations[i] * (ws[2 + i] - 1) + 1 - win.pads[i] - win.pads[i + n];
    if (o <= 0)
      return cx.emitError() << "pads " << tl::formatShape(win.pads) << " leave an empty output";
    out.push_back(o);
    perPhase.push_back(llvm::divideCeil(o, win.strides[i]));
  }

  // Each phase's output, [N, Cout, Q0, 1, Q1, 1, ...], concatenated along its axis's unit
  // dimension from the innermost axis out.
  std::function<FailureOr<Value>(size_t, SmallVector<PhaseAxis> &)> build =
      [&](size_t axis, SmallVector<PhaseAxis> &phase) -> FailureOr<Value> {
    if (axis == n) {
      SmallVector<int64_t> outShape = {batch, cout};
      outShape.append(perPhase.begin(), perPhase.end());
      Value y;
      if (llvm::any_of(phase, [](const PhaseAxis &a) { return a.taps.empty() || a.lo > a.hi; })) {
        TLC_TRY(b, biasOnly(cx, outShape, et, bias));
        y = b;
      } else {
        SmallVector<SmallVector<int64_t>> taps;
        SmallVector<int64_t> offsets = {0, 0}, sizes = {batch, cin}, unit(2 + n, 1), pads, spacing;
        for (const PhaseAxis &a : phase) {
          taps.push_back(a.taps);
          offsets.push_back(a.lo);
          sizes.push_back(a.hi - a.lo + 1);
          spacing.push_back(a.spacing);
        }
        for (const PhaseAxis &a : phase)
          pads.push_back(a.padLo);
        for (const PhaseAxis &a : phase)
          pads.push_back(a.padHi);
        Value input = x;
        if (ArrayRef<int64_t>(sizes) != xs) {
          TLC_TRY(t,
                  tl::sliceType(typeOf(x), offsets, sizes, unit, [&] { return cx.emitError(); }));
          input = tl::SliceOp::create(cx.b, cx.loc, t, x, offsets, sizes, unit).getResult();
        }
        Value sub;
        DenseElementsAttr subWeights;
        if (swappedWeights) {
          subWeights = hostTaps(swappedWeights, swapped, taps);
          sub = cx.constantValue(subWeights);
        } else {
          TLC_TRY(f, selectTaps(cx, filter, taps));
          sub = f;
        }
        SmallVector<int64_t> ones(n, 1);
        if (n == 3) {
          TLC_TRY(r, conv3dAsConv2d(cx, input, sub, subWeights, bias, ones, pads, spacing, groups));
          y = r;
        } else {
          TLC_TRY(type, tl::conv2dType(typeOf(input), typeOf(sub), ones, pads, spacing, groups,
                                       [&] { return cx.emitError(); }));
          y = tl::Conv2DOp::create(cx.b, cx.loc, type, input, sub, bias, ones, pads, spacing,
                                   groups)
                  .getResult();
        }
      }
      SmallVector<int64_t> split = {batch, cout};
      for (int64_t q : perPhase)
        split.append({q, 1});
      return cx.reshape(y, split);
    }
    SmallVector<Value> parts;
    for (int64_t r = 0; r < win.strides[axis]; ++r) {
      phase.push_back(phaseAxis(r, perPhase[axis], xs[2 + axis], ws[2 + axis], win.strides[axis],
                                win.dilations[axis], win.pads[axis]));
      TLC_TRY(p, build(axis + 1, phase));
      phase.pop_back();
      parts.push_back(p);
    }
    if (parts.size() == 1)
      return parts.front();
    SmallVector<RankedTensorType> types;
    for (Value p : parts)
      types.push_back(typeOf(p));
    TLC_TRY(t, tl::concatType(types, 3 + 2 * axis, [&] { return cx.emitError(); }));
    return tl::ConcatOp::create(cx.b, cx.loc, t, parts, 3 + 2 * axis).getResult();
  };
  SmallVector<PhaseAxis> phase;
  TLC_TRY(interleaved, build(0, phase));
  SmallVector<int64_t> merged = {batch, cout};
  for (size_t i = 0; i < n; ++i)
    merged.push_back(perPhase[i] * win.strides[i]);
  TLC_TRY(y, cx.reshape(interleaved, merged));
  if (ArrayRef<int64_t>(merged).drop_front(2) == ArrayRef<int64_t>(out))
    return y;
  SmallVector<int64_t> offsets(2 + n, 0), sizes = {batch, cout}, unit(2 + n, 1);
  sizes.append(out.begin(), out.end());
  TLC_TRY(t, tl::sliceType(typeOf(y), offsets, sizes, unit, [&] { return cx.emitError(); }));
  return tl::SliceOp::create(cx.b, cx.loc, t, y, offsets, sizes, unit).getResult();
}
