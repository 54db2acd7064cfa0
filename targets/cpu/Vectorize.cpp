// tlc-vectorize: register tiles to vector code (vector.contract -> outer products -> FMAs).
#include "passes/BufferFills.h"
#include "targets/cpu/DotProductTiles.h"
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Vector/Utils/VectorUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace tlc {
#define GEN_PASS_DEF_TLCVECTORIZE
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Whether `v` is one value in every lane: a splat constant or a broadcast scalar.
bool isSplat(Value v) {
  if (v.getDefiningOp<vector::BroadcastOp>())
    return true;
  DenseElementsAttr constant;
  return matchPattern(v, m_Constant(&constant)) && constant.isSplat();
}

/// Whether two transfer masks are the same value or identical vector.create_mask ops (an edge
/// tile's read and write each build their own).
bool sameMask(Value a, Value b) {
  if (a == b)
    return true;
  auto ma = a ? a.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  auto mb = b ? b.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  return ma && mb && ma.getType() == mb.getType() && ma.getOperands() == mb.getOperands();
}

/// Keeps an accumulator in registers across `loop`: a transfer_read and transfer_write of the
/// same loop-invariant buffer slice, when the loop writes no other memory, become an iter_arg
/// (read before the loop, written after). Upstream's hoistRedundantVectorTransfers refuses
/// transfers on subviews, which is exactly what tiling produces; here the register tile's
/// output slice is disjoint from the inputs by the generated ABI (outputs do not alias inputs).
bool hoistAccumulator(RewriterBase &rewriter, scf::ForOp loop) {
  Block *body = loop.getBody();
  vector::TransferWriteOp write;
  // Every op in the body, nested ones included (e.g. a masked contraction's vector.mask
  // region): ops with recursive effects are judged by what they contain.
  WalkResult walk = body->walk([&](Operation *op) {
    if (op == body->getTerminator() || tlc::isDotProductIntrinsic(op))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    bool writes = effects ? effects.hasEffect<MemoryEffects::Write>()
                          : !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
    if (!writes)
      return WalkResult::advance();
    auto w = dyn_cast<vector::TransferWriteOp>(op);
    if (!w || write || w->getBlock() != body || !w.hasPureBufferSemantics())
      return WalkResult::interrupt(); // a second writer, or one we cannot reason about
    write = w;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !write)
    return false;
  auto invariant = [&](Value v) { return !loop.getRegion().isAncestor(v.getParentRegion()); };
  if (!invariant(write.getBase()) || !llvm::all_of(write.getIndices(), invariant) ||
      (write.getMask() && !invariant(write.getMask())))
    return false;
  vector::TransferReadOp read;
  for (auto r : body->getOps<vector::TransferReadOp>())
    if (r.getBase() == write.getBase() && r.getIndices() == write.getIndices() &&
        r.getVectorType() == write.getVectorType() &&
        r.getPermutationMap() == write.getPermutationMap() && sameMask(r.getMask(), write.getMask()))
      read = r;
  if (!read || !llvm::all_of(read->getOperands(), invariant))
    return false;
  rewriter.moveOpBefore(read, loop);
  FailureOr<LoopLikeOpInterface> newLoop =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, read.getResult(), /*replaceInitOperandUsesInLoop=*/true,
              [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                return SmallVector<Value>{write.getVector()};
              });
  if (failed(newLoop))
    return false;
  rewriter.moveOpAfter(write, *newLoop);
  rewriter.modifyOpInPlace(write, [&] {
    write.getValueToStoreMutable().assign((*newLoop)->getResults().back());
  });
  return true;
}

/// Whether `op` or an op nested in it may write memory of the buffer `root` (with `reads`,
/// also read it) where `transfer` accesses it: effects on views of another root buffer and
/// transfers of the same view at provably disjoint indices do not count; an op whose effects
/// are unknown or name no memref does.
bool mayAccess(Operation *op, Value root, vector::TransferWriteOp transfer, bool reads) {
  auto touches = [&](Operation *nested, Value accessed) {
    auto value = dyn_cast<TypedValue<BaseMemRefType>>(accessed);
    if (!value)
      return true;
    if (memref::skipViewLikeOps(value) != root)
      return false;
    auto other = dyn_cast<VectorTransferOpInterface>(nested);
    return !other || !vector::isDisjointTransferSet(
                         cast<VectorTransferOpInterface>(transfer.getOperation()), other,
                         /*testDynamicValueUsingBounds=*/true);
  };
  // Dot-product intrinsics are pure arithmetic.
  return tlc::mayAccessMemory(op, reads, touches, tlc::isDotProductIntrinsic);
}

/// Store-to-load forwarding and dead-store elimination of one fill (a transfer_write of a
/// splat) within its block: the reads of the same slice that follow it before anything may
/// write that buffer take the splat; then the fill's store goes when a write of the same
/// slice follows before anything may read or write the buffer. The conditions are
/// upstream's (checkSameValueRAW / checkSameValueWAW, aliasing by root buffer), in one block.
void forwardFill(RewriterBase &rewriter, vector::TransferWriteOp fill) {
  auto base = dyn_cast<TypedValue<BaseMemRefType>>(fill.getBase());
  if (!base || fill.hasOutOfBoundsDim())
    return;
  Value root = memref::skipViewLikeOps(base);
  for (Operation *op = fill->getNextNode(); op;) {
    Operation *next = op->getNextNode();
    if (auto read = dyn_cast<vector::TransferReadOp>(op);
        read && read.getBase() == base && !read.hasOutOfBoundsDim() &&
        vector::checkSameValueRAW(fill, read)) {
      rewriter.replaceOp(read, fill.getVector());
    } else if (mayAccess(op, root, fill, /*reads=*/false)) {
      break;
    }
    op = next;
  }
  for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
    if (auto write = dyn_cast<vector::TransferWriteOp>(op);
        write && write.getBase() == base && vector::checkSameValueWAW(write, fill)) {
      rewriter.eraseOp(fill);
      return;
    }
    if (mayAccess(op, root, fill, /*reads=*/true))
      return;
  }
}

/// Static upper bounds of `op`'s loop ranges: a dynamic extent (an edge tile of a cache block
/// whose size depends on the block's index, e.g. the last 8 columns of n = 1000) is bounded
/// through the operand dimension it spans (a subview sized by an affine.min). Fails when one
/// has no constant bound.
FailureOr<SmallVector<int64_t>> staticLoopBounds(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (!ShapedType::isDynamic(ranges[d]))
      continue;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      std::optional<unsigned> pos =
          map.getResultPosition(getAffineDimExpr(d, op.getContext()));
      if (!pos)
        continue;
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(operand.get(), *pos),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (succeeded(bound)) {
        ranges[d] = *bound;
        break;
      }
    }
    if (ShapedType::isDynamic(ranges[d]))
      return failure();
  }
  return ranges;
}

/// Vector sizes for a register tile: the static bounds of its loop ranges, the n extent (the
/// contiguous output dimension the FMAs run along) rounded up to a power of two: an edge tile
/// such as 8x17 computes on 8x32 vectors with masked loads and stores instead of odd-length
/// vectors that LLVM splits into scalar inserts and extracts, and a dynamically sized edge
/// tile on masked vectors of its bound. Empty (no masking) when every extent is static and a
/// power of two; failure when a dynamic extent has no bound (the op is left to loops).
FailureOr<SmallVector<int64_t>> maskedVectorSizes(linalg::LinalgOp op) {
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
  if (failed(dims) || dims->n.empty())
    return op.hasDynamicShape() ? FailureOr<SmallVector<int64_t>>(failure())
                                : SmallVector<int64_t>{};
  FailureOr<SmallVector<int64_t>> sizes = staticLoopBounds(op);
  if (failed(sizes))
    return failure();
  int64_t &n = (*sizes)[dims->n.back()];
  if (!op.hasDynamicShape() && (n <= 1 || llvm::isPowerOf2_64(n)))
    return SmallVector<int64_t>{};
  if (n > 1)
    n = llvm::PowerOf2Ceil(n);
  return sizes;
}

/// vector.reduction <maxnumf|minnumf> of a 1-D vector as a log-depth tree of elementwise
/// maxnumf/minnumf over its halves. Exact: maxnum and minnum are associative and commutative
/// (quiet NaNs are dropped at every step alike). Left to LLVM, x86 finishes each such reduction
/// with a scalar compare-and-select chain over the last vector register's lanes.
struct NumFReductionAsTree : OpRewritePattern<vector::ReductionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ReductionOp op, PatternRewriter &rewriter) const override {
    vector::CombiningKind kind = op.getKind();
    if (kind != vector::CombiningKind::MAXNUMF && kind != vector::CombiningKind::MINNUMF)
      return failure();
    VectorType type = op.getSourceVectorType();
    int64_t n = type.getNumElements();
    if (type.getRank() != 1 || type.isScalable() || n < 2 || !llvm::isPowerOf2_64(n))
      return failure();
    Location loc = op.getLoc();
    Value v = op.getVector();
    for (int64_t half = n / 2; half >= 1; half /= 2) {
      SmallVector<int64_t> low(half), high(half);
      for (int64_t i = 0; i < half; ++i) {
        low[i] = i;
        high[i] = half + i;
      }
      v = vector::makeArithReduction(rewriter, loc, kind,
                                     vector::ShuffleOp::create(rewriter, loc, v, v, low),
                                     vector::ShuffleOp::create(rewriter, loc, v, v, high));
    }
    Value result = vector::ExtractOp::create(rewriter, loc, v, ArrayRef<int64_t>{0});
    if (Value acc = op.getAcc())
      result = vector::makeArithReduction(rewriter, loc, kind, result, acc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The per-dimension bounds of a vector.create_mask or vector.constant_mask.
std::optional<SmallVector<OpFoldResult>> maskBounds(Value mask) {
  if (auto create = mask.getDefiningOp<vector::CreateMaskOp>())
    return getAsOpFoldResult(create.getOperands());
  if (auto constant = mask.getDefiningOp<vector::ConstantMaskOp>()) {
    Builder b(mask.getContext());
    SmallVector<OpFoldResult> bounds;
    for (int64_t size : constant.getMaskDimSizes())
      bounds.push_back(b.getIndexAttr(size));
    return bounds;
  }
  return std::nullopt;
}

/// Whether every masked-off lane of `mask`'s result is thrown away: each use of it is the
/// stored value of a transfer_write (minor identity map) whose own mask, or that of the
/// vector.mask around it, has the masked op's bounds on the result's dimensions
/// (`resultDims`: the masked op's dimension of each result dimension).
bool onlyMaskedStores(vector::MaskOp mask, ArrayRef<OpFoldResult> bounds,
                      ArrayRef<int64_t> resultDims) {
  for (OpOperand &use : mask->getResult(0).getUses()) {
    auto write = dyn_cast<vector::TransferWriteOp>(use.getOwner());
    if (!write || use.get() != write.getValueToStore() ||
        !write.getPermutationMap().isMinorIdentity())
      return false;
    auto around = dyn_cast<vector::MaskOp>(write->getParentOp());
    Value writeMask = around ? around.getMask() : write.getMask();
    std::optional<SmallVector<OpFoldResult>> writeBounds =
        writeMask ? maskBounds(writeMask) : std::nullopt;
    if (!writeBounds || writeBounds->size() != resultDims.size())
      return false;
    // The same SSA value or constant, or provably equal (linalg::vectorize bounds the
    // contraction by a dim of its operand's subview and the write by the subview's size).
    for (auto [i, d] : llvm::enumerate(resultDims)) {
      OpFoldResult a = (*writeBounds)[i], b = bounds[d];
      if (isEqualConstantIntOrValue(a, b))
        continue;
      FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(a, b);
      if (failed(equal) || !*equal)
        return false;
    }
  }
  return true;
}

/// An edge tile's contraction (masked past the tile's extent, e.g. the last 9 columns of 169
/// on 16-lane vectors; after linalg::vectorize a masked multi_reduction of the products, or a
/// vector.contract) computes every lane instead when only parallel dimensions are masked and
/// the masked-off lanes of its result are never stored (onlyMaskedStores): their values do
/// not matter, and upstream's masked outer products keep each masked-off lane of the
/// accumulator with a select, on x86 a blend and a register move per FMA in the k loop, in its
/// dependence chain (squeezenet's 13x13 classifier: the 9-column edge tile cost as much as a
/// full 32-column one). The lanes computed are the zero padding of the masked operand reads.
/// A masked reduction dimension keeps the mask: its lanes would add to the sum.
void unmaskEdgeContractions(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<vector::MaskOp> masks;
  func.walk([&](vector::MaskOp mask) {
    if (isa_and_nonnull<vector::ContractionOp, vector::MultiDimReductionOp>(
            mask.getMaskableOp()) &&
        !mask.hasPassthru())
      masks.push_back(mask);
  });
  for (vector::MaskOp mask : masks) {
    Operation *masked = mask.getMaskableOp();
    SmallVector<bool> reduced;
    SmallVector<int64_t> resultDims;
    if (auto contract = dyn_cast<vector::ContractionOp>(masked)) {
      for (vector::IteratorType iterator : contract.getIteratorTypesArray())
        reduced.push_back(iterator == vector::IteratorType::reduction);
      AffineMap output = contract.getIndexingMapsArray().back();
      for (unsigned i = 0; i < output.getNumResults(); ++i)
        resultDims.push_back(output.getDimPosition(i));
    } else {
      auto reduction = cast<vector::MultiDimReductionOp>(masked);
      reduced = reduction.getReductionMask();
      for (auto [d, isReduced] : llvm::enumerate(reduced))
        if (!isReduced)
          resultDims.push_back(d);
    }
    std::optional<SmallVector<OpFoldResult>> bounds = maskBounds(mask.getMask());
    VectorType maskType = mask.getMask().getType();
    if (!bounds || bounds->size() != reduced.size() ||
        maskType.getRank() != static_cast<int64_t>(reduced.size()))
      continue;
    bool reductionMasked = false;
    for (auto [d, isReduced] : llvm::enumerate(reduced))
      if (isReduced && getConstantIntValue((*bounds)[d]) != maskType.getDimSize(d))
        reductionMasked = true;
    if (reductionMasked || !onlyMaskedStores(mask, *bounds, resultDims))
      continue;
    rewriter.setInsertionPoint(mask);
    Operation *unmasked = rewriter.clone(*masked);
    rewriter.replaceOp(mask, unmasked->getResults());
  }
}

struct TLCVectorizePass : tlc::impl::TLCVectorizeBase<TLCVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<linalg::LinalgOp> tiles;
    func.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr("tlc.register_tile"))
        tiles.push_back(op);
    });
    IRRewriter rewriter(ctx);
    for (linalg::LinalgOp op : tiles) {
      rewriter.setInsertionPoint(op);
      // bf16 k-pair tiles (AVX-512 BF16, AArch64 BFDOT) and VNNI int8 k-quad tiles
      // (tlc-tile-contractions' bf16-pairs, int8-quads): dot products.
      bool pairs = op->hasAttr("tlc.bf16_pairs");
      if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
          generic && (pairs || op->hasAttr("tlc.int8_quads"))) {
        FailureOr<SmallVector<int64_t>> bounds = staticLoopBounds(op);
        if (succeeded(bounds) &&
            succeeded(pairs ? tlc::vectorizeBF16PairTile(rewriter, generic, *bounds, dotLanes)
                            : tlc::vectorizeInt8QuadTile(rewriter, generic, *bounds)))
          continue;
      }
      FailureOr<SmallVector<int64_t>> sizes = maskedVectorSizes(op);
      if (failed(sizes))
        continue; // a dynamic extent without a bound: left to convert-linalg-to-loops
      SmallVector<int64_t> vectorSizes = *sizes;
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op, vectorSizes, /*inputScalableVecDims=*/
                            SmallVector<bool>(vectorSizes.size(), false),
                            /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
                            /*assumeDynamicDimsMatchVecSizes=*/false,
                            /*createNamedContraction=*/true);
      if (failed(result))
        continue; // stays a linalg op and becomes loops
      rewriter.eraseOp(op);
    }
    unmaskEdgeContractions(rewriter, func);
    // Fold the unit k dimension away and keep the accumulator tile in registers across k.
    {
      RewritePatternSet patterns(ctx);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      // Mixed precision (bf16/f16 operands, f32 accumulators): the operands' extensions move
      // before the broadcasts, so the multiply-reduce still becomes a contraction (of the
      // extended operands: each row is extended once, not every broadcast element). Upstream
      // lowers a contraction to outer products only when its operands have the accumulator's
      // type, so the extensions are not folded into it.
      vector::populateSinkVectorOpsPatterns(patterns);
      // Masked edge tiles: vector.mask regions around transfers become masked transfers.
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
      vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
      vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }
    // Innermost loops first (post-order), so an accumulator hoisted out of a loop may then
    // move out of its parent when the parent's turn comes: hoisting from a loop moves ops
    // into its parent only, never into a loop visited earlier, so one pass reaches the
    // fixpoint. (Restarting the walk after every hoist was quadratic in the number of tiles:
    // 8 s of densenet121's compile.)
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
      hoistAccumulator(rewriter, loop); // replaces `loop`, which is not visited again
    }
    // A register tile whose fill was fused into it (tlc-tile-contractions: a transfer_write
    // of a splat right before the hoisted load of its accumulator) starts from the splat in
    // registers, and the fill's store goes when the store after the k loop overwrites it
    // before anything reads it. Done locally, in the fill's block (upstream's
    // transferOpflowOpt does it for every transfer of an op, walking for each one all the
    // views of its root buffer: in a large model most buffers are views of the one workspace,
    // quadratic in the number of kernels, 10-30 s of densenet121's compile).
    SmallVector<vector::TransferWriteOp> fills;
    func.walk([&](vector::TransferWriteOp write) {
      if (isSplat(write.getVector()))
        fills.push_back(write);
    });
    for (vector::TransferWriteOp fill : fills)
      forwardFill(rewriter, fill);
    RewritePatternSet patterns(ctx);
    vector::populateVectorContractLoweringPatterns(patterns,
                                                   vector::VectorContractLowering::OuterProduct);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    vector::populateVectorShapeCastLoweringPatterns(patterns);
    // A register tile's reduction runs along its contiguous (vector) dimension: reduce each
    // row with vector.reduction (a log-depth shuffle tree in LLVM), not element by element.
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    patterns.add<NumFReductionAsTree>(ctx);
    // On the ops these patterns rewrite (vector ops, and ops on vector values) and what they
    // create, not on every op of the model, which is one function here: the greedy driver's
    // visit of all of them was most of this pass's time (densenet201: 0.37 of 0.51 s); the
    // canonicalization after the pass folds the rest.
    SmallVector<Operation *> vectorOps;
    auto isVector = [](Type t) { return isa<VectorType>(t); };
    func.walk([&](Operation *op) {
      if (isa_and_nonnull<vector::VectorDialect>(op->getDialect()) ||
          llvm::any_of(op->getResultTypes(), isVector) ||
          llvm::any_of(op->getOperandTypes(), isVector))
        vectorOps.push_back(op);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(vectorOps, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
