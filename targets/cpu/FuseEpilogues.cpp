// tlc-fuse-epilogues: elementwise consumers of contractions run on each output tile while it is
// in cache (tile the consumer, fuse the contraction and its initial value into the tile loops).
#include "passes/FusionPolicy.h"
#include "passes/LinalgBuilders.h"
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/FormatVariadic.h"

namespace tlc {
#define GEN_PASS_DEF_TLCFUSEEPILOGUES
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc::fusion;

namespace {

/// Output tile extents per dimension of the contraction's result (policy inputs).
struct TileTargets {
  int64_t m, n, alignM, alignN;
};

/// The result dimension of the contraction's innermost non-unit n loop (the output's columns).
unsigned nResultDim(linalg::LinalgOp contraction) {
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(contraction);
  AffineMap outMap = contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  unsigned n = tlc::innermostNonUnitDim(dims->n, contraction.getStaticLoopRanges());
  return *outMap.getResultPosition(getAffineDimExpr(n, contraction.getContext()));
}

/// Policy: the tile extent of each result dimension (innermost m and n dimensions get cache
/// tiles, every other one 1).
SmallVector<int64_t> chooseTiles(linalg::LinalgOp contraction, const TileTargets &targets) {
  FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(contraction);
  AffineMap outMap = contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(contraction->getResult(0).getType()).getShape();
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
  unsigned m = tlc::innermostNonUnitDim(dims->m, ranges);
  unsigned n = tlc::innermostNonUnitDim(dims->n, ranges);
  SmallVector<int64_t> tiles;
  for (unsigned i = 0; i < outMap.getNumResults(); ++i) {
    unsigned loop = outMap.getDimPosition(i);
    if (loop == m)
      tiles.push_back(chooseTileExtent(shape[i], targets.m, targets.alignM));
    else if (loop == n)
      tiles.push_back(chooseTileExtent(shape[i], targets.n, targets.alignN));
    else
      tiles.push_back(1);
  }
  return tiles;
}

/// Mechanism: tiles `consumer` by `sizes` (0: untiled) with `loopType` loops and fuses the
/// producers in `fusable` into the loop body. Returns the tiling result after replacing the
/// consumer.
FailureOr<scf::SCFTileAndFuseResult>
tileAndFuse(RewriterBase &rewriter, Operation *consumer, ArrayRef<int64_t> sizes,
            scf::SCFTilingOptions::LoopType loopType, const llvm::SetVector<Operation *> &fusable) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes)).setLoopType(loopType);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling).setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!fusable.contains(producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(consumer);
  FailureOr<scf::SCFTileAndFuseResult> result = scf::tileConsumerAndFuseProducersUsingSCF(
      rewriter, cast<TilingInterface>(consumer), options);
  if (failed(result))
    return failure();
  for (Value v : consumer->getResults())
    if (Value replacement = result->replacements.lookup(v))
      rewriter.replaceAllUsesWith(v, replacement);
  if (!consumer->use_empty())
    return consumer->emitOpError("tile and fuse left uses of the untiled consumer");
  rewriter.eraseOp(consumer);
  // The untiled producers are dead but for the slices tiling took of them (and each other).
  // Left in place, a dead fill of the output would make bufferization copy the output.
  llvm::SmallPtrSet<Operation *, 4> erased;
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : fusable) {
      if (erased.contains(op))
        continue;
      for (Operation *user : llvm::make_early_inc_range(op->getUsers()))
        if (isa<tensor::ExtractSliceOp>(user) && user->use_empty())
          rewriter.eraseOp(user);
      if (op->use_empty()) {
        rewriter.eraseOp(op);
        erased.insert(op);
        changed = true;
      }
    }
  }
  return result;
}

/// A contraction accumulating into a reshaped fill (a convolution's output viewed as a matrix:
/// collapse_shape(fill(empty))) gets a fill of the reshaped tensor instead, which can move
/// into the tile loop with it (tile-and-fuse does not fuse through reshapes). The rewrite is
/// linalg's own canonicalization of fills (FoldFillWithTensorReshape), applied to that
/// reshape only: the canonicalizer does not run between tlc-lower-convolutions, which makes
/// these reshapes, and this pass.
void fillReshapedInit(linalg::LinalgOp contraction) {
  Operation *reshape = contraction.getDpsInitOperand(0)->get().getDefiningOp();
  if (!isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape))
    return;
  auto fill = reshape->getOperand(0).getDefiningOp<linalg::FillOp>();
  if (!fill)
    return;
  MLIRContext *ctx = contraction.getContext();
  RewritePatternSet patterns(ctx);
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  (void)applyOpPatternsGreedily({reshape}, std::move(patterns), config);
  // Left in place, the old fill would still be bufferized and run (a memset of the output).
  if (fill->use_empty())
    fill->erase();
}

/// The contraction and the ops producing its initial value (a fill of a tensor.empty), which
/// move into the tile loop with it. A fill other ops also write into (CSE merges the fills of
/// same-shaped outputs, e.g. a training step's forward and backward products) is copied for
/// this contraction first: shared, it would stay outside the loop, be run whole (a memset of
/// the output) and read back by every tile instead of each tile's accumulators starting at
/// its value in registers (tlc-tile-contractions' fuse-fill).
llvm::SetVector<Operation *> contractionAndInit(RewriterBase &rewriter,
                                                linalg::LinalgOp contraction) {
  llvm::SetVector<Operation *> ops;
  fillReshapedInit(contraction);
  OpOperand *init = contraction.getDpsInitOperand(0);
  if (auto fill = init->get().getDefiningOp<linalg::FillOp>()) {
    if (!fill->hasOneUse()) {
      rewriter.setInsertionPoint(contraction);
      fill = cast<linalg::FillOp>(rewriter.clone(*fill));
      rewriter.modifyOpInPlace(contraction, [&] { init->set(fill->getResult(0)); });
    }
    ops.insert(fill);
  }
  ops.insert(contraction);
  return ops;
}

/// Mechanism: rewrites `epilogue` (which reads `value` with an identity map and does not read
/// its own init) to update `value` in place: `value` becomes its init and the payload reads
/// the init's block argument. Tiled with the contraction fused through this destination, each
/// tile is then filled, contracted and finished in the output's own storage, with no
/// intermediate tile buffers. Returns the new op, or null if it does not qualify.
linalg::GenericOp writeInPlace(RewriterBase &rewriter, linalg::GenericOp epilogue, Value value) {
  if (epilogue.getNumDpsInits() != 1 || epilogue->getResult(0).getType() != value.getType())
    return {};
  OpOperand *init = epilogue.getDpsInitOperand(0);
  if (!epilogue.getMatchingBlockArgument(init).use_empty())
    return {};
  OpOperand *read = nullptr;
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    if (input->get() == value && !read) {
      read = input;
      continue;
    }
    inputs.push_back(input->get());
    maps.push_back(epilogue.getMatchingIndexingMap(input));
  }
  if (!read || !epilogue.getMatchingIndexingMap(read).isIdentity())
    return {};
  maps.push_back(epilogue.getMatchingIndexingMap(init));
  rewriter.setInsertionPoint(epilogue);
  auto inPlace = linalg::GenericOp::create(rewriter, epilogue.getLoc(), TypeRange{value.getType()},
                                           inputs, ValueRange{value}, maps,
                                           epilogue.getIteratorTypesArray());
  inPlace->setDiscardableAttrs(epilogue->getDiscardableAttrDictionary());
  // Old block arguments: inputs in order, then the init; new: the other inputs, then `value`.
  Block *oldBody = epilogue.getBlock();
  Block *newBody = rewriter.createBlock(&inPlace.getRegion());
  SmallVector<Value> replacements;
  for (Value v : inputs)
    newBody->addArgument(getElementTypeOrSelf(v.getType()), epilogue.getLoc());
  BlockArgument acc = newBody->addArgument(getElementTypeOrSelf(value.getType()), epilogue.getLoc());
  unsigned next = 0;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    replacements.push_back(input == read ? Value(acc) : Value(newBody->getArgument(next++)));
  replacements.push_back(acc); // the old init's argument is unused
  rewriter.mergeBlocks(oldBody, newBody, replacements);
  rewriter.replaceOp(epilogue, inPlace->getResults());
  return inPlace;
}

/// Mechanism: each operand of `op` read at constant 0 in size-1 dimensions (a broadcast: a
/// 1xCx1x1 gate of an NxCxHxW output reads (0, c, 0, 0)) is replaced by a collapse_shape
/// without those dimensions, read through the map without the constant results. The maps
/// are then projected permutations, as collapseOpIterationDims requires (given a constant
/// result it reads it as a dimension: a wrong operand index, or a crash). The policy checked
/// that every constant result is a 0 in a size-1 dimension.
void dropBroadcastUnitDims(RewriterBase &rewriter, linalg::GenericOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  rewriter.setInsertionPoint(op);
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = maps[operand->getOperandNumber()];
    auto type = dyn_cast<RankedTensorType>(operand->get().getType());
    if (!type || map == dropConstantResults(map))
      continue;
    // Each constant (unit) dimension joins the group of the kept dimension before it, or
    // the first kept one's when it leads; with none kept the operand becomes rank 0.
    SmallVector<ReassociationIndices> groups;
    SmallVector<int64_t> shape;
    ReassociationIndices leading;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      if (isa<AffineConstantExpr>(e)) {
        (groups.empty() ? leading : groups.back()).push_back(i);
        continue;
      }
      groups.push_back(leading);
      groups.back().push_back(i);
      leading.clear();
      shape.push_back(type.getDimSize(i));
    }
    auto reducedType = RankedTensorType::get(shape, type.getElementType());
    Value reduced = tensor::CollapseShapeOp::create(rewriter, op.getLoc(), reducedType,
                                                    operand->get(), groups);
    rewriter.modifyOpInPlace(op, [&] { operand->set(reduced); });
    maps[operand->getOperandNumber()] = dropConstantResults(map);
    changed = true;
  }
  if (changed)
    rewriter.modifyOpInPlace(
        op, [&] { op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps)); });
}

/// Column tiles enough to give every thread of a small pool (2-4 cores) work of its own.
constexpr int64_t kMinColumnTiles = 4;

/// Mechanism: fuses `candidate` into one scf.forall over tiles of one result dimension (the
/// columns when there are enough column tiles, else the one with the most tiles: it is the
/// loop the thread pool takes) with an scf.for over the
/// tiles of the others inside; the contraction computes a whole tile (all of k) and the
/// epilogue then runs on it. Returns the forall, or failure with `reason`.
FailureOr<Operation *> fuseEpilogue(RewriterBase &rewriter, EpilogueCandidate candidate,
                                    const TileTargets &targets, std::string &reason) {
  linalg::LinalgOp contraction = candidate.contraction;
  Operation *epilogue = candidate.epilogue;
  SmallVector<Attribute> locs = {contraction.getLoc()};
  llvm::append_range(locs, groupLocations(epilogue));
  if (candidate.reshape) {
    // Run the epilogue on the contraction's own iteration space: collapse its dimensions the
    // way the reshape expanded them.
    SmallVector<ReassociationIndices> groups = candidate.reshape.getReassociationIndices();
    dropBroadcastUnitDims(rewriter, cast<linalg::GenericOp>(epilogue));
    rewriter.setInsertionPoint(epilogue);
    FailureOr<linalg::CollapseResult> collapsed = linalg::collapseOpIterationDims(
        cast<linalg::LinalgOp>(epilogue), groups, rewriter);
    if (failed(collapsed)) {
      reason = "cannot collapse the consumer to the contraction's shape";
      return failure();
    }
    rewriter.replaceOp(epilogue, collapsed->results);
    epilogue = collapsed->collapsedOp;
    SmallVector<Operation *> dead;
    for (OpOperand &operand : epilogue->getOpOperands())
      if (auto collapse = operand.get().getDefiningOp<tensor::CollapseShapeOp>())
        if (collapse.getSrc() == candidate.reshape.getResult()) {
          rewriter.modifyOpInPlace(epilogue,
                                   [&] { operand.set(contraction->getResult(0)); });
          dead.push_back(collapse);
        }
    // The reshape round trip is dead now; left in place it would keep the untiled
    // contraction alive (and computed) next to its fused tiles.
    dead.push_back(candidate.reshape);
    for (Operation *op : dead)
      if (op->use_empty())
        rewriter.eraseOp(op);
  }
  if (linalg::GenericOp inPlace = writeInPlace(
          rewriter, cast<linalg::GenericOp>(epilogue), contraction->getResult(0)))
    epilogue = inPlace;
  std::string body = describeBody(epilogue);
  SmallVector<int64_t> tiles = chooseTiles(contraction, targets);
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(contraction->getResult(0).getType()).getShape();
  // The thread pool's loop: over column tiles when there are enough of them for the threads
  // (each thread then runs all rows of its columns, so a column panel of the right operand
  // is read, and packed by tlc-tile-contractions, once, not once per row tile: with 64 x 256
  // tiles that reads 4x fewer operand bytes), else over the dimension with the most tiles.
  unsigned outer = 0;
  int64_t total = 1;
  for (unsigned i = 0; i < tiles.size(); ++i) {
    total *= shape[i] / tiles[i];
    if (shape[i] / tiles[i] > shape[outer] / tiles[outer])
      outer = i;
  }
  unsigned columns = nResultDim(contraction);
  if (shape[columns] / tiles[columns] >= kMinColumnTiles)
    outer = columns;
  if (total == 1) {
    reason = "the whole output is one tile: nothing to gain from tiling";
    return failure();
  }
  SmallVector<int64_t> outerSizes(tiles.size(), 0), innerSizes(tiles.size(), 0);
  outerSizes[outer] = tiles[outer];
  bool innerLoops = false;
  for (unsigned i = 0; i < tiles.size(); ++i)
    if (i != outer && tiles[i] != shape[i]) {
      innerSizes[i] = tiles[i];
      innerLoops = true;
    }

  FailureOr<scf::SCFTileAndFuseResult> outerResult =
      tileAndFuse(rewriter, epilogue, outerSizes, scf::SCFTilingOptions::LoopType::ForallOp,
                  contractionAndInit(rewriter, contraction));
  if (failed(outerResult) || outerResult->loops.size() != 1) {
    reason = "tiling the consumer and fusing the contraction failed";
    return failure();
  }
  Operation *loop = outerResult->loops.front();
  if (innerLoops) {
    Operation *tiledEpilogue = outerResult->tiledAndFusedOps.front();
    llvm::SetVector<Operation *> fusable;
    for (Operation *op : outerResult->tiledAndFusedOps)
      if (op != tiledEpilogue)
        fusable.insert(op);
    // On failure the forall alone still runs the epilogue per (larger) tile.
    (void)tileAndFuse(rewriter, tiledEpilogue, innerSizes, scf::SCFTilingOptions::LoopType::ForOp,
                      fusable);
  }

  MLIRContext *ctx = rewriter.getContext();
  std::string tileText;
  for (int64_t t : tiles)
    tileText += (tileText.empty() ? "" : "x") + std::to_string(t);
  std::string why = llvm::formatv("epilogue ({0}) runs on each {1} output tile of the "
                                  "contraction while the tile is in cache",
                                  body, tileText)
                        .str();
  NamedAttribute fields[] = {
      {StringAttr::get(ctx, "kind"), StringAttr::get(ctx, "contraction+epilogue")},
      {StringAttr::get(ctx, "reason"), StringAttr::get(ctx, why)},
      {StringAttr::get(ctx, "ops"), ArrayAttr::get(ctx, locs)},
      {StringAttr::get(ctx, "tile"), DenseI64ArrayAttr::get(ctx, tiles)}};
  loop->setAttr(kGroupAttr, DictionaryAttr::get(ctx, fields));
  return loop;
}

struct TLCFuseEpiloguesPass : tlc::impl::TLCFuseEpiloguesBase<TLCFuseEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> roots;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isEpilogueRoot(op))
        roots.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    TileTargets targets{tileM, tileN, alignM, alignN};
    for (linalg::LinalgOp contraction : roots) {
      std::string reason;
      std::optional<EpilogueCandidate> candidate = decideEpilogue(contraction, reason);
      if (candidate && succeeded(fuseEpilogue(rewriter, *candidate, targets, reason)))
        continue;
      // Not fused. The IR may still have been rewritten on the way (the epilogue collapsed to
      // the contraction's shape, or made to update the contraction's result in place): both
      // are valid on their own.
      if (contraction->getBlock())
        contraction->setAttr(kUnfusedAttr, rewriter.getStringAttr(reason));
    }
  }
};

} // namespace
