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

/// Records on `op` the fusion group of the source ops at `locs` and why they fused.
void recordGroup(Operation *op, ArrayRef<Attribute> locs, StringRef why) {
  MLIRContext *ctx = op->getContext();
  std::string reason = "elementwise chain (" + describeBody(op) + ") in one loop nest: " + why.str();
  NamedAttribute fields[] = {
      {StringAttr::get(ctx, "kind"), StringAttr::get(ctx, "elementwise")},
      {StringAttr::get(ctx, "reason"), StringAttr::get(ctx, reason)},
      {StringAttr::get(ctx, "ops"), ArrayAttr::get(ctx, locs)}};
  op->setAttr(kGroupAttr, DictionaryAttr::get(ctx, fields));
}

/// Mechanism: fuses the producer of `operand` into its consumer with upstream's
/// fuseElementwiseOps, records the group on the fused op and returns it (null on failure).
Operation *fuse(RewriterBase &rewriter, OpOperand &operand) {
  Operation *consumer = operand.getOwner();
  Operation *producer = operand.get().getDefiningOp();
  bool returned = isReturnedAlongside(&operand);
  // The consumer's location first: it stays the fused op's primary location (diagnostics, the
  // memory report); the producers' follow.
  Location loc = FusedLoc::get(rewriter.getContext(), {consumer->getLoc(), producer->getLoc()});
  SmallVector<Attribute> locs = groupLocations(producer);
  llvm::append_range(locs, groupLocations(consumer));
  rewriter.setInsertionPoint(consumer);
  FailureOr<linalg::ElementwiseOpFusionResult> fused =
      linalg::fuseElementwiseOps(rewriter, &operand);
  if (failed(fused))
    return nullptr;
  for (auto [original, replacement] : fused->replacements)
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return use.getOwner() != producer;
    });
  rewriter.eraseOp(consumer);
  if (producer->use_empty())
    rewriter.eraseOp(producer);

  Operation *op = fused->fusedOp;
  // Operands read twice (a value and its square) and results nobody reads merged away now:
  // the canonicalizer would do it later by building a new op, without the group recorded here.
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    rewriter.setInsertionPoint(generic);
    FailureOr<linalg::GenericOp> compact =
        linalg::deduplicateOperandsAndRemoveDeadResults(rewriter, generic, /*removeOutputs=*/false);
    if (succeeded(compact))
      op = *compact;
  }
  op->setLoc(loc);
  recordGroup(op, locs,
              returned ? "the producer's value is also a result, written by the same loop nest"
                       : "each producer's only use is the next op");
  return op;
}

/// Ops fused here whose recorded group a later rewrite dropped (upstream's fusion patterns and
/// canonicalizations build new ops, keeping the location but not the attribute): the group
/// again, from the fused location.
void restoreGroups(func::FuncOp func) {
  func.walk([](linalg::GenericOp op) {
    auto fusedLoc = dyn_cast<FusedLoc>(op->getLoc());
    if (op->hasAttr(kGroupAttr) || !fusedLoc || fusedLoc.getLocations().size() < 2)
      return;
    SmallVector<Attribute> locs;
    for (Location l : fusedLoc.getLocations())
      locs.push_back(l);
    recordGroup(op, locs, "the ops' values feed one another element for element");
  });
}

/// Upstream's reshape propagation (expanding elementwise ops across expand_shape so more of
/// them line up) and its cleanups, as in `linalg-fuse-elementwise-ops`, with the same fusion
/// policy for the fusions they expose (those keep the consumer's location only).
LogicalResult propagateReshapes(func::FuncOp func, unsigned maxOps) {
  MLIRContext *ctx = func.getContext();
  RewritePatternSet patterns(ctx);
  linalg::ControlFusionFn policy = [maxOps](OpOperand *operand) {
    return shouldFuseElementwise(operand, maxOps);
  };
  // Not into a reduction (a contraction): expanding across a collapsed operand would split its
  // one reduced dimension back into several, which the contraction generator runs 2x slower
  // (tl-layout-constant-operands merges them on purpose: X^T g over batch x sequence rows).
  // Nor out of one, for an integer contraction (tl.quantized_conv2d's im2col product): its
  // columns, the output pixels, would split into rows, narrower than a register tile.
  linalg::ControlFusionFn oneUse = [](OpOperand *operand) {
    Operation *producer = operand->get().getDefiningOp();
    auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
    if (consumer && consumer.getNumReductionLoops() > 0)
      return false;
    auto contraction = dyn_cast_or_null<linalg::LinalgOp>(producer);
    if (contraction && contraction.getNumReductionLoops() > 0 &&
        getElementTypeOrSelf(operand->get().getType()).isInteger(32))
      return false;
    // Nor a contraction's last output dimension split (a filter gradient [F, C*KH*KW]
    // reshaped to [F, C, KH, KW]): its innermost loop, the register tile's columns, would shrink
    // to KW (3).
    auto expand = dyn_cast<tensor::ExpandShapeOp>(operand->getOwner());
    if (contraction && contraction.getNumReductionLoops() > 0 && expand &&
        expand.getReassociationIndices().back().size() > 1)
      return false;
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

/// One round: fuses disjoint producer/consumer pairs (an op fused this round is neither
/// producer nor consumer again in it), visiting consumers in program order. Returns whether
/// anything was fused.
bool fuseRound(func::FuncOp func, RewriterBase &rewriter, unsigned maxOps) {
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp op) { generics.push_back(op); });
  // Producers come before their consumers in the walk, so every op fused (erased) here was
  // visited already: the entries still ahead are live.
  llvm::DenseSet<Operation *> fusedThisRound;
  bool changed = false;
  for (linalg::GenericOp consumer : generics) {
    if (fusedThisRound.contains(consumer))
      continue;
    for (OpOperand &operand : consumer->getOpOperands()) {
      Operation *producer = operand.get().getDefiningOp();
      if (!producer || fusedThisRound.contains(producer) ||
          !shouldFuseElementwise(&operand, maxOps))
        continue;
      if (Operation *fused = fuse(rewriter, operand)) {
        fusedThisRound.insert(fused);
        changed = true;
        break;
      }
    }
  }
  return changed;
}

struct TLCFuseElementwisePass : tlc::impl::TLCFuseElementwiseBase<TLCFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // In rounds of disjoint pairs: a chain of n ops is fused in log n rounds, each cloning
    // every body once; one fusion at a time clones the growing body n times.
    while (fuseRound(getOperation(), rewriter, maxOps)) {
    }
    if (failed(propagateReshapes(getOperation(), maxOps)))
      return signalPassFailure();
    restoreGroups(getOperation());
  }
};

} // namespace
