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

Value add(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  if (isBool(x.getType())) // numpy: logical or
    return arith::OrIOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value sub(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::SubFOp::create(b, loc, x, y);
  if (isBool(x.getType())) // logical xor
    return arith::XOrIOp::create(b, loc, x, y);
  return arith::SubIOp::create(b, loc, x, y);
}

Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  if (isBool(x.getType())) // logical and
    return arith::AndIOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value div(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::DivFOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return arith::AndIOp::create(b, loc, x, y);
  return arith::DivSIOp::create(b, loc, x, y); // truncates toward zero
}

Value max(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y); // propagates NaN, like numpy
  if (isBool(x.getType()))
    return arith::OrIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value min(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  if (isBool(x.getType()))
    return arith::AndIOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

Value exp(OpBuilder &b, Location loc, Value x) { return math::ExpOp::create(b, loc, x); }

Value log(OpBuilder &b, Location loc, Value x) { return math::LogOp::create(b, loc, x); }

Value convert(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
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
    return isBool(from) ? (Value)arith::UIToFPOp::create(b, loc, to, x)
                        : (Value)arith::SIToFPOp::create(b, loc, to, x);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return isBool(from) ? (Value)arith::ExtUIOp::create(b, loc, to, x)
                        : (Value)arith::ExtSIOp::create(b, loc, to, x);
  return arith::TruncIOp::create(b, loc, to, x);
}

} // namespace tlc::tl::scalar
