// Builders shared by the vector-Jacobian products of tl ops.
#include "TL/GradientBuilders.h"

using namespace mlir;
using namespace tlc::tl;

Value grad::scalar(OpBuilder &b, Location loc, Value like, double v) {
  auto type = RankedTensorType::get({}, tensorOf(like).getElementType());
  return ConstantOp::create(b, loc,
                            DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(), v)));
}

Value grad::zerosOf(OpBuilder &b, Location loc, RankedTensorType type) {
  return ConstantOp::create(b, loc,
                            DenseElementsAttr::get(type, b.getZeroAttr(type.getElementType())));
}

Value grad::add(OpBuilder &b, Location loc, Value x, Value y) { return AddOp::create(b, loc, x, y); }
Value grad::sub(OpBuilder &b, Location loc, Value x, Value y) { return SubOp::create(b, loc, x, y); }
Value grad::mul(OpBuilder &b, Location loc, Value x, Value y) { return MulOp::create(b, loc, x, y); }
Value grad::div(OpBuilder &b, Location loc, Value x, Value y) { return DivOp::create(b, loc, x, y); }

Value grad::compare(OpBuilder &b, Location loc, ComparePredicate p, Value x, Value y) {
  return CompareOp::create(b, loc, p, x, y);
}

Value grad::where(OpBuilder &b, Location loc, Value cond, Value g) {
  return SelectOp::create(b, loc, cond, g, scalar(b, loc, g, 0.0));
}

Value grad::sumKeep(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> axes) {
  return ReduceSumOp::create(b, loc, x, b.getDenseI64ArrayAttr(axes), b.getUnitAttr());
}

Value grad::sumToShape(OpBuilder &b, Location loc, Value g, RankedTensorType target) {
  ArrayRef<int64_t> from = tensorOf(g).getShape(), to = target.getShape();
  int64_t lead = from.size() - to.size();
  SmallVector<int64_t> axes;
  for (int64_t i = 0, e = from.size(); i < e; ++i)
    if (i < lead || (to[i - lead] == 1 && from[i] != 1))
      axes.push_back(i);
  if (!axes.empty())
    g = sumKeep(b, loc, g, axes);
  if (tensorOf(g) != target)
    g = ReshapeOp::create(b, loc, target, g);
  return g;
}

Value grad::expandReduced(OpBuilder &b, Location loc, Value g, RankedTensorType inputType,
                          ArrayRef<int64_t> keepShape) {
  auto keepType = RankedTensorType::get(keepShape, inputType.getElementType());
  if (tensorOf(g) != keepType)
    g = ReshapeOp::create(b, loc, keepType, g);
  if (keepType != inputType)
    g = BroadcastToOp::create(b, loc, inputType, g);
  return g;
}

SmallVector<int64_t> grad::keepDimsShape(RankedTensorType input, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shape(input.getShape());
  for (int64_t a : axes)
    shape[a] = 1;
  return shape;
}
