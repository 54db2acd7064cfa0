// Converters for ONNX reductions (ReduceSum/Mean/Max/Min/Prod/L1/L2/SumSquare/LogSum/
// LogSumExp) and ArgMax/ArgMin.
#include "HostEval.h"
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"

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
    case Kind::Prod: acc[o] *= v; break;
    case Kind::Max: acc[o] = std::max(acc[o], v); break;
    case Kind::Min: acc[o] = std::min(acc[o], v); break;
    default: acc[o] += v; break;
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

} // namespace

void tlc::onnx_import::registerReductionConverters(ConverterTable &t) {
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
