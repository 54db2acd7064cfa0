// tlc-outline-math: blocks with very many transcendental math ops call one copy of each.
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/LoopUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/SymbolTable.h"

namespace tlc {
#define GEN_PASS_DEF_TLCOUTLINEMATH
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Math ops that tlc-approximate-math expands into a polynomial or rational approximation of
/// a dozen or more instructions (the cheap ones, like fma, sqrt or floor, are one instruction).
bool expands(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log1pOp,
             math::Log2Op, math::TanhOp, math::ErfOp, math::ErfcOp, math::SinOp, math::CosOp,
             math::TanOp, math::AtanOp, math::Atan2Op, math::AsinOp, math::AcosOp,
             math::SinhOp, math::CoshOp, math::AsinhOp, math::AcoshOp, math::AtanhOp,
             math::PowFOp, math::CbrtOp>(op);
}

/// Mechanism: the private no_inline function computing `op` (its name, attributes and types)
/// on its arguments, made on first use and shared by every op alike.
class MathFunctions {
public:
  explicit MathFunctions(ModuleOp module) : module(module), symbols(module) {}

  func::FuncOp get(Operation *op) {
    std::string key;
    llvm::raw_string_ostream os(key);
    os << op->getName() << op->getAttrDictionary() << ':';
    llvm::interleaveComma(op->getOperandTypes(), os);
    os << "->";
    llvm::interleaveComma(op->getResultTypes(), os);
    func::FuncOp &fn = functions[key];
    if (fn)
      return fn;
    MLIRContext *ctx = module.getContext();
    OpBuilder builder(ctx);
    builder.setInsertionPointToEnd(module.getBody());
    auto type = FunctionType::get(ctx, op->getOperandTypes(), op->getResultTypes());
    std::string name = ("tlc_math_" + op->getName().stripDialect()).str();
    fn = func::FuncOp::create(builder, op->getLoc(), name, type);
    fn.setPrivate();
    // Inlined back, each call would be the expansion this pass avoids.
    tlc::setNeverInline(fn);
    symbols.insert(fn); // renames on collision
    Block *entry = fn.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    Operation *copy = builder.clone(*op);
    copy->setOperands(entry->getArguments());
    func::ReturnOp::create(builder, op->getLoc(), copy->getResults());
    return fn;
  }

private:
  ModuleOp module;
  SymbolTable symbols;
  llvm::StringMap<func::FuncOp> functions;
};

struct TLCOutlineMathPass : tlc::impl::TLCOutlineMathBase<TLCOutlineMathPass> {
  using Base::Base;

  void runOnOperation() override {
    // Policy: a block whose own ops include more than `maxInline` expanding math ops (nested
    // blocks count for themselves) calls a function for each of them.
    SmallVector<Operation *> outlined;
    getOperation()->walk([&](Block *block) {
      SmallVector<Operation *> ops;
      for (Operation &op : *block)
        if (expands(&op))
          ops.push_back(&op);
      if (ops.size() > maxInline)
        llvm::append_range(outlined, ops);
    });
    if (outlined.empty())
      return;
    MathFunctions functions(getOperation());
    for (Operation *op : outlined) {
      func::FuncOp fn = functions.get(op);
      OpBuilder builder(op);
      auto call = func::CallOp::create(builder, op->getLoc(), fn, op->getOperands());
      op->replaceAllUsesWith(call.getResults());
      op->erase();
    }
  }
};

} // namespace
