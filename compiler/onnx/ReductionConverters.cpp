// Converters for ONNX reductions (ReduceSum/Mean/Max/Min/Prod/L1/L2/SumSquare/LogSum/
// LogSumExp), ArgMax/ArgMin, and Hardmax and CumSum (compositions: ArgMax against an iota, a
// contraction with a triangle of ones).
#include "HostEval.h"
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

enum class Kind { Sum, Mean, Max, Min, Prod, L1, L2, SumSquare, LogSum, LogSumExp };

/// The reduced axes (normalized, sorted); empty `axes` with noop_with_empty_axes means none.
FailureOr<SmallVector<int64_t>> reductionAxes(NodeContext &cx, bool &noop) {
  SmallVector<int64_t> axes = cx.attrInts("axes");
  if (!cx.hasAttr("axes") && cx.hasInput(1)) {
    TLC_TRY(a, cx.constInts(1, "axes"));
    axes = a;
  }
  int64_t rank = cx.rank(0);
  noop = false;
  if (axes.empty()) {
    if (cx.attrInt("noop_with_empty_axes", 0)) {
      noop = true;
      return axes;
    }
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
    return axes;
  }
  TLC_TRY(norm, tl::normalizeAxes(axes, rank, [&] { return cx.emitError(); }));
  llvm::sort(norm);
  return norm;
}

template <typename OpTy> Value reduce(NodeContext &cx, Value x, ArrayRef<int64_t> axes, bool keep) {
  auto t = cast<RankedTensorType>(x.getType());
  auto type = RankedTensorType::get(tl::reducedShape(t.getShape(), axes, keep), t.getElementType());
  return OpTy::create(cx.b, cx.loc, type, x, axes, keep).getResult();
}

/// Host reduction of an integer constant (shape arithmetic such as ReduceProd of a Shape).
DenseElementsAttr foldIntReduction(DenseElementsAttr c, ArrayRef<int64_t> axes, bool keep,
                                   Kind kind) {
  auto t = cast<RankedTensorType>(c.getType());
  SmallVector<int64_t> outShape = tl::reducedShape(t.getShape(), axes, keep);
  SmallVector<int64_t> keptShape = tl::reducedShape(t.getShape(), axes, true);
  auto outType = RankedTensorType::get(outShape, t.getElementType());
  SmallVector<int64_t> in = toInts(c);
  int64_t outN = outType.getNumElements();
  int64_t init = kind == Kind::Prod  ? 1
                 : kind == Kind::Max ? INT64_MIN
                 : kind == Kind::Min ? INT64_MAX
                                     : 0;
  SmallVector<int64_t> acc(outN, init);
  SmallVector<int64_t> inStrides = rowMajorStrides(t.getShape());
  SmallVector<int64_t> keptStrides = rowMajorStrides(keptShape);
  for (int64_t i = 0; i < (int64_t)in.size(); ++i) {
    int64_t o = 0;
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!llvm::is_contained(axes, d))
        o += (i / inStrides[d]) % t.getDimSize(d) * keptStrides[d];
    int64_t v = in[i];
    switch (kind) {
    case Kind::Prod: acc[o] = imul(acc[o], v); break;
    case Kind::Max: acc[o] = std::max(acc[o], v); break;
    case Kind::Min: acc[o] = std::min(acc[o], v); break;
    default: acc[o] = iadd(acc[o], v); break;
    }
  }
  return fromInts(outType, acc);
}

template <Kind K> LogicalResult convertReduce(NodeContext &cx) {
  bool noop;
  TLC_TRY(axes, reductionAxes(cx, noop));
  bool keep = cx.attrInt("keepdims", 1) != 0;
  Value x;
  if (noop) {
    if (DenseElementsAttr c = cx.constant(0))
      cx.setConstant(0, c);
    else
      cx.setOutput(0, cx.value(0));
    return success();
  }
  Type et = cx.elementType(0);
  if (DenseElementsAttr c = cx.constant(0);
      c && isa<IntegerType>(et) && c.getNumElements() <= kFoldLimit &&
      (K == Kind::Sum || K == Kind::Prod || K == Kind::Max || K == Kind::Min)) {
    cx.setConstant(0, foldIntReduction(c, axes, keep, K));
    return success();
  }
  bool isFloat = isa<FloatType>(et);
  if (!isFloat && K != Kind::Sum && K != Kind::Max && K != Kind::Min && K != Kind::Prod &&
      K != Kind::Mean)
    return cx.emitError() << cx.node.op_type() << " needs a float input, got " << et;
  x = cx.value(0);
  Value r;
  switch (K) {
  case Kind::Sum: r = reduce<tl::ReduceSumOp>(cx, x, axes, keep); break;
  case Kind::Mean: r = reduce<tl::ReduceMeanOp>(cx, x, axes, keep); break;
  case Kind::Max: r = reduce<tl::ReduceMaxOp>(cx, x, axes, keep); break;
  case Kind::Min: r = reduce<tl::ReduceMinOp>(cx, x, axes, keep); break;
  case Kind::Prod: r = reduce<tl::ReduceProdOp>(cx, x, axes, keep); break;
  case Kind::L1: r = reduce<tl::ReduceSumOp>(cx, cx.unary<tl::AbsOp>(x), axes, keep); break;
  case Kind::L2:
  case Kind::SumSquare: {
    TLC_TRY(sq, cx.binary<tl::MulOp>(x, x));
    r = reduce<tl::ReduceSumOp>(cx, sq, axes, keep);
    if (K == Kind::L2)
      r = cx.unary<tl::SqrtOp>(r);
    break;
  }
  case Kind::LogSum:
    r = cx.unary<tl::LogOp>(reduce<tl::ReduceSumOp>(cx, x, axes, keep));
    break;
  case Kind::LogSumExp: {
    // max + log(sum(exp(x - max))), stable for large inputs.
    Value m = reduce<tl::ReduceMaxOp>(cx, x, axes, /*keep=*/true);
    TLC_TRY(shifted, cx.binary<tl::SubOp>(x, m));
    Value s = reduce<tl::ReduceSumOp>(cx, cx.unary<tl::ExpOp>(shifted), axes, true);
    TLC_TRY(lse, cx.binary<tl::AddOp>(cx.unary<tl::LogOp>(s), m));
    TLC_TRY(shaped, cx.reshape(lse, tl::reducedShape(cx.shape(0), axes, keep)));
    r = shaped;
    break;
  }
  }
  cx.setOutput(0, r);
  return success();
}

template <bool isMin> LogicalResult convertArgMax(NodeContext &cx) {
  int64_t rank = cx.rank(0), axis = cx.attrInt("axis", 0);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  if (cx.elementType(0).isInteger(1))
    return cx.emitError() << cx.node.op_type() << " does not take booleans";
  bool keep = cx.attrInt("keepdims", 1) != 0;
  bool last = cx.attrInt("select_last_index", 0) != 0;
  auto type = RankedTensorType::get(tl::reducedShape(cx.shape(0), {axis}, keep),
                                    cx.b.getI64Type());
  cx.setOutput(0, tl::ArgMaxOp::create(cx.b, cx.loc, type, cx.value(0), axis, keep, last, isMin)
                      .getResult());
  return success();
}

/// `axis` (attribute or input value) normalized for rank `rank`.
FailureOr<int64_t> normalizedAxis(NodeContext &cx, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  return axis < 0 ? axis + rank : axis;
}

/// Hardmax: 1 where ArgMax (the first maximum) of the axis is, else 0: the index compared with
/// a constant iota along the axis. Before opset 13, over the input coerced to 2-D at `axis`.
LogicalResult convertHardmax(NodeContext &cx) {
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << "Hardmax needs a float input, got " << cx.elementType(0);
  int64_t rank = cx.rank(0);
  bool coerce = cx.opset < 13;
  TLC_TRY(axis, normalizedAxis(cx, cx.attrInt("axis", coerce ? 1 : -1), rank));
  Value x = cx.value(0);
  ArrayRef<int64_t> shape = cx.shape(0);
  if (coerce) {
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d)
      (d < axis ? outer : inner) *= shape[d];
    TLC_TRY(flat, cx.reshape(x, {outer, inner}));
    x = flat;
  }
  auto type = cast<RankedTensorType>(x.getType());
  int64_t r = type.getRank(), a = coerce ? 1 : axis, n = type.getDimSize(a);
  // The positions along the axis are a constant of n elements.
  if (n > kFoldLimit)
    return cx.emitError() << "Hardmax along an axis of " << n
                          << " elements is not supported (at most " << kFoldLimit << ")";
  auto idxType = RankedTensorType::get(tl::reducedShape(type.getShape(), {a}, true),
                                       cx.b.getI64Type());
  Value idx = tl::ArgMaxOp::create(cx.b, cx.loc, idxType, x, a, /*keepdims=*/true,
                                   /*selectLastIndex=*/false, /*isMin=*/false);
  TLC_TRY(positions, cx.iota(r, a, n, cx.b.getI64Type()));
  TLC_TRY(hit, cx.compare(tl::ComparePredicate::eq, idx, positions));
  Value y = cx.cast(hit, type.getElementType());
  if (coerce) {
    TLC_TRY(back, cx.reshape(y, shape));
    y = back;
  }
  cx.setOutput(0, y);
  return success();
}

/// The largest TopK k: each of the k steps is a handful of ops (unrolled at import).
constexpr int64_t kMaxTopK = 256;

/// TopK(X, K) -> (Values, Indices) along `axis`, k a compile-time constant: k selection steps,
/// each the extreme of the elements not yet taken (taken ones masked to -inf, or +inf for
/// `largest` 0) and the lowest available index holding it (ties go to the lower index, as the
/// spec says; an index is available until taken, so equal values and infinities are exact).
/// The steps' values and indices are concatenated along the axis; the result is sorted
/// whatever `sorted` says (any order is allowed then). NaN ordering is not defined here.
LogicalResult convertTopK(NodeContext &cx) {
  Type et = cx.elementType(0);
  if (et.isInteger(1))
    return cx.emitError() << "TopK does not take booleans";
  int64_t rank = cx.rank(0);
  if (rank == 0)
    return cx.emitError() << "TopK needs an input of rank >= 1";
  TLC_TRY(axis, normalizedAxis(cx, cx.attrInt("axis", -1), rank));
  int64_t n = cx.shape(0)[axis];
  int64_t k;
  if (cx.opset < 10) {
    k = cx.attrInt("k", -1);
  } else {
    TLC_TRY(ks, cx.constInts(1, "k"));
    if (ks.size() != 1)
      return cx.emitError() << "TopK: k must have one element, got " << ks.size();
    k = ks[0];
  }
  if (k < 1 || k > n)
    return cx.emitError() << "TopK: k " << k << " is not in [1, " << n
                          << "] (the length of axis " << axis << ")";
  if (k > kMaxTopK)
    return cx.emitError() << "TopK with k " << k << " is not supported (at most " << kMaxTopK
                          << ")";
  if (n > kFoldLimit * 16)
    return cx.emitError() << "TopK along an axis of " << n
                          << " elements is not supported (at most " << kFoldLimit * 16 << ")";
  bool largest = cx.attrInt("largest", 1) != 0;
  Type i64 = cx.b.getI64Type();
  auto scalarType = RankedTensorType::get({}, et);
  Value sentinel;
  if (isa<FloatType>(et)) {
    sentinel = cx.scalar(et, largest ? -INFINITY : INFINITY);
  } else {
    unsigned bits = et.getIntOrFloatBitWidth();
    sentinel = cx.constantValue(fromInts(scalarType, {largest ? llvm::minIntN(bits)
                                                              : llvm::maxIntN(bits)}));
  }
  TLC_TRY(iota, cx.iota(rank, axis, n, i64));
  Value none = cx.scalar(i64, double(n));
  auto stepType = RankedTensorType::get(tl::reducedShape(cx.shape(0), {axis}, true), et);
  auto stepIdxType = RankedTensorType::get(stepType.getShape(), i64);
  Value masked = cx.value(0), available = iota;
  SmallVector<Value> values, indices;
  for (int64_t j = 0; j < k; ++j) {
    Value v = largest ? tl::ReduceMaxOp::create(cx.b, cx.loc, stepType, masked,
                                                ArrayRef<int64_t>{axis}, true)
                            .getResult()
                      : tl::ReduceMinOp::create(cx.b, cx.loc, stepType, masked,
                                                ArrayRef<int64_t>{axis}, true)
                            .getResult();
    TLC_TRY(hit, cx.compare(tl::ComparePredicate::eq, masked, v));
    TLC_TRY(candidates, cx.select(hit, available, none));
    Value idx = tl::ReduceMinOp::create(cx.b, cx.loc, stepIdxType, candidates,
                                        ArrayRef<int64_t>{axis}, true)
                    .getResult();
    values.push_back(v);
    indices.push_back(idx);
    if (j + 1 == k)
      break;
    TLC_TRY(taken, cx.compare(tl::ComparePredicate::eq, iota, idx));
    TLC_TRY(nextMasked, cx.select(taken, sentinel, masked));
    TLC_TRY(nextAvailable, cx.select(taken, none, available));
    masked = nextMasked;
    available = nextAvailable;
  }
  SmallVector<int64_t> outShape(cx.shape(0));
  outShape[axis] = k;
  auto concat = [&](ArrayRef<Value> parts, Type elementType) -> Value {
    if (parts.size() == 1)
      return parts[0];
    return tl::ConcatOp::create(cx.b, cx.loc, RankedTensorType::get(outShape, elementType),
                                parts, axis)
        .getResult();
  };
  cx.setOutput(0, concat(values, et));
  if (cx.hasOutput(1))
    cx.setOutput(1, concat(indices, i64));
  return success();
}

/// Longest CumSum axis: the sum is a contraction with an n x n triangle of ones (a constant).
constexpr int64_t kMaxCumSumLength = 1024;

/// CumSum: y = T x along the axis, T the lower (upper with reverse) triangle of ones, without
/// its diagonal when exclusive: one tl.einsum. An infinity in x makes the sums it is not part
/// of NaN (inf * 0).
LogicalResult convertCumSum(NodeContext &cx) {
  Type et = cx.elementType(0);
  if (et.isInteger(1))
    return cx.emitError() << "CumSum does not take booleans";
  TLC_TRY(axisValues, cx.constInts(1, "the axis"));
  if (axisValues.size() != 1)
    return cx.emitError() << "the axis must be one value, got " << axisValues.size();
  int64_t rank = cx.rank(0);
  if (rank > 8)
    return cx.emitError() << "CumSum of rank " << rank << " is not supported (at most 8)";
  TLC_TRY(axis, normalizedAxis(cx, axisValues[0], rank));
  int64_t n = cx.shape(0)[axis];
  if (n > kMaxCumSumLength)
    return cx.emitError() << "CumSum along an axis of " << n << " elements is not supported (at "
                          << "most " << kMaxCumSumLength << ")";
  bool exclusive = cx.attrInt("exclusive", 0) != 0, reverse = cx.attrInt("reverse", 0) != 0;
  SmallVector<int64_t> triangle(n * n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      triangle[i * n + j] = reverse ? (exclusive ? j > i : j >= i) : (exclusive ? j < i : j <= i);
  Value t = cx.constantValue(fromInts(RankedTensorType::get({n, n}, et), triangle));
  // x's labels a, b, ... with the axis as 'j'; the triangle "ij"; the result the axis as 'i'.
  std::string in, out;
  for (int64_t d = 0; d < rank; ++d) {
    char c = static_cast<char>('a' + d);
    in.push_back(d == axis ? 'j' : c);
    out.push_back(d == axis ? 'i' : c);
  }
  TLC_TRY(y, cx.einsum(in + ",ij->" + out, {cx.value(0), t}));
  cx.setOutput(0, y);
  return success();
}

} // namespace

void tlc::onnx_import::registerReductionConverters(ConverterTable &t) {
  t["Hardmax"] = {convertHardmax};
  t["CumSum"] = {convertCumSum};
  t["TopK"] = {convertTopK};
  t["ReduceSum"] = {convertReduce<Kind::Sum>};
  t["ReduceMean"] = {convertReduce<Kind::Mean>};
  t["ReduceMax"] = {convertReduce<Kind::Max>};
  t["ReduceMin"] = {convertReduce<Kind::Min>};
  t["ReduceProd"] = {convertReduce<Kind::Prod>};
  t["ReduceL1"] = {convertReduce<Kind::L1>};
  t["ReduceL2"] = {convertReduce<Kind::L2>};
  t["ReduceSumSquare"] = {convertReduce<Kind::SumSquare>};
  t["ReduceLogSum"] = {convertReduce<Kind::LogSum>};
  t["ReduceLogSumExp"] = {convertReduce<Kind::LogSumExp>};
  t["ArgMax"] = {convertArgMax<false>};
  t["ArgMin"] = {convertArgMax<true>};
}
