// tlc-plan-workspace: every intermediate buffer at a planned offset in one caller-provided arena.
#include "passes/MemoryPlan.h"
#include "passes/LinalgBuilders.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace tlc {
#define GEN_PASS_DEF_TLCPLANWORKSPACE
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

namespace {

/// The plan of one function: where each alloc goes, plus the numbers for the report.
struct FunctionPlan {
  BufferLiveness liveness;
  SmallVector<int64_t> offsets;      // per alloc
  SmallVector<int> inPlaceOf;        // per alloc: the alloc whose storage it took, or -1
  SmallVector<BufferInterval> slots; // the intervals actually placed
  SmallVector<int64_t> replicas;     // per alloc: copies, one per enclosing scf.forall iteration
  int64_t arenaSize = 0, naiveSize = 0, lowerBound = 0;
};

/// A row-major view of `arg` with `type` (same element count; both identity layouts).
Value reshapeArgument(OpBuilder &b, Location loc, Value arg, MemRefType type) {
  auto argType = cast<MemRefType>(arg.getType());
  if (argType == type)
    return arg;
  Value flat = arg;
  if (argType.getRank() > 1)
    flat = memref::CollapseShapeOp::create(b, loc, arg,
                                           allDimsReassociation(argType.getRank()));
  if (type.getRank() == 1)
    return flat;
  return memref::ExpandShapeOp::create(b, loc, type.getShape(), flat,
                                       allDimsReassociation(type.getRank()));
}

/// Zero-copy outputs: computes each forwardable output directly in the caller's buffer.
/// Returns whether anything changed.
FailureOr<bool> forwardOutputCopies(func::FuncOp func) {
  FailureOr<BufferLiveness> liveness = computeBufferLiveness(func, DataLayout::closest(func));
  if (failed(liveness))
    return failure();
  auto forwardable = findForwardableOutputCopies(func, *liveness);
  OpBuilder b(func.getContext());
  for (auto [index, copy] : forwardable) {
    memref::AllocOp alloc = liveness->allocs[index];
    Value target = copy.getTarget();
    copy->erase();
    b.setInsertionPoint(alloc);
    Value view = reshapeArgument(b, alloc.getLoc(), target, alloc.getType());
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.replaceAllUsesWith(view);
    alloc.erase();
  }
  return !forwardable.empty();
}

/// The static iteration count of `forall`'s iteration space, or nullopt.
std::optional<int64_t> staticTripCount(scf::ForallOp forall) {
  int64_t count = 1;
  for (auto [lb, ub, step] : llvm::zip(forall.getMixedLowerBound(), forall.getMixedUpperBound(),
                                       forall.getMixedStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb), u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return std::nullopt;
    count *= std::max<int64_t>(0, llvm::divideCeil(*u - *l, *s));
  }
  return count;
}

/// Buffers allocated inside an scf.forall body are private to one iteration, and iterations
/// may run at the same time (on the thread pool): such a buffer gets one copy per iteration of
/// every enclosing forall, and each iteration views its own (`rewriteAllocs`). Returns the
/// number of copies, or failure for a forall with dynamic bounds.
FailureOr<int64_t> replicaCount(memref::AllocOp alloc) {
  int64_t count = 1;
  for (auto forall = alloc->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>()) {
    std::optional<int64_t> trip = staticTripCount(forall);
    if (!trip)
      return alloc.emitOpError("is inside an scf.forall with dynamic bounds: its per-iteration "
                               "copies cannot be planned");
    count *= *trip;
  }
  return count;
}

/// The flat index of the current iteration over every scf.forall enclosing `op` (outermost
/// major), built before `op`.
Value replicaIndex(OpBuilder &b, Operation *op) {
  SmallVector<scf::ForallOp> foralls;
  for (auto f = op->getParentOfType<scf::ForallOp>(); f; f = f->getParentOfType<scf::ForallOp>())
    foralls.insert(foralls.begin(), f);
  Location loc = op->getLoc();
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  Value index = cst(0);
  for (scf::ForallOp forall : foralls)
    for (auto [iv, lb, ub, step] :
         llvm::zip(forall.getInductionVars(), forall.getMixedLowerBound(),
                   forall.getMixedUpperBound(), forall.getMixedStep())) {
      int64_t l = *getConstantIntValue(lb), u = *getConstantIntValue(ub),
              s = *getConstantIntValue(step);
      Value normalized = arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, iv, cst(l)),
                                                cst(s));
      index = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, index, cst(llvm::divideCeil(u - l, s))),
          normalized);
    }
  return index;
}

/// Policy: which buffers share a slot (in-place pairs) and how slots are placed.
FailureOr<FunctionPlan> planFunction(func::FuncOp func, bool reuse, bool inPlace,
                                     bool inputsThroughEpilogues, int64_t kAlignment) {
  FunctionPlan plan;
  FailureOr<BufferLiveness> liveness = computeBufferLiveness(func, DataLayout::closest(func));
  if (failed(liveness))
    return failure();
  plan.liveness = std::move(*liveness);
  if (inputsThroughEpilogues)
    extendInputsThroughEpilogues(plan.liveness);
  size_t n = plan.liveness.allocs.size();
  for (size_t i = 0; i < n; ++i) {
    FailureOr<int64_t> copies = replicaCount(plan.liveness.allocs[i]);
    if (failed(copies))
      return failure();
    plan.replicas.push_back(*copies);
    if (*copies > 1)
      plan.liveness.intervals[i].size =
          llvm::alignTo(plan.liveness.intervals[i].size, kAlignment) * *copies;
  }
  const BufferLiveness &lv = plan.liveness;
  plan.inPlaceOf.assign(n, -1);

  // Buffers joined by in-place reuse form one slot spanning all their ranges.
  llvm::EquivalenceClasses<unsigned> classes;
  for (unsigned i = 0; i < n; ++i)
    classes.insert(i);
  if (reuse && inPlace)
    for (auto [out, in] : findInPlaceReuse(lv)) {
      if (plan.replicas[out] > 1 || plan.replicas[in] > 1)
        continue; // per-iteration copies keep their own slots
      plan.inPlaceOf[out] = in;
      classes.unionSets(out, in);
    }
  DenseMap<unsigned, unsigned> slotOf; // leader -> slot
  SmallVector<unsigned> allocSlot(n);
  for (unsigned i = 0; i < n; ++i) {
    unsigned leader = classes.getLeaderValue(i);
    auto [it, inserted] = slotOf.try_emplace(leader, plan.slots.size());
    if (inserted)
      plan.slots.push_back(lv.intervals[i]);
    BufferInterval &slot = plan.slots[it->second];
    slot.size = std::max(slot.size, lv.intervals[i].size);
    slot.start = std::min(slot.start, lv.intervals[i].start);
    slot.end = std::max(slot.end, lv.intervals[i].end);
    allocSlot[i] = it->second;
  }
  ArenaPlacement placement = reuse ? placeGreedyBySize(plan.slots, kAlignment)
                                   : placeSequentially(plan.slots, kAlignment);
  plan.arenaSize = placement.arenaSize;
  for (unsigned i = 0; i < n; ++i)
    plan.offsets.push_back(placement.offsets[allocSlot[i]]);
  plan.naiveSize = placeSequentially(lv.intervals, kAlignment).arenaSize;
  plan.lowerBound = peakLiveBytes(plan.slots, kAlignment);
  return plan;
}

/// Replaces each alloc by a view of `arena` at its offset and drops its deallocs.
void rewriteAllocs(const FunctionPlan &plan, Value arena) {
  OpBuilder b(arena.getContext());
  for (auto [i, offset] : llvm::enumerate(plan.offsets)) {
    memref::AllocOp alloc = plan.liveness.allocs[i];
    b.setInsertionPoint(alloc);
    Value shift = arith::ConstantIndexOp::create(b, alloc.getLoc(), offset);
    if (int64_t copies = plan.replicas[i]; copies > 1) {
      int64_t stride = plan.liveness.intervals[i].size / copies;
      Value perCopy = arith::MulIOp::create(
          b, alloc.getLoc(), replicaIndex(b, alloc),
          arith::ConstantIndexOp::create(b, alloc.getLoc(), stride));
      shift = arith::AddIOp::create(b, alloc.getLoc(), shift, perCopy);
    }
    Value view =
        memref::ViewOp::create(b, alloc.getLoc(), alloc.getType(), arena, shift, ValueRange{});
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.replaceAllUsesWith(view);
    alloc.erase();
  }
}

/// The report record of one function (read by the driver's --report=memory).
DictionaryAttr describePlan(func::FuncOp func, const FunctionPlan &plan) {
  Builder b(func.getContext());
  SmallVector<Attribute> buffers;
  for (unsigned i = 0, e = plan.liveness.allocs.size(); i < e; ++i) {
    memref::AllocOp alloc = plan.liveness.allocs[i];
    const BufferInterval &iv = plan.liveness.intervals[i];
    SmallVector<NamedAttribute> fields = {
        b.getNamedAttr("offset", b.getI64IntegerAttr(plan.offsets[i])),
        b.getNamedAttr("size", b.getI64IntegerAttr(iv.size)),
        b.getNamedAttr("start", b.getI64IntegerAttr(iv.start)),
        b.getNamedAttr("end", b.getI64IntegerAttr(iv.end)),
        b.getNamedAttr("type", TypeAttr::get(alloc.getType())),
        b.getNamedAttr("loc", alloc.getLoc())};
    if (plan.replicas[i] > 1)
      fields.push_back(b.getNamedAttr("replicas", b.getI64IntegerAttr(plan.replicas[i])));
    if (plan.inPlaceOf[i] >= 0)
      fields.push_back(b.getNamedAttr("in_place_of", b.getI64IntegerAttr(plan.inPlaceOf[i])));
    buffers.push_back(b.getDictionaryAttr(fields));
  }
  return b.getDictionaryAttr({
      b.getNamedAttr("function", b.getStringAttr(func.getName())),
      b.getNamedAttr("arena_size", b.getI64IntegerAttr(plan.arenaSize)),
      b.getNamedAttr("naive_size", b.getI64IntegerAttr(plan.naiveSize)),
      b.getNamedAttr("lower_bound", b.getI64IntegerAttr(plan.lowerBound)),
      b.getNamedAttr("program_points", b.getI64IntegerAttr(plan.liveness.topLevel.size())),
      b.getNamedAttr("buffers", b.getArrayAttr(buffers)),
  });
}

struct TLCPlanWorkspacePass : tlc::impl::TLCPlanWorkspaceBase<TLCPlanWorkspacePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    int64_t total = 0;
    SmallVector<Attribute> reports;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      if (forwardOutputs && failed(forwardOutputCopies(func)))
        return signalPassFailure();
      FailureOr<FunctionPlan> plan =
          planFunction(func, reuse, inPlace, inputsThroughEpilogues, alignment);
      if (failed(plan))
        return signalPassFailure();
      reports.push_back(describePlan(func, *plan));
      auto arenaType = MemRefType::get({plan->arenaSize}, IntegerType::get(ctx, 8));
      unsigned index = func.getNumArguments();
      auto name =
          NamedAttribute(StringAttr::get(ctx, "tl.name"), StringAttr::get(ctx, "workspace"));
      if (failed(func.insertArgument(index, arenaType, DictionaryAttr::get(ctx, {name}),
                                     func.getLoc())))
        return signalPassFailure();
      rewriteAllocs(*plan, func.getArgument(index));
      total = std::max(total, plan->arenaSize);
    }
    module->setAttr("tlc.workspace_size", IntegerAttr::get(IntegerType::get(ctx, 64), total));
    module->setAttr("tlc.memory_plan", ArrayAttr::get(ctx, reports));
  }
};

} // namespace
