// tlc-interchange-loops: make the loop with the most unit-stride traffic innermost.
#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {
#define GEN_PASS_DEF_TLCINTERCHANGELOOPS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Policy: the loop dimension that indexes the last (contiguous) axis of the most operand bytes,
/// preferring parallel dimensions on ties.
std::optional<unsigned> pickInnermostDim(linalg::GenericOp op) {
  SmallVector<int64_t> unitStrideBytes(op.getNumLoops(), 0);
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || type.getRank() == 0 || !type.hasStaticShape())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last)
      continue;
    int64_t bits = std::max<int64_t>(8, type.getElementTypeBitWidth());
    unitStrideBytes[last.getPosition()] += type.getNumElements() * bits / 8;
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> best;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    if (!best || unitStrideBytes[d] > unitStrideBytes[*best] ||
        (unitStrideBytes[d] == unitStrideBytes[*best] &&
         iterators[d] == utils::IteratorType::parallel &&
         iterators[*best] != utils::IteratorType::parallel))
      best = d;
  }
  return best;
}

struct TLCInterchangeLoopsPass : tlc::impl::TLCInterchangeLoopsBase<TLCInterchangeLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      unsigned numLoops = op.getNumLoops();
      std::optional<unsigned> inner = pickInnermostDim(op);
      if (numLoops < 2 || !inner || *inner == numLoops - 1)
        continue;
      SmallVector<unsigned> order;
      for (unsigned d = 0; d < numLoops; ++d)
        if (d != *inner)
          order.push_back(d);
      order.push_back(*inner);
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitOpError("could not interchange loops");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
