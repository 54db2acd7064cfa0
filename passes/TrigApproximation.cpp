// f32 sin, cos and tan for tlc-approximate-math: an accurate range reduction (MLIR's own sin
// and cos subtract k pi/2 in one f32 step, so their error grows with |x|: about 1e-4 at
// |x| = 1e4) and two short polynomials.
//
//   k = roundeven(x 2/pi),  r = x - k pi/2   (pi/2 in three f32 parts, one FMA each)
//   sin(r) ~ r + r z S(z),  cos(r) ~ 1 - z/2 + z^2 C(z),  z = r^2
//   quadrant q = k mod 4:  sin x = +-sin r or +-cos r;  cos x = sin(x + pi/2) (q + 1)
//
// The first reduction step is exact while |r| stays below 2 (x and k pi/2's f32 part are
// multiples of 2^-23 for |x| >= 1), the later ones add at most an ulp of r: with S and C fit
// on |r| <= 1.5 (scripts/fit_sincos_polynomial.py, which emulates this expansion in f32), the
// error is at most ~1e-7 absolute for |x| <= 1e6 and 1.3e-7 for |x| <= 1e7 against fp64.
// NaN and +-inf give NaN. tan is sin r / cos r or -cos r / sin r by the quadrant's parity.
// atan and atan2 (below) replace MLIR's, which is off by up to 2.4e-6 (40 ulp).
#include "passes/MathExpansion.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;

namespace {

enum class Trig { sin, cos, tan };

template <typename MathOp, Trig kind> struct FastTrigF32 : OpRewritePattern<MathOp> {
  FastTrigF32(MLIRContext *ctx, PatternBenefit benefit, bool fusedFma)
      : OpRewritePattern<MathOp>(ctx, benefit), fusedFma(fusedFma) {}
  bool fusedFma;

  LogicalResult matchAndRewrite(MathOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!tlc::isF32OrF32Vector(type))
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    Location loc = op.getLoc();
    auto f = [&](float v) { return tlc::splatConstant(rewriter, loc, type, rewriter.getF32FloatAttr(v)); };
    Type intType = tlc::i32Like(rewriter, type);
    auto i = [&](int32_t v) {
      return tlc::splatConstant(rewriter, loc, intType, rewriter.getI32IntegerAttr(v));
    };
    auto fma = [&](Value a, Value b, Value c) { return math::FmaOp::create(rewriter, loc, a, b, c); };
    auto mul = [&](Value a, Value b) { return arith::MulFOp::create(rewriter, loc, a, b); };

    // scripts/fit_sincos_polynomial.py: pi/2 in three f32 parts, S and C lowest degree first.
    static constexpr float halfPi[] = {0x1.921fb6p+0f, -0x1.777a5cp-25f, -0x1.ee59dap-50f};
    static constexpr float s[] = {-0x1.55554ep-3f, 0x1.110f6p-7f, -0x1.9f8cdap-13f,
                                  0x1.5f829p-19f};
    static constexpr float c[] = {0x1.55554ep-5f, -0x1.6c1484p-10f, 0x1.9f8dfep-16f,
                                  -0x1.194b88p-22f};

    Value x = op.getOperand();
    Value k = math::RoundEvenOp::create(rewriter, loc, mul(x, f(0.636619772f)));
    Value negK = arith::NegFOp::create(rewriter, loc, k);
    // Without a fused FMA (SPIR-V's Fma may round twice: lavapipe's does) pi/2 is split so
    // that k times the first two parts is exact in f32 (8 and 12 significant bits): ~1e-7 up
    // to |x| = 1e4, 1e-6 at 1e5.
    static constexpr float halfPiShort[] = {0x1.92p+0f, 0x1.fb4p-12f, 0x1.4442d2p-24f};
    Value r = x;
    for (float part : fusedFma ? ArrayRef<float>(halfPi) : ArrayRef<float>(halfPiShort))
      r = fusedFma ? fma(negK, f(part), r)
                   : arith::SubFOp::create(rewriter, loc, r, mul(k, f(part))).getResult();
    Value z = mul(r, r);
    Value sinR = fma(mul(r, z), tlc::hornerFma(rewriter, loc, s, z), r);
    Value cosR = fma(mul(z, z), tlc::hornerFma(rewriter, loc, c, z), fma(z, f(-0.5f), f(1.0f)));
    // k mod 4, exactly in f32 (k is an integral float; an fptosi of a huge k would be poison).
    Value floorQuarter = math::FloorOp::create(rewriter, loc, mul(k, f(0.25f)));
    Value q = arith::FPToSIOp::create(rewriter, loc, intType, fma(floorQuarter, f(-4.0f), k));
    if (kind == Trig::cos)
      q = arith::AddIOp::create(rewriter, loc, q, i(1));
    auto bitSet = [&](int32_t bit) {
      Value masked = arith::AndIOp::create(rewriter, loc, q, i(bit));
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, masked, i(0));
    };
    Value odd = bitSet(1);
    if (kind == Trig::tan) {
      Value even = arith::DivFOp::create(rewriter, loc, sinR, cosR);
      Value oddValue = arith::DivFOp::create(rewriter, loc, arith::NegFOp::create(rewriter, loc, cosR), sinR);
      rewriter.replaceOp(op, arith::SelectOp::create(rewriter, loc, odd, oddValue, even));
      return success();
    }
    Value v = arith::SelectOp::create(rewriter, loc, odd, cosR, sinR);
    Value negated = arith::NegFOp::create(rewriter, loc, v);
    rewriter.replaceOp(op, arith::SelectOp::create(rewriter, loc, bitSet(2), negated, v));
    return success();
  }
};

/// atan2(y, x) for f32: a = min(|x|, |y|) / max(|x|, |y|) in [0, 1]; above tan(pi/8) reduced
/// to t = (a - 1) / (a + 1) (atan a = pi/4 + atan t); atan t ~ t + t z P(z), z = t^2
/// (scripts/fit_atan_polynomial.py: at most 1.9e-7 relative error for atan); then pi/2 - r
/// when |y| > |x|, pi - r when x < 0, and y's sign. atan2(+-0, +-0) is +-0 or +-pi (x's sign
/// bit decides), NaN stays NaN; atan2(+-inf, +-inf) is NaN (not +-pi/4 or +-3pi/4).
Value fastAtan2(PatternRewriter &rewriter, Location loc, Value y, Value x) {
  Type type = y.getType();
  auto f = [&](double v) {
    return tlc::splatConstant(rewriter, loc, type, rewriter.getF32FloatAttr(static_cast<float>(v)));
  };
  auto cmp = [&](arith::CmpFPredicate p, Value a, Value b) {
    return arith::CmpFOp::create(rewriter, loc, p, a, b);
  };
  auto select = [&](Value c, Value t, Value e) {
    return arith::SelectOp::create(rewriter, loc, c, t, e);
  };
  static constexpr float p[] = {-0x1.55554ap-2f, 0x1.999196p-3f, -0x1.23b524p-3f, 0x1.b1ec32p-4f,
                                -0x1.f1ed9p-5f};
  Value ax = math::AbsFOp::create(rewriter, loc, x), ay = math::AbsFOp::create(rewriter, loc, y);
  Value swap = cmp(arith::CmpFPredicate::OGT, ay, ax);
  Value num = select(swap, ax, ay), den = select(swap, ay, ax);
  Value a = arith::DivFOp::create(rewriter, loc, num, den);
  // 0 / 0 (both zero) is 0: atan2(+-0, +-0) is then +-0 or +-pi.
  a = select(cmp(arith::CmpFPredicate::OEQ, den, f(0.0)), f(0.0), a);
  Value big = cmp(arith::CmpFPredicate::OGT, a, f(0.41421356237309503));
  Value reduced = arith::DivFOp::create(rewriter, loc, arith::SubFOp::create(rewriter, loc, a, f(1.0)),
                                        arith::AddFOp::create(rewriter, loc, a, f(1.0)));
  Value t = select(big, reduced, a);
  Value z = arith::MulFOp::create(rewriter, loc, t, t);
  Value r = math::FmaOp::create(rewriter, loc, arith::MulFOp::create(rewriter, loc, t, z),
                                tlc::hornerFma(rewriter, loc, p, z), t);
  r = select(big, arith::AddFOp::create(rewriter, loc, r, f(M_PI_4)), r);
  r = select(swap, arith::SubFOp::create(rewriter, loc, f(M_PI_2), r), r);
  // x < 0, or x = -0: pi - r.
  Type intType = tlc::i32Like(rewriter, type);
  Value xBits = arith::BitcastOp::create(rewriter, loc, intType, x);
  Value zeroBits = tlc::splatConstant(rewriter, loc, intType, rewriter.getI32IntegerAttr(0));
  Value xNegative = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, xBits, zeroBits);
  r = select(xNegative, arith::SubFOp::create(rewriter, loc, f(M_PI), r), r);
  return math::CopySignOp::create(rewriter, loc, r, y);
}

struct FastAtan2F32 : OpRewritePattern<math::Atan2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Atan2Op op, PatternRewriter &rewriter) const override {
    if (!tlc::isF32OrF32Vector(op.getType()))
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    rewriter.replaceOp(op, fastAtan2(rewriter, op.getLoc(), op.getLhs(), op.getRhs()));
    return success();
  }
};

/// atan x = atan2(x, 1).
struct FastAtanF32 : OpRewritePattern<math::AtanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AtanOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!tlc::isF32OrF32Vector(type))
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    Value one = tlc::splatConstant(rewriter, op.getLoc(), type, rewriter.getF32FloatAttr(1.0f));
    rewriter.replaceOp(op, fastAtan2(rewriter, op.getLoc(), op.getOperand(), one));
    return success();
  }
};

} // namespace

void tlc::populateFastTrigPatterns(RewritePatternSet &patterns, bool fusedFma,
                                   PatternBenefit benefit) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FastTrigF32<math::SinOp, Trig::sin>, FastTrigF32<math::CosOp, Trig::cos>,
               FastTrigF32<math::TanOp, Trig::tan>>(ctx, benefit, fusedFma);
  patterns.add<FastAtan2F32, FastAtanF32>(ctx, benefit);
}
