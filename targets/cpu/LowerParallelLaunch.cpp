// tlc-lower-parallel-launch: calls of outlined parallel loops become tlc_parallel_for calls.
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace tlc {
#define GEN_PASS_DEF_TLCLOWERPARALLELLAUNCH
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// `void NAME_tramp(ptr ctx, i64 begin, i64 end)`: loads the captured values from the context
/// struct and calls the outlined body; its address is what tlc_parallel_for receives.
LLVM::LLVMFuncOp buildTrampoline(OpBuilder &b, LLVM::LLVMFuncOp body,
                                 LLVM::LLVMStructType context) {
  Location loc = body.getLoc();
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, i64, i64});
  b.setInsertionPointAfter(body);
  auto tramp = LLVM::LLVMFuncOp::create(b, loc, (body.getName() + "_tramp").str(), type,
                                        LLVM::Linkage::Internal);
  Block *entry = tramp.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  SmallVector<Value> args = {entry->getArgument(1), entry->getArgument(2)};
  for (auto [i, t] : llvm::enumerate(context.getBody())) {
    Value slot = LLVM::GEPOp::create(b, loc, ptr, context, entry->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    args.push_back(LLVM::LoadOp::create(b, loc, t, slot));
  }
  LLVM::CallOp::create(b, loc, body, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return tramp;
}

struct TLCLowerParallelLaunchPass
    : tlc::impl::TLCLowerParallelLaunchBase<TLCLowerParallelLaunchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SymbolTable symbols(module);
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    SmallVector<LLVM::LLVMFuncOp> launches;
    for (auto f : module.getOps<LLVM::LLVMFuncOp>())
      if (f->hasAttr("tlc.parallel_launch"))
        launches.push_back(f);
    if (launches.empty())
      return;
    OpBuilder b(ctx);
    auto runtime = symbols.lookup<LLVM::LLVMFuncOp>("tlc_parallel_for");
    if (!runtime) {
      b.setInsertionPointToStart(module.getBody());
      runtime = LLVM::LLVMFuncOp::create(
          b, module.getLoc(), "tlc_parallel_for",
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr, ptr, i64}));
    }
    // The calls and other references of each launch, from one walk over the module. Only the
    // ops that can name a function are asked: SymbolTable::getSymbolUses asks every op for
    // all its attributes, which for the LLVM dialect's property-holding ops means building an
    // attribute dictionary per op (1% of the MLP example's compile).
    llvm::DenseMap<StringAttr, SmallVector<Operation *>> usersByName;
    module.walk([&](Operation *op) {
      StringAttr name;
      if (auto call = dyn_cast<CallOpInterface>(op)) {
        if (auto callee = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()))
          name = callee.getRootReference();
      } else if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
        name = address.getGlobalNameAttr().getAttr();
      }
      if (name)
        usersByName[name].push_back(op);
    });
    for (LLVM::LLVMFuncOp launch : launches) {
      auto bodyRef = launch->getAttrOfType<FlatSymbolRefAttr>("tlc.parallel_launch");
      auto body = bodyRef ? symbols.lookup<LLVM::LLVMFuncOp>(bodyRef.getValue()) : nullptr;
      if (!body) {
        launch.emitOpError("names no outlined parallel body");
        return signalPassFailure();
      }
      body.setLinkage(LLVM::Linkage::Internal);
      // Inlined into its trampoline before LLVM's function pipeline runs, so the body is
      // optimized once: as a separate callee it went through -O3, was inlined, and its loops
      // went through the pipeline again inside the trampoline (densenet121: 5.6 of 17 s).
      body.setAlwaysInline(true);
      auto params = launch.getFunctionType().getParams();
      auto context = LLVM::LLVMStructType::getLiteral(ctx, params.drop_front());
      LLVM::LLVMFuncOp tramp = buildTrampoline(b, body, context);
      for (Operation *user : usersByName.lookup(launch.getSymNameAttr())) {
        auto call = dyn_cast<LLVM::CallOp>(user);
        if (!call) {
          user->emitOpError("uses a parallel launch other than by calling it");
          return signalPassFailure();
        }
        Location loc = call.getLoc();
        // The context lives in the caller's frame: one alloca in its entry block.
        auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
        b.setInsertionPointToStart(&caller.getBody().front());
        Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
        Value slots = LLVM::AllocaOp::create(b, loc, ptr, context, one, /*alignment=*/8);
        b.setInsertionPoint(call);
        for (auto [i, v] : llvm::enumerate(call.getArgOperands().drop_front())) {
          Value slot = LLVM::GEPOp::create(b, loc, ptr, context, slots,
                                           ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
          LLVM::StoreOp::create(b, loc, v, slot);
        }
        Value fn = LLVM::AddressOfOp::create(b, loc, ptr, tramp.getSymName());
        LLVM::CallOp::create(b, loc, runtime,
                             ValueRange{fn, slots, call.getArgOperands().front()});
        call.erase();
      }
      launch.erase();
    }
  }
};

} // namespace
