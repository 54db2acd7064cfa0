// Converters for ONNX's loss ops: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (the
// latter a LogSoftmax over the class axis, then the former), as compositions of tl ops.
//
// The class each element picks is a one-hot mask (the target compared with an iota along the
// class axis) rather than a gather: a target equal to `ignore_index` may lie outside [0, C)
// (a gather would need it clamped first), and the mask, a select and a sum over C fuse into
// one loop nest. A target outside [0, C) that is not `ignore_index` (undefined in the spec)
// picks nothing: its loss and weight are 0.
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

Value sumOver(NodeContext &cx, Value x, ArrayRef<int64_t> axes) {
  auto t = cast<RankedTensorType>(x.getType());
  auto type = RankedTensorType::get(tl::reducedShape(t.getShape(), axes, /*keep=*/false),
                                    t.getElementType());
  return tl::ReduceSumOp::create(cx.b, cx.loc, type, x, axes, /*keepdims=*/false).getResult();
}

Value sumAll(NodeContext &cx, Value x) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  return sumOver(cx, x, llvm::to_vector(llvm::seq<int64_t>(0, rank)));
}

/// The negative log-likelihood of `logp` ([N, C, d1..dk], its input `inputIndex`) at the
/// classes of the node's target (input `inputIndex + 1`, [N, d1..dk]) with the optional class
/// weights (input `inputIndex + 2`, [C]) and the node's `reduction` and `ignore_index`.
FailureOr<Value> negativeLogLikelihood(NodeContext &cx, Value logp, size_t inputIndex) {
  const std::string op = cx.node.op_type();
  auto inType = cast<RankedTensorType>(logp.getType());
  ArrayRef<int64_t> shape = inType.getShape();
  int64_t rank = inType.getRank();
  if (rank < 2)
    return cx.emitError() << op << ": the input must have rank >= 2 ([N, C, d1..dk]), got rank "
                          << rank;
  if (!isa<FloatType>(inType.getElementType()))
    return cx.emitError() << op << " needs a float input";
  size_t targetIndex = inputIndex + 1, weightIndex = inputIndex + 2;
  if (!cx.hasInput(targetIndex))
    return cx.emitError() << op << ": the target input is missing";
  if (!isa<IntegerType>(cx.elementType(targetIndex)))
    return cx.emitError() << op << ": the target must hold integer class indices";
  SmallVector<int64_t> targetShape(shape);
  targetShape.erase(targetShape.begin() + 1);
  if (cx.shape(targetIndex) != ArrayRef<int64_t>(targetShape))
    return cx.emitError() << op << ": the target has shape ["
                          << tl::formatShape(cx.shape(targetIndex)) << "], expected ["
                          << tl::formatShape(targetShape)
                          << "] (the input's without its class axis)";
  int64_t classes = shape[1];
  bool weighted = cx.hasInput(weightIndex);
  if (weighted && (cx.rank(weightIndex) != 1 || cx.shape(weightIndex)[0] != classes))
    return cx.emitError() << op << ": the weights have shape ["
                          << tl::formatShape(cx.shape(weightIndex)) << "], expected [" << classes
                          << "] (one per class)";
  if (weighted && cx.elementType(weightIndex) != inType.getElementType())
    return cx.emitError() << op << ": the weights' element type differs from the input's";
  std::string reduction = cx.attrString("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return cx.emitError() << op << ": reduction must be 'none', 'sum' or 'mean', got '"
                          << reduction << "'";

  Type et = inType.getElementType(), i64 = cx.b.getI64Type();
  Value target = cx.cast(cx.value(targetIndex), i64);
  SmallVector<int64_t> columnShape(targetShape);
  columnShape.insert(columnShape.begin() + 1, 1);
  TLC_TRY(column, cx.reshape(target, columnShape));
  TLC_TRY(classIndices, cx.iota(rank, 1, classes, i64));
  TLC_TRY(hot, cx.compare(tl::ComparePredicate::eq, column, classIndices));
  Value zero = cx.scalar(et, 0.0);
  TLC_TRY(pickedAll, cx.select(hot, logp, zero));
  Value loss = cx.unary<tl::NegOp>(sumOver(cx, pickedAll, {1}));
  // The weight of each element: its class's weight (0 for a target outside [0, C)), 0 where the
  // target is ignore_index; null when every weight is 1.
  Value weight;
  if (weighted) {
    SmallVector<int64_t> classShape(rank, 1);
    classShape[1] = classes;
    TLC_TRY(classWeights, cx.reshape(cx.value(weightIndex), classShape));
    TLC_TRY(weightAll, cx.select(hot, classWeights, zero));
    weight = sumOver(cx, weightAll, {1});
  }
  if (cx.hasAttr("ignore_index")) {
    Value ignored = cx.scalar(i64, double(cx.attrInt("ignore_index", 0)));
    TLC_TRY(kept, cx.compare(tl::ComparePredicate::ne, target, ignored));
    TLC_TRY(w, cx.select(kept, weight ? weight : cx.scalar(et, 1.0), zero));
    weight = w;
  }
  if (weight) {
    // Where the weight is 0 the loss is 0, even for an infinite log-probability.
    TLC_TRY(isZero, cx.compare(tl::ComparePredicate::eq, weight, zero));
    TLC_TRY(weightedLoss, cx.binary<tl::MulOp>(loss, weight));
    TLC_TRY(masked, cx.select(isZero, zero, weightedLoss));
    loss = masked;
  }
  if (reduction == "none")
    return loss;
  Value total = sumAll(cx, loss);
  if (reduction == "sum")
    return total;
  if (!weight) {
    double count = double(cast<RankedTensorType>(loss.getType()).getNumElements());
    return cx.binary<tl::DivOp>(total, cx.scalar(et, count));
  }
  // The weighted mean: the total over the sum of the weights (NaN when every element is
  // ignored, as in the reference).
  return cx.binary<tl::DivOp>(total, sumAll(cx, weight));
}

/// NegativeLogLikelihoodLoss(input [N, C, d1..dk], target [N, d1..dk], weight [C]?).
LogicalResult convertNegativeLogLikelihoodLoss(NodeContext &cx) {
  TLC_TRY(loss, negativeLogLikelihood(cx, cx.value(0), 0));
  cx.setOutput(0, loss);
  return success();
}

/// SoftmaxCrossEntropyLoss(scores [N, C, d1..dk], labels, weights?) -> (output, log_prob?):
/// log_prob is LogSoftmax over the class axis, the loss its negative log-likelihood.
LogicalResult convertSoftmaxCrossEntropyLoss(NodeContext &cx) {
  if (cx.rank(0) < 2)
    return cx.emitError() << "SoftmaxCrossEntropyLoss: the scores must have rank >= 2 ([N, C, "
                             "d1..dk]), got rank "
                          << cx.rank(0);
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << "SoftmaxCrossEntropyLoss needs float scores";
  Value scores = cx.value(0);
  Value logp = tl::LogSoftmaxOp::create(cx.b, cx.loc, scores.getType(), scores, 1).getResult();
  TLC_TRY(loss, negativeLogLikelihood(cx, logp, 0));
  cx.setOutput(0, loss);
  if (cx.hasOutput(1))
    cx.setOutput(1, logp);
  return success();
}

} // namespace

void tlc::onnx_import::registerLossConverters(ConverterTable &t) {
  t["NegativeLogLikelihoodLoss"] = {convertNegativeLogLikelihoodLoss};
  t["SoftmaxCrossEntropyLoss"] = {convertSoftmaxCrossEntropyLoss};
}
