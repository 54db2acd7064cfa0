// tlc-outline-parallel-loops: outermost scf.parallel loops become runtime-launched functions.
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/LoopUtils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace tlc {
#define GEN_PASS_DEF_TLCOUTLINEPARALLELLOOPS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Constants are rematerialized in the body instead of being passed; globals (weights) are
/// passed, so that layers of one shape outline to the same body (tlc-merge-parallel-bodies),
/// unless they cannot cross as a bare pointer.
bool isRematerializable(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 0 || def->getNumRegions() != 0)
    return false;
  if (isa<memref::GetGlobalOp>(def))
    return !tlc::isBarePointerPassable(v.getType());
  return matchPattern(v, m_Constant());
}

/// The statically sized stack buffers allocated directly in `loop`'s body.
SmallVector<memref::AllocaOp> staticAllocas(scf::ParallelOp loop) {
  SmallVector<memref::AllocaOp> allocas;
  for (auto alloca : loop.getBody()->getOps<memref::AllocaOp>())
    if (alloca->getNumOperands() == 0)
      allocas.push_back(alloca);
  return allocas;
}

/// Mechanism: outlines `loop` (one induction variable, not nested in another parallel loop)
/// into `@<func>_par<k>(%begin: index, %end: index, captures...)` iterating [begin, end) of its
/// normalized iteration space, and replaces it with a call to the declaration
/// `@<func>_par<k>_launch(%n, captures...)`, which tlc-lower-parallel-launch turns into a
/// tlc_parallel_for call once the module is in the LLVM dialect.
LogicalResult outline(RewriterBase &rewriter, scf::ParallelOp loop, SymbolTable &symbols,
                      StringRef baseName) {
  Location loc = loop.getLoc();
  llvm::SetVector<Value> above;
  getUsedValuesDefinedAbove(loop.getRegion(), above);
  for (Value v : {loop.getLowerBound()[0], loop.getStep()[0]})
    above.insert(v);
  // A captured view that is no bare pointer (e.g. a strided subview of a padded buffer, an
  // expand_shape for a transpose) is rebuilt in the body from what it views, when that can be
  // passed: so the padding copy and stride-phase transpose of a convolution run on threads.
  llvm::SetVector<Value> passed, remat;
  llvm::SetVector<Operation *> views; // operands' views first
  std::function<bool(Value)> capture = [&](Value v) {
    if (isRematerializable(v)) {
      remat.insert(v);
      return true;
    }
    if (tlc::isBarePointerPassable(v.getType())) {
      passed.insert(v);
      return true;
    }
    Operation *def = v.getDefiningOp();
    if (!def || !isa<ViewLikeOpInterface>(def) || !isMemoryEffectFree(def) ||
        def->getNumRegions() != 0 || def->getNumResults() != 1)
      return false;
    if (!llvm::all_of(def->getOperands(), capture))
      return false;
    views.insert(def);
    return true;
  };
  if (!llvm::all_of(above, capture))
    return failure();
  MLIRContext *ctx = rewriter.getContext();
  Type index = rewriter.getIndexType();
  SmallVector<Type> argTypes = {index, index};
  for (Value v : passed)
    argTypes.push_back(v.getType());

  auto module = loop->getParentOfType<ModuleOp>();
  rewriter.setInsertionPointToEnd(module.getBody());
  auto body = func::FuncOp::create(rewriter, loc, (baseName + "_par").str(),
                                   FunctionType::get(ctx, argTypes, {}));
  body.setPrivate();
  symbols.insert(body); // renames on collision
  body->setAttr("tlc.parallel_body", UnitAttr::get(ctx));
  SmallVector<Type> launchTypes = {index};
  for (Value v : passed)
    launchTypes.push_back(v.getType());
  auto launch = func::FuncOp::create(rewriter, loc, (body.getName() + "_launch").str(),
                                     FunctionType::get(ctx, launchTypes, {}));
  launch.setPrivate();
  symbols.insert(launch);
  launch->setAttr("tlc.parallel_launch", FlatSymbolRefAttr::get(body));

  Block *entry = body.addEntryBlock();
  rewriter.setInsertionPointToStart(entry);
  IRMapping map;
  for (Value v : remat)
    map.map(v, rewriter.clone(*v.getDefiningOp())->getResult(0));
  for (auto [v, arg] : llvm::zip(passed, entry->getArguments().drop_front(2)))
    map.map(v, arg);
  for (Operation *view : views)
    rewriter.clone(*view, map);
  // Statically sized stack buffers of the body (e.g. packed contraction panels): allocated
  // once per call in the entry block. Inside the loop each iteration would grow the stack (no
  // stack save/restore around an scf.for); the iterations of one call run one after another.
  llvm::SmallPtrSet<Operation *, 4> hoisted;
  for (memref::AllocaOp alloca : staticAllocas(loop)) {
    rewriter.clone(*alloca, map);
    hoisted.insert(alloca);
  }
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto forOp = scf::ForOp::create(rewriter, loc, entry->getArgument(0), entry->getArgument(1), one);
  rewriter.setInsertionPointToStart(forOp.getBody());
  // iv = lb + i * step
  Value scaled =
      arith::MulIOp::create(rewriter, loc, forOp.getInductionVar(), map.lookup(loop.getStep()[0]));
  map.map(loop.getInductionVars()[0],
          arith::AddIOp::create(rewriter, loc, map.lookup(loop.getLowerBound()[0]), scaled));
  for (Operation &op : loop.getBody()->without_terminator())
    if (!hoisted.contains(&op))
      rewriter.clone(op, map);
  rewriter.setInsertionPointToEnd(entry);
  func::ReturnOp::create(rewriter, loc);

  // n = ceil((ub - lb) / step)
  rewriter.setInsertionPoint(loop);
  Value span =
      arith::SubIOp::create(rewriter, loc, loop.getUpperBound()[0], loop.getLowerBound()[0]);
  Value n = arith::CeilDivUIOp::create(rewriter, loc, span, loop.getStep()[0]);
  SmallVector<Value> operands = {n};
  operands.append(passed.begin(), passed.end());
  func::CallOp::create(rewriter, loc, launch, operands);
  rewriter.eraseOp(loop);
  return success();
}

struct TLCOutlineParallelLoopsPass
    : tlc::impl::TLCOutlineParallelLoopsBase<TLCOutlineParallelLoopsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    SmallVector<std::pair<scf::ParallelOp, std::string>> loops;
    for (auto func : module.getOps<func::FuncOp>())
      func.walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
        if (loop.getNumLoops() == 1 && loop.getNumResults() == 0)
          loops.push_back({loop, func.getName().str()});
        return WalkResult::skip(); // never outline a loop nested in another parallel loop
      });
    for (auto &[loop, name] : loops) {
      if (succeeded(outline(rewriter, loop, symbols, name)))
        continue;
      // A loop we cannot pass stays serial: its static stack buffers are allocated once,
      // before it, not at every iteration.
      for (memref::AllocaOp alloca : staticAllocas(loop))
        rewriter.moveOpBefore(alloca, loop);
    }
  }
};

} // namespace
