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
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, MathPolynomialApproximationOptions{});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
