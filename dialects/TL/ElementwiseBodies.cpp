// Scalar bodies of tl's elementwise ops and combiners of its reductions (the op interfaces).
#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tlc::tl;
namespace s = tlc::tl::scalar;

Value AddOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::add(b, loc, a[0], a[1]);
}
Value SubOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::sub(b, loc, a[0], a[1]);
}
Value MulOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::mul(b, loc, a[0], a[1]);
}
Value DivOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::div(b, loc, a[0], a[1]);
}
Value MaxOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::max(b, loc, a[0], a[1]);
}
Value MinOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::min(b, loc, a[0], a[1]);
}
Value PowOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  if (s::isFloat(a[0].getType()))
    return math::PowFOp::create(b, loc, a[0], a[1]);
  return math::IPowIOp::create(b, loc, a[0], a[1]);
}

Value NegOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  if (s::isFloat(a[0].getType()))
    return arith::NegFOp::create(b, loc, a[0]);
  return s::sub(b, loc, s::constant(b, loc, a[0].getType(), 0), a[0]);
}
Value AbsOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  if (s::isFloat(a[0].getType()))
    return math::AbsFOp::create(b, loc, a[0]);
  if (a[0].getType().isInteger(1))
    return a[0];
  return math::AbsIOp::create(b, loc, a[0]);
}
Value ExpOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::exp(b, loc, a[0]);
}
Value LogOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::log(b, loc, a[0]);
}
Value SqrtOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::SqrtOp::create(b, loc, a[0]);
}
Value RsqrtOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::RsqrtOp::create(b, loc, a[0]);
}
Value TanhOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::TanhOp::create(b, loc, a[0]);
}
Value ErfOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::ErfOp::create(b, loc, a[0]);
}
Value SigmoidOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Type t = a[0].getType();
  Value one = s::constant(b, loc, t, 1.0);
  Value e = s::exp(b, loc, arith::NegFOp::create(b, loc, a[0]));
  return s::div(b, loc, one, s::add(b, loc, one, e));
}
Value ReluOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::max(b, loc, a[0], s::constant(b, loc, a[0].getType(), 0));
}

Value GeluOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0];
  Type t = x.getType();
  if (getApproximate() == GeluApproximation::tanh) {
    Value one = s::constant(b, loc, t, 1.0);
    // 0.5 x (1 + tanh(u)) == x / (1 + exp(-2u)) == x / (1 + exp2(-2u log2(e))),
    // u = sqrt(2/pi) (x + 0.044715 x^3): one exp2 instead of tanh's rational approximation, and
    // no cancellation in 1 + tanh(u) for negative x (the result keeps exp2's relative accuracy
    // out in the tail). exp2, not exp: with log2(e) folded into the constants below, the
    // expansion's range reduction is t - round(t), exact, instead of exp's multiply by
    // log2(e) and two-FMA reduction by ln(2) (passes/Exp2Approximation.cpp).
    // -2u log2(e) = x (c0 + c1 x^2): three operations (a multiply-add among them).
    const double c0 = -2.0 * std::sqrt(2.0 / M_PI) * M_LOG2E, c1 = c0 * 0.044715;
    Value x2 = s::mul(b, loc, x, x);
    Value poly =
        s::add(b, loc, s::constant(b, loc, t, c0), s::mul(b, loc, s::constant(b, loc, t, c1), x2));
    Value arg = s::mul(b, loc, x, poly);
    return s::div(b, loc, x, s::add(b, loc, one, math::Exp2Op::create(b, loc, arg)));
  }
  // 0.5 x (1 + erf(x / sqrt 2)) as h + h erf(x / sqrt 2) with h = 0.5 x: one multiply-add
  // (contracted) instead of an add and a multiply, and 1 + erf is never rounded on its own
  // (it cancels for negative x).
  Value half = s::mul(b, loc, s::constant(b, loc, t, 0.5), x);
  Value inner = math::ErfOp::create(b, loc, s::mul(b, loc, x, s::constant(b, loc, t, M_SQRT1_2)));
  return s::add(b, loc, half, s::mul(b, loc, half, inner));
}
int64_t GeluOp::getFlopsPerElement() { return 8; }

Value CompareOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Type t = a[0].getType();
  ComparePredicate p = getPredicate();
  if (s::isFloat(t)) {
    arith::CmpFPredicate fp[] = {arith::CmpFPredicate::OEQ, arith::CmpFPredicate::UNE,
                                 arith::CmpFPredicate::OLT, arith::CmpFPredicate::OLE,
                                 arith::CmpFPredicate::OGT, arith::CmpFPredicate::OGE};
    return arith::CmpFOp::create(b, loc, fp[static_cast<int>(p)], a[0], a[1]);
  }
  bool isBool = t.isInteger(1); // true is 1, so booleans compare unsigned
  arith::CmpIPredicate ip[] = {
      arith::CmpIPredicate::eq, arith::CmpIPredicate::ne,
      isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt,
      isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle,
      isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
      isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge};
  return arith::CmpIOp::create(b, loc, ip[static_cast<int>(p)], a[0], a[1]);
}

Value SelectOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
}

Value CastOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return s::convert(b, loc, a[0], getType().getElementType(), getFromUnsigned());
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

static TypedAttr extremeAttr(Type t, bool lowest) {
  if (auto ft = dyn_cast<FloatType>(t))
    return FloatAttr::get(t, APFloat::getInf(ft.getFloatSemantics(), /*Negative=*/lowest));
  unsigned width = t.getIntOrFloatBitWidth();
  if (width == 1)
    return IntegerAttr::get(t, lowest ? 0 : 1);
  return IntegerAttr::get(t, lowest ? APInt::getSignedMinValue(width)
                                    : APInt::getSignedMaxValue(width));
}

static TypedAttr zeroAttr(Type t) {
  if (isa<FloatType>(t))
    return FloatAttr::get(t, 0.0);
  return IntegerAttr::get(t, 0);
}

TypedAttr ReduceSumOp::getIdentity(Type t) { return zeroAttr(t); }
TypedAttr ReduceMeanOp::getIdentity(Type t) { return zeroAttr(t); }
TypedAttr ReduceMaxOp::getIdentity(Type t) { return extremeAttr(t, /*lowest=*/true); }
TypedAttr ReduceMinOp::getIdentity(Type t) { return extremeAttr(t, /*lowest=*/false); }

Value ReduceSumOp::buildCombine(OpBuilder &b, Location loc, Value acc, Value x) {
  return s::add(b, loc, acc, x);
}
Value ReduceMeanOp::buildCombine(OpBuilder &b, Location loc, Value acc, Value x) {
  return s::add(b, loc, acc, x);
}
Value ReduceMaxOp::buildCombine(OpBuilder &b, Location loc, Value acc, Value x) {
  return s::max(b, loc, acc, x);
}
Value ReduceMinOp::buildCombine(OpBuilder &b, Location loc, Value acc, Value x) {
  return s::min(b, loc, acc, x);
}

Value ReduceMeanOp::buildFinalize(OpBuilder &b, Location loc, Value value, int64_t count) {
  return s::div(b, loc, value, s::constant(b, loc, value.getType(), static_cast<double>(count)));
}
Value ReduceSumOp::buildFinalize(OpBuilder &, Location, Value value, int64_t) { return value; }
Value ReduceMaxOp::buildFinalize(OpBuilder &, Location, Value value, int64_t) { return value; }
Value ReduceMinOp::buildFinalize(OpBuilder &, Location, Value value, int64_t) { return value; }
