// tlc-bound-forall-replicas: a buffer-allocating scf.forall runs as at most N slots, each an
// scf.for over its share of the iterations, so the workspace holds N copies of the per-iteration
// buffers instead of one per iteration.
#include "passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tlc {
#define GEN_PASS_DEF_TLCBOUNDFORALLREPLICAS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Policy: a one-dimensional forall from 0 with step 1, more than `slots` static iterations,
/// on buffers (no shared outputs), that allocates memory in its body.
bool shouldBound(scf::ForallOp forall, int64_t slots) {
  if (forall.getRank() != 1 || !forall.getOutputs().empty())
    return false;
  std::optional<int64_t> lb = getConstantIntValue(forall.getMixedLowerBound()[0]);
  std::optional<int64_t> ub = getConstantIntValue(forall.getMixedUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(forall.getMixedStep()[0]);
  if (!lb || !ub || !step || *lb != 0 || *step != 1 || *ub <= slots)
    return false;
  bool allocates = false;
  forall.getBody()->walk([&](memref::AllocOp) { allocates = true; });
  return allocates;
}

/// Mechanism: forall (i) in (n) { body } -> forall (s) in (slots) { for i = s * n / slots to
/// (s + 1) * n / slots { body } }: each slot runs a contiguous chunk, chunk sizes differing by
/// at most one. The thread pool hands each thread a contiguous range of slots, so T threads
/// get n / T iterations each, within one (a cyclic split, slot s taking s, s + slots, ..., gives
/// 14 iterations over 8 slots and 2 threads as 8:6; chunks give 7:7). Every iteration still
/// runs exactly once, with the same index.
void bound(RewriterBase &rewriter, scf::ForallOp forall, int64_t slots) {
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  OpFoldResult n = forall.getMixedUpperBound()[0];
  auto bounded = scf::ForallOp::create(rewriter, loc,
                                       ArrayRef<OpFoldResult>{rewriter.getIndexAttr(slots)},
                                       ValueRange{}, forall.getMapping());
  rewriter.setInsertionPointToStart(bounded.getBody());
  AffineExpr s0 = rewriter.getAffineDimExpr(0), sn = rewriter.getAffineSymbolExpr(0);
  OpFoldResult slot = bounded.getInductionVars()[0];
  auto chunkBound = [&](AffineExpr e) {
    return getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(rewriter, loc, AffineMap::get(1, 1, e), {slot, n}));
  };
  Value lb = chunkBound((s0 * sn).floorDiv(slots));
  Value ub = chunkBound(((s0 + 1) * sn).floorDiv(slots));
  Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step);
  Block *body = forall.getBody();
  rewriter.eraseOp(body->getTerminator()); // an empty scf.forall.in_parallel
  rewriter.inlineBlockBefore(body, loop.getBody()->getTerminator(), loop.getInductionVar());
  rewriter.eraseOp(forall);
}

struct TLCBoundForallReplicasPass
    : tlc::impl::TLCBoundForallReplicasBase<TLCBoundForallReplicasPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ForallOp> work;
    getOperation().walk([&](scf::ForallOp forall) {
      if (shouldBound(forall, maxSlots))
        work.push_back(forall);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : work)
      bound(rewriter, forall, maxSlots);
  }
};

} // namespace
