// tlc-unshare-fills: every op writing into a filled tensor gets a fill of its own, so
// bufferization does not copy one shared filled buffer for each of them.
#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace tlc {
#define GEN_PASS_DEF_TLCUNSHAREFILLS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Whether `use` writes into the value it holds: a destination of a destination-style op
/// (a linalg init, a tensor.insert_slice's dest).
bool writesInto(OpOperand &use) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
  return dps && dps.isDpsInit(&use);
}

struct TLCUnshareFillsPass : tlc::impl::TLCUnshareFillsBase<TLCUnshareFillsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills) {
      Value filled = fill->getResult(0);
      auto type = cast<RankedTensorType>(filled.getType());
      if (!type.hasStaticShape())
        continue;
      // The writers in block order (the first keeps the fill); uses in other blocks are left.
      SmallVector<std::pair<Operation *, unsigned>> writers;
      for (OpOperand &use : filled.getUses())
        if (writesInto(use) && use.getOwner()->getBlock() == fill->getBlock())
          writers.push_back({use.getOwner(), use.getOperandNumber()});
      if (writers.empty())
        continue;
      llvm::sort(writers, [](const auto &a, const auto &b) {
        return a.first != b.first ? a.first->isBeforeInBlock(b.first) : a.second < b.second;
      });
      // A fill only written into moves right before its first writer, as its copies go
      // before theirs: nothing then comes between a contraction and the fill of its output
      // (tlc-tile-contractions starts the accumulators from the fill value in registers).
      if (writers.size() == size_t(std::distance(filled.use_begin(), filled.use_end())))
        fill->moveBefore(writers.front().first);
      for (auto [owner, operand] : llvm::drop_begin(writers)) {
        OpBuilder b(owner);
        Value empty =
            tensor::EmptyOp::create(b, fill.getLoc(), type.getShape(), type.getElementType());
        auto copy = linalg::FillOp::create(b, fill.getLoc(), fill.getInputs()[0], empty);
        owner->setOperand(operand, copy->getResult(0));
      }
    }
  }
};

} // namespace
