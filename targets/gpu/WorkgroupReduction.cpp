// Reductions with one workgroup per output element: each thread folds a strided share of the
// reduced elements (thread t takes t, t + T, t + 2T, ...: a warp reads consecutive elements of a
// row) through the op's body, starting from the combiner's neutral element; the partial results
// meet in workgroup memory in a tree of log2(T) halving steps; thread 0 combines the total
// with the output's initial value (or an absorbed fill's constant).
#include "targets/gpu/WorkgroupReduction.h"

#include "targets/gpu/KernelLaunch.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

/// Reductions of fewer elements per output keep one thread per output element.
constexpr int64_t kMinReduced = 128;

struct ReductionPlan {
  SmallVector<unsigned> parallel, reduction; // loop dimensions, outermost first
  SmallVector<int64_t> ranges;
  int64_t points = 1, reduced = 1, threads = 0;
  Operation *combiner = nullptr;
  TypedAttr neutral;
};

std::optional<ReductionPlan> planReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0 ||
      op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock())
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return std::nullopt;
  Block &body = op->getRegion(0).front();
  if (!body.getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  ReductionPlan plan;
  SmallVector<Operation *> combiners;
  // The position indexes the yielded values; the carried arguments are the output's.
  if (!matchReduction(op.getRegionOutputArgs(), /*redPos=*/0, combiners) ||
      combiners.size() != 1)
    return std::nullopt;
  plan.combiner = combiners.front();
  std::optional<TypedAttr> neutral = arith::getNeutralElement(plan.combiner);
  if (!neutral || plan.combiner->getNumOperands() != 2)
    return std::nullopt;
  plan.neutral = *neutral;
  plan.ranges = op.getStaticLoopRanges();
  if (llvm::any_of(plan.ranges, ShapedType::isDynamic))
    return std::nullopt;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool isReduction = iterator == utils::IteratorType::reduction;
    (isReduction ? plan.reduction : plan.parallel).push_back(dim);
    (isReduction ? plan.reduced : plan.points) *= plan.ranges[dim];
  }
  if (plan.reduced < kMinReduced || plan.points == 0 ||
      plan.points > tlc::kMaxGridDim * tlc::kMaxGridDim)
    return std::nullopt;
  plan.threads = plan.reduced >= 1024 ? 256 : 128;
  return plan;
}

class ReductionEmitter : tlc::KernelEmitterBase {
public:
  ReductionEmitter(OpBuilder &b, linalg::LinalgOp op, const ReductionPlan &plan,
                   gpu::LaunchOp launch, int64_t gridX, Value init)
      : KernelEmitterBase(b, op.getLoc()), op(op), plan(plan), launch(launch), gridX(gridX),
        initValue(init) {}

  void emit() {
    IRMapping views;
    for (OpOperand &operand : op->getOpOperands())
      bindings.push_back(tlc::cloneViewChain(b, operand.get(), views));
    Value partials = launch.getWorkgroupAttributions()[0];
    Value tid = launch.getThreadIds().x;
    coords.assign(op.getNumLoops(), Value());
    Value point = add(arith::MulIOp::create(b, loc, launch.getBlockIds().y, index(gridX)),
                      launch.getBlockIds().x);
    // Excess workgroups of the last grid row skip everything (uniformly: no barrier diverges).
    auto inside = scf::IfOp::create(b, loc, below(point, plan.points), /*withElseRegion=*/false);
    b.setInsertionPointToStart(&inside.getThenRegion().front());
    decompose(point, plan.parallel);

    // This thread's share, folded through the body from the neutral element.
    Value neutral = arith::ConstantOp::create(b, loc, plan.neutral);
    auto fold = scf::ForOp::create(b, loc, tid, index(plan.reduced), index(plan.threads),
                                   ValueRange{neutral});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(fold.getBody());
      decompose(fold.getInductionVar(), plan.reduction);
      Block &body = op->getRegion(0).front();
      IRMapping map;
      for (OpOperand *input : op.getDpsInputOperands())
        map.map(body.getArgument(input->getOperandNumber()),
                memref::LoadOp::create(b, loc, bindings[input->getOperandNumber()],
                                       indicesOf(input)));
      map.map(body.getArgument(op.getNumDpsInputs()), fold.getRegionIterArgs()[0]);
      for (Operation &inner : body.without_terminator())
        b.clone(inner, map);
      scf::YieldOp::create(
          b, loc, map.lookupOrDefault(body.getTerminator()->getOperand(0)));
    }
    memref::StoreOp::create(b, loc, fold.getResult(0), partials, tid);
    gpu::BarrierOp::create(b, loc);
    // The tree: in each step the lower half adds in the upper half.
    for (int64_t half = plan.threads / 2; half >= 1; half /= 2) {
      auto step = scf::IfOp::create(b, loc, below(tid, half), /*withElseRegion=*/false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&step.getThenRegion().front());
        Value mine = memref::LoadOp::create(b, loc, partials, tid);
        Value theirs = memref::LoadOp::create(b, loc, partials, add(tid, index(half)));
        memref::StoreOp::create(b, loc, combine(mine, theirs), partials, tid);
      }
      gpu::BarrierOp::create(b, loc);
    }
    auto first = scf::IfOp::create(b, loc, below(tid, 1), /*withElseRegion=*/false);
    b.setInsertionPointToStart(&first.getThenRegion().front());
    OpOperand *init = op.getDpsInitOperand(0);
    Value out = bindings[init->getOperandNumber()];
    Value initial = initValue ? b.clone(*initValue.getDefiningOp())->getResult(0)
                              : memref::LoadOp::create(b, loc, out, indicesOf(init)).getResult();
    Value total = memref::LoadOp::create(b, loc, partials, index(0));
    memref::StoreOp::create(b, loc, combine(initial, total), out, indicesOf(init));
  }

private:

  /// Sets `coords` of `dims` from their linear index (the innermost fastest).
  void decompose(Value linear, ArrayRef<unsigned> dims) {
    for (auto [dim, value] : tlc::delinearize(b, loc, linear, dims, plan.ranges))
      coords[dim] = value;
  }

  SmallVector<Value> indicesOf(OpOperand *operand) {
    return tlc::indicesAt(b, loc, op.getMatchingIndexingMap(operand), coords);
  }

  /// The body's combiner applied to two partial results.
  Value combine(Value x, Value y) {
    Operation *clone = b.clone(*plan.combiner);
    clone->setOperands({x, y});
    return clone->getResult(0);
  }

  linalg::LinalgOp op;
  const ReductionPlan &plan;
  gpu::LaunchOp launch;
  int64_t gridX;
  Value initValue;
  SmallVector<Value> bindings, coords;
};

} // namespace

bool tlc::mapWorkgroupReduction(linalg::LinalgOp op, FlatSymbolRefAttr module,
                                FlatSymbolRefAttr kernel, Value init) {
  std::optional<ReductionPlan> plan = planReduction(op);
  if (!plan)
    return false;
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t gridX = std::min(plan->points, kMaxGridDim);
  int64_t gridY = llvm::divideCeil(plan->points, gridX);
  Type accType = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  Type partials = MemRefType::get(
      {plan->threads}, accType, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  auto launch = createKernelLaunch(b, loc, {gridX, gridY, 1}, plan->threads, partials, module,
                                   kernel);
  ReductionEmitter(b, op, *plan, launch, gridX, init).emit();
  op->erase();
  return true;
}
