// tlc-split-long-functions: runs of loops of a function with very many move into functions.
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/LoopUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSPLITLONGFUNCTIONS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Ops that stay in the split function whatever run they are in (cloned into the runs that
/// use them, or passed): side-effect-free ops and allocations, built only from arguments and
/// other such ops. Everything else moves with its run.
bool staysAnchored(Operation *op, const llvm::DenseSet<Operation *> &anchored) {
  if (op->getNumRegions() != 0)
    return false;
  if (!isMemoryEffectFree(op) && !hasSingleEffect<MemoryEffects::Allocate>(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !def || anchored.contains(def);
  });
}

/// Mechanism: moves `moved` (ops of `func`'s body in order) into a new private function and
/// calls it after the last of them. Fails, changing nothing, if a capture cannot cross.
LogicalResult outlineRun(func::FuncOp func, ArrayRef<Operation *> moved,
                         const llvm::DenseSet<Operation *> &anchored, SymbolTable &symbols) {
  llvm::SmallPtrSet<Operation *, 32> inRun(moved.begin(), moved.end());
  llvm::SetVector<Value> passed;
  llvm::SetVector<Operation *> clones; // operands' definitions first
  std::function<bool(Value)> capture = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (def && inRun.contains(def))
      return true;
    if (def && anchored.contains(def) && isMemoryEffectFree(def)) {
      if (clones.contains(def))
        return true;
      if (!llvm::all_of(def->getOperands(), capture))
        return false;
      clones.insert(def);
      return true;
    }
    if (!tlc::isBarePointerPassable(v.getType()))
      return false;
    passed.insert(v);
    return true;
  };
  for (Operation *op : moved) {
    if (!llvm::all_of(op->getOperands(), capture))
      return failure();
    llvm::SetVector<Value> above;
    for (Region &region : op->getRegions())
      getUsedValuesDefinedAbove(region, above);
    if (!llvm::all_of(above, capture))
      return failure();
  }

  MLIRContext *ctx = func.getContext();
  Location loc = moved.back()->getLoc();
  OpBuilder builder(ctx);
  builder.setInsertionPoint(func);
  auto type = FunctionType::get(ctx, ValueRange(passed.getArrayRef()).getTypes(), {});
  auto chunk = func::FuncOp::create(builder, loc, (func.getName() + "_chunk").str(), type);
  chunk.setPrivate();
  // Inlined back, the run would make the long function it was cut from.
  tlc::setNeverInline(chunk);
  symbols.insert(chunk); // renames on collision
  Block *entry = chunk.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping map;
  for (auto [v, arg] : llvm::zip(passed, entry->getArguments()))
    map.map(v, arg);
  for (Operation *op : clones)
    builder.clone(*op, map);
  for (Operation *op : moved)
    builder.clone(*op, map);
  func::ReturnOp::create(builder, loc);

  builder.setInsertionPointAfter(moved.back());
  func::CallOp::create(builder, loc, chunk, passed.getArrayRef());
  for (Operation *op : llvm::reverse(moved))
    op->erase();
  return success();
}

/// The number of ops `op` is, its nested ones included.
unsigned nestedOpCount(Operation *op) {
  if (op->getNumRegions() == 0)
    return 1;
  unsigned count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

/// Policy: cuts `func`'s body into runs of about `maxLoops` ops with regions or `maxOps` ops
/// in all (nested ones counted), where no result of a moving op is used past the cut, and
/// outlines each run.
void splitFunction(func::FuncOp func, unsigned maxLoops, unsigned maxOps,
                   SymbolTable &symbols) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  SmallVector<Operation *> ops;
  SmallVector<unsigned> sizes;
  unsigned loopCount = 0, opCount = 0;
  for (Operation &op : body.without_terminator()) {
    ops.push_back(&op);
    sizes.push_back(nestedOpCount(&op));
    loopCount += op.getNumRegions() != 0;
    opCount += sizes.back();
  }
  if (loopCount <= maxLoops && opCount <= maxOps)
    return;

  llvm::DenseSet<Operation *> anchored;
  llvm::DenseMap<Operation *, unsigned> position;
  for (auto [i, op] : llvm::enumerate(ops)) {
    position[op] = i;
    if (staysAnchored(op, anchored))
      anchored.insert(op);
  }
  position[body.getTerminator()] = ops.size();
  // reach[p]: the last position at which a moving op before p has a use. A cut before p is
  // legal when reach[p] < p.
  SmallVector<unsigned> reach(ops.size() + 1, 0);
  unsigned furthest = 0;
  for (auto [i, op] : llvm::enumerate(ops)) {
    reach[i] = furthest;
    if (anchored.contains(op))
      continue;
    for (Operation *user : op->getUsers())
      furthest = std::max(furthest, position.lookup(body.findAncestorOpInBlock(*user)));
  }
  reach[ops.size()] = furthest;
  auto legalCut = [&](unsigned p) { return p == 0 || reach[p] < p; };

  SmallVector<SmallVector<Operation *>> runs(1);
  unsigned loops = 0, size = 0;
  for (auto [i, op] : llvm::enumerate(ops)) {
    if ((loops >= maxLoops || size >= maxOps) && legalCut(i)) {
      runs.emplace_back();
      loops = 0;
      size = 0;
    }
    if (anchored.contains(op))
      continue;
    runs.back().push_back(op);
    loops += op->getNumRegions() != 0;
    size += sizes[i];
  }
  if (!legalCut(ops.size()))
    runs.pop_back();
  for (SmallVector<Operation *> &run : runs)
    if (!run.empty())
      (void)outlineRun(func, run, anchored, symbols);
}

struct TLCSplitLongFunctionsPass
    : tlc::impl::TLCSplitLongFunctionsBase<TLCSplitLongFunctionsPass> {
  using Base::Base;
  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    SmallVector<func::FuncOp> funcs(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp func : funcs)
      splitFunction(func, maxLoops, maxOps, symbols);
  }
};

} // namespace
