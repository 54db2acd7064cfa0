// Contractions on the GPU as workgroup tiles: each workgroup computes a BM x BN tile of the
// output (one batch point of it), looping over k in BK-deep steps. Each step stages the
// operands' BM x BK and BK x BN slices through workgroup memory, loaded cooperatively by all
// threads one step ahead (the next slice is read from global memory into registers while the
// current one is multiplied); each thread keeps a TM x TN tile of accumulators in registers.
// A thread's rows (and columns) come in runs of up to 4 adjacent ones, the runs spread over the
// tile (rows ty * 4 + [0, 4) and BM/2 + ty * 4 + [0, 4) for an 8 x 8 register tile): each
// run is one 128-bit read of workgroup memory (LLVM's load-store vectorizer merges the four),
// a warp's reads of a slice row stay within few bank wavefronts, and its stores of the
// output touch whole 16-byte pieces.
//
// A contraction whose best tiles make too few threads for a large GPU (a late convolution of
// a CNN: few output channels x image points, thousands of k) splits k over S workgroups per
// tile (S on the grid's z dimension): the first adds its part into the output as usual, the
// others store theirs into scratch past the workspace's planned arena, and a second kernel
// sums the S parts in a fixed order (the result does not depend on scheduling) and runs the
// epilogue.
#include "targets/gpu/TiledContraction.h"

#include "targets/gpu/KernelLaunch.h"

#include "passes/BufferFills.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <algorithm>
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
  /// k split over `splits` workgroups, each `kChunk` deep (a multiple of the tile's bk).
  int64_t splits = 1, kChunk = 0;
  /// The output points of all batch points (one part of a split k's partial sums).
  int64_t points() const { return batchCount * sizeM * sizeN; }
};

/// Threads a large GPU keeps in flight with room to hide latency (a 132-multiprocessor H100
/// at 512 threads each: two 256-thread workgroups of 8 x 8 register tiles).
constexpr int64_t kTargetThreads = 64 * 1024;
/// A split workgroup steps over at least this much of k, in at most this many parts.
constexpr int64_t kMinSplitK = 256;
constexpr int64_t kMaxSplits = 8;
/// Fewer workgroups than a large GPU has multiprocessors (an H100's 132) leave some idle
/// whatever their threads: such a product splits k as far as it goes. Measured on an H100
/// (resnet18's convolutions at batch 32, benchmarks/results/gpu-h100-2026-11-27.md, run k):
/// layer3's 98 tiles ran 0.377 ms in 3 parts, 0.319 in 8; layer4's 52 ran 0.374 in 5, 0.325 in
/// 8; while layer2's 196 tiles ran best in 2 parts (0.323; 0.364 in 3) and layer1's 784 unsplit
/// (0.337; 0.402 in 2): each part beyond the first writes and reads m x n partial sums.
constexpr int64_t kMultiprocessors = 132;

/// The tiles, best first for a large product: 8 x 8 register tiles make 4 multiply-adds per
/// workgroup-memory read, 4 x 4 make 2, 2 x 4 make 1.33.
constexpr TileShape kTiles[] = {{128, 128, 8, 8, 8},
                                {64, 128, 8, 8, 8},
                                {128, 64, 8, 8, 8},
                                {64, 64, 16, 4, 4},
                                {32, 64, 16, 2, 4}};

/// How well `t` suits `plan`'s product, in [0, 1]: the share of its tiles' points inside the
/// output, times its multiply-adds per workgroup-memory read against the best tile's, times
/// how much of kTargetThreads its threads fill (after splitting k into `*splits`, when
/// `allowSplit`: as far as it goes with fewer workgroups than kMultiprocessors, else to fill
/// kTargetThreads). 0 when its grid would exceed the launch limits.
double scoreTile(const ContractionPlan &plan, const TileShape &t, bool allowSplit,
                 int64_t *splits) {
  int64_t tilesM = llvm::divideCeil(plan.sizeM, t.bm), tilesN = llvm::divideCeil(plan.sizeN, t.bn);
  *splits = 1;
  if (tilesM > tlc::kMaxGridDim || tilesN > tlc::kMaxGridDim)
    return 0;
  int64_t workgroups = tilesM * tilesN * plan.batchCount, threads = workgroups * t.threads();
  int64_t mostSplits = std::min(kMaxSplits, plan.sizeK / kMinSplitK);
  if (allowSplit && workgroups < kMultiprocessors)
    *splits = std::max<int64_t>(1, mostSplits);
  else if (allowSplit && threads < kTargetThreads)
    *splits = std::clamp<int64_t>(llvm::divideCeil(kTargetThreads, threads), 1, mostSplits);
  *splits = std::max<int64_t>(1, std::min(*splits, tlc::kMaxGridDim / plan.batchCount));
  double inside = double(plan.sizeM) * double(plan.sizeN) /
                  (double(tilesM * t.bm) * double(tilesN * t.bn));
  double perRead = double(t.tm * t.tn) / double(t.tm + t.tn) / 4.0;
  double busy = std::min(1.0, double(threads * *splits) / double(kTargetThreads));
  return inside * perRead * busy;
}

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

std::optional<ContractionPlan> planContraction(linalg::LinalgOp op, bool allowSplit) {
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
  // Small products keep one thread per output point: a tile would leave most threads idle.
  if (plan->sizeM < 32 || plan->sizeN < 32 || plan->sizeK < 16 ||
      plan->batchCount > tlc::kMaxGridDim)
    return std::nullopt;
  // Between tiles that score the same (a GPU this product cannot fill either way), the one
  // with fewer points outside the output: it computes nothing it throws away.
  double best = 0, bestPadded = 0;
  for (const TileShape &t : kTiles) {
    int64_t splits;
    double score = scoreTile(*plan, t, allowSplit, &splits);
    double padded = double(llvm::alignTo(plan->sizeM, t.bm)) * double(llvm::alignTo(plan->sizeN, t.bn));
    if (score > best * (1 + 1e-9) || (score >= best * (1 - 1e-9) && score > 0 && padded < bestPadded)) {
      best = score;
      bestPadded = padded;
      plan->tile = t;
      plan->splits = splits;
    }
  }
  if (best == 0)
    return std::nullopt;
  plan->kChunk = llvm::alignTo(llvm::divideCeil(plan->sizeK, plan->splits), plan->tile.bk);
  plan->splits = llvm::divideCeil(plan->sizeK, plan->kChunk);
  return plan;
}

/// Emits the kernel body into a launch; `b` inserts before the launch's terminator.
class TiledContractionEmitter : tlc::KernelEmitterBase {
public:
  TiledContractionEmitter(OpBuilder &b, linalg::LinalgOp op, const ContractionPlan &plan,
                          Value init, linalg::LinalgOp epilogue, Value scratch)
      : KernelEmitterBase(b, op.getLoc()), op(op), plan(plan), tile(plan.tile), initValue(init),
        epilogue(epilogue), scratch(scratch) {}

  /// The tiled kernel, in `tiled` (b inside its body).
  void emit(gpu::LaunchOp tiled) {
    launch = tiled;
    IRMapping views;
    lhs = tlc::cloneViewChain(b, op.getDpsInputOperand(plan.lhs)->get(), views);
    rhs = tlc::cloneViewChain(b, op.getDpsInputOperand(plan.rhs)->get(), views);
    cloneOutputViews(views);
    lhsTile = launch.getWorkgroupAttributions()[0];
    rhsTile = launch.getWorkgroupAttributions()[1];
    emitCoordinates();
    Slices lhsSlices = planSlices(plan.lhs, plan.m, plan.sizeM, tile.bm, rowStart);
    Slices rhsSlices = planSlices(plan.rhs, plan.n, plan.sizeN, tile.bn, colStart);

    // Accumulators start from the output (the contraction adds into it) or from the constant
    // of an absorbed fill (the later parts of a split k from zero); the first slices are read
    // before the loop.
    SmallVector<Value> init;
    Value start = initValue ? b.clone(*initValue.getDefiningOp())->getResult(0) : Value();
    for (int64_t i = 0; i < tile.tm; ++i)
      for (int64_t j = 0; j < tile.tn; ++j) {
        Value value = start ? start : loadOutput(i, j);
        if (plan.splits > 1)
          value = arith::SelectOp::create(b, loc, firstPart, value, zero(outputElementType()));
        init.push_back(value);
      }
    size_t numAcc = init.size();
    llvm::append_range(init, readSlices(lhsSlices, kBegin));
    llvm::append_range(init, readSlices(rhsSlices, kBegin));

    auto loop = scf::ForOp::create(b, loc, kBegin, kEnd, index(tile.bk), init);
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

  /// The sum of a split k's parts at output point `linear` (b inside the point's guard of a
  /// launch with one thread per output point): the output's part (the first) plus the
  /// scratch's in order, through the epilogue.
  void emitSum(Value linear) {
    IRMapping views;
    cloneOutputViews(views);
    Value col = arith::RemUIOp::create(b, loc, linear, index(plan.sizeN));
    Value rest = arith::DivUIOp::create(b, loc, linear, index(plan.sizeN));
    Value row = arith::RemUIOp::create(b, loc, rest, index(plan.sizeM));
    Value batch = arith::DivUIOp::create(b, loc, rest, index(plan.sizeM));
    point.assign(op.getNumLoops(), Value());
    for (auto [dim, value] : decompose(batch, plan.batch))
      point[dim] = value;
    SmallVector<Value> indices = indicesAt(op.getDpsInitOperand(0), outputCoords(row, col));
    Value value = memref::LoadOp::create(b, loc, out, indices);
    for (int64_t part = 1; part < plan.splits; ++part) {
      Value partial = memref::LoadOp::create(b, loc, scratch,
                                             ValueRange{add(linear, index((part - 1) * plan.points()))});
      value = isa<FloatType>(value.getType())
                  ? arith::AddFOp::create(b, loc, value, partial).getResult()
                  : arith::AddIOp::create(b, loc, value, partial).getResult();
    }
    memref::StoreOp::create(b, loc, epilogue ? applyEpilogue(value, indices) : value,
                            epilogue ? epilogueOut : out, indices);
  }

private:
  /// The output's and the epilogue's views, cloned into the current launch.
  void cloneOutputViews(IRMapping &views) {
    out = tlc::cloneViewChain(b, op.getDpsInitOperand(0)->get(), views);
    epilogueInputs.clear();
    if (epilogue) {
      for (Value input : epilogue.getDpsInputs())
        epilogueInputs.push_back(tlc::cloneViewChain(b, input, views));
      epilogueOut = tlc::cloneViewChain(b, epilogue.getDpsInitOperand(0)->get(), views);
    }
  }

  Type outputElementType() { return getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType()); }
  Value zero(Type type) { return arith::ConstantOp::create(b, loc, b.getZeroAttr(type)); }

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
    // z: the part of a split k, then the batch point.
    batchIndex = launch.getBlockIds().z;
    kBegin = index(0);
    kEnd = index(plan.sizeK);
    if (plan.splits > 1) {
      Value part = arith::DivUIOp::create(b, loc, batchIndex, index(plan.batchCount));
      batchIndex = arith::RemUIOp::create(b, loc, batchIndex, index(plan.batchCount));
      firstPart = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, index(0));
      kBegin = mul(part, plan.kChunk);
      kEnd = arith::MinUIOp::create(b, loc, add(kBegin, index(plan.kChunk)), index(plan.sizeK));
      // This part's first element in the scratch (the first part's is in the output).
      scratchBase = add(mul(arith::SubIOp::create(b, loc, part, index(1)), plan.points()),
                        mul(batchIndex, plan.sizeM * plan.sizeN));
    }
    for (auto [dim, value] : decompose(batchIndex, plan.batch))
      point[dim] = value;
    rowStart = mul(launch.getBlockIds().y, tile.bm);
    colStart = mul(launch.getBlockIds().x, tile.bn);
    Value tid = launch.getThreadIds().x;
    threadRow = mul(arith::DivUIOp::create(b, loc, tid, index(tile.bn / tile.tn)), run(tile.tm));
    threadCol = mul(arith::RemUIOp::create(b, loc, tid, index(tile.bn / tile.tn)), run(tile.tn));
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
    Value outside = zero(getElementTypeOrSelf(operand->get().getType()));
    for (const Slices::Element &e : slices.elements) {
      Value k = add(k0, e.kOffset);
      SmallVector<std::pair<unsigned, Value>> at = decompose(clampBelow(k, plan.sizeK), plan.k);
      llvm::append_range(at, e.outer);
      Value value = loadAt(operand, slices.operand == plan.lhs ? lhs : rhs, at);
      Value inK = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k, kEnd);
      Value inRange = arith::AndIOp::create(b, loc, e.outerInRange, inK);
      values.push_back(arith::SelectOp::create(b, loc, inRange, value, outside));
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
            ValueRange{add(threadRow, index(kk * (tile.bm + kRowPad) + offsetInTile(i, tile.tm, tile.bm)))}));
      for (int64_t j = 0; j < tile.tn; ++j)
        bv.push_back(memref::LoadOp::create(
            b, loc, rhsTile,
            ValueRange{add(threadCol, index(kk * (tile.bn + kRowPad) + offsetInTile(j, tile.tn, tile.bn)))}));
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

  /// A thread's rows (columns) come in runs of this many adjacent ones.
  static int64_t run(int64_t perThread) { return std::min<int64_t>(perThread, 4); }
  /// The offset of a thread's `i`-th row (column) from its first, of `perThread` in a tile of
  /// `extent`: runs of run(perThread), run r in band r of extent / (perThread / run) rows.
  static int64_t offsetInTile(int64_t i, int64_t perThread, int64_t extent) {
    int64_t width = run(perThread), bands = perThread / width;
    return (i / width) * (extent / bands) + i % width;
  }
  Value outputRow(int64_t i) { return add(rowStart, add(threadRow, index(offsetInTile(i, tile.tm, tile.bm)))); }
  Value outputCol(int64_t j) { return add(colStart, add(threadCol, index(offsetInTile(j, tile.tn, tile.bn)))); }

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
    if (plan.splits > 1) {
      // The first part into the output, the others into the scratch; emitSum adds them up.
      auto first = scf::IfOp::create(b, loc, firstPart, /*withElseRegion=*/true);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      memref::StoreOp::create(b, loc, value, out, indices);
      b.setInsertionPointToStart(&first.getElseRegion().front());
      Value at = add(scratchBase, add(mul(row, plan.sizeN), col));
      memref::StoreOp::create(b, loc, value, scratch, ValueRange{at});
      return;
    }
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
  Value scratch;
  Value lhs, rhs, out, lhsTile, rhsTile;
  SmallVector<Value> point;
  Value rowStart, colStart, threadRow, threadCol;
  Value batchIndex, kBegin, kEnd, firstPart, scratchBase;
};

/// The op after `op` (past host-only view and constant ops) when it can run in the tile's
/// store: all-parallel, writing through the identity map either in place on `op`'s output or
/// into another buffer of the same shape when nothing else reads `op`'s output (a
/// convolution's BatchNorm and ReLU written into the next one's padded input); reading that
/// output only through the identity map and everything else through projected permutations;
/// no linalg.index (bias, activation, residual, scale: what follows a contraction).
linalg::LinalgOp fusibleEpilogue(linalg::LinalgOp op) {
  // Past host-only ops, and past fills the contraction may move after: they write nothing the
  // contraction reads or writes (the memory planner may have given a fill the bytes of an
  // input whose last use is the contraction).
  auto touches = [](Value written, ValueRange operands) {
    return llvm::any_of(operands,
                        [&](Value operand) { return tlc::mayOverlap(written, operand); });
  };
  auto movable = [&](Operation *between) {
    if (between->getNumRegions() == 0 &&
        (isa<ViewLikeOpInterface>(between) || matchPattern(between, m_Constant())))
      return true;
    auto fill = dyn_cast<linalg::FillOp>(between);
    return fill && fill.hasPureBufferSemantics() &&
           !touches(fill.getOutputs()[0], op->getOperands());
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
    // Workgroups store the epilogue's results while others still read the contraction's
    // inputs: the memory planner may have given the epilogue's output their bytes (their last
    // use was the contraction, before the epilogue).
    if (touches(init->get(), op.getDpsInputs()))
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

Value tlc::WorkspaceTail::view(OpBuilder &b, Location loc, int64_t elements, Type type) {
  bytes = std::max(bytes, elements * int64_t(llvm::divideCeil(type.getIntOrFloatBitWidth(), 8)));
  Value shift = arith::ConstantIndexOp::create(b, loc, offset);
  return memref::ViewOp::create(b, loc, MemRefType::get({elements}, type), workspace, shift,
                                ValueRange{});
}

bool tlc::mapTiledContraction(linalg::LinalgOp op, FlatSymbolRefAttr module,
                              FlatSymbolRefAttr kernel, Value init, Operation **fused,
                              WorkspaceTail *tail,
                              const std::function<FlatSymbolRefAttr()> &nextKernel) {
  std::optional<ContractionPlan> plan = planContraction(op, tail != nullptr);
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
  // The sum of a split k's parts: one thread per output point.
  std::optional<PointGrid> sumGrid;
  if (plan->splits > 1 && !(sumGrid = pointGrid(plan->points(), /*blockSize=*/256)))
    return false;
  Value scratch;
  if (plan->splits > 1)
    scratch = tail->view(b, loc, (plan->splits - 1) * plan->points(),
                         getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType()));
  auto launch = createKernelLaunch(b, loc,
                                   {llvm::divideCeilSigned(plan->sizeN, tile.bn),
                                    llvm::divideCeilSigned(plan->sizeM, tile.bm),
                                    plan->batchCount * plan->splits},
                                   tile.threads(), slices, module, kernel);
  TiledContractionEmitter emitter(b, op, *plan, init, epilogue, scratch);
  emitter.emit(launch);
  if (sumGrid) {
    b.setInsertionPointAfter(launch);
    emitter.emitSum(createPointLaunch(b, loc, *sumGrid, module, nextKernel()));
  }
  op->erase();
  if (fused)
    *fused = epilogue;
  if (epilogue)
    epilogue->erase();
  return true;
}
