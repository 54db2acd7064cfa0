// tlc-plan-workspace: every intermediate buffer at a fixed offset in one caller-provided arena.
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace tlc {
#define GEN_PASS_DEF_TLCPLANWORKSPACE
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

constexpr int64_t kAlignment = 64;

int64_t alignTo(int64_t x) { return (x + kAlignment - 1) / kAlignment * kAlignment; }

/// Bytes a buffer of `type` occupies, from the data layout (i1 takes a byte per element).
int64_t bufferBytes(const DataLayout &layout, MemRefType type) {
  return type.getNumElements() * static_cast<int64_t>(layout.getTypeSize(type.getElementType()));
}

struct TLCPlanWorkspacePass : tlc::impl::TLCPlanWorkspaceBase<TLCPlanWorkspacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t total = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      FailureOr<int64_t> size = planFunction(func);
      if (failed(size))
        return signalPassFailure();
      total = std::max(total, *size);
    }
    module->setAttr("tlc.workspace_size", IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                                           total));
  }

  /// Naive placement: buffers one after another. Returns the arena size.
  FailureOr<int64_t> planFunction(func::FuncOp func) {
    SmallVector<memref::AllocOp> allocs;
    bool ok = true;
    func.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape())
        alloc.emitOpError("cannot be placed in the workspace: its shape must be static");
      else if (!type.getLayout().isIdentity())
        alloc.emitOpError("cannot be placed in the workspace: its layout must be the identity");
      else if (type.getMemorySpace())
        alloc.emitOpError() << "cannot be placed in the workspace: it is in memory space "
                            << type.getMemorySpace() << ", not the default one";
      else {
        allocs.push_back(alloc);
        return;
      }
      ok = false;
    });
    if (!ok)
      return failure();
    SmallVector<int64_t> offsets;
    int64_t size = 0;
    DataLayout layout = DataLayout::closest(func);
    for (memref::AllocOp alloc : allocs) {
      offsets.push_back(size);
      size += alignTo(bufferBytes(layout, alloc.getType()));
    }
    MLIRContext *ctx = func.getContext();
    auto arenaType = MemRefType::get({size}, IntegerType::get(ctx, 8));
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(index, arenaType,
                                   DictionaryAttr::get(ctx, {NamedAttribute(
                                                                StringAttr::get(ctx, "tl.name"),
                                                                StringAttr::get(ctx, "workspace"))}),
                                   func.getLoc())))
      return failure();
    Value arena = func.getArgument(index);
    OpBuilder b(ctx);
    for (auto [alloc, offset] : llvm::zip(allocs, offsets)) {
      b.setInsertionPoint(alloc);
      Value shift = arith::ConstantIndexOp::create(b, alloc.getLoc(), offset);
      Value view = memref::ViewOp::create(b, alloc.getLoc(), alloc.getType(), arena, shift,
                                          ValueRange{});
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.replaceAllUsesWith(view);
      alloc.erase();
    }
    return size;
  }
};

} // namespace
