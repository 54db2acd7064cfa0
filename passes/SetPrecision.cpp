// tl-set-precision: the mixed-precision policy (which operands are cast to bf16/f16).
#include "passes/Passes.h"

#include "TL/TLDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

namespace tlc {
#define GEN_PASS_DEF_TLSETPRECISION
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

namespace {

/// The names in `loc` (NameLoc: ONNX node names, .tl bindings), outermost first.
SmallVector<StringRef> namesIn(Location loc) {
  SmallVector<StringRef> names;
  loc->walk([&](Location l) {
    if (auto named = dyn_cast<NameLoc>(l))
      names.push_back(named.getName().getValue());
    return WalkResult::advance();
  });
  return names;
}

/// Policy: the operands `op` would demote, or none when they are not all f32 (an f64 or
/// already low-precision contraction keeps its types).
SmallVector<unsigned> demotableOperands(tl::PrecisionOpInterface op) {
  SmallVector<unsigned> operands = op.getLowPrecisionOperands();
  for (unsigned i : operands)
    if (!cast<RankedTensorType>(op->getOperand(i).getType()).getElementType().isF32())
      return {};
  return operands;
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
    StringAttr lowName = b.getStringAttr(precision == Precision::BF16 ? "bf16" : "f16");
    llvm::StringSet<> keep, used;
    for (const std::string &name : keepF32)
      keep.insert(name);
    module.walk([&](tl::PrecisionOpInterface op) {
      SmallVector<unsigned> operands = demotableOperands(op);
      if (operands.empty())
        return;
      for (StringRef name : namesIn(op->getLoc()))
        if (keep.contains(name)) {
          used.insert(name);
          op->setAttr("tl.precision", b.getStringAttr("f32"));
          return;
        }
      b.setInsertionPoint(op);
      for (unsigned i : operands) {
        Value v = op->getOperand(i);
        auto type = cast<RankedTensorType>(v.getType());
        Value cast = tl::CastOp::create(b, v.getLoc(), type.clone(low), v);
        op->setOperand(i, cast);
      }
      op->setAttr("tl.precision", lowName);
    });
    bool unmatched = false;
    for (const std::string &name : keepF32)
      if (!used.contains(name)) {
        module.emitError() << "--keep-fp32 name '" << name
                           << "' matches no contraction or convolution of the model";
        unmatched = true;
      }
    if (unmatched)
      signalPassFailure();
  }
};

} // namespace
