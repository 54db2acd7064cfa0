// A short f32 exp approximation (13 vector instructions on x86 against upstream's ~24; 11 with
// AVX-512), used by tlc-approximate-math in place of MLIR's polynomial exp.
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
// With AVX-512 (the pass's x86-avx512 option), 16-lane vectors scale by vscalefps instead, as
// the exp2 expansion does (Exp2Approximation.cpp):
//
//   xc = clamp(x, -104, 89)                 only keeps r finite (+-inf, huge |x|); NaN stays NaN
//   k  = roundeven(xc * log2(e))            vrndscaleps
//   r  = xc - k * ln2                       the same two FMAs
//   y  = scalef(exp(r), k)                  exp(r) * 2^k rounded once: overflow to +inf,
//                                           gradual underflow to denormals and +0
//
// Nothing bounds k there but the clamps, which only keep r finite: any x below -104 gives +0
// (exp(-104) < 2^-150) and any above 89 gives +inf either way, as exp does.
//
// With exact rounding (the pass's exact-rounding option, for GPU targets), k comes from
// roundeven(xc * log2(e)) and 2^(k-1) from k converted to an integer, since a GPU driver may
// fold the shifter's (t + C) - C to t, which turns the expansion into garbage.
//
// An exp marked with kExpNonPositiveArgAttr (its argument is <= 0 or NaN, as x - max(row) in
// softmax) skips the upper clamp: 12 instructions, 10 with AVX-512.
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

// exp(r) on [-ln2/2, ln2/2], lowest degree first (c0 = 1 exactly).
constexpr float kExpCoefficients[] = {0x1p+0f,        0x1.fffff6p-1f, 0x1.fffdc6p-2f,
                                      0x1.555a6ap-3f, 0x1.573a54p-5f, 0x1.0fa834p-7f};
constexpr float kLog2E = 0x1.715476p+0f;
constexpr float kLn2Hi = 0x1.62e430p-1f;   // ln 2 rounded to f32
constexpr float kLn2Lo = -0x1.05c610p-29f; // ln 2 - kLn2Hi

struct FastExpF32 : OpRewritePattern<math::ExpOp> {
  FastExpF32(MLIRContext *context, bool avx512, bool exactRounding, PatternBenefit benefit)
      : OpRewritePattern(context, benefit), avx512(avx512), exactRounding(exactRounding) {}

  LogicalResult matchAndRewrite(math::ExpOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!tlc::isF32OrF32Vector(type))
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    bool nonPositive = op->hasAttr(tlc::kExpNonPositiveArgAttr);
    if (avx512 && tlc::isZmmF32(type))
      rewriter.replaceOp(op, expandWithScaleF(rewriter, op.getLoc(), op.getOperand(), nonPositive));
    else if (exactRounding)
      rewriter.replaceOp(
          op, expandWithRoundEven(rewriter, op.getLoc(), op.getOperand(), nonPositive));
    else
      rewriter.replaceOp(
          op, expandWithExponentBits(rewriter, op.getLoc(), op.getOperand(), nonPositive));
    return success();
  }

private:
  static Value constant(PatternRewriter &rewriter, Location loc, Type type, float v) {
    return tlc::splatConstant(rewriter, loc, type, rewriter.getF32FloatAttr(v));
  }

  // Clamps as compare-and-select (tlc::clampBySelect): a NaN flows through to the result
  // (NaN times any scale is NaN, and vscalefps propagates it too).
  static Value clamp(PatternRewriter &rewriter, Location loc, Value x, float lo, float hi,
                     bool nonPositive) {
    Type type = x.getType();
    Value xc = tlc::clampBySelect(rewriter, loc, x, arith::CmpFPredicate::OLT,
                                  constant(rewriter, loc, type, lo));
    if (!nonPositive)
      xc = tlc::clampBySelect(rewriter, loc, xc, arith::CmpFPredicate::OGT,
                              constant(rewriter, loc, type, hi));
    return xc;
  }

  // xc - k * ln2 in two FMAs (Cody-Waite), then exp of it times `scale` by Horner.
  static Value reducedPolynomial(PatternRewriter &rewriter, Location loc, Value xc, Value k,
                                 float scale) {
    Type type = xc.getType();
    Value r = math::FmaOp::create(rewriter, loc, k, constant(rewriter, loc, type, -kLn2Hi), xc);
    r = math::FmaOp::create(rewriter, loc, k, constant(rewriter, loc, type, -kLn2Lo), r);
    SmallVector<float> scaled;
    for (float c : kExpCoefficients)
      scaled.push_back(scale * c);
    return tlc::hornerFma(rewriter, loc, scaled, r);
  }

  static Value expandWithExponentBits(PatternRewriter &rewriter, Location loc, Value x,
                                      bool nonPositive) {
    Type type = x.getType();
    constexpr float shifter = 0x1.8p23f + 126.0f;
    Value xc = clamp(rewriter, loc, x, -87.5f, 88.8f, nonPositive);
    Value t = math::FmaOp::create(rewriter, loc, xc, constant(rewriter, loc, type, kLog2E),
                                  constant(rewriter, loc, type, shifter));
    Value k = arith::SubFOp::create(rewriter, loc, t, constant(rewriter, loc, type, shifter));
    Value poly = reducedPolynomial(rewriter, loc, xc, k, 2.0f);
    return tlc::timesExponentBits(rewriter, loc, poly, t);
  }

  static Value expandWithRoundEven(PatternRewriter &rewriter, Location loc, Value x,
                                   bool nonPositive) {
    Type type = x.getType();
    Value xc = clamp(rewriter, loc, x, -87.5f, 88.8f, nonPositive);
    Value t = arith::MulFOp::create(rewriter, loc, xc, constant(rewriter, loc, type, kLog2E));
    Value k = math::RoundEvenOp::create(rewriter, loc, t);
    Value poly = reducedPolynomial(rewriter, loc, xc, k, 2.0f);
    return tlc::timesPowerOfTwoBelow(rewriter, loc, poly, k);
  }

  static Value expandWithScaleF(PatternRewriter &rewriter, Location loc, Value x,
                                bool nonPositive) {
    Type type = x.getType();
    Value xc = clamp(rewriter, loc, x, -104.0f, 89.0f, nonPositive);
    Value t = arith::MulFOp::create(rewriter, loc, xc, constant(rewriter, loc, type, kLog2E));
    Value k = math::RoundEvenOp::create(rewriter, loc, t);
    Value poly = reducedPolynomial(rewriter, loc, xc, k, 1.0f);
    return tlc::scaledByPowerOfTwo(rewriter, loc, poly, k);
  }

  bool avx512, exactRounding;
};

} // namespace

void tlc::populateFastExpPattern(RewritePatternSet &patterns, bool avx512, PatternBenefit benefit,
                                 bool exactRounding) {
  patterns.add<FastExpF32>(patterns.getContext(), avx512, exactRounding, benefit);
}
