// A short f32 exp2 approximation (12 vector instructions on x86, 10 on AVX-512), used by
// tlc-approximate-math in place of a call to exp2f per element. GELU's tanh form is written with
// exp2 (dialects/TL/ElementwiseBodies.cpp): folding log2(e) into its argument's constants saves
// exp's multiply and its two-FMA Cody-Waite reduction, since t - round(t) is exact.
//
//   tc = clamp(t, -126, 128)                (NaN stays NaN)
//   s  = tc + (1.5 * 2^23 + 126)            the low mantissa bits of s hold k + 126, where
//   k  = s - (1.5 * 2^23 + 126)             k = round(tc), exactly
//   f  = tc - k                             exact, |f| <= 1/2
//   q  = 2 * 2^f                            degree 5, constant term exact (2^0 == 1)
//   y  = q * bitcast(bits(s) << 23)         2^(k-1) built in the exponent field
//
// As in the exp expansion (ExpApproximation.cpp), 2^(k-1) and the doubled q keep the exponent
// field in range over the clamped input: exp2(128) overflows to +inf in the final multiply,
// results under 2^-125.5 flush to +0. At most about 2 ulp over the rest of the range
// (test/e2e/exp2_accuracy.test measures it against fp64, both forms).
//
// With AVX-512 (the pass's x86-avx512 option), 16-lane vectors scale by vscalefps instead:
//
//   tc = clamp(t, -151, 129)                only for +-inf (f would be NaN); NaN stays NaN
//   k  = roundeven(tc)                      vrndscaleps
//   y  = scalef(2^(tc - k), k)              2^f * 2^k, rounded once: gradual underflow to
//                                           denormals and +0, overflow to +inf
//
// Neither the exponent field nor the clamps bound k, so the clamps only keep infinities out
// (any t below -151 gives +0 and any above 129 gives +inf either way).
//
// f16 and bf16 exp2 are computed in f32 and rounded back. The polynomial is a degree-5
// relative-error minimax fit of 2^f on [-1/2, 1/2] with the constant term fixed to 1, from
// scripts/fit_exp2_polynomial.py, which also emulates this expansion in f32.
#include "passes/MathExpansion.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

// 2^f on [-1/2, 1/2], lowest degree first.
constexpr float kExp2Coefficients[] = {0x1p+0f,        0x1.62e42ap-1f, 0x1.ebf9bcp-3f,
                                       0x1.c6b752p-5f, 0x1.3cea88p-7f, 0x1.5bba14p-10f};

struct FastExp2F32 : OpRewritePattern<math::Exp2Op> {
  FastExp2F32(MLIRContext *context, bool avx512, bool exactRounding, PatternBenefit benefit)
      : OpRewritePattern(context, benefit), avx512(avx512), exactRounding(exactRounding) {}

  LogicalResult matchAndRewrite(math::Exp2Op op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!tlc::isF32OrF32Vector(type))
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    if (avx512 && tlc::isZmmF32(type))
      rewriter.replaceOp(op, expandWithScaleF(rewriter, op.getLoc(), op.getOperand()));
    else if (exactRounding)
      rewriter.replaceOp(op, expandWithRoundEven(rewriter, op.getLoc(), op.getOperand()));
    else
      rewriter.replaceOp(op, expandWithExponentBits(rewriter, op.getLoc(), op.getOperand()));
    return success();
  }

private:
  static Value constant(PatternRewriter &rewriter, Location loc, Type type, float v) {
    return tlc::splatConstant(rewriter, loc, type, rewriter.getF32FloatAttr(v));
  }

  // The coefficients times `scale` (2 in the exponent-bits form, 1 otherwise), by Horner.
  static Value polynomial(PatternRewriter &rewriter, Location loc, Value frac, float scale) {
    SmallVector<float> scaled;
    for (float c : kExp2Coefficients)
      scaled.push_back(scale * c);
    return tlc::hornerFma(rewriter, loc, scaled, frac);
  }

  static Value expandWithExponentBits(PatternRewriter &rewriter, Location loc, Value x) {
    Type type = x.getType();
    constexpr float shifter = 0x1.8p23f + 126.0f;
    Value t = tlc::clampToRange(rewriter, loc, x, -126.0f, 128.0f);
    Value s = arith::AddFOp::create(rewriter, loc, t, constant(rewriter, loc, type, shifter));
    Value k = arith::SubFOp::create(rewriter, loc, s, constant(rewriter, loc, type, shifter));
    Value poly = polynomial(rewriter, loc, arith::SubFOp::create(rewriter, loc, t, k), 2.0f);
    return tlc::timesExponentBits(rewriter, loc, poly, s);
  }

  // As expandWithExponentBits, k rounded by roundeven (no shifter a GPU driver could fold).
  static Value expandWithRoundEven(PatternRewriter &rewriter, Location loc, Value x) {
    Value t = tlc::clampToRange(rewriter, loc, x, -126.0f, 128.0f);
    Value k = math::RoundEvenOp::create(rewriter, loc, t);
    Value poly = polynomial(rewriter, loc, arith::SubFOp::create(rewriter, loc, t, k), 2.0f);
    return tlc::timesPowerOfTwoBelow(rewriter, loc, poly, k);
  }

  static Value expandWithScaleF(PatternRewriter &rewriter, Location loc, Value x) {
    Value t = tlc::clampToRange(rewriter, loc, x, -151.0f, 129.0f);
    Value k = math::RoundEvenOp::create(rewriter, loc, t);
    Value poly = polynomial(rewriter, loc, arith::SubFOp::create(rewriter, loc, t, k), 1.0f);
    return tlc::scaledByPowerOfTwo(rewriter, loc, poly, k);
  }

  bool avx512, exactRounding;
};

// f16/bf16 exp2 through f32 (which FastExp2F32 then expands): LLVM would otherwise call exp2f
// once per element.
struct Exp2ThroughF32 : OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    Type element = getElementTypeOrSelf(type);
    if (!element.isF16() && !element.isBF16())
      return rewriter.notifyMatchFailure(op, "not f16 or bf16");
    Type f32 = rewriter.getF32Type();
    Type wide = isa<VectorType>(type) ? Type(cast<VectorType>(type).clone(f32)) : f32;
    Location loc = op.getLoc();
    Value x = arith::ExtFOp::create(rewriter, loc, wide, op.getOperand());
    Value y = math::Exp2Op::create(rewriter, loc, x, op.getFastmathAttr());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, y);
    return success();
  }
};

} // namespace

void tlc::populateFastExp2Patterns(RewritePatternSet &patterns, bool avx512,
                                   PatternBenefit benefit, bool exactRounding) {
  patterns.add<FastExp2F32>(patterns.getContext(), avx512, exactRounding, benefit);
  patterns.add<Exp2ThroughF32>(patterns.getContext(), benefit);
}
