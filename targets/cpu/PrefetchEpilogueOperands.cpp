// Prefetches of an epilogue-fused contraction's epilogue operands, one register tile at a
// time: the epilogue reads them right after the contraction of its output tile, row by row of
// the tile; rows that are a whole operand row apart (e.g. 256 of 1024 columns) each start a
// new hardware-prefetch stream, so without these every tile's epilogue waits on memory.
#include "targets/cpu/PrefetchEpilogueOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

tlc::EpilogueOperands tlc::epilogueOperands(linalg::LinalgOp contraction, unsigned m, unsigned n,
                                            int64_t maxBytes) {
  EpilogueOperands result;
  Value init = contraction.getDpsInitOperand(0)->get();
  auto initType = dyn_cast<MemRefType>(init.getType());
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(contraction->getNextNode());
  if (!initType || !initType.hasStaticShape() || !epilogue || !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumDpsInits() != 1 || epilogue.getDpsInitOperand(0)->get() != init ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      initType.getNumElements() * initType.getElementTypeBitWidth() / 8 > maxBytes)
    return result;
  for (OpOperand *operand : epilogue.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    if (operand->get() != init && type && type.getShape() == initType.getShape() &&
        epilogue.getMatchingIndexingMap(operand).isIdentity())
      result.operands.push_back(operand->get());
  }
  AffineMap outMap = contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  MLIRContext *ctx = init.getContext();
  std::optional<unsigned> mResult = outMap.getResultPosition(getAffineDimExpr(m, ctx));
  std::optional<unsigned> nResult = outMap.getResultPosition(getAffineDimExpr(n, ctx));
  if (!mResult || !nResult) {
    result.operands.clear();
    return result;
  }
  result.mResult = *mResult;
  result.nResult = *nResult;
  return result;
}

/// `value` cut like `like` cuts its source: same offsets, sizes and strides, rank-reduced the
/// same way.
static Value subviewLike(OpBuilder &b, memref::SubViewOp like, Value value) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> offsets = like.getMixedOffsets(), sizes = like.getMixedSizes(),
                            strides = like.getMixedStrides();
  auto resultType = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
      like.getType().getShape(), type, offsets, sizes, strides));
  return memref::SubViewOp::create(b, like.getLoc(), resultType, value, offsets, sizes, strides);
}

void tlc::prefetchEpilogueOperands(RewriterBase &rewriter, const EpilogueOperands &epilogue,
                                   Value init, linalg::LinalgOp registerTile, Operation *before,
                                   int64_t locality) {
  if (epilogue.operands.empty())
    return;
  // The subviews from the contraction's output to the tile's slice of it, outermost first;
  // each must be defined before `before` (it is rebuilt there on the epilogue operands).
  Value tileSlice = registerTile.getDpsInitOperand(0)->get();
  auto sliceType = cast<MemRefType>(tileSlice.getType());
  if (sliceType.getRank() != cast<MemRefType>(init.getType()).getRank())
    return; // rank-reduced: the m and n result positions would move
  SmallVector<memref::SubViewOp> chain;
  for (Value slice = tileSlice; slice != init;) {
    auto subview = slice.getDefiningOp<memref::SubViewOp>();
    Operation *anchor = subview ? subview->getBlock()->findAncestorOpInBlock(*before) : nullptr;
    if (!anchor || !subview->isBeforeInBlock(anchor))
      return;
    chain.insert(chain.begin(), subview);
    slice = subview.getSource();
  }
  Location loc = registerTile.getLoc();
  rewriter.setInsertionPoint(before);
  int64_t lineElements = 512 / sliceType.getElementTypeBitWidth();
  int64_t columns = sliceType.getDimSize(epilogue.nResult);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (Value operand : epilogue.operands) {
    Value view = operand;
    for (memref::SubViewOp subview : chain)
      view = subviewLike(rewriter, subview, view);
    Value rows = memref::DimOp::create(rewriter, loc, view, epilogue.mResult);
    auto loop = scf::ForOp::create(rewriter, loc, zero, rows, one);
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    // A dynamic column extent (an edge tile) prefetches its first line only: a prefetch past
    // the slice's end would read past its buffer.
    int64_t lines = ShapedType::isDynamic(columns) ? 1 : llvm::divideCeil(columns, lineElements);
    for (int64_t line = 0; line < lines; ++line) {
      SmallVector<Value> indices(sliceType.getRank(), zero);
      indices[epilogue.mResult] = loop.getInductionVar();
      indices[epilogue.nResult] = arith::ConstantIndexOp::create(body, loc, line * lineElements);
      memref::PrefetchOp::create(body, loc, view, indices, /*isWrite=*/false, locality,
                                 /*isDataCache=*/true);
    }
  }
}
