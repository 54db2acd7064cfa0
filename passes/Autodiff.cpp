// tl-autodiff: tl.grad ops become reverse-mode backward graphs of tl ops.
//
// One reverse sweep per loss: values downstream of a requested one are "active"; walking the
// block backwards from the loss, each op with a result gradient and an active operand gives
// its operands' gradients (DifferentiableOpInterface), summed where a value has several uses.
#include "passes/Passes.h"

#include "TL/TLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace tlc {
#define GEN_PASS_DEF_TLAUTODIFF
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

namespace {
bool isFloatTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && isa<FloatType>(t.getElementType());
}

Value constantOf(OpBuilder &b, Location loc, RankedTensorType type, double v) {
  return tl::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(), v)));
}

/// Replaces the `tl.grad`s of `loss` (all in `block`, in block order) with its gradients.
LogicalResult differentiate(Block &block, Value loss, ArrayRef<tl::GradOp> requests) {
  llvm::DenseSet<Value> active;
  for (tl::GradOp g : requests)
    active.insert(g.getWrt());
  for (Operation &op : block) {
    if (isa<tl::GradOp>(op))
      continue;
    if (llvm::any_of(op.getOperands(), [&](Value v) { return active.contains(v); }))
      for (Value r : op.getResults())
        if (isFloatTensor(r))
          active.insert(r);
  }

  tl::GradOp first = requests.front();
  OpBuilder b(first);
  llvm::DenseMap<Value, Value> adjoint;
  if (active.contains(loss))
    adjoint[loss] = constantOf(b, loss.getLoc(), cast<RankedTensorType>(loss.getType()), 1.0);
  Operation *start = loss.getDefiningOp();
  for (Operation *op = (start && active.contains(loss)) ? start : nullptr; op;
       op = op->getPrevNode()) {
    if (op->getNumResults() != 1 || !adjoint.count(op->getResult(0)))
      continue;
    if (llvm::none_of(op->getOperands(), [&](Value v) { return active.contains(v); }))
      continue;
    if (isa<tl::GradOp>(op)) {
      InFlightDiagnostic diag = op->emitError("the gradient of a gradient is not supported");
      diag.attachNote(first.getLoc()) << "gradient requested here";
      return failure();
    }
    auto vjp = dyn_cast<tl::DifferentiableOpInterface>(op);
    if (!vjp) {
      InFlightDiagnostic diag = op->emitError()
                                << "'" << op->getName() << "' has no gradient, and it lies "
                                << "between the loss and a value whose gradient is requested";
      diag.attachNote(first.getLoc()) << "gradient requested here";
      return failure();
    }
    SmallVector<Value> grads;
    if (failed(vjp.buildVJP(b, adjoint[op->getResult(0)], grads)))
      return failure();
    for (auto [operand, grad] : llvm::zip_equal(op->getOperands(), grads)) {
      if (!grad || !active.contains(operand))
        continue;
      if (grad.getType() != operand.getType())
        return op->emitError("internal error: the gradient of an operand has type ")
               << grad.getType() << ", expected " << operand.getType();
      Value &sum = adjoint[operand];
      sum = sum ? tl::AddOp::create(b, op->getLoc(), sum, grad).getResult() : grad;
    }
  }

  for (tl::GradOp g : requests) {
    Value grad = adjoint.lookup(g.getWrt());
    if (!grad)
      grad = constantOf(b, g.getLoc(), g.getType(), 0.0);
    g.replaceAllUsesWith(grad);
    g.erase();
  }
  return success();
}

struct TLAutodiff : tlc::impl::TLAutodiffBase<TLAutodiff> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    llvm::MapVector<Value, SmallVector<tl::GradOp>> byLoss;
    func.walk([&](tl::GradOp g) { byLoss[g.getLoss()].push_back(g); });
    if (byLoss.empty())
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitError("tl.grad needs a function of one block");
      return signalPassFailure();
    }
    for (auto &[loss, requests] : byLoss)
      if (failed(differentiate(func.getBody().front(), loss, requests)))
        return signalPassFailure();
  }
};
} // namespace
