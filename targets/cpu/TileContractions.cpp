// tlc-tile-contractions: cache- and register-level tiling of linalg contractions on buffers.
#include "passes/BufferFills.h"
#include "passes/LinalgBuilders.h"
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/LoopUtils.h"
#include "targets/cpu/PackContractionOperands.h"
#include "targets/cpu/PrefetchEpilogueOperands.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SmallBitVector.h"

#include <numeric>

namespace tlc {
#define GEN_PASS_DEF_TLCTILECONTRACTIONS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// The loop dimensions of a contraction that tiling cares about: one m, n and k each (the
/// innermost candidates: they walk memory contiguously), every other dimension tiled by 1.
struct ContractionLoops {
  unsigned m, n, k;
  unsigned numLoops;
  int64_t mRange, nRange, kRange;
  /// Outer k dimensions (more than one iteration) that run inside the register tile, outer
  /// to inner, and stay untiled at the cache level (see joinOuterK).
  SmallVector<unsigned> joinedK;
};

/// Policy: the outer k dimensions of `loops` join the register tile when all k dimensions
/// together have at most `maxJoinedK` iterations (e.g. a direct convolution's c x kh x kw):
/// the accumulators then stay in registers across the whole reduction instead of being
/// stored and reloaded per outer k iteration.
void joinOuterK(linalg::LinalgOp op, ContractionLoops &loops, int64_t maxJoinedK) {
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> outer;
  int64_t total = 1;
  for (unsigned d : dims->k) {
    total *= ranges[d];
    if (d != loops.k && ranges[d] > 1)
      outer.push_back(d);
  }
  if (!outer.empty() && total <= maxJoinedK)
    loops.joinedK = outer;
}

/// Mechanism: which ops qualify. A static, buffer-semantics contraction with at least one
/// m, n and k dimension and a plain multiply-add body.
std::optional<ContractionLoops> matchContraction(linalg::LinalgOp op, int64_t maxJoinedK) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 || op.getNumDpsInputs() != 2)
    return std::nullopt;
  if (!linalg::isaContractionOpInterface(op) || op.hasDynamicShape())
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  // The innermost dimension of each kind that has more than one iteration: a unit dimension
  // (e.g. the batch axis of [seq, 1, d] activations, an m dimension of "sbd,de->sbe") would
  // make a 1-row register tile, one accumulator chain per vector.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned m = tlc::innermostNonUnitDim(dims->m, ranges);
  unsigned n = tlc::innermostNonUnitDim(dims->n, ranges);
  unsigned k = tlc::innermostNonUnitDim(dims->k, ranges);
  ContractionLoops loops{m, n, k, op.getNumLoops(), ranges[m], ranges[n], ranges[k], {}};
  joinOuterK(op, loops, maxJoinedK);
  return loops;
}

/// Tile sizes per loop: `m`, `n`, `k` for the matching dimensions, `joinedK` for the joined
/// outer k dimensions, 1 for every other one (batch and outer m/n/k dimensions). A size of 0
/// leaves that loop untiled.
SmallVector<OpFoldResult> tileSizes(MLIRContext *ctx, const ContractionLoops &loops, int64_t m,
                                    int64_t n, int64_t k, int64_t joinedK) {
  SmallVector<OpFoldResult> sizes;
  Builder b(ctx);
  for (unsigned d = 0; d < loops.numLoops; ++d) {
    int64_t size = d == loops.m ? m : d == loops.n ? n : d == loops.k ? k : 1;
    if (llvm::is_contained(loops.joinedK, d))
      size = joinedK;
    sizes.push_back(b.getIndexAttr(size));
  }
  return sizes;
}

/// Loop order: other dims, then n, k, m (cache level: a k x n panel of B is reused across the
/// m blocks) or n, m, k (register level: the k loop runs inside the register tile).
SmallVector<int64_t> interchange(const ContractionLoops &loops, ArrayRef<unsigned> inner) {
  SmallVector<int64_t> order;
  for (unsigned d = 0; d < loops.numLoops; ++d)
    if (!llvm::is_contained(inner, d))
      order.push_back(d);
  for (unsigned d : inner)
    order.push_back(d);
  return order;
}

FailureOr<scf::SCFTilingResult> tile(RewriterBase &rewriter, linalg::LinalgOp op,
                                     ArrayRef<OpFoldResult> sizes, ArrayRef<int64_t> order) {
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes).setInterchange(order);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  rewriter.eraseOp(op);
  return result;
}

std::optional<int64_t> constantTripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                         ub = getConstantIntValue(loop.getUpperBound()),
                         step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return llvm::divideCeil(*ub - *lb, *step);
}

/// Whether `panelK` rows of the memref `operand` along its dimension `kResult` cannot all stay
/// in a 64-set, 8-way L1 data cache (Zen, Intel cores; Zen 5's 12 ways change little): rows a
/// multiple of 64 bytes apart fall into 64 / gcd(lines per row, 64) sets, e.g. 2 for rows
/// of 512 f32 (2 KiB), so a register strip of an unpacked right operand is read from L2 by
/// every register tile.
bool rowsConflictInL1(Value operand, unsigned kResult, int64_t panelK) {
  auto type = cast<MemRefType>(operand.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || ShapedType::isDynamic(strides[kResult]))
    return false;
  int64_t bytes = strides[kResult] * type.getElementTypeBitWidth() / 8;
  if (bytes <= 0 || bytes % 64 != 0)
    return false;
  int64_t sets = 64 / std::gcd<int64_t>(bytes / 64, 64);
  return 8 * sets < panelK;
}

/// Where a packed panel's buffer lives: the body of the loop that will run on the thread pool,
/// else of the outermost enclosing scf.parallel, else of the function (one buffer per thread).
Operation *packedBufferHome(scf::ForOp parallelLoop, Operation *outermost) {
  if (parallelLoop)
    return parallelLoop;
  Operation *home = outermost->getParentOfType<FunctionOpInterface>();
  for (Operation *p = outermost->getParentOp(); p && p != home; p = p->getParentOp())
    if (isa<scf::ParallelOp>(p))
      home = p;
  return home;
}

/// The size of the buffer behind the memref view `v` (through subviews, casts, reshapes), 0
/// when it is not statically shaped.
int64_t bufferBytes(Value v) {
  auto root = memref::skipViewLikeOps(cast<TypedValue<BaseMemRefType>>(v));
  auto type = dyn_cast<MemRefType>(root.getType());
  if (!type || !type.hasStaticShape())
    return 0;
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// The linalg.fill that sets all of `op`'s init buffer right before it (lastFillOf: that
/// buffer or a reshape of it, e.g. a convolution's collapsed output). The init must not also
/// be an input (filling it tile by tile would change what later tiles read).
linalg::FillOp fillOfInit(linalg::LinalgOp op) {
  Value init = op.getDpsInitOperand(0)->get();
  if (llvm::is_contained(op.getDpsInputs(), init))
    return nullptr;
  return tlc::lastFillOf(op, init);
}

/// Whether every reduction dimension of `op` with more than one iteration runs inside the
/// register tile (`loops.k` or a joined one).
bool reductionsInRegisterTile(linalg::LinalgOp op, const ContractionLoops &loops) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction && d != loops.k && ranges[d] != 1 &&
        !llvm::is_contained(loops.joinedK, d))
      return false;
  return true;
}

/// Mechanism: a register tile with joined k dimensions (each of one iteration inside it)
/// rebuilt without them: operands read through them become rank-reducing subviews, so
/// tlc-vectorize sees a plain (m, n, k) tile whose vector contraction lowers to outer
/// products and whose masks come from subview sizes (linalg::dropUnitDims does this for
/// tensors only). Leaves the tile as it is (and returns it) unless it is a generic whose
/// joined-k operands are memrefs.
linalg::LinalgOp dropJoinedK(RewriterBase &rewriter, linalg::LinalgOp tile,
                             const ContractionLoops &loops) {
  auto generic = dyn_cast<linalg::GenericOp>(tile.getOperation());
  if (!generic)
    return tile;
  MLIRContext *ctx = rewriter.getContext();
  llvm::SmallBitVector dropped(tile.getNumLoops());
  for (unsigned d : loops.joinedK)
    dropped.set(d);
  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : tile->getOpOperands()) {
    AffineMap map = tile.getMatchingIndexingMap(&operand);
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      return tile;
    SmallVector<AffineExpr> kept;
    SmallVector<int64_t> shape;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (dim && dropped.test(dim.getPosition()))
        continue;
      kept.push_back(e);
      shape.push_back(type.getDimSize(i));
    }
    maps.push_back(compressDims(AffineMap::get(map.getNumDims(), 0, kept, ctx), dropped));
    if (kept.size() == map.getNumResults()) {
      operands.push_back(operand.get());
      continue;
    }
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0)),
        strides(type.getRank(), rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes = memref::getMixedSizes(rewriter, loc, operand.get());
    auto reduced =
        memref::SubViewOp::inferRankReducedResultType(shape, type, offsets, sizes, strides);
    operands.push_back(memref::SubViewOp::create(rewriter, loc, cast<MemRefType>(reduced),
                                                 operand.get(), offsets, sizes, strides));
  }
  SmallVector<utils::IteratorType> iterators;
  for (auto [d, it] : llvm::enumerate(tile.getIteratorTypesArray()))
    if (!dropped.test(d))
      iterators.push_back(it);
  unsigned numInputs = tile.getNumDpsInputs();
  auto result = linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, ArrayRef<Value>(operands).take_front(numInputs),
      ArrayRef<Value>(operands).drop_front(numInputs), maps, iterators);
  rewriter.inlineRegionBefore(generic.getRegion(), result.getRegion(), result.getRegion().end());
  result->setAttr("tlc.register_tile", rewriter.getUnitAttr());
  rewriter.eraseOp(tile);
  return cast<linalg::LinalgOp>(result.getOperation());
}

/// Mechanism: `op` (on buffers) as two ops over k in [0, split) and [split, K) of its k loop
/// `k`, the second accumulating onto the first's output (same order of additions per output
/// element). Returns them, first to last.
FailureOr<std::pair<linalg::LinalgOp, linalg::LinalgOp>>
splitReduction(RewriterBase &rewriter, linalg::LinalgOp op, unsigned k, int64_t split) {
  auto tiling = cast<TilingInterface>(op.getOperation());
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> offsets(op.getNumLoops(), rewriter.getIndexAttr(0)), sizes;
  for (int64_t range : op.getStaticLoopRanges())
    sizes.push_back(rewriter.getIndexAttr(range));
  int64_t kRange = op.getStaticLoopRanges()[k];
  sizes[k] = rewriter.getIndexAttr(split);
  FailureOr<TilingResult> first = tiling.getTiledImplementation(rewriter, offsets, sizes);
  offsets[k] = rewriter.getIndexAttr(split);
  sizes[k] = rewriter.getIndexAttr(kRange - split);
  FailureOr<TilingResult> rest = tiling.getTiledImplementation(rewriter, offsets, sizes);
  if (failed(first) || failed(rest) || first->tiledOps.size() != 1 || rest->tiledOps.size() != 1)
    return failure();
  rewriter.eraseOp(op);
  return std::make_pair(cast<linalg::LinalgOp>(first->tiledOps[0]),
                        cast<linalg::LinalgOp>(rest->tiledOps[0]));
}

/// Where per-register-tile code goes before the tile's k loops: before `kLoop` (the outermost
/// of them; null when k has one iteration, then before the tile itself), once what is
/// invariant in the loops from the tile out to it has moved out of them (innermost first, so
/// the tile's output slice leaves every k loop).
Operation *beforeKLoops(linalg::LinalgOp registerTile, scf::ForOp kLoop) {
  if (!kLoop)
    return registerTile;
  for (Operation *p = registerTile->getParentOp(); p != kLoop->getParentOp();
       p = p->getParentOp())
    if (auto loop = dyn_cast<LoopLikeOpInterface>(p))
      moveLoopInvariantCode(loop);
  return kLoop;
}

/// Mechanism: fills each register tile's accumulator slice right before its k loop instead
/// of the whole output before the contraction (`fill`), so `tlc-vectorize` starts the
/// accumulators from the fill value in registers (no memset of the output, no load of it).
/// `kLoop` is the register tile's outermost loop over k (null when k has one iteration);
/// the loops from the tile out to it run over k only. Only valid when the output is not
/// tiled along k above the register tile (one k block). Fails without changing the IR when
/// the tile's output slice is not invariant in `kLoop`.
LogicalResult fuseFillIntoRegisterTile(RewriterBase &rewriter, linalg::FillOp fill,
                                       linalg::LinalgOp registerTile, scf::ForOp kLoop) {
  Operation *before = beforeKLoops(registerTile, kLoop);
  if (kLoop && !kLoop.isDefinedOutsideOfLoop(registerTile.getDpsInitOperand(0)->get()))
    return failure();
  rewriter.setInsertionPoint(before);
  auto tileFill = linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs()[0],
                                         registerTile.getDpsInitOperand(0)->get());
  tileFill->setAttr("tlc.register_tile", rewriter.getUnitAttr());
  return success();
}

/// Policy: the shape a dot-product register tile (bf16 k pairs, int8 k quads) needs: register
/// tiles of whole dot-product vectors (`lanes` columns each; 32 columns are two AVX-512
/// vectors, 8 two NEON ones), no joined k dimensions, and a left operand with k as its last,
/// unit-stride axis (a tile row's k group is then one 32-bit load).
bool dotTileShape(linalg::LinalgOp op, const ContractionLoops &loops, int64_t registerN,
                  int64_t lanes) {
  if (lanes < 1 || registerN % lanes != 0 || !loops.joinedK.empty())
    return false;
  std::optional<std::tuple<unsigned, unsigned, unsigned>> lhs =
      tlc::matchLhsOperand(op, loops.m, loops.n, loops.k);
  if (!lhs)
    return false;
  auto [operand, mResult, kResult] = *lhs;
  auto lhsType = cast<MemRefType>(op->getOperand(operand).getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  return kResult == unsigned(lhsType.getRank() - 1) &&
         succeeded(lhsType.getStridesAndOffset(strides, offset)) && strides.back() == 1;
}

/// Policy: whether `op` may take bf16 dot-product register tiles (k pairs): two bf16 operands
/// extended to an f32 output, in dotTileShape's shape.
bool bf16PairCandidate(linalg::LinalgOp op, const ContractionLoops &loops, int64_t registerN,
                       int64_t lanes) {
  auto outType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!outType.getElementType().isF32())
    return false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = cast<MemRefType>(input->get().getType());
    if (!type.getElementType().isBF16() ||
        tlc::extendedOperandType(op, input->getOperandNumber()) != outType.getElementType())
      return false;
  }
  return dotTileShape(op, loops, registerN, lanes);
}

/// Policy: whether `op` may take AVX-512 VNNI register tiles (k quads): two i8 operands, one
/// zero-extended and one sign-extended to an i32 output (vpdpbusd multiplies unsigned by
/// signed bytes; tl.quantized_conv2d's filter x columns), in dotTileShape's shape.
bool int8QuadCandidate(linalg::LinalgOp op, const ContractionLoops &loops, int64_t registerN) {
  auto outType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!outType.getElementType().isInteger(32))
    return false;
  int unsignedInputs = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = cast<MemRefType>(input->get().getType());
    std::optional<bool> isUnsigned = tlc::extendedIntegerSignedness(op, input->getOperandNumber());
    if (!type.getElementType().isInteger(8) || !isUnsigned)
      return false;
    unsignedInputs += *isUnsigned;
  }
  return unsignedInputs == 1 && dotTileShape(op, loops, registerN, /*lanes=*/16);
}

/// One contraction to tile: its loops, and the fill its register tiles start from (null:
/// none).
struct Work {
  linalg::LinalgOp op;
  ContractionLoops loops;
  linalg::FillOp fill;
  /// The k group it may take (2: bf16 k pairs, bf16PairCandidate; 4: int8 k quads,
  /// int8QuadCandidate; 1: none; whether it takes it is decided with its packing), and its k
  /// block.
  int64_t kGroup;
  int64_t blockK;
  /// What its fused epilogue reads that its register tiles prefetch (none: empty).
  tlc::EpilogueOperands epilogue = {};
};

/// The operand packing decided for one contraction, on the untiled op: the right operand's
/// (operand, k result, n result) and the left one's (operand, m result, k result), each
/// unset when not packed; the loop the whole right operand is packed before (null: per
/// block); the cache block's n extent.
struct PackingPlan {
  std::optional<std::tuple<unsigned, unsigned, unsigned>> rhs, lhs;
  scf::ForOp wholeOperandBefore;
  int64_t blockN = 0;
  /// The rows of m that read each packed right-operand panel.
  int64_t rhsRows = 0;
};

/// A contraction tiled at both levels: the cache block loops, the register tile loops, and
/// the register tile.
struct TiledContraction {
  scf::SCFTilingResult outer, inner;
  linalg::LinalgOp registerTile;
};

struct TLCTileContractionsPass : tlc::impl::TLCTileContractionsBase<TLCTileContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    FailureOr<SmallVector<Work>> work = findWork(rewriter);
    if (failed(work))
      return signalPassFailure();
    SmallVector<scf::ForOp> toPeel, parallelLoops;
    SmallVector<linalg::FillOp> fusedFills;
    for (auto [op, loops, fill, candidateGroup, blockK, epilogue] : *work) {
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      Value init = op.getDpsInitOperand(0)->get();
      bool candidate = candidateGroup > 1;
      PackingPlan packing = planPacking(op, loops, candidate);
      // k pairs (quads) need the right operand packed (that is where they are interleaved),
      // and enough rows reading each packed panel to repay the copy (below that, e.g. a
      // matrix-vector product, converting in the register tiles costs less).
      bool grouped = candidate && packing.rhs && packing.rhsRows >= pairsMinRows;
      if (candidate && !grouped)
        packing = planPacking(op, loops, /*grouped=*/false);
      int64_t kGroup = grouped ? candidateGroup : 1;
      int64_t registerK = kGroup;
      int64_t blockM = cacheBlockM(op, loops, packing.blockN, blockK);
      FailureOr<TiledContraction> tiled =
          tileContraction(rewriter, op, loops, blockM, packing.blockN, blockK, registerK);
      if (failed(tiled))
        return signalPassFailure();
      if (grouped && failed(markGroupTile(rewriter, loops, *tiled, kGroup)))
        return signalPassFailure();
      if (fill && fuseFillIntoRegisterLoops(rewriter, fill, loops, *tiled, registerK))
        fusedFills.push_back(fill);
      if (!epilogue.operands.empty())
        prefetchEpilogue(rewriter, epilogue, init, loops, *tiled, registerK);
      scf::ForOp parallelLoop =
          chooseParallelLoop(loops, iterators, tiled->outer, packing.blockN, blockK);
      if (parallelLoop)
        parallelLoops.push_back(parallelLoop);
      packOperands(rewriter, loops, packing, *tiled, parallelLoop, blockM, blockK, kGroup);
      // Peel the register-level m and n loops so full tiles get static shapes (once a
      // canonicalization folds the constant sizes into the subviews).
      // Innermost first, so the outer peel copies an already peeled inner loop.
      for (LoopLikeOpInterface loop : llvm::reverse(tiled->inner.loops))
        if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation()))
          if (auto step = getConstantIntValue(forOp.getStep());
              step && (*step == registerM || *step == registerN) && *step > 1)
            toPeel.push_back(forOp);
    }
    for (linalg::FillOp fill : fusedFills)
      rewriter.eraseOp(fill);
    for (scf::ForOp forOp : toPeel) {
      scf::ForOp partial;
      rewriter.setInsertionPoint(forOp);
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
    }
    for (scf::ForOp forOp : parallelLoops)
      tlc::forToParallel(rewriter, forOp);
  }

  /// The contractions to tile (findContractions), each with the operands of its fused
  /// epilogue to prefetch.
  FailureOr<SmallVector<Work>> findWork(IRRewriter &rewriter) {
    SmallVector<std::pair<linalg::LinalgOp, ContractionLoops>> found;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<ContractionLoops> loops = matchContraction(op, maxJoinedK))
        found.push_back({op, *loops});
    });
    FailureOr<SmallVector<Work>> work = findContractions(rewriter, found);
    if (succeeded(work) && prefetchEpilogueMaxBytes > 0)
      for (Work &item : *work)
        item.epilogue =
            tlc::epilogueOperands(item.op, item.loops.m, item.loops.n, prefetchEpilogueMaxBytes);
    return work;
  }

  /// The contractions to tile. A contraction onto a freshly filled output starts its
  /// accumulators from the fill value in registers (fuseFillIntoRegisterTile). That needs the
  /// whole k range in one cache block, so a longer one is split at its k block first: the
  /// first part starts from the fill value, the second accumulates onto it. bf16 k-pair
  /// candidates take `pairs-cache-k` as their k block (a panel of as many bytes as cache-k
  /// f32 rows), int8 k-quad candidates `quads-cache-k`, the others `cache-k`.
  FailureOr<SmallVector<Work>>
  findContractions(IRRewriter &rewriter,
                   ArrayRef<std::pair<linalg::LinalgOp, ContractionLoops>> found) {
    SmallVector<Work> work;
    for (auto [op, loops] : found) {
      int64_t kGroup = bf16Pairs && bf16PairCandidate(op, loops, registerN, dotLanes) ? 2
                       : int8Quads && int8QuadCandidate(op, loops, registerN) ? 4
                                                                              : 1;
      int64_t blockK = kGroup == 2 ? pairsCacheK : kGroup == 4 ? quadsCacheK : cacheK;
      // Other reduction dimensions not joined are tiled by 1 outside the register tile: a
      // fill inside it would run once per iteration of theirs, so such ops are not eligible.
      linalg::FillOp fill =
          fuseFill && reductionsInRegisterTile(op, loops) ? fillOfInit(op) : nullptr;
      if (!fill) {
        work.push_back({op, loops, nullptr, kGroup, blockK});
        continue;
      }
      if (loops.kRange <= blockK) {
        work.push_back({op, loops, fill, kGroup, blockK});
        continue;
      }
      FailureOr<std::pair<linalg::LinalgOp, linalg::LinalgOp>> parts =
          splitReduction(rewriter, op, loops.k, blockK);
      if (failed(parts))
        return op.emitOpError("splitting the reduction failed");
      std::optional<ContractionLoops> first = matchContraction(parts->first, maxJoinedK),
                                      rest = matchContraction(parts->second, maxJoinedK);
      if (first)
        work.push_back({parts->first, *first, fill, kGroup, blockK});
      if (rest)
        work.push_back({parts->second, *rest, nullptr, kGroup, blockK});
    }
    return work;
  }

  /// Packing policy, decided on the untiled op: pack the right operand when it is wider than
  /// one strip and enough rows reuse each packed panel (packMinRows: the copy costs about as
  /// much as a few register tiles' reads of it; packConflictMinRows when its k-block rows
  /// cannot stay in L1 unpacked, rowsConflictInL1); pack all of it at once, before the enclosing
  /// loop it is invariant in (inside the thread's parallel loop, e.g. the row tiles of an
  /// epilogue-fused contraction), when it fits packMaxBytes. Pack the left operand when enough
  /// register strips of n read its blocks. A k-pair or k-quad contraction (`grouped`) always
  /// packs its right operand: the groups are interleaved there, and the copy costs about what
  /// converting it in the register tiles would.
  PackingPlan planPacking(linalg::LinalgOp op, const ContractionLoops &loops, bool grouped) {
    PackingPlan plan;
    if ((packRhs && loops.nRange > registerN) || grouped)
      plan.rhs = tlc::matchRhsOperand(op, loops.m, loops.n, loops.k);
    // The rows that read a packed panel: the op's m extent, times the trip counts of the
    // enclosing loops it is packed outside of (whole-operand packing).
    int64_t wholeRows = 0;
    if (plan.rhs) {
      Value operand = op->getOperand(std::get<0>(*plan.rhs));
      auto type = cast<MemRefType>(operand.getType());
      Operation *threadBody = packedBufferHome(nullptr, op);
      if (isa<scf::ParallelOp>(threadBody) &&
          type.getNumElements() * type.getElementTypeBitWidth() / 8 <= packMaxBytes)
        plan.wholeOperandBefore = tlc::outermostInvariantLoop(operand, op, threadBody);
      if (plan.wholeOperandBefore) {
        wholeRows = loops.mRange;
        for (Operation *p = op->getParentOp(); p != plan.wholeOperandBefore->getParentOp();
             p = p->getParentOp())
          if (auto loop = dyn_cast<scf::ForOp>(p))
            wholeRows *= constantTripCount(loop).value_or(1);
      }
      int64_t minRows = packMinRows;
      int64_t panelK = std::min<int64_t>(cacheK, loops.kRange);
      if (packConflictMinRows > 0 && rowsConflictInL1(operand, std::get<1>(*plan.rhs), panelK))
        minRows = std::min<int64_t>(minRows, packConflictMinRows);
      if (wholeRows < (grouped ? pairsMinRows : minRows))
        plan.wholeOperandBefore = nullptr;
      if (!plan.wholeOperandBefore && loops.mRange < minRows && !grouped)
        plan.rhs.reset();
      plan.rhsRows = plan.wholeOperandBefore ? wholeRows : loops.mRange;
    }
    // Left-operand packing: its blocks must be read by enough register strips of n, and
    // the operand large enough (packLhsMinBytes: a small one stays cached between the n
    // blocks that re-read it, so the copy only adds work).
    if (packLhs && std::min<int64_t>(cacheN, loops.nRange) >= packLhsMinCols)
      plan.lhs = tlc::matchLhsOperand(op, loops.m, loops.n, loops.k);
    // A bf16/f16 left operand is packed whatever its size: packing converts it once per
    // block, where the register tiles would convert each element once per n strip.
    if (plan.lhs && bufferBytes(op->getOperand(std::get<0>(*plan.lhs))) < packLhsMinBytes &&
        !tlc::extendedOperandType(op, std::get<0>(*plan.lhs)))
      plan.lhs.reset();
    // A packed left-operand block may serve a wider n block (more strips per copy, and the
    // operand re-read by half as many n blocks).
    plan.blockN = plan.lhs && packLhsCacheN > 0 ? packLhsCacheN : cacheN;
    return plan;
  }

  /// Policy: the cache-level m block: `cache-m`, or half of m (in whole register tiles) when
  /// the contraction would otherwise run on one thread: not inside a parallel loop, one m
  /// block, one n block, no other parallel dimension of more than one iteration, at least two
  /// register tiles of rows, and `parallel-min-flops` of work per k block (what
  /// chooseParallelLoop asks of each launch of the m loop). chooseParallelLoop then gives the
  /// two m blocks to threads (mobilenet_v2's 384 -> 64 projections at 14x14, 9.6 MFLOP, ran
  /// on one thread of two).
  int64_t cacheBlockM(linalg::LinalgOp op, const ContractionLoops &loops, int64_t blockN,
                      int64_t blockK) {
    if (!parallelOuter || op->getParentOfType<scf::ParallelOp>() || loops.mRange > cacheM ||
        loops.mRange < 2 * registerM || loops.nRange > blockN)
      return cacheM;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = 0; d < loops.numLoops; ++d)
      if (d != loops.m && d != loops.n && iterators[d] == utils::IteratorType::parallel &&
          ranges[d] != 1)
        return cacheM;
    if (2 * loops.mRange * loops.nRange * std::min(blockK, loops.kRange) < parallelMinFlops)
      return cacheM;
    return llvm::alignTo(llvm::divideCeil(loops.mRange, 2), registerM);
  }

  /// Level 1: cache blocks (Kc x Nc panels of the right operand, Mc x Kc blocks of the left);
  /// level 2: register tiles registerM x registerN, the k loop innermost (one rank-1 update
  /// per iteration, the accumulators stay in registers across it).
  FailureOr<TiledContraction> tileContraction(IRRewriter &rewriter, linalg::LinalgOp op,
                                              const ContractionLoops &loops, int64_t blockM,
                                              int64_t blockN, int64_t blockK,
                                              int64_t registerK) {
    MLIRContext *ctx = &getContext();
    FailureOr<scf::SCFTilingResult> outer =
        tile(rewriter, op, tileSizes(ctx, loops, blockM, blockN, blockK, 0),
             interchange(loops, {loops.n, loops.k, loops.m}));
    if (failed(outer))
      return op.emitOpError("cache-level tiling failed");
    auto block = cast<linalg::LinalgOp>(outer->tiledOps.back());
    SmallVector<unsigned> registerOrder = {loops.n, loops.m};
    llvm::append_range(registerOrder, loops.joinedK);
    registerOrder.push_back(loops.k);
    FailureOr<scf::SCFTilingResult> inner =
        tile(rewriter, block, tileSizes(ctx, loops, registerM, registerN, registerK, 1),
             interchange(loops, registerOrder));
    if (failed(inner))
      return block.emitOpError("register-level tiling failed");
    auto registerTile = cast<linalg::LinalgOp>(inner->tiledOps.back());
    registerTile->setAttr("tlc.register_tile", UnitAttr::get(ctx));
    if (!loops.joinedK.empty())
      registerTile = dropJoinedK(rewriter, registerTile, loops);
    return TiledContraction{std::move(*outer), std::move(*inner), registerTile};
  }

  /// Mechanism: the register tile of a k-pair (k-quad) contraction as a linalg.generic
  /// (packRhsPanel rewrites its right operand's map) marked `tlc.bf16_pairs`
  /// (`tlc.int8_quads`) = [m, n, k] loop positions.
  LogicalResult markGroupTile(IRRewriter &rewriter, const ContractionLoops &loops,
                              TiledContraction &tiled, int64_t kGroup) {
    linalg::LinalgOp tile = tiled.registerTile;
    if (!isa<linalg::GenericOp>(tile.getOperation())) {
      rewriter.setInsertionPoint(tile);
      FailureOr<linalg::GenericOp> generic = linalg::generalizeNamedOp(rewriter, tile);
      if (failed(generic))
        return tile.emitOpError("generalizing a k-pair or k-quad register tile failed");
      (*generic)->setAttr("tlc.register_tile", rewriter.getUnitAttr());
      tile = cast<linalg::LinalgOp>(generic->getOperation());
      tiled.registerTile = tile;
    }
    tile->setAttr(kGroup == 4 ? "tlc.int8_quads" : "tlc.bf16_pairs",
                  rewriter.getDenseI64ArrayAttr({loops.m, loops.n, loops.k}));
    return success();
  }

  /// The fill moved to the register tile's accumulators, right before its k loops; whether
  /// it was (then the whole-output fill goes once every contraction is tiled).
  bool fuseFillIntoRegisterLoops(IRRewriter &rewriter, linalg::FillOp fill,
                                 const ContractionLoops &loops, TiledContraction &tiled,
                                 int64_t registerK) {
    auto [hasKLoops, kLoop] = registerKLoop(loops, tiled, registerK);
    return (!hasKLoops || kLoop) &&
           succeeded(fuseFillIntoRegisterTile(rewriter, fill, tiled.registerTile, kLoop));
  }

  /// Whether the register tile runs inside k loops, and the outermost of them (null when
  /// there are none, or it is not found). The register loops run (others, n, m, joined k...,
  /// k): the last ones are the k loops (none is made for a k of one register step).
  std::pair<bool, scf::ForOp> registerKLoop(const ContractionLoops &loops, TiledContraction &tiled,
                                            int64_t registerK) {
    auto &innerLoops = tiled.inner.loops;
    size_t kLoops = loops.joinedK.size() + (loops.kRange > registerK ? 1 : 0);
    scf::ForOp kLoop;
    if (kLoops > 0 && innerLoops.size() >= kLoops)
      kLoop = dyn_cast<scf::ForOp>(innerLoops[innerLoops.size() - kLoops].getOperation());
    if (kLoop && !kLoop->isProperAncestor(tiled.registerTile))
      kLoop = nullptr;
    return {kLoops > 0, kLoop};
  }

  /// Each register tile prefetches, before its k loops, the lines its fused epilogue will
  /// read at the tile's place (`init`: the contraction's output).
  void prefetchEpilogue(IRRewriter &rewriter, const tlc::EpilogueOperands &epilogue, Value init,
                        const ContractionLoops &loops, TiledContraction &tiled, int64_t registerK) {
    auto [hasKLoops, kLoop] = registerKLoop(loops, tiled, registerK);
    if (hasKLoops && !kLoop)
      return;
    tlc::prefetchEpilogueOperands(rewriter, epilogue, init, tiled.registerTile,
                                  beforeKLoops(tiled.registerTile, kLoop), prefetchLocality);
  }

  /// The outermost block loop over a parallel dimension (batch or n) with more than one
  /// iteration: blocks are independent, so threads may take them
  /// (tlc-outline-parallel-loops). Loops with one iteration (e.g. the batch of a
  /// convolution's contraction, or its only n block) are skipped. When no batch or n loop
  /// splits (e.g. a convolution over 14x14 or 7x7 pixels: one n block), the cache-level m
  /// loop is taken, inside the k block loop: one launch per k block, each over the m
  /// blocks, when that launch has at least `parallelMinFlops` of work.
  /// A contraction inside a parallel loop (an epilogue-fused tile) runs on that loop's
  /// thread: null then, as without parallel-outer.
  scf::ForOp chooseParallelLoop(const ContractionLoops &loops,
                                ArrayRef<utils::IteratorType> iterators,
                                scf::SCFTilingResult &outer, int64_t blockN, int64_t blockK) {
    if (!parallelOuter || outer.loops.front()->getParentOfType<scf::ParallelOp>())
      return nullptr;
    SmallVector<int64_t> order = interchange(loops, {loops.n, loops.k, loops.m});
    int64_t launches = 1;
    for (auto [i, loop] : llvm::enumerate(outer.loops)) {
      auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
      if (!forOp || i >= order.size())
        break;
      std::optional<int64_t> trips = constantTripCount(forOp);
      if (trips && *trips <= 1)
        continue;
      if (iterators[order[i]] != utils::IteratorType::parallel) {
        if (!trips)
          break;
        launches *= *trips; // a reduction loop: what runs inside it launches each time
        continue;
      }
      if (launches > 1 &&
          (order[i] != loops.m || 2 * loops.mRange * std::min<int64_t>(blockN, loops.nRange) *
                                          std::min<int64_t>(blockK, loops.kRange) <
                                      parallelMinFlops))
        break;
      return forOp;
    }
    return nullptr;
  }

  /// Packs the operands `packing` chose into buffers that live in `parallelLoop`'s body (one
  /// per thread) or, without one, outside the tiled loops.
  void packOperands(IRRewriter &rewriter, const ContractionLoops &loops,
                    const PackingPlan &packing, TiledContraction &tiled, scf::ForOp parallelLoop,
                    int64_t blockM, int64_t blockK, int64_t kGroup) {
    scf::SCFTilingResult &outer = tiled.outer;
    if (packing.rhs) {
      auto [operand, kResult, nResult] = *packing.rhs;
      tlc::RhsPanel panel{
          tiled.registerTile, operand, cast<scf::ForOp>(outer.loops.back().getOperation()),
          // The panel is packed before the m loop: when that loop is the
          // parallel one, the buffer lives outside it.
          packedBufferHome(parallelLoop == outer.loops.back().getOperation() ? scf::ForOp()
                                                                             : parallelLoop,
                           outer.loops.front()),
          packing.wholeOperandBefore, kResult, nResult, std::min<int64_t>(blockK, loops.kRange),
          std::min<int64_t>(packing.blockN, loops.nRange), registerN, kGroup};
      // Whole-operand packing may not apply (e.g. a batch of panels): then per block.
      LogicalResult packed = tlc::packRhsPanel(rewriter, panel);
      if (failed(packed) && panel.wholeOperandBefore) {
        panel.wholeOperandBefore = nullptr;
        packed = tlc::packRhsPanel(rewriter, panel);
      }
      // Unpacked, the tile is an ordinary one (its k step of 2 or 4 takes that many outer
      // products).
      if (failed(packed) && kGroup > 1) {
        tiled.registerTile->removeAttr("tlc.bf16_pairs");
        tiled.registerTile->removeAttr("tlc.int8_quads");
        kGroup = 1;
      }
    }
    if (packing.lhs) {
      auto [operand, mResult, kResult] = *packing.lhs;
      // The copy is inside the m block loop: when that loop runs on threads, the buffer
      // lives in its body (one per thread).
      tlc::LhsBlock block{tiled.registerTile,
                          operand,
                          tiled.inner.loops.front().getOperation(),
                          packedBufferHome(parallelLoop, outer.loops.front()),
                          mResult,
                          kResult,
                          std::min<int64_t>(blockM, loops.mRange),
                          std::min<int64_t>(blockK, loops.kRange),
                          registerN,
                          /*keepType=*/kGroup > 1};
      (void)tlc::packLhsBlock(rewriter, block);
    }
  }
};

} // namespace
