// Scalar arithmetic written once over the element type (float, integer, i1).
#include "TL/ScalarMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace tlc::tl::scalar {

bool isFloat(Type t) { return isa<FloatType>(t); }

static bool isBool(Type t) { return t.isInteger(1); }

Value constant(OpBuilder &b, Location loc, Type t, double v) {
  if (isFloat(t))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, static_cast<int64_t>(v)));
}

/// One binary op per element kind: float, bool (i1) and other integers.
template <typename FloatOp, typename BoolOp, typename IntOp>
static Value byKind(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return FloatOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return BoolOp::create(b, loc, x, y);
  return IntOp::create(b, loc, x, y);
}

// On booleans, numpy's add is logical or, mul logical and, sub xor; div and min are and.
Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return byKind<arith::AddFOp, arith::OrIOp, arith::AddIOp>(b, loc, x, y);
}
Value sub(OpBuilder &b, Location loc, Value x, Value y) {
  return byKind<arith::SubFOp, arith::XOrIOp, arith::SubIOp>(b, loc, x, y);
}
Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  return byKind<arith::MulFOp, arith::AndIOp, arith::MulIOp>(b, loc, x, y);
}
// Integer division truncates toward zero. The cases a bare divide would trap on (and kill the
// caller's process) have a defined result, as numpy gives them: x / 0 is 0, and INT_MIN / -1
// wraps to INT_MIN (docs/tl-language.md, "Integer division").
Value div(OpBuilder &b, Location loc, Value x, Value y) {
  Type t = x.getType();
  if (isFloat(t) || isBool(t))
    return byKind<arith::DivFOp, arith::AndIOp, arith::DivSIOp>(b, loc, x, y);
  unsigned bits = t.getIntOrFloatBitWidth();
  auto intConst = [&](const APInt &v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v)).getResult();
  };
  Value zero = intConst(APInt::getZero(bits)), one = intConst(APInt(bits, 1));
  Value minusOne = intConst(APInt::getAllOnes(bits));
  Value intMin = intConst(APInt::getSignedMinValue(bits));
  Value byZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  Value overflows = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, intMin),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne));
  // Dividing by 1 instead gives x, which is the wrapped INT_MIN / -1.
  Value safe = arith::SelectOp::create(
      b, loc, arith::OrIOp::create(b, loc, byZero, overflows), one, y);
  Value q = arith::DivSIOp::create(b, loc, x, safe);
  return arith::SelectOp::create(b, loc, byZero, zero, q);
}
// Float max/min propagate NaN, like numpy.
Value max(OpBuilder &b, Location loc, Value x, Value y) {
  return byKind<arith::MaximumFOp, arith::OrIOp, arith::MaxSIOp>(b, loc, x, y);
}
Value min(OpBuilder &b, Location loc, Value x, Value y) {
  return byKind<arith::MinimumFOp, arith::AndIOp, arith::MinSIOp>(b, loc, x, y);
}

Value exp(OpBuilder &b, Location loc, Value x) { return math::ExpOp::create(b, loc, x); }

Value log(OpBuilder &b, Location loc, Value x) { return math::LogOp::create(b, loc, x); }

Value convert(OpBuilder &b, Location loc, Value x, Type to, bool fromUnsigned) {
  Type from = x.getType();
  fromUnsigned |= isBool(from); // true is 1
  if (from == to)
    return x;
  if (isBool(to)) {
    Value zero = constant(b, loc, from, 0);
    if (isFloat(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (isFloat(from) && isFloat(to)) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, x);
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncFOp::create(b, loc, to, x);
    // f16 <-> bf16: go through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (isFloat(from))
    return arith::FPToSIOp::create(b, loc, to, x);
  if (isFloat(to))
    return fromUnsigned ? (Value)arith::UIToFPOp::create(b, loc, to, x)
                        : (Value)arith::SIToFPOp::create(b, loc, to, x);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return fromUnsigned ? (Value)arith::ExtUIOp::create(b, loc, to, x)
                        : (Value)arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

} // namespace tlc::tl::scalar
