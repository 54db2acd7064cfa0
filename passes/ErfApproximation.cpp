// A short f32 erf approximation (one rational function, ~17 vector operations), used by
// tlc-approximate-math in place of MLIR's polynomial erf (three intervals whose coefficients
// are chosen by a select per coefficient, ~45 operations).
//
//   xc  = clamp(x, -4, 4)                   (NaN stays NaN; 1 - erf(4) = 1.5e-8)
//   erf = clamp(xc P(xc^2) / Q(xc^2), -1, 1)
//
// erf(c x) for a constant c (GELU's erf(x / sqrt 2)) folds c into the coefficients instead of
// multiplying: x is clamped to +-4/|c| and the i-th coefficients of P and Q are scaled by
// c^(2i+1) and c^(2i), one operation fewer (for 1/16 <= |c| <= 16).
//
// P has degree 6 and Q degree 4 with Q(0) = 1; Q >= 1 on the whole range (all its
// coefficients are positive), so the division is always by a finite number of at least 1.
// It stays a real division: on Zen 5 vdivps runs beside the FMAs, and a reciprocal estimate
// with a Newton step (arcp) measured slower (GELU erf 4096x1024: 0.80 -> 0.87 ms).
// The coefficients are a relative-error minimax fit over [0, 4] (6.5e-8 in fp64) from
// scripts/fit_erf_rational.py, which also emulates this expansion in f32: at most 3.9e-7
// absolute error and 6.5 ulp where |erf| >= 2^-10, 2.1e-7 relative error below (erf is odd
// and so is the expansion, so tiny inputs keep their relative accuracy).
#include "passes/MathExpansion.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <optional>

using namespace mlir;

namespace {

// The value of a constant (scalar or splat) that erf(c x) may fold into its coefficients:
// 1/16 <= |c| <= 16 keeps every scaled coefficient a normal f32.
std::optional<double> foldableScale(Value v) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr))) {
    DenseFPElementsAttr dense;
    if (!matchPattern(v, m_Constant(&dense)) || !dense.isSplat())
      return std::nullopt;
    attr = dense.getSplatValue<FloatAttr>();
  }
  double value = attr.getValueAsDouble();
  if (!(std::fabs(value) >= 0.0625 && std::fabs(value) <= 16.0))
    return std::nullopt;
  return value;
}

struct FastErfF32 : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::ErfOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!tlc::isF32OrF32Vector(type))
      return rewriter.notifyMatchFailure(op, "not an f32 scalar or vector");
    Location loc = op.getLoc();
    // Compare-and-select clamps to [-bound, bound]: NaN flows through.
    auto clamp = [&](Value v, float bound) {
      return tlc::clampToRange(rewriter, loc, v, -bound, bound);
    };

    // Lowest degree first (scripts/fit_erf_rational.py).
    static constexpr float p[] = {0x1.20dd74p+0f,  0x1.a8203cp-3f,   0x1.a60e08p-5f, 0x1.056ccap-8f,
                                  0x1.34c7f2p-13f, -0x1.04a36ep-19f, 0x1.48459cp-26f};
    static constexpr float q[] = {0x1p+0f, 0x1.08a230p-1f, 0x1.e326fap-4f, 0x1.ea0c7ap-7f,
                                  0x1.0b920cp-10f};

    // erf(c x): scale the coefficients by powers of c instead of computing c x.
    Value x = op.getOperand();
    double c = 1.0;
    if (auto mul = x.getDefiningOp<arith::MulFOp>()) {
      for (int i = 0; i < 2; ++i) {
        std::optional<double> factor = foldableScale(mul->getOperand(1 - i));
        if (!factor)
          continue;
        c = *factor;
        x = mul->getOperand(i);
        break;
      }
    }
    auto scaled = [&](ArrayRef<float> coefficients, double first) {
      SmallVector<float> out;
      double power = first;
      for (float coefficient : coefficients) {
        out.push_back(static_cast<float>(coefficient * power));
        power *= c * c;
      }
      return out;
    };
    SmallVector<float> ps = scaled(p, c), qs = scaled(q, 1.0);
    x = clamp(x, static_cast<float>(4.0 / std::fabs(c)));
    Value s = arith::MulFOp::create(rewriter, loc, x, x);
    Value num = arith::MulFOp::create(rewriter, loc, x, tlc::hornerFma(rewriter, loc, ps, s));
    Value r = arith::DivFOp::create(rewriter, loc, num, tlc::hornerFma(rewriter, loc, qs, s));
    rewriter.replaceOp(op, clamp(r, 1.0f));
    return success();
  }
};

} // namespace

void tlc::populateFastErfPattern(RewritePatternSet &patterns, PatternBenefit benefit) {
  patterns.add<FastErfF32>(patterns.getContext(), benefit);
}
