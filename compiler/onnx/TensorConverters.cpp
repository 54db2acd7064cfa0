// Converters for ONNX shape and data-movement ops (Reshape, Transpose, Concat, Slice, Gather,
// Pad, ...) and constant producers (Constant, Shape, Range, ...). With constant inputs they
// fold on the host, which is what makes exporters' shape subgraphs static.
#include "HostEval.h"
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/NNShapes.h"
#include "TL/Shapes.h"
#include "TL/SizeLimit.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// Sets output 0 to `input` reinterpreted with `shape`: folded when constant.
LogicalResult setReshaped(NodeContext &cx, size_t input, ArrayRef<int64_t> shape) {
  if (DenseElementsAttr c = cx.constant(input)) {
    auto t = RankedTensorType::get(shape, c.getElementType());
    if (t.getNumElements() != c.getNumElements())
      return cx.emitError() << "cannot reshape " << tl::formatShape(cx.shape(input)) << " to "
                            << tl::formatShape(shape);
    cx.setConstant(0, c.reshape(t));
    return success();
  }
  TLC_TRY(r, cx.reshape(cx.value(input), shape));
  cx.setOutput(0, r);
  return success();
}

/// Normalizes `axes` against `rank` with a located error.
FailureOr<SmallVector<int64_t>> normalize(NodeContext &cx, ArrayRef<int64_t> axes,
                                          int64_t rank) {
  return tl::normalizeAxes(axes, rank, [&] { return cx.emitError(); });
}

/// Axes from the `axes` attribute (older opsets) or input `index` (newer ones).
FailureOr<SmallVector<int64_t>> axesOperand(NodeContext &cx, size_t index, bool &present) {
  present = true;
  if (cx.hasAttr("axes"))
    return cx.attrInts("axes");
  if (cx.hasInput(index))
    return cx.constInts(index, "axes");
  present = false;
  return SmallVector<int64_t>{};
}

LogicalResult convertReshape(NodeContext &cx) {
  SmallVector<int64_t> spec;
  if (cx.opset < 5 || cx.hasAttr("shape")) {
    spec = cx.attrInts("shape");
  } else {
    TLC_TRY(s, cx.constInts(1, "the target shape"));
    spec = s;
  }
  bool allowZero = cx.attrInt("allowzero", 0) != 0;
  ArrayRef<int64_t> in = cx.shape(0);
  SmallVector<int64_t> shape;
  int64_t known = 1, infer = -1;
  for (auto [i, d] : llvm::enumerate(spec)) {
    if (d == 0 && !allowZero) {
      if (i >= in.size())
        return cx.emitError() << "shape entry " << i << " is 0 (copy) but the input has rank "
                              << in.size();
      d = in[i];
    }
    if (d == -1) {
      if (infer >= 0)
        return cx.emitError() << "the target shape has more than one -1";
      infer = i;
      shape.push_back(1);
      continue;
    }
    if (d < 0)
      return cx.emitError() << "invalid target dimension " << d;
    if (d > tl::kMaxElements || (d && known > tl::kMaxElements / d))
      return cx.emitError() << "the target shape " << tl::formatShape(spec)
                            << " has more than 2^40 elements";
    known *= d;
    shape.push_back(d);
  }
  int64_t numel = cx.type(0).getNumElements();
  if (infer >= 0) {
    if (known == 0 || numel % known != 0)
      return cx.emitError() << "cannot infer the -1 dimension reshaping "
                            << tl::formatShape(in) << " to " << tl::formatShape(spec);
    shape[infer] = numel / known;
  }
  return setReshaped(cx, 0, shape);
}

LogicalResult convertFlatten(NodeContext &cx) {
  int64_t rank = cx.rank(0), axis = cx.attrInt("axis", 1);
  if (axis < -rank || axis > rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= cx.shape(0)[d];
  return setReshaped(cx, 0, {outer, inner});
}

LogicalResult convertSqueeze(NodeContext &cx) {
  bool present;
  TLC_TRY(axes, axesOperand(cx, 1, present));
  ArrayRef<int64_t> in = cx.shape(0);
  SmallVector<int64_t> shape;
  if (!present) {
    for (int64_t d : in)
      if (d != 1)
        shape.push_back(d);
    return setReshaped(cx, 0, shape);
  }
  TLC_TRY(norm, normalize(cx, axes, in.size()));
  for (auto [i, d] : llvm::enumerate(in)) {
    if (llvm::is_contained(norm, (int64_t)i)) {
      if (d != 1)
        return cx.emitError() << "cannot squeeze axis " << i << " of size " << d;
      continue;
    }
    shape.push_back(d);
  }
  return setReshaped(cx, 0, shape);
}

LogicalResult convertUnsqueeze(NodeContext &cx) {
  bool present;
  TLC_TRY(axes, axesOperand(cx, 1, present));
  ArrayRef<int64_t> in = cx.shape(0);
  int64_t outRank = in.size() + axes.size();
  TLC_TRY(norm, normalize(cx, axes, outRank));
  SmallVector<int64_t> shape;
  size_t next = 0;
  for (int64_t d = 0; d < outRank; ++d)
    shape.push_back(llvm::is_contained(norm, d) ? 1 : in[next++]);
  return setReshaped(cx, 0, shape);
}

LogicalResult convertTranspose(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  SmallVector<int64_t> perm = cx.attrInts("perm");
  if (!cx.hasAttr("perm"))
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  if (DenseElementsAttr c = cx.constant(0); c && c.getNumElements() <= kFoldLimit) {
    TLC_TRY(type, tl::transposeType(cx.type(0), perm, [&] { return cx.emitError(); }));
    SmallVector<int64_t> inStrides = rowMajorStrides(cx.shape(0));
    SmallVector<int64_t> outStrides = rowMajorStrides(type.getShape());
    cx.setConstant(0, hostRemap(c, type, [&](int64_t i) {
                     int64_t src = 0;
                     for (int64_t d = 0; d < rank; ++d)
                       src += (i / outStrides[d]) % type.getDimSize(d) * inStrides[perm[d]];
                     return src;
                   }));
    return success();
  }
  TLC_TRY(r, cx.transpose(cx.value(0), perm));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertConcat(NodeContext &cx) {
  SmallVector<RankedTensorType> types;
  SmallVector<size_t> present;
  for (size_t i = 0; i < cx.numInputs(); ++i)
    if (cx.hasInput(i)) {
      // Empty tensors along the axis contribute nothing (exporters emit them for shapes).
      types.push_back(cx.type(i));
      present.push_back(i);
    }
  int64_t axis = cx.attrInt("axis", 0);
  TLC_TRY(type, tl::concatType(types, axis, [&] { return cx.emitError(); }));
  if (cx.allConstant()) {
    int64_t rank = type.getRank();
    if (axis < 0)
      axis += rank;
    // Flat copy: outer blocks of each input's inner extent in turn.
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= type.getDimSize(d);
    SmallVector<std::pair<DenseElementsAttr, int64_t>> parts;
    for (size_t i : present)
      parts.push_back({cx.constant(i), cx.constant(i).getNumElements() / std::max<int64_t>(1, outer)});
    bool isInt = isa<IntegerType>(type.getElementType());
    SmallVector<int64_t> ints;
    SmallVector<double> floats;
    SmallVector<SmallVector<int64_t>> pi;
    SmallVector<SmallVector<double>> pf;
    for (auto &[c, n] : parts) {
      if (isInt) pi.push_back(toInts(c)); else pf.push_back(toDoubles(c));
    }
    for (int64_t o = 0; o < outer; ++o)
      for (size_t k = 0; k < parts.size(); ++k)
        for (int64_t j = 0; j < parts[k].second; ++j) {
          if (isInt) ints.push_back(pi[k][o * parts[k].second + j]);
          else floats.push_back(pf[k][o * parts[k].second + j]);
        }
    cx.setConstant(0, isInt ? fromInts(type, ints) : fromDoubles(type, floats));
    return success();
  }
  SmallVector<Value> operands;
  for (size_t i : present)
    if (cx.type(i).getNumElements() > 0)
      operands.push_back(cx.value(i));
  if (operands.size() == 1) {
    cx.setOutput(0, operands[0]);
    return success();
  }
  cx.setOutput(0, tl::ConcatOp::create(cx.b, cx.loc, type, operands, axis).getResult());
  return success();
}

/// Emits (or folds) a slice of input 0 with normalized positive-stride boxes, walked from
/// their last element along the axes `reversed` (a negative-step Slice).
LogicalResult emitSlice(NodeContext &cx, size_t out, ArrayRef<int64_t> offsets,
                        ArrayRef<int64_t> sizes, ArrayRef<int64_t> strides,
                        ArrayRef<int64_t> reversed = {}) {
  TLC_TRY(type, tl::sliceType(cx.type(0), offsets, sizes, strides,
                              [&] { return cx.emitError(); }));
  // A constant input folds on the host (shape arithmetic: PyTorch's exported F.pad reverses
  // its pads with a step -1 Slice).
  if (DenseElementsAttr c = cx.constant(0); c && c.getNumElements() <= kFoldLimit * 16) {
    int64_t rank = type.getRank();
    SmallVector<int64_t> inStrides = rowMajorStrides(cx.shape(0));
    SmallVector<int64_t> outStrides = rowMajorStrides(type.getShape());
    DenseElementsAttr folded = hostRemap(c, type, [&](int64_t i) {
      int64_t src = 0;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t coord = (i / outStrides[d]) % sizes[d];
        if (llvm::is_contained(reversed, d))
          coord = sizes[d] - 1 - coord;
        src += (offsets[d] + coord * strides[d]) * inStrides[d];
      }
      return src;
    });
    cx.setConstant(out, folded);
    return success();
  }
  Value y = tl::SliceOp::create(cx.b, cx.loc, type, cx.value(0), offsets, sizes, strides)
                .getResult();
  for (int64_t d : reversed) {
    SmallVector<int64_t> rev;
    for (int64_t i = sizes[d] - 1; i >= 0; --i)
      rev.push_back(i);
    auto idxType = RankedTensorType::get({sizes[d]}, cx.b.getI64Type());
    TLC_TRY(gt, tl::gatherType(cast<RankedTensorType>(y.getType()), idxType, d,
                               [&] { return cx.emitError(); }));
    y = tl::GatherOp::create(cx.b, cx.loc, gt, y, cx.constantValue(fromInts(idxType, rev)), d)
            .getResult();
  }
  cx.setOutput(out, y);
  return success();
}

LogicalResult convertSlice(NodeContext &cx) {
  SmallVector<int64_t> starts, ends, axes, steps;
  if (cx.opset < 10) {
    starts = cx.attrInts("starts");
    ends = cx.attrInts("ends");
    axes = cx.attrInts("axes");
  } else {
    TLC_TRY(s, cx.constInts(1, "starts"));
    TLC_TRY(e, cx.constInts(2, "ends"));
    starts = s;
    ends = e;
    if (cx.hasInput(3)) {
      TLC_TRY(a, cx.constInts(3, "axes"));
      axes = a;
    }
    if (cx.hasInput(4)) {
      TLC_TRY(st, cx.constInts(4, "steps"));
      steps = st;
    }
  }
  int64_t rank = cx.rank(0);
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return cx.emitError() << "starts, ends, axes and steps have different lengths";
  TLC_TRY(norm, normalize(cx, axes, rank));
  ArrayRef<int64_t> in = cx.shape(0);
  SmallVector<int64_t> offsets(rank, 0), sizes(in), strides(rank, 1), reversed;
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t d = norm[k], dim = in[d], step = steps[k];
    if (step == 0)
      return cx.emitError() << "slice step 0 on axis " << d << " is invalid";
    auto clampIdx = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v += dim;
      return std::clamp<int64_t>(v, lo, hi);
    };
    int64_t size, first, stride = std::abs(step);
    if (step > 0) {
      int64_t s = clampIdx(starts[k], 0, dim), e = clampIdx(ends[k], 0, dim);
      size = e > s ? (e - s + step - 1) / step : 0;
      first = s;
    } else {
      // A negative step walks down from start: the same elements as an ascending slice from
      // the last one reached, then reversed along the axis.
      int64_t s = clampIdx(starts[k], 0, dim - 1), e = clampIdx(ends[k], -1, dim - 1);
      size = s > e ? (s - e + stride - 1) / stride : 0;
      first = s - (size - 1) * stride;
      reversed.push_back(d);
    }
    if (size == 0) {
      // Shape arithmetic may slice a constant down to nothing (the dimensions after the
      // second of a rank-2 shape): an empty constant. A computed tensor cannot be empty.
      if (DenseElementsAttr c = cx.constant(0)) {
        SmallVector<int64_t> shape(in);
        shape[d] = 0;
        cx.setConstant(0, DenseElementsAttr::get(
                              RankedTensorType::get(shape, c.getType().getElementType()),
                              ArrayRef<Attribute>{}));
        return success();
      }
      return cx.emitError() << "slice of axis " << d << " is empty";
    }
    offsets[d] = first;
    sizes[d] = size;
    strides[d] = stride;
  }
  return emitSlice(cx, 0, offsets, sizes, strides, reversed);
}

LogicalResult convertSplit(NodeContext &cx) {
  int64_t rank = cx.rank(0), axis = cx.attrInt("axis", 0);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  int64_t dim = cx.shape(0)[axis];
  SmallVector<int64_t> split = cx.attrInts("split");
  if (cx.hasInput(1)) {
    TLC_TRY(s, cx.constInts(1, "split"));
    split = s;
  }
  size_t n = cx.numOutputs();
  if (split.empty()) {
    int64_t chunk = (dim + n - 1) / n;
    for (size_t i = 0; i < n; ++i)
      split.push_back(std::min<int64_t>(chunk, dim - chunk * (int64_t)i));
  }
  // Each size is bounded first, so the sum cannot overflow (fuzz-onnx: 2^62 + 2^62).
  int64_t total = 0;
  for (int64_t s : split) {
    if (s < 0 || s > dim)
      return cx.emitError() << "split size " << s << " is out of range for axis " << axis
                            << " of " << dim << " elements";
    total += s;
  }
  if (split.size() != n || total != dim)
    return cx.emitError() << "split sizes sum to " << total << " over " << split.size()
                          << " outputs, but axis " << axis << " has " << dim << " elements and "
                          << "the node has " << n << " outputs";
  int64_t offset = 0;
  for (size_t i = 0; i < n; ++i) {
    SmallVector<int64_t> offsets(rank, 0), sizes(cx.shape(0)), strides(rank, 1);
    offsets[axis] = offset;
    sizes[axis] = split[i];
    offset += split[i];
    if (split[i] <= 0)
      return cx.emitError() << "split output " << i << " is empty";
    if (failed(emitSlice(cx, i, offsets, sizes, strides)))
      return failure();
  }
  return success();
}

LogicalResult convertGather(NodeContext &cx) {
  int64_t axis = cx.attrInt("axis", 0);
  RankedTensorType idxType = cx.type(1);
  if (isa<FloatType>(idxType.getElementType()))
    return cx.emitError() << "indices must be integers";
  TLC_TRY(type, tl::gatherType(cx.type(0), idxType, axis, [&] { return cx.emitError(); }));
  int64_t rank = cx.rank(0);
  if (axis < 0)
    axis += rank;
  int64_t dim = cx.shape(0)[axis];
  if (DenseElementsAttr idx = cx.constant(1)) {
    for (int64_t i : toInts(idx))
      if (i < -dim || i >= dim)
        return cx.emitError() << "index " << i << " is out of range for axis " << axis
                              << " of size " << dim;
  }
  // Folded only while the result stays small: a constant row gathered 2^16 times is not.
  if (cx.allConstant() && type.getNumElements() <= kFoldLimit * 16) {
    SmallVector<int64_t> idx = toInts(cx.constant(1));
    SmallVector<int64_t> inStrides = rowMajorStrides(cx.shape(0));
    int64_t inner = inStrides[axis], idxCount = std::max<int64_t>(1, idx.size());
    cx.setConstant(0, hostRemap(cx.constant(0), type, [&](int64_t i) {
                     int64_t innerPos = i % inner;
                     int64_t j = (i / inner) % idxCount;
                     int64_t outer = i / inner / idxCount;
                     int64_t k = idx[j] < 0 ? idx[j] + dim : idx[j];
                     return outer * dim * inner + k * inner + innerPos;
                   }));
    return success();
  }
  cx.setOutput(0, tl::GatherOp::create(cx.b, cx.loc, type, cx.value(0), cx.value(1), axis)
                      .getResult());
  return success();
}

/// GatherElements: out[..] = data[.., idx[..], ..] (idx replacing the axis coordinate), as a
/// tl.gather from the flattened data at idx * stride(axis) + the flat offset of the other
/// coordinates (a constant of the indices' shape); negative indices count from the end.
LogicalResult convertGatherElements(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (cx.rank(1) != rank)
    return cx.emitError() << "GatherElements: indices have rank " << cx.rank(1)
                          << ", expected the data's rank " << rank;
  if (isa<FloatType>(cx.elementType(1)))
    return cx.emitError() << "indices must be integers";
  int64_t axis = cx.attrInt("axis", 0);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  ArrayRef<int64_t> shape = cx.shape(0), idxShape = cx.shape(1);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && idxShape[d] > shape[d])
      return cx.emitError() << "GatherElements: indices dimension " << d << " (" << idxShape[d]
                            << ") exceeds the data's (" << shape[d] << ")";
  int64_t count = cx.type(1).getNumElements();
  if (count > kFoldLimit * 16)
    return cx.emitError() << "GatherElements with " << count
                          << " indices is not supported (at most " << kFoldLimit * 16 << ")";
  int64_t dim = shape[axis];
  if (DenseElementsAttr idx = cx.constant(1))
    for (int64_t i : toInts(idx))
      if (i < -dim || i >= dim)
        return cx.emitError() << "index " << i << " is out of range for axis " << axis
                              << " of size " << dim;
  SmallVector<int64_t> strides = rowMajorStrides(shape), idxStrides = rowMajorStrides(idxShape);
  SmallVector<int64_t> offsets(count);
  for (int64_t i = 0; i < count; ++i)
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        offsets[i] += (i / idxStrides[d] % idxShape[d]) * strides[d];
  Type i64 = cx.b.getI64Type();
  Value idx = cx.cast(cx.value(1), i64);
  TLC_TRY(negative, cx.compare(tl::ComparePredicate::lt, idx, cx.scalar(i64, 0)));
  TLC_TRY(wrapped, cx.binary<tl::AddOp>(idx, cx.scalar(i64, dim)));
  TLC_TRY(normalized, cx.select(negative, wrapped, idx));
  TLC_TRY(scaled, cx.binary<tl::MulOp>(normalized, cx.scalar(i64, strides[axis])));
  Value base = cx.constantValue(fromInts(RankedTensorType::get(idxShape, i64), offsets));
  TLC_TRY(flatIdx, cx.binary<tl::AddOp>(scaled, base));
  TLC_TRY(flat, cx.reshape(cx.value(0), {cx.type(0).getNumElements()}));
  auto type = RankedTensorType::get(idxShape, cx.elementType(0));
  cx.setOutput(0, tl::GatherOp::create(cx.b, cx.loc, type, flat, flatIdx, 0).getResult());
  return success();
}

/// Compress(input, condition) with a constant condition: the slices along `axis` (of the
/// flattened input without one) whose condition is true, as a gather of constant indices.
/// Slices past the condition's length are dropped, as the spec says.
LogicalResult convertCompress(NodeContext &cx) {
  TLC_TRY(condition, cx.constInts(1, "condition"));
  if (cx.rank(1) != 1)
    return cx.emitError() << "Compress: the condition must be 1-D, got rank " << cx.rank(1);
  Value x = cx.value(0);
  int64_t axis = 0;
  if (cx.hasAttr("axis")) {
    int64_t rank = cx.rank(0);
    axis = cx.attrInt("axis", 0);
    if (axis < -rank || axis >= rank)
      return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
    if (axis < 0)
      axis += rank;
  } else {
    TLC_TRY(flat, cx.reshape(x, {cx.type(0).getNumElements()}));
    x = flat;
  }
  int64_t dim = cast<RankedTensorType>(x.getType()).getDimSize(axis);
  if ((int64_t)condition.size() > dim)
    return cx.emitError() << "Compress: the condition has " << condition.size()
                          << " elements, more than the " << dim << " along axis " << axis;
  SmallVector<int64_t> picked;
  for (auto [i, c] : llvm::enumerate(condition))
    if (c)
      picked.push_back(i);
  if (picked.empty())
    return cx.emitError() << "Compress: the condition selects nothing (an empty result is not "
                             "supported)";
  auto idxType = RankedTensorType::get({(int64_t)picked.size()}, cx.b.getI64Type());
  TLC_TRY(type, tl::gatherType(cast<RankedTensorType>(x.getType()), idxType, axis,
                               [&] { return cx.emitError(); }));
  cx.setOutput(0, tl::GatherOp::create(cx.b, cx.loc, type, x,
                                       cx.constantValue(fromInts(idxType, picked)), axis)
                      .getResult());
  return success();
}

/// ReverseSequence(input, sequence_lens): along time_axis, the first sequence_lens[b] elements
/// of each batch b reversed, the rest kept. With run-time lengths: the source time of each
/// (time, batch) position (len - 1 - t before len, else t; lengths clamped to [0, T]) as a row
/// of the input viewed as [T * B, rest...] (time and batch the two leading axes), one gather.
LogicalResult convertReverseSequence(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  int64_t timeAxis = cx.attrInt("time_axis", 0), batchAxis = cx.attrInt("batch_axis", 1);
  if (rank < 2 || !((timeAxis == 0 && batchAxis == 1) || (timeAxis == 1 && batchAxis == 0)))
    return cx.emitError() << "ReverseSequence: time_axis and batch_axis must be 0 and 1 (in "
                             "either order) of an input of rank >= 2";
  if (isa<FloatType>(cx.elementType(1)) || cx.rank(1) != 1 ||
      cx.shape(1)[0] != cx.shape(0)[batchAxis])
    return cx.emitError() << "ReverseSequence: sequence_lens must be integers, one per batch ("
                          << cx.shape(0)[batchAxis] << ")";
  ArrayRef<int64_t> shape = cx.shape(0);
  int64_t steps = shape[timeAxis], batch = shape[batchAxis];
  Type i64 = cx.b.getI64Type();
  // Lengths as a [1, B] or [B, 1] row broadcasting against the [T, B] or [B, T] positions.
  SmallVector<int64_t> lenShape = {1, 1};
  lenShape[batchAxis] = batch;
  TLC_TRY(lens, cx.reshape(cx.cast(cx.value(1), i64), lenShape));
  TLC_TRY(low, cx.binary<tl::MaxOp>(lens, cx.scalar(i64, 0)));
  TLC_TRY(len, cx.binary<tl::MinOp>(low, cx.scalar(i64, double(steps))));
  TLC_TRY(t, cx.iota(2, timeAxis, steps, i64));
  TLC_TRY(b, cx.iota(2, batchAxis, batch, i64));
  TLC_TRY(inside, cx.compare(tl::ComparePredicate::lt, t, len));
  TLC_TRY(last, cx.binary<tl::SubOp>(len, cx.scalar(i64, 1)));
  TLC_TRY(mirrored, cx.binary<tl::SubOp>(last, t));
  TLC_TRY(source, cx.select(inside, mirrored, t));
  // The flat row of (source time, b) in the leading two axes, row-major.
  Value row;
  if (timeAxis == 0) {
    TLC_TRY(scaled, cx.binary<tl::MulOp>(source, cx.scalar(i64, double(batch))));
    TLC_TRY(r, cx.binary<tl::AddOp>(scaled, b));
    row = r;
  } else {
    TLC_TRY(scaled, cx.binary<tl::MulOp>(b, cx.scalar(i64, double(steps))));
    TLC_TRY(r, cx.binary<tl::AddOp>(scaled, source));
    row = r;
  }
  SmallVector<int64_t> viewShape = {steps * batch};
  viewShape.append(shape.begin() + 2, shape.end());
  TLC_TRY(view, cx.reshape(cx.value(0), viewShape));
  cx.setOutput(0, tl::GatherOp::create(cx.b, cx.loc, cx.type(0), view, row, 0).getResult());
  return success();
}

/// GatherND(data [b..., d_b..d_{b+k-1}, rest...], indices [b..., m..., k], batch_dims b):
/// out[b..., m..., rest...] = data[b..., indices[b..., m..., :], rest...]. As tl: each index
/// tuple becomes a row of data viewed as [B * D, rest...] (components normalized from the end
/// and clamped to their dims, times row-major strides, summed over the last axis, plus the
/// batch's first row), then one tl.gather along that axis.
LogicalResult convertGatherND(NodeContext &cx) {
  if (isa<FloatType>(cx.elementType(1)))
    return cx.emitError() << "indices must be integers";
  ArrayRef<int64_t> shape = cx.shape(0), idxShape = cx.shape(1);
  int64_t r = shape.size(), q = idxShape.size(), b = cx.attrInt("batch_dims", 0);
  if (r < 1 || q < 1)
    return cx.emitError() << "GatherND: data and indices must have rank >= 1";
  if (b < 0 || b >= std::min(r, q))
    return cx.emitError() << "GatherND: batch_dims " << b << " is not in [0, "
                          << std::min(r, q) - 1 << "]";
  int64_t k = idxShape.back();
  if (k < 1 || b + k > r)
    return cx.emitError() << "GatherND: the indices' last dimension (" << k
                          << ") must be 1 to the data's rank minus batch_dims (" << r - b << ")";
  for (int64_t d = 0; d < b; ++d)
    if (shape[d] != idxShape[d])
      return cx.emitError() << "GatherND: batch dimension " << d << " of the indices ("
                            << idxShape[d] << ") differs from the data's (" << shape[d] << ")";
  int64_t count = cx.type(1).getNumElements() / k;
  if (count > kFoldLimit * 16)
    return cx.emitError() << "GatherND with " << count << " index tuples is not supported (at most "
                          << kFoldLimit * 16 << ")";
  int64_t batches = 1, rows = 1;
  for (int64_t d = 0; d < b; ++d)
    batches *= shape[d];
  SmallVector<int64_t> dims(shape.begin() + b, shape.begin() + b + k), strides(k, 1);
  for (int64_t j = k - 1; j >= 0; --j) {
    strides[j] = rows;
    rows *= dims[j];
  }
  Type i64 = cx.b.getI64Type();
  SmallVector<int64_t> componentShape(q, 1);
  componentShape.back() = k;
  auto componentType = RankedTensorType::get(componentShape, i64);
  SmallVector<int64_t> upper;
  for (int64_t d : dims)
    upper.push_back(d - 1);
  Value idx = cx.cast(cx.value(1), i64);
  TLC_TRY(negative, cx.compare(tl::ComparePredicate::lt, idx, cx.scalar(i64, 0)));
  TLC_TRY(moved, cx.binary<tl::AddOp>(idx, cx.constantValue(fromInts(componentType, dims))));
  TLC_TRY(normalized, cx.select(negative, moved, idx));
  TLC_TRY(low, cx.binary<tl::MaxOp>(normalized, cx.scalar(i64, 0)));
  TLC_TRY(clamped, cx.binary<tl::MinOp>(low, cx.constantValue(fromInts(componentType, upper))));
  TLC_TRY(scaled,
          cx.binary<tl::MulOp>(clamped, cx.constantValue(fromInts(componentType, strides))));
  SmallVector<int64_t> rowShape(idxShape.drop_back());
  Value row = tl::ReduceSumOp::create(cx.b, cx.loc, RankedTensorType::get(rowShape, i64), scaled,
                                      ArrayRef<int64_t>{q - 1}, false)
                  .getResult();
  if (b > 0) {
    // The first row of each batch: its linear position over the batch dims times rows.
    SmallVector<int64_t> batchShape(idxShape.take_front(b));
    batchShape.append(q - 1 - b, 1);
    SmallVector<int64_t> firsts;
    for (int64_t i = 0; i < batches; ++i)
      firsts.push_back(i * rows);
    TLC_TRY(withBatch,
            cx.binary<tl::AddOp>(row, cx.constantValue(fromInts(
                                          RankedTensorType::get(batchShape, i64), firsts))));
    row = withBatch;
  }
  SmallVector<int64_t> viewShape = {batches * rows};
  viewShape.append(shape.begin() + b + k, shape.end());
  TLC_TRY(view, cx.reshape(cx.value(0), viewShape));
  SmallVector<int64_t> outShape(rowShape);
  outShape.append(shape.begin() + b + k, shape.end());
  auto type = RankedTensorType::get(outShape, cx.elementType(0));
  cx.setOutput(0, tl::GatherOp::create(cx.b, cx.loc, type, view, row, 0).getResult());
  return success();
}

LogicalResult convertExpand(NodeContext &cx) {
  TLC_TRY(spec, cx.constInts(1, "the target shape"));
  // A negative or zero entry (fuzz-onnx: a float weight tensor read as the shape) would make a
  // negative element count.
  for (auto [i, d] : llvm::enumerate(spec))
    if (d < 1)
      return cx.emitError() << "Expand: entry " << i << " of the target shape is " << d
                            << " (below 1: empty tensors are not supported)";
  TLC_TRY(shape, tl::broadcastShapes({cx.shape(0), ArrayRef<int64_t>(spec)},
                                     [&] { return cx.emitError(); }));
  if (DenseElementsAttr c = cx.constant(0); c && c.getNumElements() <= kFoldLimit) {
    auto type = RankedTensorType::get(shape, c.getElementType());
    if (type.getNumElements() <= kFoldLimit) {
      cx.setConstant(0, hostElementwise({c}, shape, c.getElementType(),
                                        [](ArrayRef<int64_t> a) { return a[0]; },
                                        [](ArrayRef<double> a) { return a[0]; }));
      return success();
    }
  }
  TLC_TRY(r, cx.broadcastTo(cx.value(0), shape));
  cx.setOutput(0, r);
  return success();
}

/// Tile: interleave size-1 axes, broadcast them to the repeat counts, merge.
LogicalResult convertTile(NodeContext &cx) {
  TLC_TRY(repeats, cx.constInts(1, "repeats"));
  ArrayRef<int64_t> in = cx.shape(0);
  if (repeats.size() != in.size())
    return cx.emitError() << "repeats has " << repeats.size() << " entries for rank "
                          << in.size();
  SmallVector<int64_t> interleaved, broadcast, result;
  for (size_t d = 0; d < in.size(); ++d) {
    if (repeats[d] < 1)
      return cx.emitError() << "repeat count " << repeats[d] << " must be positive";
    interleaved.append({1, in[d]});
    broadcast.append({repeats[d], in[d]});
    result.push_back(repeats[d] * in[d]);
  }
  TLC_TRY(a, cx.reshape(cx.value(0), interleaved));
  TLC_TRY(bc, cx.broadcastTo(a, broadcast));
  TLC_TRY(r, cx.reshape(bc, result));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertPad(NodeContext &cx) {
  std::string modeName = cx.attrString("mode", "constant");
  SmallVector<int64_t> pads;
  double value = 0;
  Value runtimeValue; // a constant_value computed at run time: padded with 0, then selected
  int64_t rank = cx.rank(0);
  if (cx.opset < 11) {
    pads = cx.attrInts("pads");
    value = cx.attrFloat("value", 0);
  } else {
    TLC_TRY(p, cx.constInts(1, "pads"));
    pads = p;
    if (cx.hasInput(2)) {
      if (cx.type(2).getNumElements() != 1)
        return cx.emitError() << "Pad: constant_value must have one element";
      if (DenseElementsAttr v = cx.constant(2))
        value = toDoubles(v)[0];
      else
        runtimeValue = cx.value(2);
    }
    if (cx.hasInput(3)) {
      TLC_TRY(axes, cx.constInts(3, "axes"));
      TLC_TRY(norm, normalize(cx, axes, rank));
      SmallVector<int64_t> full(2 * rank, 0);
      for (size_t k = 0; k < norm.size(); ++k) {
        full[norm[k]] = pads[k];
        full[norm[k] + rank] = pads[k + norm.size()];
      }
      pads = full;
    }
  }
  if ((int64_t)pads.size() != 2 * rank)
    return cx.emitError() << "expected " << 2 * rank << " pads for rank " << rank << ", got "
                          << pads.size();
  tl::PadMode mode = modeName == "reflect" ? tl::PadMode::reflect
                     : modeName == "edge"  ? tl::PadMode::edge
                                           : tl::PadMode::constant;
  // Negative pads crop: slice first, then pad by the positive amounts. A crop past the axis
  // (INT64_MIN included, which would not negate) is an error.
  Value x = cx.value(0);
  SmallVector<int64_t> offsets(rank, 0), sizes(cx.shape(0)), strides(rank, 1);
  for (int64_t d = 0; d < rank; ++d)
    if (pads[d] < -sizes[d] || pads[d + rank] < -sizes[d])
      return cx.emitError() << "pads " << pads[d] << " and " << pads[d + rank]
                            << " crop more than axis " << d << "'s " << sizes[d]
                            << " elements";
  bool crop = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (pads[d] < 0) {
      offsets[d] = -pads[d];
      sizes[d] += pads[d];
      pads[d] = 0;
      crop = true;
    }
    if (pads[d + rank] < 0) {
      sizes[d] += pads[d + rank];
      pads[d + rank] = 0;
      crop = true;
    }
  }
  if (crop) {
    TLC_TRY(t, tl::sliceType(cx.type(0), offsets, sizes, strides, [&] { return cx.emitError(); }));
    x = tl::SliceOp::create(cx.b, cx.loc, t, x, offsets, sizes, strides).getResult();
  }
  TLC_TRY(type, tl::padType(cast<RankedTensorType>(x.getType()), pads,
                            [&] { return cx.emitError(); }));
  Value padded = tl::PadOp::create(cx.b, cx.loc, type, x, cx.b.getDenseI64ArrayAttr(pads),
                                   tl::PadModeAttr::get(cx.ctx(), mode),
                                   cx.b.getF64FloatAttr(value))
                     .getResult();
  if (runtimeValue && mode == tl::PadMode::constant) {
    // The input's box: along each padded axis, iota in [lo, lo + size); elsewhere the value.
    Type i64 = cx.b.getI64Type();
    Value no = cx.constantValue(fromInts(RankedTensorType::get({}, cx.b.getI1Type()), {0}));
    Value inside;
    ArrayRef<int64_t> inShape = cast<RankedTensorType>(x.getType()).getShape();
    for (int64_t d = 0; d < rank; ++d) {
      if (pads[d] == 0 && pads[d + rank] == 0)
        continue;
      TLC_TRY(iota, cx.iota(rank, d, type.getDimSize(d), i64));
      TLC_TRY(ge, cx.compare(tl::ComparePredicate::ge, iota, cx.scalar(i64, double(pads[d]))));
      TLC_TRY(lt, cx.compare(tl::ComparePredicate::lt, iota,
                             cx.scalar(i64, double(pads[d] + inShape[d]))));
      TLC_TRY(both, cx.select(ge, lt, no));
      if (inside) {
        TLC_TRY(all, cx.select(inside, both, no));
        inside = all;
      } else {
        inside = both;
      }
    }
    if (inside) {
      TLC_TRY(v, cx.reshape(runtimeValue, {}));
      TLC_TRY(out, cx.select(inside, padded, v));
      padded = out;
    }
  }
  cx.setOutput(0, padded);
  return success();
}

void checkPad(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *m = findAttr(node, "mode"))
    if (m->s() != "constant" && m->s() != "reflect" && m->s() != "edge")
      problems.push_back("mode '" + m->s() + "' is not supported");
}

/// DepthToSpace (DCR or CRD) and SpaceToDepth: a reshape, a transpose and a reshape.
template <bool ToSpace> LogicalResult convertDepthSpace(NodeContext &cx) {
  if (cx.rank(0) != 4)
    return cx.emitError() << cx.node.op_type() << " needs a rank-4 NCHW input, got rank "
                          << cx.rank(0);
  int64_t b = cx.attrInt("blocksize", 0);
  int64_t n = cx.shape(0)[0], c = cx.shape(0)[1], h = cx.shape(0)[2], w = cx.shape(0)[3];
  SmallVector<int64_t> split, perm, out;
  if (ToSpace) {
    if (b < 1 || c % (b * b) != 0)
      return cx.emitError() << "blocksize " << b << " does not divide the " << c
                            << " channels into blocksize^2 groups";
    bool crd = cx.attrString("mode", "DCR") == "CRD";
    split = crd ? SmallVector<int64_t>{n, c / (b * b), b, b, h, w}
                : SmallVector<int64_t>{n, b, b, c / (b * b), h, w};
    perm = crd ? SmallVector<int64_t>{0, 1, 4, 2, 5, 3} : SmallVector<int64_t>{0, 3, 4, 1, 5, 2};
    out = {n, c / (b * b), h * b, w * b};
  } else {
    if (b < 1 || h % b != 0 || w % b != 0)
      return cx.emitError() << "blocksize " << b << " does not divide the spatial size " << h
                            << "x" << w;
    split = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    out = {n, c * b * b, h / b, w / b};
  }
  TLC_TRY(s, cx.reshape(cx.value(0), split));
  TLC_TRY(t, cx.transpose(s, perm));
  TLC_TRY(r, cx.reshape(t, out));
  cx.setOutput(0, r);
  return success();
}

void checkDepthToSpace(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *a = findAttr(node, "mode"))
    if (a->s() != "DCR" && a->s() != "CRD")
      problems.push_back("mode '" + a->s() + "' is not DCR or CRD");
}

LogicalResult convertConstant(NodeContext &cx) {
  const onnx::AttributeProto *a = nullptr;
  for (const onnx::AttributeProto &attr : cx.node.attribute())
    a = &attr;
  if (!a)
    return cx.emitError() << "Constant has no value attribute";
  StringRef name = a->name();
  RankedTensorType scalarF = RankedTensorType::get({}, cx.b.getF32Type());
  RankedTensorType scalarI = RankedTensorType::get({}, cx.b.getI64Type());
  if (name == "value") {
    std::string error;
    FailureOr<DenseElementsAttr> c = decodeTensor(cx.ctx(), a->t(), error);
    if (failed(c))
      return cx.emitError() << "constant value: " << error;
    cx.setConstant(0, *c);
  } else if (name == "value_float") {
    cx.setConstant(0, fromDoubles(scalarF, {a->f()}));
  } else if (name == "value_floats") {
    SmallVector<double> v(a->floats().begin(), a->floats().end());
    cx.setConstant(0, fromDoubles(RankedTensorType::get({(int64_t)v.size()}, cx.b.getF32Type()), v));
  } else if (name == "value_int") {
    cx.setConstant(0, fromInts(scalarI, {a->i()}));
  } else if (name == "value_ints") {
    SmallVector<int64_t> v(a->ints().begin(), a->ints().end());
    cx.setConstant(0, fromInts(RankedTensorType::get({(int64_t)v.size()}, cx.b.getI64Type()), v));
  } else {
    return cx.emitError() << "Constant attribute '" << name << "' is not supported";
  }
  return success();
}

void checkConstant(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == "sparse_value" || a.name() == "value_string" || a.name() == "value_strings")
      problems.push_back("attribute '" + a.name() + "' is not supported");
}

LogicalResult convertConstantOfShape(NodeContext &cx) {
  TLC_TRY(shape, cx.constInts(0, "the shape"));
  for (int64_t d : shape)
    if (d < 0)
      return cx.emitError() << "negative dimension " << d;
  DenseElementsAttr value;
  if (const onnx::AttributeProto *a = cx.attr("value")) {
    std::string error;
    FailureOr<DenseElementsAttr> c = decodeTensor(cx.ctx(), a->t(), error);
    if (failed(c))
      return cx.emitError() << "value: " << error;
    if (c->getNumElements() != 1)
      return cx.emitError() << "value must have one element";
    value = *c;
  } else {
    value = fromDoubles(RankedTensorType::get({1}, cx.b.getF32Type()), {0.0});
  }
  auto type = RankedTensorType::get(shape, value.getElementType());
  cx.setConstant(0, DenseElementsAttr::get(type, value.getValues<Attribute>()[0]));
  return success();
}

/// EyeLike: ones on diagonal k of a matrix shaped like the input, in `dtype` (default: the
/// input's element type); a constant, since only the input's static shape matters.
LogicalResult convertEyeLike(NodeContext &cx) {
  if (cx.rank(0) != 2)
    return cx.emitError() << "EyeLike needs a 2-D input, got rank " << cx.rank(0);
  Type et = cx.elementType(0);
  if (const onnx::AttributeProto *dtype = cx.attr("dtype")) {
    et = elementTypeOf(cx.ctx(), static_cast<int>(dtype->i()));
    if (!et)
      return cx.emitError() << "EyeLike: unsupported dtype "
                            << onnxTypeName(static_cast<int>(dtype->i()));
  }
  int64_t rows = cx.shape(0)[0], cols = cx.shape(0)[1], k = cx.attrInt("k", 0);
  SmallVector<int64_t> values(rows * cols, 0);
  for (int64_t i = 0; i < rows; ++i)
    if (i + k >= 0 && i + k < cols)
      values[i * cols + i + k] = 1;
  cx.setConstant(0, fromInts(RankedTensorType::get({rows, cols}, et), values));
  return success();
}

LogicalResult convertShape(NodeContext &cx) {
  ArrayRef<int64_t> in = cx.shape(0);
  int64_t rank = in.size();
  int64_t start = cx.attrInt("start", 0), end = cx.attrInt("end", rank);
  auto clampAxis = [&](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  start = clampAxis(start);
  end = clampAxis(end);
  SmallVector<int64_t> dims;
  for (int64_t d = start; d < end; ++d)
    dims.push_back(in[d]);
  cx.setConstant(0, fromInts(RankedTensorType::get({(int64_t)dims.size()}, cx.b.getI64Type()),
                             dims));
  return success();
}

LogicalResult convertSize(NodeContext &cx) {
  cx.setConstant(0, fromInts(RankedTensorType::get({}, cx.b.getI64Type()),
                             {cx.type(0).getNumElements()}));
  return success();
}

LogicalResult convertRange(NodeContext &cx) {
  for (size_t i = 0; i < 3; ++i)
    if (!cx.constant(i))
      return cx.emitError() << "Range bounds must be compile-time constants";
  Type et = cx.elementType(0);
  SmallVector<double> v;
  double start = toDoubles(cx.constant(0))[0], limit = toDoubles(cx.constant(1))[0],
         delta = toDoubles(cx.constant(2))[0];
  if (delta == 0)
    return cx.emitError() << "Range delta is 0";
  // Compared as a double first: an infinite or NaN count cannot be converted to int64 (a count
  // of -inf, fuzz-onnx, is an empty range like any other below zero).
  double count = std::ceil((limit - start) / delta);
  if (!(count <= double(kMaxTable)))
    return cx.emitError() << "Range of " << count << " elements is too large";
  int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(start + i * delta);
  cx.setConstant(0, fromDoubles(RankedTensorType::get({n}, et), v));
  return success();
}

/// The largest Trilu mask (rows x cols) built at import: 2^26 elements (an 8192 x 8192 matrix).
constexpr int64_t kMaxTriluMask = int64_t(1) << 26;

/// Trilu: a compile-time mask selects between the input and zero.
LogicalResult convertTrilu(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (rank < 2)
    return cx.emitError() << "Trilu needs rank >= 2";
  int64_t k = 0;
  if (cx.hasInput(1)) {
    TLC_TRY(kv, cx.constInts(1, "k"));
    k = kv.empty() ? 0 : kv[0];
  }
  bool upper = cx.attrInt("upper", 1) != 0;
  int64_t rows = cx.shape(0)[rank - 2], cols = cx.shape(0)[rank - 1];
  // The mask is built at import and embedded.
  if (rows * cols > kMaxTriluMask)
    return cx.emitError() << "Trilu of a " << rows << "x" << cols
                          << " matrix needs a mask of more than " << kMaxTriluMask
                          << " elements, which is not supported";
  // Built as bools (one byte each, not 8 through int64s: fuzz-onnx timed out building a 2^26
  // mask that way under ASan).
  SmallVector<bool> mask(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      mask[i * cols + j] = upper ? j - i >= k : j - i <= k;
  auto maskType = RankedTensorType::get({rows, cols}, cx.b.getI1Type());
  DenseElementsAttr m = DenseElementsAttr::get(maskType, ArrayRef<bool>(mask));
  if (DenseElementsAttr c = cx.constant(0); c && c.getNumElements() <= kFoldLimit) {
    cx.setConstant(0, hostElementwise({m, c}, cx.shape(0), c.getElementType(),
                                      [](ArrayRef<int64_t> a) { return a[0] ? a[1] : 0; },
                                      [](ArrayRef<double> a) { return a[0] ? a[1] : 0.0; }));
    return success();
  }
  TLC_TRY(r, cx.select(cx.constantValue(m), cx.value(0), cx.scalar(cx.elementType(0), 0)));
  cx.setOutput(0, r);
  return success();
}

/// OneHot(indices, depth, values): out[..., d, ...] (d at `axis`) = values[1] where d equals
/// the index (negative ones counting from `depth`; out-of-range ones match no d), else
/// values[0]. As tl: the indices (as i64, a unit axis inserted) compared with an iota along
/// `axis`, broadcasting to the output, and a select between the two values. `depth` must be a
/// compile-time constant; the values may be run-time (gathered from their tensor).
LogicalResult convertOneHot(NodeContext &cx) {
  TLC_TRY(depthValues, cx.constInts(1, "depth"));
  if (depthValues.size() != 1)
    return cx.emitError() << "OneHot: depth must be a scalar or a one-element tensor, got "
                          << depthValues.size() << " elements";
  int64_t depth = depthValues[0];
  if (depth <= 0 || depth > kMaxTable)
    return cx.emitError() << "OneHot: depth " << depth << " is not in [1, 2^24]";
  if (cx.type(2).getNumElements() != 2 || cx.rank(2) != 1)
    return cx.emitError() << "OneHot: values must be a tensor of two elements [off, on]";
  int64_t rank = cx.rank(0) + 1;
  int64_t axis = cx.attrInt("axis", -1);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "OneHot: axis " << axis << " is out of range for an output of rank "
                          << rank;
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> outShape(cx.shape(0));
  outShape.insert(outShape.begin() + axis, depth);
  if (RankedTensorType::get(outShape, cx.elementType(2)).getNumElements() > (int64_t(1) << 31))
    return cx.emitError() << "OneHot: the output would have more than 2^31 elements";
  // The indices as i64 (float indices truncate toward zero, as the spec's cast does), negative
  // ones moved up by depth, a unit axis where the one-hot axis goes.
  Type i64 = cx.b.getI64Type();
  Value idx = cx.cast(cx.value(0), i64);
  TLC_TRY(negative, cx.compare(tl::ComparePredicate::lt, idx, cx.scalar(i64, 0)));
  TLC_TRY(moved, cx.binary<tl::AddOp>(idx, cx.scalar(i64, double(depth))));
  TLC_TRY(adjusted, cx.select(negative, moved, idx));
  SmallVector<int64_t> unitShape(cx.shape(0));
  unitShape.insert(unitShape.begin() + axis, 1);
  TLC_TRY(column, cx.reshape(adjusted, unitShape));
  TLC_TRY(depthIndices, cx.iota(rank, axis, depth, i64));
  TLC_TRY(hot, cx.compare(tl::ComparePredicate::eq, column, depthIndices));
  // values[0] (off) and values[1] (on) as scalars.
  Type et = cx.elementType(2);
  auto valueAt = [&](int64_t i) -> Value {
    if (DenseElementsAttr c = cx.constant(2))
      return cx.constantValue(hostRemap(c, RankedTensorType::get({}, et),
                                        [i](int64_t) { return i; }));
    return tl::GatherOp::create(cx.b, cx.loc, RankedTensorType::get({}, et), cx.value(2),
                                cx.scalar(i64, double(i)), 0)
        .getResult();
  };
  Value off = valueAt(0), on = valueAt(1);
  TLC_TRY(result, cx.select(hot, on, off));
  cx.setOutput(0, result);
  return success();
}

} // namespace

void tlc::onnx_import::registerTensorConverters(ConverterTable &t) {
  t["Reshape"] = {convertReshape};
  t["Flatten"] = {convertFlatten};
  t["Squeeze"] = {convertSqueeze};
  t["Unsqueeze"] = {convertUnsqueeze};
  t["Transpose"] = {convertTranspose};
  t["Concat"] = {convertConcat};
  t["Slice"] = {convertSlice};
  t["Split"] = {convertSplit};
  t["Gather"] = {convertGather};
  t["GatherElements"] = {convertGatherElements};
  t["GatherND"] = {convertGatherND};
  t["Compress"] = {convertCompress};
  t["ReverseSequence"] = {convertReverseSequence};
  t["Expand"] = {convertExpand};
  t["Tile"] = {convertTile};
  t["Pad"] = {convertPad, checkPad};
  t["Constant"] = {convertConstant, checkConstant};
  t["ConstantOfShape"] = {convertConstantOfShape};
  t["EyeLike"] = {convertEyeLike};
  t["OneHot"] = {convertOneHot};
  t["Shape"] = {convertShape};
  t["Size"] = {convertSize};
  t["Range"] = {convertRange};
  t["Trilu"] = {convertTrilu};
  t["DepthToSpace"] = {convertDepthSpace<true>, checkDepthToSpace};
  t["SpaceToDepth"] = {convertDepthSpace<false>};
}
