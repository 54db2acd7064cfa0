// tlc-flatten-constant-globals: multi-dimensional memref.globals become one-dimensional.
//
// LLVM IR translation turns a rank-r dense initializer into nested constant arrays: one
// ConstantDataArray per innermost row plus a ConstantArray per outer index. For a conv weight
// [512, 512, 3, 3] that is ~800k uniqued constants, whose creation, emission and destruction
// dominated compile time. A flat global is one ConstantDataArray; uses view it in the original
// shape through memref.expand_shape, which costs nothing at run time.
//
// The flat initializer is a dense_resource blob that borrows the original attribute's bytes
// (an attribute lives as long as its context): a reshaped DenseElementsAttr would hash and
// copy every weight once more (efficientnet_v2_l's 472 MB: ~2 s of its compile).
#include "passes/LinalgBuilders.h"
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace tlc {
#define GEN_PASS_DEF_TLCFLATTENCONSTANTGLOBALS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Whether `global`'s type allows flattening: rank > 1, static, identity layout.
bool isFlattenable(memref::GlobalOp global) {
  MemRefType type = global.getType();
  return type.getRank() > 1 && type.hasStaticShape() && type.getLayout().isIdentity();
}

struct TLCFlattenConstantGlobalsPass
    : tlc::impl::TLCFlattenConstantGlobalsBase<TLCFlattenConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Per flattened global: its original type (what uses keep seeing) and its flat type.
    llvm::DenseMap<StringAttr, std::pair<MemRefType, MemRefType>> flattened;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      if (!isFlattenable(global))
        continue;
      MemRefType type = global.getType();
      auto flatType = MemRefType::get({type.getNumElements()}, type.getElementType(),
                                      MemRefLayoutAttrInterface(), type.getMemorySpace());
      // Only dense initializers are the problem (and reshape freely); uninitialized
      // globals and resource blobs are left as they are.
      std::optional<Attribute> init = global.getInitialValue();
      auto dense = init ? dyn_cast<DenseElementsAttr>(*init) : nullptr;
      if (!dense)
        continue;
      auto flatTensor = RankedTensorType::get(flatType.getShape(), type.getElementType());
      Type element = type.getElementType();
      bool bytes = element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 == 0;
      if (dense.isSplat() || !bytes) {
        global.setInitialValueAttr(dense.reshape(flatTensor));
      } else {
        AsmResourceBlob borrowed =
            UnmanagedAsmResourceBlob::allocateWithAlign(dense.getRawData(), /*align=*/1);
        global.setInitialValueAttr(DenseResourceElementsAttr::get(
            flatTensor, global.getSymName(), std::move(borrowed)));
      }
      global.setType(flatType);
      flattened[global.getSymNameAttr()] = {type, flatType};
    }
    module.walk([&](memref::GetGlobalOp get) {
      auto it = flattened.find(get.getNameAttr().getAttr());
      if (it == flattened.end())
        return;
      auto [type, flatType] = it->second;
      OpBuilder b(get);
      Value flat = memref::GetGlobalOp::create(b, get.getLoc(), flatType, get.getName());
      Value view = memref::ExpandShapeOp::create(b, get.getLoc(), type, flat,
                                                 tlc::allDimsReassociation(type.getRank()));
      get.replaceAllUsesWith(view);
      get.erase();
    });
  }
};

} // namespace
