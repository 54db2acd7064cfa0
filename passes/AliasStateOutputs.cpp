// tlc-alias-state-outputs: a training step's next-state outputs may share memory with the
// state inputs they replace, so NAME_train_step updates the caller's state buffer in place
// instead of writing the next state beside it and copying it back.
#include "passes/MemoryPlan.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tlc {
#define GEN_PASS_DEF_TLCALIASSTATEOUTPUTS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kUpdatesAttr = "tl.updates";

/// The op of the function's body that holds `op` (`op` itself at the top level).
Operation *topLevel(Operation *op, Block &body) {
  return body.findAncestorOpInBlock(*op);
}

/// Every use of `value` and of the views made of it (subviews, reshapes, casts).
void collectUses(Value value, SmallVectorImpl<OpOperand *> &uses) {
  for (OpOperand &use : value.getUses()) {
    Operation *owner = use.getOwner();
    auto view = dyn_cast<ViewLikeOpInterface>(owner);
    if (view && view.getViewSource() == value) {
      for (Value result : owner->getResults())
        collectUses(result, uses);
      continue;
    }
    uses.push_back(&use);
  }
}

/// A new buffer of `out`'s shape and element type at the start of the function's `body`
/// (tlc-plan-workspace places it in the workspace).
Value bufferLike(BlockArgument out, Block &body) {
  auto type = cast<MemRefType>(out.getType());
  OpBuilder b(&body, body.begin());
  return memref::AllocOp::create(b, out.getLoc(),
                                 MemRefType::get(type.getShape(), type.getElementType()));
}

/// Whether `use` only reads its memref: a linalg op's input or a copy's source.
bool onlyReads(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (auto copy = dyn_cast<memref::CopyOp>(owner))
    return use.get() == copy.getSource() && use.get() != copy.getTarget();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(owner);
  return linalgOp && linalgOp.isDpsInput(&use);
}

/// Policy and mechanism: `out` may share memory with `in` when the last op to write it, W, is
/// an elementwise loop nest at the top level that writes all of it (an identity map, not
/// reading its old contents) while reading `in` element for element with the same map, every
/// other reader of `in` runs before W, and `out` is only read after W. Then each element of
/// `in` is read before the same element of `out` is written, and never after. What uses `out`
/// before W (bufferization's scratch: e.g. a gradient computed into the momentum buffer that W
/// then updates) moves to a buffer of its own. The op just before W must not read `in`:
/// tlc-tile-depthwise may run an elementwise op as the row epilogue of the kernel before it,
/// whose windows would read rows W already wrote. Returns false, changing nothing, otherwise.
bool aliasInPlace(BlockArgument in, BlockArgument out, Block &body) {
  linalg::GenericOp writer;
  for (OpOperand &use : out.getUses()) {
    Operation *top = topLevel(use.getOwner(), body);
    if (!top)
      return false;
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (generic && generic == top && generic.isDpsInit(&use) &&
        (!writer || writer->isBeforeInBlock(generic)))
      writer = generic;
  }
  if (!writer || writer.getNumLoops() != writer.getNumParallelLoops())
    return false;
  OpOperand *init = nullptr;
  for (OpOperand &operand : writer.getDpsInitsMutable())
    if (operand.get() == out)
      init = init ? nullptr : &operand;
  if (!init || !writer.getMatchingIndexingMap(init).isIdentity() ||
      !writer.getMatchingBlockArgument(init).use_empty())
    return false;
  auto beforeWriter = [&](OpOperand *use) {
    Operation *top = topLevel(use->getOwner(), body);
    return top && top->isBeforeInBlock(writer);
  };
  // Views of `out` may only be scratch before W (e.g. the rows of a gradient reduced in place).
  SmallVector<OpOperand *> outUses;
  collectUses(out, outUses);
  bool viewsBeforeWriter = llvm::all_of(
      outUses, [&](OpOperand *u) { return u->get() == out || beforeWriter(u); });
  SmallVector<OpOperand *> scratch;
  for (OpOperand &use : out.getUses()) {
    Operation *top = topLevel(use.getOwner(), body);
    if (isa<ViewLikeOpInterface>(use.getOwner())) {
      if (!viewsBeforeWriter || !beforeWriter(&use))
        return false;
      scratch.push_back(&use);
    } else if (top == writer.getOperation()) {
      if (writer.isDpsInput(&use))
        scratch.push_back(&use);
    } else if (top->isBeforeInBlock(writer)) {
      scratch.push_back(&use);
    } else if (!onlyReads(use)) {
      return false;
    }
  }
  Operation *before = writer->getPrevNode();
  SmallVector<OpOperand *> inUses;
  collectUses(in, inUses);
  for (OpOperand *use : inUses) {
    Operation *owner = topLevel(use->getOwner(), body);
    if (!owner)
      return false;
    if (owner == writer.getOperation()) {
      if (use->getOwner() != writer || use->get() != in || !writer.isDpsInput(use) ||
          !writer.getMatchingIndexingMap(use).isIdentity())
        return false;
      continue;
    }
    if (owner == before || !owner->isBeforeInBlock(writer))
      return false;
  }
  if (!scratch.empty()) {
    Value buffer = bufferLike(out, body);
    for (OpOperand *use : scratch)
      use->set(buffer);
  }
  return true;
}

/// Mechanism: `out`'s next value is computed into a buffer of its own (planned into the
/// workspace) and copied over `out` at the end.
void computeAside(BlockArgument out, func::FuncOp func) {
  Block &body = func.getBody().front();
  Value aside = bufferLike(out, body);
  out.replaceAllUsesWith(aside);
  // Last, when every reader of `in` has run (aliased, this overwrites `in`).
  OpBuilder b(body.getTerminator());
  auto copy = memref::CopyOp::create(b, func.getLoc(), aside, out);
  copy->setAttr(tlc::kCopyLastAttr, UnitAttr::get(func.getContext()));
}

/// `memref.copy in -> out` (a state the step leaves unchanged, e.g. a frozen param's): skipped
/// when the caller passes the same buffer for both.
bool guardSelfCopy(BlockArgument in, BlockArgument out) {
  if (!out.hasOneUse())
    return false;
  auto copy = dyn_cast<memref::CopyOp>(out.use_begin()->getOwner());
  if (!copy || copy.getSource() != in || copy.getTarget() != out)
    return false;
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value inPtr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, in);
  Value outPtr = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, out);
  Value differ = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, inPtr, outPtr);
  auto guard = scf::IfOp::create(b, loc, differ, /*withElseRegion=*/false);
  copy->moveBefore(guard.thenBlock()->getTerminator());
  return true;
}

struct TLCAliasStateOutputsPass
    : tlc::impl::TLCAliasStateOutputsBase<TLCAliasStateOutputsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &body = func.getBody().front();
    for (BlockArgument out : func.getArguments()) {
      auto updates = func.getArgAttrOfType<IntegerAttr>(out.getArgNumber(), kUpdatesAttr);
      if (!updates)
        continue;
      func.removeArgAttr(out.getArgNumber(), kUpdatesAttr);
      int64_t index = updates.getInt();
      if (index < 0 || index >= func.getNumArguments() ||
          func.getArgument(index).getType() != out.getType()) {
        func.emitError() << "'" << kUpdatesAttr << "' of argument " << out.getArgNumber()
                         << " names no argument of its type";
        return signalPassFailure();
      }
      BlockArgument in = func.getArgument(index);
      if (guardSelfCopy(in, out) || aliasInPlace(in, out, body))
        continue;
      computeAside(out, func);
    }
  }
};

} // namespace
