// Contractions on the GPU as workgroup tiles: each workgroup computes a BM x BN tile of the
// output (one batch point of it), looping over k in BK-deep steps. Each step stages the
// operands' BM x BK and BK x BN slices through workgroup memory, loaded cooperatively by all
// threads one step ahead (the next slice is read from global memory into registers while the
// current one is multiplied); each thread keeps a TM x TN tile of accumulators in registers.
// A thread's rows and columns are strided (ty + i * BM/TM, tx + j * BN/TN), so a warp's reads
// of workgroup memory and its stores of the output touch consecutive elements.
#include "targets/gpu/TiledContraction.h"

#include "targets/gpu/KernelLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <optional>

using namespace mlir;

namespace {

/// A workgroup tile (BM x BN, BK deep) and a thread's share of it (TM x TN).
struct TileShape {
  int64_t bm, bn, bk, tm, tn;
  int64_t threads() const { return (bm / tm) * (bn / tn); }
};

/// Workgroup memory rows are padded by this many elements, so a warp storing down a column
/// of a slice spreads over the banks.
constexpr int64_t kRowPad = 4;

/// The loops of a contraction the tiled kernel covers, in groups each linearized into one
/// tile dimension (outermost loop first; a matmul has one loop per group, a convolution's n
/// is its batch and output image, its k the input channels and filter window): `m` and `n`
/// the tile's, `k` the reduction's, `batch` the grid's z dimension. `lhs` and `rhs` are the
/// inputs holding the m and the n loops.
struct ContractionPlan {
  SmallVector<unsigned> m, n, k, batch;
  unsigned lhs = 0, rhs = 1;
  SmallVector<int64_t> ranges;
  int64_t sizeM = 1, sizeN = 1, sizeK = 1, batchCount = 1;
  TileShape tile;
};

/// Sorts `dims` by their position in `map`'s results (dims it does not use last).
void sortByResults(SmallVector<unsigned> &dims, AffineMap map) {
  auto position = [&](unsigned d) {
    for (auto [i, e] : llvm::enumerate(map.getResults()))
      if (e.isFunctionOfDim(d))
        return i;
    return static_cast<size_t>(map.getNumResults());
  };
  llvm::stable_sort(dims, [&](unsigned x, unsigned y) { return position(x) < position(y); });
}

/// A matmul-like contraction: the tile's m and n are the m and n loops innermost in the
/// output (its stores coalesce); other parallel loops (batch loops, further m or n loops such
/// as the image of an im2col convolution) go to the grid's z dimension.
std::optional<ContractionPlan> groupContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.size() != 1 ||
      dims->batch.size() + dims->m.size() + dims->n.size() + 1 != op.getNumLoops())
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> m(dims->m.begin(), dims->m.end()), n(dims->n.begin(), dims->n.end());
  sortByResults(m, outMap);
  sortByResults(n, outMap);
  ContractionPlan plan;
  plan.m = {m.back()};
  plan.n = {n.back()};
  plan.k = {dims->k.front()};
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (d != m.back() && d != n.back() && d != dims->k.front())
      plan.batch.push_back(d);
  return plan;
}

/// A convolution as an implicit GEMM: m the output channels, n the batch and output image
/// (in the output's order), k the input channels and filter window (in the filter's order);
/// the image operand is read through its index expressions (oh * stride + kh). Depthwise
/// convolutions (a channel loop in all three operands) are left alone.
std::optional<ContractionPlan> groupConvolution(linalg::LinalgOp op) {
  // A multiply-add body (the interface looks at the indexing maps only: pooling has one).
  auto multiplyAdd = [](Operation *multiply, Operation *add) {
    return (isa<arith::MulFOp>(multiply) && isa<arith::AddFOp>(add)) ||
           (isa<arith::MulIOp>(multiply) && isa<arith::AddIOp>(add));
  };
  if (!linalg::isaConvolutionOpInterface(op) || op->getNumRegions() != 1 ||
      !linalg::detail::isContractionBody(op->getRegion(0).front(), multiplyAdd))
    return std::nullopt;
  FailureOr<linalg::ConvolutionDimensions> dims = linalg::inferConvolutionDims(op);
  if (failed(dims) || !dims->depth.empty() || dims->outputChannel.empty())
    return std::nullopt;
  ContractionPlan plan;
  AffineMap filterMap;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isFunctionOfDim(dims->outputChannel.front())) {
      plan.lhs = input->getOperandNumber();
      filterMap = map;
    } else {
      plan.rhs = input->getOperandNumber();
    }
  }
  if (plan.lhs == plan.rhs)
    return std::nullopt;
  plan.m.assign(dims->outputChannel.begin(), dims->outputChannel.end());
  llvm::append_range(plan.n, dims->batch);
  llvm::append_range(plan.n, dims->outputImage);
  llvm::append_range(plan.k, dims->inputChannel);
  llvm::append_range(plan.k, dims->filterLoop);
  if (plan.m.size() + plan.n.size() + plan.k.size() != op.getNumLoops())
    return std::nullopt;
  sortByResults(plan.m, op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  sortByResults(plan.n, op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  sortByResults(plan.k, filterMap);
  return plan;
}

std::optional<ContractionPlan> planContraction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isProjectedPermutation())
    return std::nullopt;
  std::optional<ContractionPlan> plan = groupContraction(op);
  if (!plan)
    plan = groupConvolution(op);
  if (!plan)
    return std::nullopt;
  plan->ranges = op.getStaticLoopRanges();
  if (llvm::any_of(plan->ranges, ShapedType::isDynamic))
    return std::nullopt;
  for (unsigned d : plan->m)
    plan->sizeM *= plan->ranges[d];
  for (unsigned d : plan->n)
    plan->sizeN *= plan->ranges[d];
  for (unsigned d : plan->k)
    plan->sizeK *= plan->ranges[d];
  for (unsigned d : plan->batch)
    plan->batchCount *= plan->ranges[d];
  int64_t sizeM = plan->sizeM, sizeN = plan->sizeN;
  // Small products keep one thread per output point: a tile would leave most threads idle.
  if (sizeM < 32 || sizeN < 32 || plan->sizeK < 16 || plan->batchCount > tlc::kMaxGridDim)
    return std::nullopt;
  // The largest tile that still gives about one workgroup per multiprocessor of a large GPU:
  // 128 x 128 (8 x 8 per thread), 64 x 64 (4 x 4), else 32 x 64 (2 x 4) for the most
  // workgroups (a small product with a long k: attention's probabilities times V).
  auto workgroups = [&](const TileShape &t) {
    return llvm::divideCeil(sizeM, t.bm) * llvm::divideCeil(sizeN, t.bn) * plan->batchCount;
  };
  const TileShape big{128, 128, 8, 8, 8}, medium{64, 64, 16, 4, 4}, small{32, 64, 16, 2, 4};
  plan->tile = workgroups(big) >= 96 ? big : workgroups(medium) >= 96 ? medium : small;
  if (llvm::divideCeil(sizeM, plan->tile.bm) > tlc::kMaxGridDim ||
      llvm::divideCeil(sizeN, plan->tile.bn) > tlc::kMaxGridDim)
    return std::nullopt;
  return plan;
}

/// Emits the kernel body into a launch; `b` inserts before the launch's terminator.
class TiledContractionEmitter : tlc::KernelEmitterBase {
public:
  TiledContractionEmitter(OpBuilder &b, linalg::LinalgOp op, const ContractionPlan &plan,
                          gpu::LaunchOp launch, Value init, linalg::LinalgOp epilogue)
      : KernelEmitterBase(b, op.getLoc()), op(op), plan(plan), tile(plan.tile), launch(launch),
        initValue(init), epilogue(epilogue) {}

  void emit() {
    IRMapping views;
    lhs = tlc::cloneViewChain(b, op.getDpsInputOperand(plan.lhs)->get(), views);
    rhs = tlc::cloneViewChain(b, op.getDpsInputOperand(plan.rhs)->get(), views);
    out = tlc::cloneViewChain(b, op.getDpsInitOperand(0)->get(), views);
    if (epilogue) {
      for (Value input : epilogue.getDpsInputs())
        epilogueInputs.push_back(tlc::cloneViewChain(b, input, views));
      epilogueOut = tlc::cloneViewChain(b, epilogue.getDpsInitOperand(0)->get(), views);
    }
    lhsTile = launch.getWorkgroupAttributions()[0];
    rhsTile = launch.getWorkgroupAttributions()[1];
    emitCoordinates();
    Slices lhsSlices = planSlices(plan.lhs, plan.m, plan.sizeM, tile.bm, rowStart);
    Slices rhsSlices = planSlices(plan.rhs, plan.n, plan.sizeN, tile.bn, colStart);

    // Accumulators start from the output (the contraction adds into it) or from the constant
    // of an absorbed fill; the first slices are read before the loop.
    SmallVector<Value> init;
    Value start = initValue ? b.clone(*initValue.getDefiningOp())->getResult(0) : Value();
    for (int64_t i = 0; i < tile.tm; ++i)
      for (int64_t j = 0; j < tile.tn; ++j)
        init.push_back(start ? start : loadOutput(i, j));
    size_t numAcc = init.size();
    llvm::append_range(init, readSlices(lhsSlices, index(0)));
    llvm::append_range(init, readSlices(rhsSlices, index(0)));

    auto loop = scf::ForOp::create(b, loc, index(0), index(plan.sizeK), index(tile.bk), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      ValueRange args = loop.getRegionIterArgs();
      ValueRange acc = args.take_front(numAcc);
      ValueRange lhsValues = args.slice(numAcc, lhsSlices.elements.size());
      ValueRange rhsValues = args.drop_front(numAcc + lhsSlices.elements.size());
      storeSlices(lhsSlices, lhsValues, lhsTile);
      storeSlices(rhsSlices, rhsValues, rhsTile);
      gpu::BarrierOp::create(b, loc);
      // The next step's slices (past the end: clamped reads, discarded).
      Value nextK = arith::AddIOp::create(b, loc, loop.getInductionVar(), index(tile.bk));
      SmallVector<Value> yielded = multiplySlices(acc);
      llvm::append_range(yielded, readSlices(lhsSlices, nextK));
      llvm::append_range(yielded, readSlices(rhsSlices, nextK));
      gpu::BarrierOp::create(b, loc);
      scf::YieldOp::create(b, loc, yielded);
    }
    for (int64_t i = 0; i < tile.tm; ++i)
      for (int64_t j = 0; j < tile.tn; ++j)
        storeOutput(i, j, loop.getResult(i * tile.tn + j));
  }

private:
  /// One operand's BK-deep slice as this thread reads it: for each element it loads, the
  /// offset along k within the slice, the loop coordinates of its m (or n) group (clamped
  /// into range), whether it is in range, and its place in workgroup memory.
  struct Slices {
    unsigned operand;
    struct Element {
      SmallVector<std::pair<unsigned, Value>> outer;
      Value outerInRange, kOffset, sharedIndex;
    };
    SmallVector<Element> elements;
  };

  int64_t size(unsigned dim) const { return plan.ranges[dim]; }

  /// This thread's place: its batch point, the tile's first row and column, and the thread's
  /// row and column within the tile.
  void emitCoordinates() {
    point.assign(op.getNumLoops(), Value());
    for (auto [dim, value] : decompose(launch.getBlockIds().z, plan.batch))
      point[dim] = value;
    rowStart = mul(launch.getBlockIds().y, tile.bm);
    colStart = mul(launch.getBlockIds().x, tile.bn);
    Value tid = launch.getThreadIds().x;
    threadRow = arith::DivUIOp::create(b, loc, tid, index(tile.bn / tile.tn));
    threadCol = arith::RemUIOp::create(b, loc, tid, index(tile.bn / tile.tn));
  }

  /// Whether `operand`'s innermost index depends on k loops only (then threads walk along k).
  bool kInnermost(unsigned operand) {
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(operand));
    if (map.getNumResults() == 0)
      return false;
    AffineExpr last = map.getResults().back();
    for (unsigned d = 0; d < map.getNumDims(); ++d)
      if (last.isFunctionOfDim(d) && !llvm::is_contained(plan.k, d))
        return false;
    return true;
  }

  /// The coordinates of `dims` (outermost first) from their linear index (innermost fastest),
  /// as (dim, value) pairs.
  SmallVector<std::pair<unsigned, Value>> decompose(Value linear, ArrayRef<unsigned> dims) {
    return tlc::delinearize(b, loc, linear, dims, plan.ranges);
  }

  Slices planSlices(unsigned operand, ArrayRef<unsigned> outerDims, int64_t outerSize,
                    int64_t outerTile, Value outerStart) {
    Slices slices{operand, {}};
    bool alongK = kInnermost(operand);
    int64_t count = outerTile * tile.bk / tile.threads();
    Value tid = launch.getThreadIds().x;
    for (int64_t i = 0; i < count; ++i) {
      Value e = add(tid, index(i * tile.threads()));
      int64_t fast = alongK ? tile.bk : outerTile;
      Value low = arith::RemUIOp::create(b, loc, e, index(fast));
      Value high = arith::DivUIOp::create(b, loc, e, index(fast));
      Value outerOffset = alongK ? high : low, kOffset = alongK ? low : high;
      Value outer = add(outerStart, outerOffset);
      Value shared = add(mul(kOffset, outerTile + kRowPad), outerOffset);
      slices.elements.push_back({decompose(clampBelow(outer, outerSize), outerDims),
                                 below(outer, outerSize), kOffset, shared});
    }
    return slices;
  }

  /// Loads `memref` (the binding of `operand`) at the loop point `at` (other loops from
  /// `point`).
  Value loadAt(OpOperand *operand, Value memref, ArrayRef<std::pair<unsigned, Value>> at) {
    return memref::LoadOp::create(b, loc, memref, indicesAt(operand, at));
  }

  SmallVector<Value> indicesAt(OpOperand *operand, ArrayRef<std::pair<unsigned, Value>> at) {
    SmallVector<Value> coords(point);
    for (auto [dim, value] : at)
      coords[dim] = value;
    return tlc::indicesAt(b, loc, op.getMatchingIndexingMap(operand), coords);
  }

  /// The slice elements this thread loads for the k step starting at `k0`; out of range: 0.
  SmallVector<Value> readSlices(const Slices &slices, Value k0) {
    SmallVector<Value> values;
    OpOperand *operand = op.getDpsInputOperand(slices.operand);
    Type type = getElementTypeOrSelf(operand->get().getType());
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    for (const Slices::Element &e : slices.elements) {
      Value k = add(k0, e.kOffset);
      SmallVector<std::pair<unsigned, Value>> at = decompose(clampBelow(k, plan.sizeK), plan.k);
      llvm::append_range(at, e.outer);
      Value value = loadAt(operand, slices.operand == plan.lhs ? lhs : rhs, at);
      Value inRange = arith::AndIOp::create(b, loc, e.outerInRange, below(k, plan.sizeK));
      values.push_back(arith::SelectOp::create(b, loc, inRange, value, zero));
    }
    return values;
  }

  void storeSlices(const Slices &slices, ValueRange values, Value shared) {
    for (auto [e, value] : llvm::zip_equal(slices.elements, values))
      memref::StoreOp::create(b, loc, value, shared, e.sharedIndex);
  }

  /// The BK steps of one slice pair: each thread's TM x TN outer products, through the
  /// contraction's own body (its multiply, add and any conversions).
  SmallVector<Value> multiplySlices(ValueRange acc) {
    SmallVector<Value> result(acc);
    Block &body = op->getRegion(0).front();
    Value yielded = cast<linalg::YieldOp>(body.getTerminator()).getOperand(0);
    for (int64_t kk = 0; kk < tile.bk; ++kk) {
      SmallVector<Value> a, bv;
      for (int64_t i = 0; i < tile.tm; ++i)
        a.push_back(memref::LoadOp::create(
            b, loc, lhsTile,
            ValueRange{add(threadRow, index(kk * (tile.bm + kRowPad) + i * (tile.bm / tile.tm)))}));
      for (int64_t j = 0; j < tile.tn; ++j)
        bv.push_back(memref::LoadOp::create(
            b, loc, rhsTile,
            ValueRange{add(threadCol, index(kk * (tile.bn + kRowPad) + j * (tile.bn / tile.tn)))}));
      for (int64_t i = 0; i < tile.tm; ++i)
        for (int64_t j = 0; j < tile.tn; ++j) {
          IRMapping map;
          map.map(body.getArgument(plan.lhs), a[i]);
          map.map(body.getArgument(plan.rhs), bv[j]);
          map.map(body.getArgument(2), result[i * tile.tn + j]);
          for (Operation &inner : body.without_terminator())
            b.clone(inner, map);
          result[i * tile.tn + j] = map.lookupOrDefault(yielded);
        }
    }
    return result;
  }

  Value outputRow(int64_t i) { return add(rowStart, add(threadRow, index(i * (tile.bm / tile.tm)))); }
  Value outputCol(int64_t j) { return add(colStart, add(threadCol, index(j * (tile.bn / tile.tn)))); }

  /// The loop coordinates of the output element at linear row `row` and column `col`.
  SmallVector<std::pair<unsigned, Value>> outputCoords(Value row, Value col) {
    SmallVector<std::pair<unsigned, Value>> coords = decompose(row, plan.m);
    llvm::append_range(coords, decompose(col, plan.n));
    return coords;
  }

  Value loadOutput(int64_t i, int64_t j) {
    return loadAt(op.getDpsInitOperand(0), out, outputCoords(clampBelow(outputRow(i), plan.sizeM),
                                                             clampBelow(outputCol(j), plan.sizeN)));
  }

  void storeOutput(int64_t i, int64_t j, Value value) {
    Value row = outputRow(i), col = outputCol(j);
    Value inside = arith::AndIOp::create(b, loc, below(row, plan.sizeM), below(col, plan.sizeN));
    auto guard = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    SmallVector<Value> indices = indicesAt(op.getDpsInitOperand(0), outputCoords(row, col));
    // With an epilogue into another buffer, only its result is stored: the contraction's
    // output has no other reader (fusibleEpilogue).
    memref::StoreOp::create(b, loc, epilogue ? applyEpilogue(value, indices) : value,
                            epilogue ? epilogueOut : out, indices);
  }

  /// The fused elementwise op at one output element: its loop point is the element's indices
  /// (its output map is the identity), its reads of the contraction's output are `value`.
  Value applyEpilogue(Value value, ArrayRef<Value> indices) {
    Block &body = epilogue->getRegion(0).front();
    Value buffer = op.getDpsInitOperand(0)->get();
    IRMapping map;
    for (auto [operand, binding] : llvm::zip_equal(epilogue.getDpsInputOperands(), epilogueInputs)) {
      Value arg = body.getArgument(operand->getOperandNumber());
      if (operand->get() == buffer) {
        map.map(arg, value);
        continue;
      }
      // A broadcast reads index 0 where its map has the constant.
      map.map(arg, memref::LoadOp::create(
                       b, loc, binding,
                       tlc::indicesAt(b, loc, epilogue.getMatchingIndexingMap(operand), indices)));
    }
    // Its output's current value: the contraction's in place, else read (when the body does).
    BlockArgument outArg = body.getArgument(epilogue.getNumDpsInputs());
    if (epilogue.getDpsInitOperand(0)->get() == buffer)
      map.map(outArg, value);
    else if (!outArg.use_empty())
      map.map(outArg, memref::LoadOp::create(b, loc, epilogueOut, indices));
    for (Operation &inner : body.without_terminator())
      b.clone(inner, map);
    return map.lookupOrDefault(body.getTerminator()->getOperand(0));
  }

  linalg::LinalgOp op;
  const ContractionPlan &plan;
  const TileShape &tile;
  gpu::LaunchOp launch;
  Value initValue;
  linalg::LinalgOp epilogue;
  SmallVector<Value> epilogueInputs;
  Value epilogueOut;
  Value lhs, rhs, out, lhsTile, rhsTile;
  SmallVector<Value> point;
  Value rowStart, colStart, threadRow, threadCol;
};

/// The op after `op` (past host-only view and constant ops) when it can run in the tile's
/// store: all-parallel, writing through the identity map either in place on `op`'s output or
/// into another buffer of the same shape when nothing else reads `op`'s output (a
/// convolution's BatchNorm and ReLU written into the next one's padded input); reading that
/// output only through the identity map and everything else through projected permutations;
/// no linalg.index (bias, activation, residual, scale: what follows a contraction).
/// The bytes `value` may occupy: its root binding (a function argument, a global, or the
/// buffer a memref.view cuts at a constant offset) and a byte range in it.
std::pair<Value, std::pair<int64_t, int64_t>> footprint(Value value) {
  constexpr int64_t kAll = std::numeric_limits<int64_t>::max();
  while (Operation *def = value.getDefiningOp()) {
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      auto type = cast<MemRefType>(view.getType());
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
        return {view.getSource(), {0, kAll}};
      int64_t bytes = type.getNumElements() *
                      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
      return {view.getSource(), {*shift, *shift + bytes}};
    }
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike)
      break;
    value = viewLike.getViewSource();
  }
  return {value, {0, kAll}};
}

bool mayOverlap(Value a, Value b) {
  auto [rootA, rangeA] = footprint(a);
  auto [rootB, rangeB] = footprint(b);
  return rootA == rootB && rangeA.first < rangeB.second && rangeB.first < rangeA.second;
}

linalg::LinalgOp fusibleEpilogue(linalg::LinalgOp op) {
  // Past host-only ops, and past fills the contraction may move after: they write nothing the
  // contraction reads or writes (the memory planner may have given a fill the bytes of an
  // input whose last use is the contraction).
  auto movable = [&](Operation *between) {
    if (between->getNumRegions() == 0 &&
        (isa<ViewLikeOpInterface>(between) || matchPattern(between, m_Constant())))
      return true;
    auto fill = dyn_cast<linalg::FillOp>(between);
    return fill && fill.hasPureBufferSemantics() &&
           llvm::none_of(op->getOperands(), [&](Value operand) {
             return mayOverlap(fill.getOutputs()[0], operand);
           });
  };
  Operation *next = op->getNextNode();
  while (next && movable(next))
    next = next->getNextNode();
  auto epilogue = dyn_cast_or_null<linalg::LinalgOp>(next);
  if (!epilogue || !epilogue.hasPureBufferSemantics() || epilogue.getNumDpsInits() != 1 ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      isa<linalg::FillOp, linalg::CopyOp>(next) || next->getNumRegions() != 1)
    return {};
  Value buffer = op.getDpsInitOperand(0)->get();
  OpOperand *init = epilogue.getDpsInitOperand(0);
  if (!epilogue.getMatchingIndexingMap(init).isIdentity())
    return {};
  if (init->get() != buffer) {
    // Then the contraction's output is never stored: the epilogue must read it, and nothing
    // else may (fills of it aside, which the contraction absorbs or precede it).
    if (!llvm::is_contained(epilogue.getDpsInputs(), buffer) ||
        cast<ShapedType>(init->get().getType()).getShape() !=
            cast<ShapedType>(buffer.getType()).getShape())
      return {};
    for (Operation *user : buffer.getUsers())
      if (user != op.getOperation() && user != next && !isa<linalg::FillOp>(user))
        return {};
  }
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    if (input->get() == buffer ? !map.isIdentity()
                               : !map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return {};
  }
  Block &body = next->getRegion(0).front();
  if (!body.getOps<linalg::IndexOp>().empty() || body.getTerminator()->getNumOperands() != 1)
    return {};
  return epilogue;
}

} // namespace

bool tlc::mapTiledContraction(linalg::LinalgOp op, FlatSymbolRefAttr module,
                              FlatSymbolRefAttr kernel, Value init, Operation **fused) {
  std::optional<ContractionPlan> plan = planContraction(op);
  if (!plan)
    return false;
  const TileShape &tile = plan->tile;
  linalg::LinalgOp epilogue = fusibleEpilogue(op);
  // With an epilogue the launch replaces both ops where the second one was: the views of its
  // operands are defined by then, and what lies between touches none of the contraction's.
  OpBuilder b(epilogue ? epilogue.getOperation() : op.getOperation());
  Location loc = op.getLoc();
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto sliceType = [&](unsigned operand, int64_t outerTile) {
    Type element = getElementTypeOrSelf(op.getDpsInputOperand(operand)->get().getType());
    return MemRefType::get({tile.bk * (outerTile + kRowPad)}, element, MemRefLayoutAttrInterface(),
                           workgroup);
  };
  Type slices[] = {sliceType(plan->lhs, tile.bm), sliceType(plan->rhs, tile.bn)};
  auto launch = createKernelLaunch(b, loc,
                                   {llvm::divideCeilSigned(plan->sizeN, tile.bn),
                                    llvm::divideCeilSigned(plan->sizeM, tile.bm),
                                    plan->batchCount},
                                   tile.threads(), slices, module, kernel);
  TiledContractionEmitter(b, op, *plan, launch, init, epilogue).emit();
  op->erase();
  if (fused)
    *fused = epilogue;
  if (epilogue)
    epilogue->erase();
  return true;
}
