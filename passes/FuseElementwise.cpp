// tlc-fuse-elementwise: chains of elementwise linalg ops become one loop nest; each fused op
// records the source ops it came from (for tlc --report=fusion).
#include "passes/FusionPolicy.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tlc {
#define GEN_PASS_DEF_TLCFUSEELEMENTWISE
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc::fusion;

namespace {

/// Mechanism: fuses the producer of `operand` into its consumer with upstream's
/// fuseElementwiseOps and records the group on the fused op.
bool fuse(RewriterBase &rewriter, OpOperand &operand) {
  Operation *consumer = operand.getOwner();
  Operation *producer = operand.get().getDefiningOp();
  // The consumer's location first: it stays the fused op's primary location (diagnostics, the
  // memory report); the producers' follow.
  Location loc = FusedLoc::get(rewriter.getContext(), {consumer->getLoc(), producer->getLoc()});
  SmallVector<Attribute> locs = groupLocations(producer);
  llvm::append_range(locs, groupLocations(consumer));
  rewriter.setInsertionPoint(consumer);
  FailureOr<linalg::ElementwiseOpFusionResult> fused =
      linalg::fuseElementwiseOps(rewriter, &operand);
  if (failed(fused))
    return false;
  for (auto [original, replacement] : fused->replacements)
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return use.getOwner() != producer;
    });
  rewriter.eraseOp(consumer);
  if (producer->use_empty())
    rewriter.eraseOp(producer);

  MLIRContext *ctx = rewriter.getContext();
  Operation *op = fused->fusedOp;
  op->setLoc(loc);
  std::string why = "elementwise chain (" + describeBody(op) +
                    ") in one loop nest: each producer's only use is the next op";
  NamedAttribute fields[] = {
      {StringAttr::get(ctx, "kind"), StringAttr::get(ctx, "elementwise")},
      {StringAttr::get(ctx, "reason"), StringAttr::get(ctx, why)},
      {StringAttr::get(ctx, "ops"), ArrayAttr::get(ctx, locs)}};
  op->setAttr(kGroupAttr, DictionaryAttr::get(ctx, fields));
  return true;
}

/// Upstream's reshape propagation (expanding elementwise ops across expand_shape so more of
/// them line up) and its cleanups, as in `linalg-fuse-elementwise-ops`, with the same fusion
/// policy for the fusions they expose (those keep the consumer's location only).
LogicalResult propagateReshapes(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  RewritePatternSet patterns(ctx);
  linalg::ControlFusionFn policy = [](OpOperand *operand) {
    return shouldFuseElementwise(operand);
  };
  linalg::ControlFusionFn oneUse = [](OpOperand *operand) {
    Operation *producer = operand->get().getDefiningOp();
    return producer && producer->hasOneUse();
  };
  linalg::populateElementwiseOpsFusionPatterns(patterns, policy);
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, oneUse);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);
  linalg::populateConstantFoldLinalgOperations(patterns, policy);
  return applyPatternsGreedily(func, std::move(patterns));
}

struct TLCFuseElementwisePass : tlc::impl::TLCFuseElementwiseBase<TLCFuseElementwisePass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // One fusion at a time: it erases ops, so the walk starts again after each.
    for (bool changed = true; changed;) {
      changed = false;
      getOperation().walk([&](linalg::GenericOp consumer) {
        for (OpOperand &operand : consumer->getOpOperands())
          if (shouldFuseElementwise(&operand) && fuse(rewriter, operand)) {
            changed = true;
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      });
    }
    if (failed(propagateReshapes(getOperation())))
      return signalPassFailure();
  }
};

} // namespace
