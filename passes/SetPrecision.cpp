// tl-set-precision: the mixed-precision policy (which operands are cast to bf16/f16).
#include "passes/Passes.h"
#include "passes/PrecisionProbe.h"

#include "TL/TLDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace tlc {
#define GEN_PASS_DEF_TLSETPRECISION
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

SmallVector<StringRef> tlc::namesInLocation(Location loc) {
  SmallVector<StringRef> names;
  loc->walk([&](Location l) {
    if (auto named = dyn_cast<NameLoc>(l))
      names.push_back(named.getName().getValue());
    return WalkResult::advance();
  });
  return names;
}

SmallVector<unsigned> tlc::demotableOperands(Operation *op) {
  auto precisionOp = dyn_cast<tl::PrecisionOpInterface>(op);
  if (!precisionOp)
    return {};
  SmallVector<unsigned> operands = precisionOp.getLowPrecisionOperands();
  for (unsigned i : operands)
    if (!cast<RankedTensorType>(op->getOperand(i).getType()).getElementType().isF32())
      return {};
  return operands;
}

void tlc::demoteOperands(Operation *op, ArrayRef<unsigned> operands, Type low, OpBuilder &b) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  for (unsigned i : operands) {
    Value v = op->getOperand(i);
    auto type = cast<RankedTensorType>(v.getType());
    op->setOperand(i, tl::CastOp::create(b, v.getLoc(), type.clone(low), v));
  }
  op->setAttr("tl.precision", b.getStringAttr(low.isBF16() ? "bf16" : "f16"));
}

namespace {

/// Whether `op` gathers from a constant f32 table (an embedding): the policy stores such a
/// table in the low type and extends the gathered rows to f32, halving its bytes; each row is
/// rounded once (what any low-precision weight costs) and nothing is computed in the low type.
bool isDemotableTableGather(Operation *op) {
  auto gather = dyn_cast<tl::GatherOp>(op);
  return gather && gather.getInput().getType().getElementType().isF32() &&
         matchPattern(gather.getInput(), m_Constant());
}

/// Makes the gather `op` read its table through a `tl.cast` to `low` and gather in `low`, then
/// extends the result back with a `tl.cast` (which its uses read); records `tl.precision`.
void demoteTableGather(Operation *op, Type low, OpBuilder &b) {
  auto gather = cast<tl::GatherOp>(op);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(gather);
  Value table = gather.getInput();
  gather.getInputMutable().assign(tl::CastOp::create(
      b, table.getLoc(), cast<RankedTensorType>(table.getType()).clone(low), table));
  auto type = cast<RankedTensorType>(gather.getType());
  gather.getResult().setType(type.clone(low));
  b.setInsertionPointAfter(gather);
  auto extended = tl::CastOp::create(b, gather.getLoc(), type, gather.getResult());
  gather.getResult().replaceAllUsesExcept(extended, extended);
  gather->setAttr("tl.precision", b.getStringAttr(low.isBF16() ? "bf16" : "f16"));
}

struct TLSetPrecisionPass : tlc::impl::TLSetPrecisionBase<TLSetPrecisionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (precision == Precision::Auto) {
      module.emitError("tl-set-precision: 'auto' must be resolved to a type by the driver");
      return signalPassFailure();
    }
    if (precision == Precision::F32)
      return;
    OpBuilder b(&getContext());
    Type low = precision == Precision::BF16 ? Type(b.getBF16Type()) : Type(b.getF16Type());
    llvm::StringSet<> keep, used;
    for (const std::string &name : keepF32)
      keep.insert(name);
    std::optional<PrecisionProbe> reference;
    if (probe)
      reference.emplace(module);
    auto kept = [&](Operation *op) {
      for (StringRef name : namesInLocation(op->getLoc()))
        if (keep.contains(name)) {
          used.insert(name);
          op->setAttr("tl.precision", b.getStringAttr("f32"));
          return true;
        }
      return false;
    };
    SmallVector<Operation *> demoted;
    module.walk([&](Operation *op) {
      if (reference && reference->isReference(op))
        return;
      // Embedding tables: stored in the low type, the gathered rows extended to f32.
      if (isDemotableTableGather(op)) {
        if (!kept(op))
          demoteTableGather(op, low, b);
        return;
      }
      SmallVector<unsigned> operands = demotableOperands(op);
      if (operands.empty() || kept(op))
        return;
      demoteOperands(op, operands, low, b);
      demoted.push_back(op);
    });
    bool unmatched = false;
    for (const std::string &name : keepF32)
      if (!used.contains(name)) {
        module.emitError() << "--keep-fp32 name '" << name
                           << "' matches no contraction, convolution or constant-table "
                              "gather of the model";
        unmatched = true;
      }
    if (unmatched)
      return signalPassFailure();
    if (reference && failed(reference->finish(demoted, low)))
      signalPassFailure();
  }
};

} // namespace
