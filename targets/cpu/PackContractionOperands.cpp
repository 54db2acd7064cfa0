// Packs a contraction's operands: right-operand cache panels into contiguous register-tile
// strips, left-operand cache blocks into compact row-major copies.
#include "targets/cpu/PackContractionOperands.h"
#include "passes/BufferFills.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

std::optional<std::tuple<unsigned, unsigned, unsigned>>
tlc::matchRhsOperand(linalg::LinalgOp op, unsigned m, unsigned n, unsigned k) {
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (map.getNumResults() == 0 || !map.isProjectedPermutation(/*allowZeroInResults=*/false))
      continue;
    if (map.getDimPosition(map.getNumResults() - 1) != n || map.isFunctionOfDim(m))
      continue;
    std::optional<unsigned> kResult = map.getResultPosition(getAffineDimExpr(k, op.getContext()));
    if (!kResult)
      continue;
    return std::make_tuple(operand->getOperandNumber(), *kResult, map.getNumResults() - 1);
  }
  return std::nullopt;
}

/// Moves the pure ops that compute `value` inside `loop` before it. False (and nothing moved)
/// when `value` depends on the loop's induction variable or on an op with effects or regions.
static bool hoistOutOf(Value value, scf::ForOp loop, SmallVectorImpl<Operation *> &order) {
  if (!loop.getRegion().isAncestor(value.getParentRegion()))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || !isPure(def))
    return false;
  for (Value operand : def->getOperands())
    if (!hoistOutOf(operand, loop, order))
      return false;
  if (!llvm::is_contained(order, def))
    order.push_back(def);
  return true;
}

/// `block`'s type when it is a memref of integers or floats whose last dimension has unit
/// stride (rows a packing copy reads with vector loads); null otherwise.
static MemRefType unitStrideRowsType(Value block) {
  auto type = dyn_cast<MemRefType>(block.getType());
  if (!type || !type.getElementType().isIntOrFloat())
    return nullptr;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return nullptr;
  return type;
}

Type tlc::extendedOperandType(linalg::LinalgOp op, unsigned operand) {
  BlockArgument arg = op->getRegion(0).front().getArgument(operand);
  Type extended;
  for (Operation *user : arg.getUsers()) {
    auto ext = dyn_cast<arith::ExtFOp>(user);
    if (!ext || (extended && ext.getType() != extended))
      return nullptr;
    extended = ext.getType();
  }
  return extended;
}

std::optional<bool> tlc::extendedIntegerSignedness(linalg::LinalgOp op, unsigned operand) {
  BlockArgument arg = op->getRegion(0).front().getArgument(operand);
  std::optional<bool> isUnsigned;
  for (Operation *user : arg.getUsers()) {
    bool zext = isa<arith::ExtUIOp>(user);
    if ((!zext && !isa<arith::ExtSIOp>(user)) || (isUnsigned && *isUnsigned != zext))
      return std::nullopt;
    isUnsigned = zext;
  }
  return isUnsigned;
}

/// Mechanism: `tile`'s operand `operand`, now read from a buffer already of `type`, is used as
/// it is: its payload argument takes that type and the extensions go.
static void dropExtension(RewriterBase &rewriter, linalg::LinalgOp tile, unsigned operand,
                          Type type) {
  BlockArgument arg = tile->getRegion(0).front().getArgument(operand);
  rewriter.modifyOpInPlace(tile, [&] { arg.setType(type); });
  for (Operation *user : llvm::make_early_inc_range(arg.getUsers()))
    rewriter.replaceOp(user, arg);
}

/// The columns of a `width`-lane step at column `col` that lie before `cols`:
/// min(width, cols - col).
static Value validColumns(RewriterBase &rewriter, Location loc, Value col, Value cols,
                          int64_t width) {
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr d0, d1;
  bindDims(ctx, d0, d1);
  return affine::AffineMinOp::create(
      rewriter, loc, AffineMap::get(2, 0, {getAffineConstantExpr(width, ctx), d1 - d0}, ctx),
      ValueRange{col, cols});
}

/// `width` elements of `src` along its contiguous dimension `colDim` from (`row`, `col`)
/// (index 0 in every other dimension); lanes off in `mask` are not read and come back zero.
static Value readRowSegment(RewriterBase &rewriter, Location loc, Value src, unsigned rowDim,
                            unsigned colDim, Value row, Value col, Value mask, int64_t width) {
  auto srcType = cast<MemRefType>(src.getType());
  Type elementType = srcType.getElementType();
  unsigned rank = srcType.getRank();
  SmallVector<Value> indices(rank, arith::ConstantIndexOp::create(rewriter, loc, 0));
  indices[rowDim] = row;
  indices[colDim] = col;
  Value padding = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elementType));
  return vector::TransferReadOp::create(
      rewriter, loc, VectorType::get({width}, elementType), src, indices,
      AffineMap::getMinorIdentityMap(rank, 1, rewriter.getContext()), padding, mask,
      rewriter.getBoolArrayAttr({true}));
}

/// Mechanism: at the rewriter's insertion point, `for r < rows: for c < cols step width:
/// dst[dstIndices(r, c)] = src[.., r, .., c]` (`rows` and `cols` the extents of `src`'s
/// dimensions `rowDim` and `colDim`, the latter contiguous; every other index 0), one vector
/// of `width` lanes per step. The column loop is peeled: full vectors unmasked (the mask
/// folds to all-true), the row's last partial one masked. The row loop is outermost, so the
/// source is read row by row, contiguously.
static void
copyRowsInVectors(RewriterBase &rewriter, Location loc, Value src, unsigned rowDim, unsigned colDim,
                  int64_t width, Value dst,
                  function_ref<SmallVector<Value>(OpBuilder &, Value, Value)> dstIndices) {
  MLIRContext *ctx = rewriter.getContext();
  Type elementType = cast<MemRefType>(src.getType()).getElementType();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, width);
  Value rows = memref::DimOp::create(rewriter, loc, src, rowDim);
  Value cols = memref::DimOp::create(rewriter, loc, src, colDim);
  auto rowLoop = scf::ForOp::create(rewriter, loc, zero, rows, one);
  rewriter.setInsertionPointToStart(rowLoop.getBody());
  Value row = rowLoop.getInductionVar();
  auto colLoop = scf::ForOp::create(rewriter, loc, zero, cols, step);
  rewriter.setInsertionPointToStart(colLoop.getBody());
  Value col = colLoop.getInductionVar();
  Value mask = vector::CreateMaskOp::create(rewriter, loc,
                                            VectorType::get({width}, rewriter.getI1Type()),
                                            ValueRange{validColumns(rewriter, loc, col, cols, width)});
  SmallVector<Value> dstIdx = dstIndices(rewriter, row, col);
  ArrayAttr inBounds = rewriter.getBoolArrayAttr({true});
  Value v = readRowSegment(rewriter, loc, src, rowDim, colDim, row, col, mask, width);
  // A wider destination (bf16/f16 packed as f32): converted once here, not in every register
  // tile that reads it.
  Type dstElement = cast<MemRefType>(dst.getType()).getElementType();
  if (dstElement != elementType)
    v = arith::ExtFOp::create(rewriter, loc, VectorType::get({width}, dstElement), v);
  vector::TransferWriteOp::create(
      rewriter, loc, Type(), v, dst, dstIdx,
      AffineMap::getMinorIdentityMap(cast<MemRefType>(dst.getType()).getRank(), 1, ctx), mask,
      inBounds);
  scf::ForOp partial;
  rewriter.setInsertionPoint(colLoop);
  (void)scf::peelForLoopAndSimplifyBounds(rewriter, colLoop, partial);
}

/// Mechanism: at the rewriter's insertion point, `for p < ceil(rows / group): for c < cols
/// step width: dst[dstIndices(p, c)] = interleave(src[.., group p + i, .., c:c+width] for i <
/// group)` (`rows` and `cols` the extents of `src`'s dimensions `rowDim` and `colDim`, the
/// latter contiguous; every other index 0; `group` 2 or 4): one vector of group x `width`
/// elements per step, written whole, column j's group of rows at group j ... group j +
/// group - 1. Columns past `cols` and the rows past `rows` in the last group are read as
/// zeros.
static void copyRowGroupsInterleaved(
    RewriterBase &rewriter, Location loc, Value src, unsigned rowDim, unsigned colDim,
    int64_t width, int64_t group, Value dst,
    function_ref<SmallVector<Value>(OpBuilder &, Value, Value)> dstIndices) {
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value groupSize = arith::ConstantIndexOp::create(rewriter, loc, group);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, width);
  Value rows = memref::DimOp::create(rewriter, loc, src, rowDim);
  Value cols = memref::DimOp::create(rewriter, loc, src, colDim);
  Value groups = arith::CeilDivUIOp::create(rewriter, loc, rows, groupSize);
  auto groupLoop = scf::ForOp::create(rewriter, loc, zero, groups, one);
  rewriter.setInsertionPointToStart(groupLoop.getBody());
  Value index = groupLoop.getInductionVar();
  Value row0 = arith::MulIOp::create(rewriter, loc, index, groupSize);
  // Row i of the group exists unless it lies past the last row (the last group of a row
  // count that is not a multiple); a missing one is read at row 0, masked off entirely, which
  // keeps every access in bounds.
  SmallVector<Value> present, readAt;
  for (int64_t i = 0; i < group; ++i) {
    Value row = i == 0 ? row0
                       : arith::AddIOp::create(rewriter, loc, row0,
                                               arith::ConstantIndexOp::create(rewriter, loc, i))
                             .getResult();
    Value exists = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, row, rows);
    present.push_back(exists);
    readAt.push_back(i == 0 ? row : arith::SelectOp::create(rewriter, loc, exists, row, zero));
  }
  auto colLoop = scf::ForOp::create(rewriter, loc, zero, cols, step);
  rewriter.setInsertionPointToStart(colLoop.getBody());
  Value col = colLoop.getInductionVar();
  Value valid = validColumns(rewriter, loc, col, cols, width);
  auto maskType = VectorType::get({width}, rewriter.getI1Type());
  SmallVector<Value> validCols{valid}, segments;
  for (int64_t i = 1; i < group; ++i)
    validCols.push_back(arith::SelectOp::create(rewriter, loc, present[i], valid, zero));
  for (int64_t i = 0; i < group; ++i) {
    Value mask = vector::CreateMaskOp::create(rewriter, loc, maskType, ValueRange{validCols[i]});
    segments.push_back(
        readRowSegment(rewriter, loc, src, rowDim, colDim, readAt[i], col, mask, width));
  }
  // Pairs: (r0, r1). Quads: interleaving (r0, r2) with (r1, r3) gives r0 r1 r2 r3 per column.
  Value interleaved =
      group == 2
          ? vector::InterleaveOp::create(rewriter, loc, segments[0], segments[1]).getResult()
          : vector::InterleaveOp::create(
                rewriter, loc,
                vector::InterleaveOp::create(rewriter, loc, segments[0], segments[2]),
                vector::InterleaveOp::create(rewriter, loc, segments[1], segments[3]))
                .getResult();
  vector::StoreOp::create(rewriter, loc, interleaved, dst, dstIndices(rewriter, index, col));
}

/// Mechanism: `tile` reads its operand `operand` from the view of `packed` at `offsets`,
/// `sizes` and `strides` (rank-reduced to the shape of `tileSlice`) instead of from
/// `tileSlice`, its slice of the unpacked operand, which is erased once nothing else reads it.
static void readFromPacked(RewriterBase &rewriter, Location loc, Operation *tile, unsigned operand,
                           memref::SubViewOp tileSlice, Value packed,
                           ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                           ArrayRef<OpFoldResult> strides) {
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      tileSlice.getType().getShape(), cast<MemRefType>(packed.getType()), offsets, sizes, strides);
  Value view = memref::SubViewOp::create(rewriter, loc, viewType, packed, offsets, sizes, strides);
  rewriter.modifyOpInPlace(tile, [&] { tile->setOperand(operand, view); });
  if (tileSlice->use_empty())
    rewriter.eraseOp(tileSlice);
}

/// Whether anything in `loop` may write memory of the view `value` (or memory it cannot
/// name). Views of one planned workspace at disjoint offsets do not overlap: an
/// epilogue-fused contraction writing its output tile there leaves its right operand, another
/// slot of the workspace, unchanged.
static bool mayWrite(scf::ForOp loop, Value value) {
  return tlc::mayAccessMemory(loop, /*reads=*/false, [&](Operation *, Value written) {
    return tlc::mayOverlap(written, value);
  });
}

scf::ForOp tlc::outermostInvariantLoop(Value value, Operation *op, Operation *home) {
  // The view must be computed outside the loop and its contents must not change in it (e.g.
  // produced by an earlier op of the same loop body): nothing there may write its buffer.
  scf::ForOp best;
  for (Operation *p = op->getParentOp(); p && p != home; p = p->getParentOp()) {
    auto loop = dyn_cast<scf::ForOp>(p);
    SmallVector<Operation *> unused;
    if (!loop || !hoistOutOf(value, loop, unused) || mayWrite(loop, value))
      break;
    best = loop;
  }
  return best;
}

/// The packed panel's indices [strip, unit dims..., row, 0] of element `col` of the block's
/// row `row` (`rank` the block's rank, `kResult` its row dimension).
static SmallVector<Value> panelIndices(OpBuilder &b, Location loc, unsigned rank,
                                       unsigned kResult, int64_t stripN, Value row, Value col) {
  SmallVector<Value> indices(rank + 1, arith::ConstantIndexOp::create(b, loc, 0));
  indices[0] = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(1, 0, getAffineDimExpr(0, b.getContext()).floorDiv(stripN)),
      ValueRange{col});
  indices[1 + kResult] = row;
  return indices;
}

/// The offsets in the packed panel of a register tile whose slice of the block starts at
/// `tileOffsets` (`base`: the block's offsets in what was packed): its strip, and its k offset
/// divided by `rowsPerPanelRow` (2 for k pairs); 0 in the unit dimensions and the lane.
static SmallVector<OpFoldResult> panelOffsets(RewriterBase &rewriter, Location loc,
                                              const tlc::RhsPanel &panel, unsigned rank,
                                              ArrayRef<OpFoldResult> base,
                                              ArrayRef<OpFoldResult> tileOffsets,
                                              int64_t rowsPerPanelRow) {
  AffineExpr d0, d1;
  bindDims(rewriter.getContext(), d0, d1);
  // Block offsets along n are multiples of the strip width (cache-n is), so are the tiles'.
  SmallVector<OpFoldResult> offsets{affine::makeComposedFoldedAffineApply(
      rewriter, loc, AffineMap::get(2, 0, (d0 + d1).floorDiv(panel.stripN)),
      {base[panel.nResult], tileOffsets[panel.nResult]})};
  for (unsigned i = 0; i < rank; ++i)
    offsets.push_back(i == panel.kResult
                          ? affine::makeComposedFoldedAffineApply(
                                rewriter, loc, AffineMap::get(2, 0, (d0 + d1).floorDiv(rowsPerPanelRow)),
                                {base[i], tileOffsets[i]})
                          : rewriter.getIndexAttr(0));
  return offsets;
}

/// packRhsPanel's k-group form (pairs or quads), from the copy on: the grouped rows of
/// `block` into `packed`, and the register tile's operand as the 1-D view of its k group's
/// row, indexed group x n + k.
static LogicalResult packRhsGroups(RewriterBase &rewriter, const tlc::RhsPanel &panel,
                                   memref::SubViewOp tileSlice, Value block,
                                   ArrayRef<OpFoldResult> base, Value packed) {
  linalg::LinalgOp registerTile = panel.registerTile;
  auto tile = dyn_cast<linalg::GenericOp>(registerTile.getOperation());
  if (!tile)
    return failure();
  AffineMap oldMap = tile.getMatchingIndexingMap(&tile->getOpOperand(panel.operand));
  auto kDim = dyn_cast<AffineDimExpr>(oldMap.getResult(panel.kResult));
  auto nDim = dyn_cast<AffineDimExpr>(oldMap.getResult(panel.nResult));
  if (!kDim || !nDim)
    return failure();
  MLIRContext *ctx = rewriter.getContext();
  Location loc = tile.getLoc();
  unsigned rank = cast<MemRefType>(block.getType()).getRank();
  int64_t group = panel.kGroup;
  copyRowGroupsInterleaved(rewriter, loc, block, panel.kResult, panel.nResult, panel.stripN,
                           group, packed, [&](OpBuilder &b, Value index, Value col) {
                             return panelIndices(b, loc, rank, panel.kResult, panel.stripN,
                                                 index, col);
                           });

  // The register tile reads packed[n / stripN][.., k / group, 0:group stripN] as a 1-D view:
  // its tile offsets along n are multiples of the strip width, along k multiples of group.
  rewriter.setInsertionPoint(tile);
  SmallVector<OpFoldResult> offsets =
      panelOffsets(rewriter, loc, panel, rank, base, tileSlice.getMixedOffsets(), group);
  SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
  for (unsigned i = 0; i < rank; ++i)
    sizes.push_back(rewriter.getIndexAttr(i == panel.nResult ? group * panel.stripN : 1));
  SmallVector<OpFoldResult> unitStrides(rank + 1, rewriter.getIndexAttr(1));
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      {group * panel.stripN}, cast<MemRefType>(packed.getType()), offsets, sizes, unitStrides);
  Value view = memref::SubViewOp::create(rewriter, loc, cast<MemRefType>(viewType), packed,
                                         offsets, sizes, unitStrides);
  SmallVector<AffineMap> maps = tile.getIndexingMapsArray();
  maps[panel.operand] = AffineMap::get(oldMap.getNumDims(), 0, group * nDim + kDim, ctx);
  rewriter.modifyOpInPlace(tile, [&] {
    tile->setOperand(panel.operand, view);
    tile.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  if (tileSlice->use_empty())
    rewriter.eraseOp(tileSlice);
  return success();
}

LogicalResult tlc::packRhsPanel(RewriterBase &rewriter, const RhsPanel &panel) {
  linalg::LinalgOp tile = panel.registerTile;
  auto tileSlice = tile->getOperand(panel.operand).getDefiningOp<memref::SubViewOp>();
  if (!tileSlice)
    return failure();
  // What is packed (`block`: one cache block's slice, or the whole operand) and where the
  // register tile's slice starts in it (`base` + the tile's offsets).
  Value block = tileSlice.getSource();
  unsigned numResults = cast<MemRefType>(block.getType()).getRank();
  SmallVector<OpFoldResult> base(numResults, rewriter.getIndexAttr(0));
  scf::ForOp copyBefore = panel.mBlockLoop;
  int64_t panelK = panel.panelK, panelN = panel.panelN;
  if (panel.wholeOperandBefore) {
    auto blockSlice = block.getDefiningOp<memref::SubViewOp>();
    if (!blockSlice || blockSlice.getSourceType().getRank() != numResults ||
        !blockSlice.getSourceType().hasStaticShape())
      return failure();
    block = blockSlice.getSource();
    base = blockSlice.getMixedOffsets();
    copyBefore = panel.wholeOperandBefore;
    panelK = blockSlice.getSourceType().getDimSize(panel.kResult);
    panelN = blockSlice.getSourceType().getDimSize(panel.nResult);
  }
  MemRefType blockType = unitStrideRowsType(block);
  if (!blockType)
    return failure();
  unsigned rank = blockType.getRank();
  for (unsigned i = 0; i < rank; ++i)
    if (i != panel.kResult && i != panel.nResult && blockType.getDimSize(i) != 1)
      return failure();
  Operation *home = panel.bufferHome;
  if (!home || home->getNumRegions() != 1 || home->getRegion(0).empty())
    return failure();
  // The block slice depends on the k and n block indices only: compute it before the m loop
  // (the whole operand: before the loop it is invariant in).
  SmallVector<Operation *> toHoist;
  if (!hoistOutOf(block, copyBefore, toHoist))
    return failure();
  for (Operation *op : toHoist)
    rewriter.moveOpBefore(op, copyBefore);

  Location loc = tile.getLoc();
  // A bf16/f16 operand the tile extends is packed already extended (k pairs stay bf16, k
  // quads int8).
  int64_t group = panel.kGroup;
  Type extended = group > 1 ? Type() : extendedOperandType(tile, panel.operand);
  Type elementType = extended ? extended : blockType.getElementType();
  if ((group == 2 && !elementType.isBF16()) || (group == 4 && !elementType.isInteger(8)) ||
      (group > 1 && panel.kResult >= panel.nResult))
    return failure();
  // packed[strip][unit dims..., k, lane]: strip s holds columns [s * stripN, (s + 1) * stripN);
  // with k groups, packed[strip][unit dims..., k / group, group * lane + k % group].
  int64_t numStrips = llvm::divideCeil(panelN, panel.stripN);
  int64_t rowsPerStrip = llvm::divideCeil(panelK, group);
  int64_t rowLength = group * panel.stripN;
  SmallVector<int64_t> packedShape{numStrips};
  for (unsigned i = 0; i < rank; ++i)
    packedShape.push_back(i == panel.kResult ? rowsPerStrip
                          : i == panel.nResult ? rowLength
                                               : 1);
  auto packedType = MemRefType::get(packedShape, elementType);
  rewriter.setInsertionPointToStart(&home->getRegion(0).front());
  Value packed =
      memref::AllocaOp::create(rewriter, loc, packedType, rewriter.getI64IntegerAttr(64));
  rewriter.setInsertionPoint(copyBefore);
  if (group > 1)
    return packRhsGroups(rewriter, panel, tileSlice, block, base, packed);

  // for k in rows: for j in strips: packed[j / stripN][.., k, 0:w] = block[.., k, j:j+w].
  copyRowsInVectors(rewriter, loc, block, panel.kResult, panel.nResult, panel.stripN, packed,
                    [&](OpBuilder &b, Value row, Value col) {
                      return panelIndices(b, loc, rank, panel.kResult, panel.stripN, row, col);
                    });

  // The register tile reads packed[n / stripN][.., k, 0:w] instead of block[.., k, n:n+w].
  rewriter.setInsertionPoint(tile);
  SmallVector<OpFoldResult> offsets =
      panelOffsets(rewriter, loc, panel, rank, base, tileSlice.getMixedOffsets(), 1);
  SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(1)};
  for (unsigned i = 0; i < rank; ++i)
    sizes.push_back(tileSlice.getMixedSizes()[i]);
  SmallVector<OpFoldResult> unitStrides(rank + 1, rewriter.getIndexAttr(1));
  readFromPacked(rewriter, loc, tile, panel.operand, tileSlice, packed, offsets, sizes,
                 unitStrides);
  if (extended)
    dropExtension(rewriter, tile, panel.operand, extended);
  return success();
}

std::optional<std::tuple<unsigned, unsigned, unsigned>>
tlc::matchLhsOperand(linalg::LinalgOp op, unsigned m, unsigned n, unsigned k) {
  MLIRContext *ctx = op.getContext();
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (map.getNumResults() == 0 || !map.isProjectedPermutation(/*allowZeroInResults=*/false) ||
        map.isFunctionOfDim(n))
      continue;
    std::optional<unsigned> mResult = map.getResultPosition(getAffineDimExpr(m, ctx));
    std::optional<unsigned> kResult = map.getResultPosition(getAffineDimExpr(k, ctx));
    if (mResult && kResult)
      return std::make_tuple(operand->getOperandNumber(), *mResult, *kResult);
  }
  return std::nullopt;
}

LogicalResult tlc::packLhsBlock(RewriterBase &rewriter, const LhsBlock &lhs) {
  linalg::LinalgOp tile = lhs.registerTile;
  auto tileSlice = tile->getOperand(lhs.operand).getDefiningOp<memref::SubViewOp>();
  if (!tileSlice)
    return failure();
  Value block = tileSlice.getSource();
  MemRefType blockType = unitStrideRowsType(block);
  if (!blockType)
    return failure();
  unsigned rank = blockType.getRank();
  // Rows along the contiguous axis (k for a row-major left operand, m for a transposed one),
  // one row per index of the other.
  unsigned inner = rank - 1;
  if (inner != lhs.mResult && inner != lhs.kResult)
    return failure();
  unsigned outer = inner == lhs.mResult ? lhs.kResult : lhs.mResult;
  SmallVector<int64_t> packedShape;
  for (unsigned i = 0; i < rank; ++i) {
    int64_t bound = i == lhs.mResult ? lhs.blockM : i == lhs.kResult ? lhs.blockK : 1;
    int64_t size = blockType.getDimSize(i);
    if (!ShapedType::isDynamic(size) && size > bound)
      return failure();
    packedShape.push_back(bound);
  }
  Operation *home = lhs.bufferHome;
  if (!home || home->getNumRegions() != 1 || home->getRegion(0).empty())
    return failure();
  // The copy runs where the block's view is defined, before any register tile reads it.
  if (!DominanceInfo(lhs.copyBefore->getParentOp()).properlyDominates(block, lhs.copyBefore))
    return failure();

  Location loc = tile.getLoc();
  Type extended = lhs.keepType ? Type() : extendedOperandType(tile, lhs.operand);
  Type elementType = extended ? extended : blockType.getElementType();
  auto packedType = MemRefType::get(packedShape, elementType);
  rewriter.setInsertionPointToStart(&home->getRegion(0).front());
  Value packed =
      memref::AllocaOp::create(rewriter, loc, packedType, rewriter.getI64IntegerAttr(64));

  // for r in rows: for c in row, step w: packed[.., r, c:c+w] = block[.., r, c:c+w]; the
  // packed row starts at the same indices, only the row stride shrinks to the block's.
  rewriter.setInsertionPoint(lhs.copyBefore);
  copyRowsInVectors(rewriter, loc, block, outer, inner, lhs.copyWidth, packed,
                    [&](OpBuilder &b, Value row, Value col) {
                      SmallVector<Value> indices(rank, arith::ConstantIndexOp::create(b, loc, 0));
                      indices[outer] = row;
                      indices[inner] = col;
                      return indices;
                    });

  // The register tile reads the same slice of the packed block.
  rewriter.setInsertionPoint(tile);
  readFromPacked(rewriter, loc, tile, lhs.operand, tileSlice, packed, tileSlice.getMixedOffsets(),
                 tileSlice.getMixedSizes(), tileSlice.getMixedStrides());
  if (extended)
    dropExtension(rewriter, tile, lhs.operand, extended);
  return success();
}
