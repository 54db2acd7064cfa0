// tlc-add-entry-point: the C entry point NAME_run, which validates pointers and returns a status.
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tlc {
#define GEN_PASS_DEF_TLCADDENTRYPOINT
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

// Values of tlc_status in runtime/include/tlc/runtime.h.
constexpr int kStatusOk = 0;
constexpr int kStatusInvalidArgument = 1;

/// Whether any of `buffers` has a NULL aligned pointer, as one chain of `arith.ori`: the
/// smallest code for a few buffers, but LLVM's optimizer takes superlinear time on long chains.
Value buildAnyNullInline(OpBuilder &b, Location loc, ArrayRef<Value> buffers) {
  Value anyNull = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (Value buffer : buffers) {
    Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    Value isNull = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ptr, zero);
    anyNull = arith::OrIOp::create(b, loc, anyNull, isNull);
  }
  return anyNull;
}

/// The same test with O(1) IR per buffer: the pointers go into a stack array, in argument
/// order, and one `scf.for` ORs their NULL tests.
Value buildAnyNullLoop(OpBuilder &b, Location loc, ArrayRef<Value> buffers) {
  auto count = static_cast<int64_t>(buffers.size());
  auto arrayType = MemRefType::get({count}, b.getIndexType());
  Value ptrs = memref::AllocaOp::create(b, loc, arrayType);
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    Value ptr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    Value pos = arith::ConstantIndexOp::create(b, loc, static_cast<int64_t>(i));
    memref::StoreOp::create(b, loc, ptr, ptrs, pos);
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value end = arith::ConstantIndexOp::create(b, loc, count);
  Value noneNull = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  auto loop = scf::ForOp::create(
      b, loc, zero, end, one, ValueRange{noneNull},
      [&](OpBuilder &lb, Location l, Value iv, ValueRange iterArgs) {
        Value ptr = memref::LoadOp::create(lb, l, ptrs, iv);
        Value isNull = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq, ptr, zero);
        scf::YieldOp::create(lb, l, ValueRange{arith::OrIOp::create(lb, l, iterArgs[0], isNull)});
      });
  return loop.getResult(0);
}

struct TLCAddEntryPointPass : tlc::impl::TLCAddEntryPointBase<TLCAddEntryPointPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto impl = module.lookupSymbol<func::FuncOp>(modelName);
    if (!impl || impl.isExternal()) {
      module.emitError() << "no function named '" << modelName << "' to wrap";
      return signalPassFailure();
    }
    std::string runName = modelName + "_run", implName = modelName + "_impl";
    for (const std::string &taken : {runName, implName})
      if (module.lookupSymbol(taken)) {
        module.emitError() << "symbol '" << taken << "' already exists";
        return signalPassFailure();
      }
    if (failed(SymbolTable::replaceAllSymbolUses(impl, StringAttr::get(&getContext(), implName),
                                                 module))) {
      impl.emitError() << "cannot rename '" << modelName << "' to '" << implName << "'";
      return signalPassFailure();
    }
    impl.setSymName(implName);
    impl.setPrivate();

    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    b.setInsertionPointAfter(impl);
    Location loc = impl.getLoc();
    Type i32 = b.getI32Type();
    auto type = FunctionType::get(ctx, impl.getArgumentTypes(), {i32});
    auto run = func::FuncOp::create(b, loc, runName, type);
    // Names were for the header; LLVM translation would warn about unknown attributes.
    impl.removeArgAttrsAttr();
    impl.removeResAttrsAttr();
    Block *entry = run.addEntryBlock();
    b.setInsertionPointToStart(entry);

    // An empty buffer (e.g. no workspace needed) may be NULL; scalars are not pointers.
    SmallVector<Value> buffers;
    for (BlockArgument arg : run.getArguments()) {
      auto memref = dyn_cast<MemRefType>(arg.getType());
      if (memref && !(memref.hasStaticShape() && memref.getNumElements() == 0))
        buffers.push_back(arg);
    }
    Value anyNull = buffers.size() <= maxInlineChecks ? buildAnyNullInline(b, loc, buffers)
                                                      : buildAnyNullLoop(b, loc, buffers);
    auto branch = scf::IfOp::create(b, loc, TypeRange{i32}, anyNull, /*withElse=*/true);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::ConstantIntOp::create(b, loc, i32,
                                                                 kStatusInvalidArgument)});
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    func::CallOp::create(b, loc, impl, run.getArguments());
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::ConstantIntOp::create(b, loc, i32, kStatusOk)});
    b.setInsertionPointAfter(branch);
    func::ReturnOp::create(b, loc, branch.getResults());
  }
};

} // namespace
