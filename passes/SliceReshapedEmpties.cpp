// tlc-slice-reshaped-empties: a tensor.empty written through a reshape into a slice becomes
// that slice, reshaped, so the writer computes in place.
#include "passes/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSLICERESHAPEDEMPTIES
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

struct TLCSliceReshapedEmptiesPass
    : tlc::impl::TLCSliceReshapedEmptiesBase<TLCSliceReshapedEmptiesPass> {
  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation().walk([&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    for (tensor::InsertSliceOp insert : inserts) {
      auto collapse = insert.getSource().getDefiningOp<tensor::CollapseShapeOp>();
      if (!collapse || !collapse->hasOneUse() || !collapse.getSrc().hasOneUse())
        continue;
      auto writer = collapse.getSrc().getDefiningOp<DestinationStyleOpInterface>();
      if (!writer || !writer.hasPureTensorSemantics())
        continue;
      OpOperand *init = writer.getTiedOpOperand(cast<OpResult>(collapse.getSrc()));
      auto empty = init ? init->get().getDefiningOp<tensor::EmptyOp>() : nullptr;
      if (!empty || !empty->hasOneUse() || !empty.getType().hasStaticShape())
        continue;
      // The slice is taken right before the writer, which first moves down to right before
      // the reshape and the insert where the destination (a concat's earlier inserts, say) is
      // made after it: it is free of side effects, and what it reads is there already.
      auto availableAt = [&](Operation *at) {
        auto there = [&](Value v) { return dominance.properlyDominates(v, at); };
        return there(insert.getDest()) && llvm::all_of(insert.getOffsets(), there) &&
               llvm::all_of(insert.getSizes(), there) && llvm::all_of(insert.getStrides(), there);
      };
      if (!availableAt(writer)) {
        if (writer->getBlock() != insert->getBlock() || collapse->getBlock() != insert->getBlock() ||
            !isMemoryEffectFree(writer) || !availableAt(insert))
          continue;
        writer->moveBefore(insert);
        collapse->moveBefore(insert);
      }
      OpBuilder b(writer);
      Value slice = tensor::ExtractSliceOp::create(
          b, insert.getLoc(), insert.getSourceType(), insert.getDest(), insert.getMixedOffsets(),
          insert.getMixedSizes(), insert.getMixedStrides());
      Value shaped = tensor::ExpandShapeOp::create(b, insert.getLoc(), empty.getType(), slice,
                                                   collapse.getReassociationIndices());
      init->set(shaped);
      empty->erase();
    }
  }
};

} // namespace
