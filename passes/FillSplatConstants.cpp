// tlc-fill-splat-constants: large splat tensor constants that reach bufferization become fills.
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tlc {
#define GEN_PASS_DEF_TLCFILLSPLATCONSTANTS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

struct TLCFillSplatConstantsPass
    : tlc::impl::TLCFillSplatConstantsBase<TLCFillSplatConstantsPass> {
  using TLCFillSplatConstantsBase::TLCFillSplatConstantsBase;

  void runOnOperation() override {
    SmallVector<arith::ConstantOp> splats;
    getOperation().walk([&](arith::ConstantOp op) {
      auto value = dyn_cast<SplatElementsAttr>(op.getValue());
      auto type = dyn_cast<RankedTensorType>(op.getType());
      if (value && type && type.hasStaticShape() && type.getNumElements() >= minElements)
        splats.push_back(op);
    });
    for (arith::ConstantOp op : splats) {
      OpBuilder b(op);
      auto type = cast<RankedTensorType>(op.getType());
      auto value = cast<SplatElementsAttr>(op.getValue());
      Value scalar = arith::ConstantOp::create(b, op.getLoc(), value.getSplatValue<TypedAttr>());
      Value empty = tensor::EmptyOp::create(b, op.getLoc(), type.getShape(),
                                            type.getElementType());
      Value filled = linalg::FillOp::create(b, op.getLoc(), scalar, empty).getResult(0);
      op.getResult().replaceAllUsesWith(filled);
      op.erase();
    }
  }
};

} // namespace
