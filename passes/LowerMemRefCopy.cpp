// tlc-lower-memref-copy: memref.copy as linalg.copy, which lowers to loops for any layout.
#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace tlc {
#define GEN_PASS_DEF_TLCLOWERMEMREFCOPY
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {
struct TLCLowerMemRefCopyPass : tlc::impl::TLCLowerMemRefCopyBase<TLCLowerMemRefCopyPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    // Unranked copies have no loop nest; they stay memref.copy.
    getOperation().walk([&](memref::CopyOp op) {
      if (isa<MemRefType>(op.getSource().getType()) && isa<MemRefType>(op.getTarget().getType()))
        copies.push_back(op);
    });
    OpBuilder b(&getContext());
    for (memref::CopyOp copy : copies) {
      b.setInsertionPoint(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(), copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
