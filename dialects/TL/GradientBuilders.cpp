// Builders shared by the vector-Jacobian products of tl ops.
#include "TL/GradientBuilders.h"

using namespace mlir;
using namespace tlc::tl;

Value grad::filled(OpBuilder &b, Location loc, RankedTensorType type, double v) {
  return ConstantOp::create(b, loc,
                            DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(), v)));
}

Value grad::scalar(OpBuilder &b, Location loc, Value like, double v) {
  return filled(b, loc, RankedTensorType::get({}, tensorOf(like).getElementType()), v);
}

Value grad::zerosOf(OpBuilder &b, Location loc, RankedTensorType type) {
  return filled(b, loc, type, 0.0);
}

Value grad::positions(OpBuilder &b, Location loc, int64_t n, Type intType, ArrayRef<int64_t> shape,
                      bool descending) {
  SmallVector<APInt> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(APInt(intType.getIntOrFloatBitWidth(), descending ? n - 1 - i : i));
  return ConstantOp::create(b, loc,
                            DenseElementsAttr::get(RankedTensorType::get(shape, intType), values));
}

bool grad::dependsOn(Value value, Value from) {
  SmallVector<Value> work{value};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == from)
      return true;
    if (!seen.insert(v).second)
      continue;
    if (Operation *op = v.getDefiningOp())
      llvm::append_range(work, op->getOperands());
  }
  return false;
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
