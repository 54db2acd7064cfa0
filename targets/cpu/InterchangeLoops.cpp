// tlc-interchange-loops: make the loop with the most unit-stride traffic innermost.
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace tlc {
#define GEN_PASS_DEF_TLCINTERCHANGELOOPS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// The loop dimension indexing the last axis of `operand` in `op`, if that axis is a plain
/// loop dimension.
std::optional<unsigned> lastAxisDim(linalg::GenericOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto last = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return last.getPosition();
  return std::nullopt;
}

/// Policy: the loop dimension that walks the last (contiguous) axis of the most operand bytes.
/// Ties go to parallel dimensions, then to the one that walks the output contiguously (strided
/// writes cost more than strided reads), then to the current innermost loop.
std::optional<unsigned> pickInnermostDim(linalg::GenericOp op, const DataLayout &layout) {
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> unitStrideBytes(numLoops, 0);
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || type.getRank() == 0 || !type.hasStaticShape())
      continue;
    if (std::optional<unsigned> d = lastAxisDim(op, operand))
      unitStrideBytes[*d] += type.getNumElements() *
                             static_cast<int64_t>(layout.getTypeSize(type.getElementType()));
  }
  std::optional<unsigned> outputDim;
  if (op.getNumDpsInits() == 1)
    outputDim = lastAxisDim(op, *op.getDpsInitOperand(0));
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto rank = [&](unsigned d) {
    return std::make_tuple(unitStrideBytes[d], iterators[d] == utils::IteratorType::parallel,
                           outputDim == d, d == numLoops - 1);
  };
  std::optional<unsigned> best;
  for (unsigned d = 0; d < numLoops; ++d)
    if (!best || rank(d) > rank(*best))
      best = d;
  return best;
}

struct TLCInterchangeLoopsPass : tlc::impl::TLCInterchangeLoopsBase<TLCInterchangeLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      unsigned numLoops = op.getNumLoops();
      std::optional<unsigned> inner = pickInnermostDim(op, DataLayout::closest(op));
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
