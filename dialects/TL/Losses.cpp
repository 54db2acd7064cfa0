// Training losses built from tl ops.
#include "TL/Losses.h"

#include "TL/GradientBuilders.h"
#include "TL/TLDialect.h"

using namespace mlir;
using namespace tlc::tl;
using namespace tlc::tl::grad;

namespace {
Value reduceAll(OpBuilder &b, Location loc, Value x, LossReduction reduction) {
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < tensorOf(x).getRank(); ++i)
    axes.push_back(i);
  DenseI64ArrayAttr attr = b.getDenseI64ArrayAttr(axes);
  if (reduction == LossReduction::Mean)
    return ReduceMeanOp::create(b, loc, x, attr, UnitAttr());
  return ReduceSumOp::create(b, loc, x, attr, UnitAttr());
}
} // namespace

Value tlc::tl::buildMSELoss(OpBuilder &b, Location loc, Value pred, Value target,
                            LossReduction reduction) {
  Value d = sub(b, loc, pred, target);
  return reduceAll(b, loc, mul(b, loc, d, d), reduction);
}

Value tlc::tl::buildCrossEntropy(OpBuilder &b, Location loc, Value logits, Value labels,
                                 double smoothing, LossReduction reduction) {
  RankedTensorType lt = tensorOf(logits), it = tensorOf(labels);
  int64_t n = lt.getDimSize(0), c = lt.getDimSize(1);
  Type idx = it.getElementType();
  Value iota = positions(b, loc, c, idx, {c});
  Value column = ReshapeOp::create(b, loc, RankedTensorType::get({n, 1}, idx), labels);
  Value target = CastOp::create(b, loc, lt, compare(b, loc, ComparePredicate::eq, column, iota));
  if (smoothing != 0.0)
    target = add(b, loc, mul(b, loc, target, scalar(b, loc, logits, 1.0 - smoothing)),
                 scalar(b, loc, logits, smoothing / static_cast<double>(c)));
  Value logp = LogSoftmaxOp::create(b, loc, lt, logits, b.getI64IntegerAttr(1));
  Value rows = ReduceSumOp::create(b, loc, mul(b, loc, target, logp), b.getDenseI64ArrayAttr({1}),
                                   UnitAttr());
  return unary<NegOp>(b, loc, reduceAll(b, loc, rows, reduction));
}

Value tlc::tl::buildBCEWithLogits(OpBuilder &b, Location loc, Value logits, Value targets,
                                  LossReduction reduction) {
  Value zero = scalar(b, loc, logits, 0.0), one = scalar(b, loc, logits, 1.0);
  Value softplus = unary<LogOp>(
      b, loc, add(b, loc, one, unary<ExpOp>(b, loc, unary<NegOp>(b, loc, unary<AbsOp>(b, loc, logits)))));
  Value pos = MaxOp::create(b, loc, logits, zero);
  Value l = add(b, loc, sub(b, loc, pos, mul(b, loc, logits, targets)), softplus);
  return reduceAll(b, loc, l, reduction);
}
