// tlc-state-buffer: a function's marked inputs read from one state buffer, its first argument
// (NAME_run of a training step's object infers with the params NAME_train_step updates).
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/BitVector.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSTATEBUFFER
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kSizeAttr = "tl.state_size", kOffsetAttr = "tl.state_offset";

struct TLCStateBufferPass : tlc::impl::TLCStateBufferBase<TLCStateBufferPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto size = func->getAttrOfType<IntegerAttr>(kSizeAttr);
    if (!size)
      return;
    func->removeAttr(kSizeAttr);
    if (func.isExternal() || size.getInt() < 0) {
      func.emitError() << "tlc-state-buffer: " << kSizeAttr
                       << " needs a function with a body and a size >= 0";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    auto stateType = MemRefType::get({size.getInt()}, IntegerType::get(ctx, 8));
    auto name =
        NamedAttribute(StringAttr::get(ctx, "tl.name"), StringAttr::get(ctx, "state"));
    if (failed(func.insertArgument(0, stateType, DictionaryAttr::get(ctx, {name}),
                                   func.getLoc())))
      return signalPassFailure();
    Value state = func.getArgument(0);
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    llvm::BitVector moved(func.getNumArguments());
    for (BlockArgument arg : func.getArguments().drop_front()) {
      unsigned i = arg.getArgNumber();
      auto offset = func.getArgAttrOfType<IntegerAttr>(i, kOffsetAttr);
      if (!offset)
        continue;
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getElementTypeBitWidth() % 8 != 0) {
        func.emitError() << "tlc-state-buffer: argument " << i - 1 << " (" << arg.getType()
                         << ") is not a statically shaped, identity-layout memref";
        return signalPassFailure();
      }
      int64_t bytes = type.getNumElements() * type.getElementTypeBitWidth() / 8;
      if (offset.getInt() < 0 || offset.getInt() + bytes > size.getInt()) {
        func.emitError() << "tlc-state-buffer: argument " << i - 1 << " (" << bytes
                         << " bytes at " << offset.getInt() << ") does not fit the "
                         << size.getInt() << "-byte state";
        return signalPassFailure();
      }
      Location loc = arg.getLoc();
      Value shift = arith::ConstantIndexOp::create(b, loc, offset.getInt());
      Value view = memref::ViewOp::create(b, loc, type, state, shift, ValueRange{});
      arg.replaceAllUsesWith(view);
      moved.set(i);
    }
    if (failed(func.eraseArguments(moved)))
      return signalPassFailure();
  }
};

} // namespace
