// tlc-promote-accumulators: a loop's read-modify-write of one element carried in a register.
#include "targets/gpu/GPUPasses.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {
#define GEN_PASS_DEF_TLCPROMOTEACCUMULATORS
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// A load and a later store of the same element, in the loop's body block.
struct Accumulator {
  memref::LoadOp load;
  memref::StoreOp store;
};

/// Whether `op` (or anything nested in it) may access memory other than through plain loads
/// and stores, which this analysis could not see.
bool hasOpaqueMemoryEffects(Operation *op) {
  bool opaque = false;
  op->walk([&](Operation *nested) {
    if (isa<memref::LoadOp, memref::StoreOp>(nested))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!effects && !nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      opaque = true;
    else if (effects && !effects.hasNoEffect())
      opaque = true;
  });
  return opaque;
}

/// The first promotable accumulator of `loop`, if any.
std::optional<Accumulator> findAccumulator(scf::ForOp loop) {
  Block *body = loop.getBody();
  for (auto store : body->getOps<memref::StoreOp>()) {
    Value buffer = store.getMemRef();
    if (!llvm::all_of(store.getIndices(), [&](Value i) { return loop.isDefinedOutsideOfLoop(i); }))
      continue;
    memref::LoadOp load;
    bool other = false;
    loop->walk([&](Operation *op) {
      if (auto l = dyn_cast<memref::LoadOp>(op); l && l.getMemRef() == buffer) {
        if (load || l->getBlock() != body || l.getIndices() != store.getIndices() ||
            !l->isBeforeInBlock(store))
          other = true;
        load = l;
      } else if (auto s = dyn_cast<memref::StoreOp>(op); s && s.getMemRef() == buffer && s != store) {
        other = true;
      }
    });
    if (load && !other)
      return Accumulator{load, store};
  }
  return std::nullopt;
}

/// Loads the element before the loop, carries it, stores it after; returns the new loop.
scf::ForOp promote(RewriterBase &rewriter, scf::ForOp loop, Accumulator acc) {
  rewriter.setInsertionPoint(loop);
  Value init = memref::LoadOp::create(rewriter, acc.load.getLoc(), acc.load.getMemRef(),
                                      acc.load.getIndices());
  Value stored = acc.store.getValueToStore();
  auto result = cast<LoopLikeOpInterface>(loop.getOperation())
                    .replaceWithAdditionalYields(
                        rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
                        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                          return SmallVector<Value>{stored};
                        });
  auto newLoop = cast<scf::ForOp>(result->getOperation());
  rewriter.replaceAllUsesWith(acc.load.getResult(), newLoop.getRegionIterArgs().back());
  rewriter.setInsertionPointAfter(newLoop);
  memref::StoreOp::create(rewriter, acc.store.getLoc(), newLoop.getResults().back(),
                          acc.store.getMemRef(), acc.store.getIndices());
  rewriter.eraseOp(acc.store);
  rewriter.eraseOp(acc.load);
  return newLoop;
}

struct TLCPromoteAccumulatorsPass
    : tlc::impl::TLCPromoteAccumulatorsBase<TLCPromoteAccumulatorsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); }); // inner first
    for (scf::ForOp loop : loops) {
      if (hasOpaqueMemoryEffects(loop))
        continue;
      while (std::optional<Accumulator> acc = findAccumulator(loop))
        loop = promote(rewriter, loop, *acc);
    }
  }
};

} // namespace
