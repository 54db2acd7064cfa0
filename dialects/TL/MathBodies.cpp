// Scalar bodies of tl's trigonometric, hyperbolic, rounding and remainder ops, written with
// math ops that have accurate vectorizable expansions (tlc-approximate-math: sin/cos/tan,
// exp, expm1, log, log1p, atan/atan2) in forms that avoid cancellation and early overflow.
#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace tlc::tl;
namespace s = tlc::tl::scalar;

namespace {

Value cst(OpBuilder &b, Location loc, Value like, double v) {
  return s::constant(b, loc, like.getType(), v);
}
Value abs(OpBuilder &b, Location loc, Value x) { return math::AbsFOp::create(b, loc, x); }
Value copySign(OpBuilder &b, Location loc, Value magnitude, Value sign) {
  return math::CopySignOp::create(b, loc, magnitude, sign);
}
Value select(OpBuilder &b, Location loc, Value cond, Value t, Value f) {
  return arith::SelectOp::create(b, loc, cond, t, f);
}
Value greater(OpBuilder &b, Location loc, Value x, double bound) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, cst(b, loc, x, bound));
}
/// sqrt((1 - x)(1 + x)) = sqrt(1 - x^2), with 1 - x exact near |x| = 1 (NaN for |x| > 1).
Value sqrtOneMinusSquare(OpBuilder &b, Location loc, Value x) {
  Value one = cst(b, loc, x, 1.0);
  Value p = s::mul(b, loc, s::sub(b, loc, one, x), s::add(b, loc, one, x));
  return math::SqrtOp::create(b, loc, p);
}
/// Beyond this, x^2 + 1 == x^2 in f32 and asinh(x), acosh(x) are log(2x) to f32 precision.
constexpr double kLargeSquare = 4096.0;

} // namespace

Value SinOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::SinOp::create(b, loc, a[0]);
}
Value CosOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::CosOp::create(b, loc, a[0]);
}
Value TanOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::TanOp::create(b, loc, a[0]);
}
Value AtanOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::AtanOp::create(b, loc, a[0]);
}
// asin x = atan2(x, sqrt(1 - x^2)), acos x = atan2(sqrt(1 - x^2), x): no cancellation near
// |x| = 1, where the series forms lose digits; NaN outside [-1, 1].
Value AsinOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::Atan2Op::create(b, loc, a[0], sqrtOneMinusSquare(b, loc, a[0]));
}
Value AcosOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::Atan2Op::create(b, loc, sqrtOneMinusSquare(b, loc, a[0]), a[0]);
}
// sinh |x| = (t + t / (t + 1)) / 2 with t = expm1|x| (no cancellation near 0); from |x| = 80
// on (e^|x| overflows before sinh does) (e^(|x|/2) / 2) e^(|x|/2).
Value SinhOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Value x = abs(b, loc, a[0]), half = cst(b, loc, x, 0.5);
  Value t = math::ExpM1Op::create(b, loc, x);
  Value small = s::mul(b, loc, half,
                       s::add(b, loc, t, s::div(b, loc, t, s::add(b, loc, t, cst(b, loc, x, 1.0)))));
  Value e = s::exp(b, loc, s::mul(b, loc, half, x));
  Value large = s::mul(b, loc, s::mul(b, loc, half, e), e);
  return copySign(b, loc, select(b, loc, greater(b, loc, x, 80.0), large, small), a[0]);
}
// cosh x = e^|x| / 2 + e^-|x| / 2; from |x| = 80 on (e^(|x|/2) / 2) e^(|x|/2).
Value CoshOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Value x = abs(b, loc, a[0]), half = cst(b, loc, x, 0.5);
  Value e = s::exp(b, loc, x);
  Value small = s::add(b, loc, s::mul(b, loc, half, e), s::div(b, loc, half, e));
  Value eh = s::exp(b, loc, s::mul(b, loc, half, x));
  Value large = s::mul(b, loc, s::mul(b, loc, half, eh), eh);
  return select(b, loc, greater(b, loc, x, 80.0), large, small);
}
// asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))) (exact for tiny x), log(2|x|) for large.
Value AsinhOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Value x = abs(b, loc, a[0]), one = cst(b, loc, x, 1.0);
  Value x2 = s::mul(b, loc, x, x);
  Value root = math::SqrtOp::create(b, loc, s::add(b, loc, one, x2));
  Value arg = s::add(b, loc, x, s::div(b, loc, x2, s::add(b, loc, one, root)));
  Value small = math::Log1pOp::create(b, loc, arg);
  Value large = s::add(b, loc, s::log(b, loc, x), cst(b, loc, x, M_LN2));
  return copySign(b, loc, select(b, loc, greater(b, loc, x, kLargeSquare), large, small), a[0]);
}
// acosh x = log1p(t + sqrt(t (x + 1))), t = x - 1 (exact near 1); log(2x) for large x; NaN
// below 1.
Value AcoshOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0], one = cst(b, loc, x, 1.0);
  Value t = s::sub(b, loc, x, one);
  Value root = math::SqrtOp::create(b, loc, s::mul(b, loc, t, s::add(b, loc, x, one)));
  Value small = math::Log1pOp::create(b, loc, s::add(b, loc, t, root));
  Value large = s::add(b, loc, s::log(b, loc, x), cst(b, loc, x, M_LN2));
  return select(b, loc, greater(b, loc, x, kLargeSquare), large, small);
}
// atanh |x| = log1p(2|x| / (1 - |x|)) / 2: +-inf at +-1, NaN beyond.
Value AtanhOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Value x = abs(b, loc, a[0]), one = cst(b, loc, x, 1.0);
  Value q = s::div(b, loc, s::add(b, loc, x, x), s::sub(b, loc, one, x));
  Value r = s::mul(b, loc, cst(b, loc, x, 0.5), math::Log1pOp::create(b, loc, q));
  return copySign(b, loc, r, a[0]);
}
Value RoundOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::RoundEvenOp::create(b, loc, a[0]);
}

// Floats: C fmod (exact). Integers: truncated remainder, with x rem 0 = 0 and INT_MIN rem -1 =
// 0 (a bare remainder traps on both), as tl.div defines x / 0.
Value RemOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0], y = a[1];
  Type t = x.getType();
  if (s::isFloat(t))
    return arith::RemFOp::create(b, loc, x, y);
  if (t.isInteger(1))
    return s::constant(b, loc, t, 0);
  Value zero = s::constant(b, loc, t, 0), one = s::constant(b, loc, t, 1);
  Value minusOne = s::constant(b, loc, t, -1);
  Value byZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  // Any x rem -1 is 0: dividing by 1 instead gives the same, without INT_MIN's overflow.
  Value unit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne);
  Value safe = select(b, loc, arith::OrIOp::create(b, loc, byZero, unit), one, y);
  Value r = arith::RemSIOp::create(b, loc, x, safe);
  return select(b, loc, byZero, zero, r);
}
