// tl-autodiff: tl.grad ops become reverse-mode backward graphs of tl ops.
//
// One reverse sweep per loss: values downstream of a requested one are "active"; walking the
// block backwards from the loss, each op with a result gradient and an active operand gives
// its operands' gradients (DifferentiableOpInterface), summed where a value has several uses.
#include "passes/Passes.h"
#include "passes/Rematerialize.h"

#include "TL/GradientBuilders.h"
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
using tl::grad::filled;
using tl::grad::isFloatTensor;

/// How a message names `value`: its input or binding name where it has one.
std::string describe(Value value) {
  StringAttr name;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "tl.name");
  } else if (auto loc = dyn_cast<NameLoc>(value.getDefiningOp()->getLoc())) {
    name = loc.getName();
  }
  return name ? "'" + name.str() + "'" : std::string("this value");
}

/// Moves each op after `last` (the backward graph's last op) that reads gradients, such as an
/// optimizer's update of a parameter, right after its operands are computed: a gradient then
/// dies as soon as its own update has read it, instead of living until every update has run
/// (for a training step, the gradients of all parameters were live at once). Ops that read
/// no gradient stay where they are.
void scheduleEarly(Block &block, Operation *last) {
  llvm::DenseSet<Operation *> ready; // ops at or before `last`, and those moved
  for (Operation *op = &block.front(); op != last->getNextNode(); op = op->getNextNode())
    ready.insert(op);
  SmallVector<Operation *> after;
  for (Operation *op = last->getNextNode(); op && op != block.getTerminator();
       op = op->getNextNode())
    after.push_back(op);
  // Constants first (they read nothing), so an update's constants do not hold it back.
  for (Operation *op : after)
    if (op->hasTrait<OpTrait::ConstantLike>()) {
      op->moveBefore(&block.front());
      ready.insert(op);
    }
  for (Operation *op : after) {
    if (op->hasTrait<OpTrait::ConstantLike>())
      continue;
    Operation *anchor = nullptr;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && (!anchor || anchor->isBeforeInBlock(def)))
        anchor = def;
    if (!anchor || !ready.contains(anchor))
      continue;
    op->moveAfter(anchor);
    ready.insert(op);
  }
}

/// Replaces the `tl.grad`s of `loss` (all in `block`, in block order) with its gradients.
/// With `policy`, forward values the backward ops read are kept or recomputed by it
/// (Rematerialize.h), and what was done is recorded on `func`.
LogicalResult differentiate(Operation *func, Block &block, Value loss,
                            ArrayRef<tl::GradOp> requests,
                            const std::optional<RematPolicy> &policy) {
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
  Operation *beforeBackward = first->getPrevNode();
  OpBuilder b(first);
  llvm::DenseMap<Value, Value> adjoint;
  if (active.contains(loss))
    adjoint[loss] = filled(b, loss.getLoc(), cast<RankedTensorType>(loss.getType()), 1.0);
  Operation *start = loss.getDefiningOp();
  for (Operation *op = (start && active.contains(loss)) ? start : nullptr; op;
       op = op->getPrevNode()) {
    if (op->getNumResults() != 1 || !adjoint.count(op->getResult(0)))
      continue;
    if (llvm::none_of(op->getOperands(), [&](Value v) { return active.contains(v); }))
      continue;
    // The first requested value the op depends on: the gradient that needs it, which every
    // error at the op names in a note.
    auto noteNeeding = [&](Diagnostic &diag) {
      tl::GradOp needing = first;
      for (tl::GradOp g : requests)
        if (llvm::any_of(op->getOperands(),
                         [&](Value v) { return tl::grad::dependsOn(v, g.getWrt()); })) {
          needing = g;
          break;
        }
      diag.attachNote(needing.getLoc())
          << "the gradient with respect to " << describe(needing.getWrt()) << " is requested here";
    };
    auto vjp = dyn_cast<tl::DifferentiableOpInterface>(op);
    if (!vjp) {
      InFlightDiagnostic diag = op->emitError()
                                << "'" << op->getName() << "' has no gradient, and it lies "
                                << "between the loss and a value whose gradient is requested";
      noteNeeding(*diag.getUnderlyingDiagnostic());
      return failure();
    }
    SmallVector<Value> grads;
    LogicalResult built = success();
    {
      // A rule that fails reports at the op; the note is added on the way out.
      ScopedDiagnosticHandler addNote(op->getContext(), [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          noteNeeding(diag);
        return failure(); // not consumed: the outer handler prints it
      });
      built = vjp.buildVJP(b, adjoint[op->getResult(0)], grads);
    }
    if (failed(built))
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

  if (policy) {
    Operation *begin = beforeBackward ? beforeBackward->getNextNode() : &block.front();
    rematerialize(func, block, begin, first, *policy);
  }

  // All replacements first: `b` inserts before the first request.
  SmallVector<Value> results;
  for (tl::GradOp g : requests) {
    Value grad = adjoint.lookup(g.getWrt());
    results.push_back(grad ? grad : filled(b, g.getLoc(), g.getType(), 0.0));
  }
  Operation *lastBackward = first->getPrevNode();
  for (auto [g, grad] : llvm::zip_equal(requests, results)) {
    tl::GradOp op = g;
    op.replaceAllUsesWith(grad);
    op.erase();
  }
  if (lastBackward)
    scheduleEarly(block, lastBackward);
  return success();
}

struct TLAutodiff : tlc::impl::TLAutodiffBase<TLAutodiff> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    std::optional<RematPolicy> policy;
    if (!remat.empty()) {
      policy.emplace();
      std::string error = parseRematPolicy(remat, *policy);
      if (!error.empty()) {
        func.emitError() << "remat='" << remat << "': " << error;
        return signalPassFailure();
      }
    }
    llvm::MapVector<Value, SmallVector<tl::GradOp>> byLoss;
    func.walk([&](tl::GradOp g) { byLoss[g.getLoss()].push_back(g); });
    if (byLoss.empty())
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitError("tl.grad needs a function of one block");
      return signalPassFailure();
    }
    // Second derivatives are not supported (their VJPs are not checked): a loss computed from
    // a gradient is an error.
    llvm::DenseMap<Value, tl::GradOp> fromGrad;
    for (Operation &op : func.getBody().front()) {
      auto grad = dyn_cast<tl::GradOp>(op);
      if (grad && fromGrad.count(grad.getLoss())) {
        InFlightDiagnostic diag = grad.emitError("the gradient of a gradient is not supported");
        diag.attachNote(fromGrad[grad.getLoss()].getLoc()) << "the loss depends on this gradient";
        return signalPassFailure();
      }
      for (Value operand : op.getOperands())
        if (auto it = fromGrad.find(operand); it != fromGrad.end() && !grad) {
          // A copy: inserting may grow the map and free the bucket `it` points into (ASan:
          // a heap-use-after-free on examples/train/spiral.tl).
          tl::GradOp source = it->second;
          for (Value r : op.getResults())
            fromGrad.try_emplace(r, source);
          break;
        }
      if (grad)
        fromGrad.try_emplace(grad.getResult(), grad);
    }
    for (auto &[loss, requests] : byLoss)
      if (failed(differentiate(func, func.getBody().front(), loss, requests, policy)))
        return signalPassFailure();
  }
};
} // namespace
