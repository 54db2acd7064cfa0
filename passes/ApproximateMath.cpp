// tlc-approximate-math: inline polynomial approximations of transcendental math ops.
#include "passes/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tlc {
#define GEN_PASS_DEF_TLCAPPROXIMATEMATH
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {
struct TLCApproximateMathPass : tlc::impl::TLCApproximateMathBase<TLCApproximateMathPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Ahead of upstream's exp (benefit 1): fewer instructions, the same ~2 ulp.
    tlc::populateFastExpPattern(patterns, x86Avx512, /*benefit=*/2, exactRounding);
    // MLIR has no exp2 approximation (it would be an exp2f call per element).
    tlc::populateFastExp2Patterns(patterns, x86Avx512, /*benefit=*/1, exactRounding);
    // One rational function instead of three intervals chosen by selects: ~17 operations.
    tlc::populateFastErfPattern(patterns, /*benefit=*/2);
    // An accurate reduction by pi/2 (MLIR's loses digits as |x| grows).
    // exact-rounding marks the SPIR-V targets, whose Fma need not be fused.
    tlc::populateFastTrigPatterns(patterns, /*fusedFma=*/!exactRounding, /*benefit=*/2);
    populateMathPolynomialApproximationPatterns(patterns, MathPolynomialApproximationOptions{});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
