// A short f32 exp approximation (13 vector instructions on x86 against upstream's ~24), used
// by tlc-approximate-math in place of MLIR's polynomial exp.
//
//   xc = clamp(x, -87.5, 88.8)              (NaN stays NaN)
//   t  = fma(xc, log2(e), 1.5 * 2^23 + 126) the low mantissa bits of t hold k + 126, where
//   k  = t - (1.5 * 2^23 + 126)             k = round(x * log2(e)), exactly
//   r  = xc - k * ln2                       two FMAs (Cody-Waite: ln2 = hi + lo), |r| <= ln2/2
//   q  = 2 * exp(r)                         degree 5, constant term exact (exp(0) == 1)
//   y  = q * bitcast(bits(t) << 23)         2^(k-1) built in the exponent field
//
// Building 2^(k-1) and doubling q keeps the exponent field in range over the whole clamped
// input: exp(88.8) overflows to +inf in the final multiply, and for x below about -86.99
// (results under 2^-125.5, ~1.7e-38) the field is 0 and the result flushes to +0, as for -inf.
// NaN inputs return NaN. Over the rest of the range the error is at most about 2 ulp
// (test/e2e/exp_accuracy.test measures it against fp64).
//
// An exp marked with kExpNonPositiveArgAttr (its argument is <= 0 or NaN, as x - max(row) in
// softmax) skips the upper clamp: 12 instructions.
//
// The polynomial is a degree-5 relative-error minimax fit of exp on [-ln2/2, ln2/2] with the
// constant term fixed to 1, from scripts/fit_exp_polynomial.py (Lawson's iteration, fp64).
#include "passes/MathExpansion.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

struct FastExpF32 : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ExpOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!tlc::isF32OrF32Vector(type))
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    Location loc = op.getLoc();
    auto f = [&](float v) {
      return tlc::splatConstant(rewriter, loc, type, rewriter.getF32FloatAttr(v));
    };
    auto fma = [&](Value a, Value b, Value c) { return math::FmaOp::create(rewriter, loc, a, b, c); };

    // 2 * the minimax coefficients of exp (c0 = 1 exactly), lowest degree first.
    static constexpr float q[] = {0x1p+1f,          0x1.fffff6p+0f,   0x1.fffdc6p-1f,
                                  0x1.555a6ap-2f,   0x1.573a54p-4f,   0x1.0fa834p-6f};
    constexpr float shifter = 0x1.8p23f + 126.0f;
    constexpr float ln2Hi = 0x1.62e430p-1f;     // ln 2 rounded to f32
    constexpr float ln2Lo = -0x1.05c610p-29f;   // ln 2 - ln2Hi

    Value x = op.getOperand();
    // Clamps as compare-and-select (tlc::clampBySelect): a NaN flows through to the result
    // (NaN times any scale is NaN).
    auto clamp = [&](Value v, arith::CmpFPredicate pred, float bound) {
      return tlc::clampBySelect(rewriter, loc, v, pred, f(bound));
    };
    Value xc = clamp(x, arith::CmpFPredicate::OLT, -87.5f);
    if (!op->hasAttr(tlc::kExpNonPositiveArgAttr))
      xc = clamp(xc, arith::CmpFPredicate::OGT, 88.8f);
    Value t = fma(xc, f(0x1.715476p+0f), f(shifter));
    Value k = arith::SubFOp::create(rewriter, loc, t, f(shifter));
    Value r = fma(k, f(-ln2Hi), xc);
    r = fma(k, f(-ln2Lo), r);
    Value poly = tlc::hornerFma(rewriter, loc, q, r);
    rewriter.replaceOp(op, tlc::timesExponentBits(rewriter, loc, poly, t));
    return success();
  }
};

} // namespace

void tlc::populateFastExpPattern(RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<FastExpF32>(patterns.getContext(), benefit);
}
