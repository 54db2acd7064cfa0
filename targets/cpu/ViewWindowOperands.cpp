// tlc-view-window-operands: a linalg.generic operand on buffers read through sums of loop
// dimensions (a direct convolution's q + y * W + x) becomes a strided view of the same memory
// read through plain loop dimensions, so the op is a contraction the tiler and vectorizer
// take. Pooling ops are generalized first, so their windows are views too.
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {
#define GEN_PASS_DEF_TLCVIEWWINDOWOPERANDS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// One loop dimension of a map result and its element stride in the viewed memory.
struct Term {
  unsigned dim;
  int64_t stride;
};

/// Appends the terms of `e`, a sum of loop dimensions with positive constant coefficients
/// (no constant term), each scaled by `scale`. Fails on anything else.
bool appendTerms(AffineExpr e, int64_t scale, SmallVectorImpl<Term> &terms) {
  if (auto dim = dyn_cast<AffineDimExpr>(e)) {
    terms.push_back({dim.getPosition(), scale});
    return true;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (e.getKind() == AffineExprKind::Add)
    return appendTerms(bin.getLHS(), scale, terms) && appendTerms(bin.getRHS(), scale, terms);
  auto coef = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (e.getKind() == AffineExprKind::Mul && coef && coef.getValue() > 0)
    return appendTerms(bin.getLHS(), scale * coef.getValue(), terms);
  return false;
}

/// Mechanism: replaces input `operand` of `op` (a static-strided memref read through a map
/// that is not a projected permutation but whose results are sums of distinct loop
/// dimensions with positive coefficients) by a memref.reinterpret_cast of the same memory
/// with one dimension per loop dimension it is read through: its size that loop's range,
/// its stride the coefficient times the stride of the result it appears in. The view's
/// dimensions run by decreasing stride, parallel loops after reduction loops among equals
/// (the innermost parallel loop is the one vector code runs along), then by loop. Fails without
/// changing the IR when the operand does not qualify.
LogicalResult viewOperand(RewriterBase &rewriter, linalg::GenericOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  if (map.isProjectedPermutation() || !type || map.getNumSymbols() != 0)
    return failure();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return failure();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<Term> terms;
  for (auto [result, stride] : llvm::zip_equal(map.getResults(), strides))
    if (!appendTerms(result, stride, terms))
      return failure();
  llvm::SmallDenseSet<unsigned> seen;
  for (const Term &term : terms)
    if (!seen.insert(term.dim).second || ShapedType::isDynamic(ranges[term.dim]))
      return failure();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto isParallel = [&](const Term &t) {
    return iterators[t.dim] == utils::IteratorType::parallel;
  };
  llvm::sort(terms, [&](const Term &a, const Term &b) {
    if (a.stride != b.stride)
      return a.stride > b.stride;
    if (isParallel(a) != isParallel(b))
      return isParallel(b);
    return a.dim < b.dim;
  });
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  OpFoldResult viewOffset = rewriter.getIndexAttr(offset);
  if (ShapedType::isDynamic(offset))
    viewOffset = memref::ExtractStridedMetadataOp::create(rewriter, loc, operand.get()).getOffset();
  SmallVector<OpFoldResult> sizes, viewStrides;
  SmallVector<AffineExpr> results;
  for (const Term &term : terms) {
    sizes.push_back(rewriter.getIndexAttr(ranges[term.dim]));
    viewStrides.push_back(rewriter.getIndexAttr(term.stride));
    results.push_back(rewriter.getAffineDimExpr(term.dim));
  }
  Value view = memref::ReinterpretCastOp::create(rewriter, loc, operand.get(), viewOffset, sizes,
                                                 viewStrides);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps[operand.getOperandNumber()] =
      AffineMap::get(map.getNumDims(), 0, results, rewriter.getContext());
  rewriter.modifyOpInPlace(op, [&] {
    operand.set(view);
    op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  return success();
}

struct TLCViewWindowOperandsPass : tlc::impl::TLCViewWindowOperandsBase<TLCViewWindowOperandsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Pooling ops as generics, so their windows become views too (and tlc-tile-depthwise
    // takes them as row reductions).
    SmallVector<linalg::LinalgOp> pools;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp>(op) &&
          op.hasPureBufferSemantics())
        pools.push_back(op);
    });
    for (linalg::LinalgOp pool : pools) {
      rewriter.setInsertionPoint(pool);
      (void)linalg::generalizeNamedOp(rewriter, pool);
    }
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    for (linalg::GenericOp op : ops)
      for (OpOperand *operand : op.getDpsInputOperands())
        (void)viewOperand(rewriter, op, *operand);
  }
};

} // namespace
