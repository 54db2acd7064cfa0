// tlc-read-unpadded-rows: a depthwise convolution that reads a padded copy of a buffer gets
// that buffer as its source (tlc::kPaddedSourceAttr), kept unwritten until the convolution,
// so that tlc-tile-depthwise reads its rows from the source (the padding lanes masked) and the
// padded copy goes. Runs on buffers before the memory plan, which then sees the source live
// up to the convolution.
#include "passes/BufferFills.h"
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tlc {
#define GEN_PASS_DEF_TLCREADUNPADDEDROWS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// The view `op` derives from `v`, if it is a view of it (subview, reshape, cast).
Value viewOf(Operation *op, Value v) {
  auto view = dyn_cast<ViewLikeOpInterface>(op);
  return view && view.getViewSource() == v ? view->getResult(0) : Value();
}

/// The alloc behind a view (null when it is behind something else: an argument).
memref::AllocOp rootAlloc(Value v) {
  return tlc::rootBuffer(v).getDefiningOp<memref::AllocOp>();
}

/// Every use of `v` and of the views derived from it.
void collectUses(Value v, SmallVectorImpl<OpOperand *> &uses) {
  for (OpOperand &use : v.getUses()) {
    uses.push_back(&use);
    if (Value view = viewOf(use.getOwner(), v))
      collectUses(view, uses);
  }
}

/// The ancestor of `op` in `block`.
Operation *inBlock(Operation *op, Block *block) { return block->findAncestorOpInBlock(*op); }

/// Whether one of `uses` (of a buffer and its views) is by an op other than a view after
/// `copy`, up to `op` included, or by one outside `op`'s block.
bool usedBetween(ArrayRef<OpOperand *> uses, Operation *copy, Operation *op) {
  Block *block = op->getBlock();
  for (OpOperand *use : uses) {
    if (viewOf(use->getOwner(), use->get()))
      continue;
    Operation *at = inBlock(use->getOwner(), block);
    if (!at || (copy->isBeforeInBlock(at) && !op->isBeforeInBlock(at)))
      return true;
  }
  return false;
}

/// A padded row input: its fill value, the copy of the source into its interior, the padding
/// before each dimension.
struct PaddedCopy {
  TypedAttr value;
  memref::CopyOp copy;
  SmallVector<int64_t> low;
};

/// Mechanism: `padded` (an alloc) as a padded copy read only by `op`: filled whole with a
/// constant, then a unit-stride interior view of it written by one memref.copy of a static,
/// unit-inner-stride buffer of the same rank that is not a view of it, all three in `op`'s
/// block.
std::optional<PaddedCopy> matchPaddedCopy(Value padded, Operation *op) {
  auto alloc = padded.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape())
    return std::nullopt;
  Block *block = op->getBlock();
  PaddedCopy result;
  linalg::FillOp fill;
  for (OpOperand &use : padded.getUses()) {
    Operation *user = use.getOwner();
    if (user == op || user->getBlock() != block)
      continue;
    if (auto f = dyn_cast<linalg::FillOp>(user); f && !fill) {
      fill = f;
      continue;
    }
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (!view || result.copy || !view->hasOneUse() || !view.hasUnitStride())
      return std::nullopt;
    auto copy = dyn_cast<memref::CopyOp>(*view->getUsers().begin());
    if (!copy || copy.getTarget() != view.getResult() || copy->getBlock() != block)
      return std::nullopt;
    for (OpFoldResult offset : view.getMixedOffsets()) {
      std::optional<int64_t> at = getConstantIntValue(offset);
      if (!at)
        return std::nullopt;
      result.low.push_back(*at);
    }
    result.copy = copy;
  }
  if (!fill || !result.copy || !matchPattern(fill.getInputs()[0], m_Constant(&result.value)) ||
      !fill->isBeforeInBlock(result.copy) || !result.copy->isBeforeInBlock(op))
    return std::nullopt;
  Value source = result.copy.getSource();
  auto type = dyn_cast<MemRefType>(source.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || !type.hasStaticShape() || type.getRank() != alloc.getType().getRank() ||
      failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1 ||
      rootAlloc(source) == alloc)
    return std::nullopt;
  return result;
}

/// Mechanism: keeps the source's alloc unwritten from `copy` to `op`: when a write between
/// them (the convolution's own output, which bufferization placed in the source's storage
/// once the copy was its last read) touches it, every use of the alloc after the copy moves
/// to a new alloc of its own (through copies of the views made before the copy that are used
/// after it). Fails (without changing anything) when a use is not in `op`'s block or nested
/// in one of its ops.
LogicalResult keepUnwritten(RewriterBase &rewriter, memref::AllocOp source, memref::CopyOp copy,
                            Operation *op) {
  Block *block = op->getBlock();
  if (source->getBlock() != block)
    return failure();
  SmallVector<OpOperand *> uses;
  collectUses(source.getResult(), uses);
  if (llvm::any_of(uses, [&](OpOperand *use) { return !inBlock(use->getOwner(), block); }))
    return failure();
  if (!usedBetween(uses, copy, op))
    return success();
  // Whether `v` (the alloc or a view of it) exists before the copy's position.
  auto before = [&](Value v) {
    Operation *def = v.getDefiningOp();
    Operation *at = def ? inBlock(def, block) : nullptr;
    return at && !copy->isBeforeInBlock(at);
  };
  rewriter.setInsertionPointAfter(copy);
  auto fresh = cast<memref::AllocOp>(rewriter.clone(*source));
  DenseMap<Value, Value> moved{{source.getResult(), fresh.getResult()}};
  std::function<Value(Value)> movedValue = [&](Value v) -> Value {
    if (auto it = moved.find(v); it != moved.end())
      return it->second;
    auto def = cast<ViewLikeOpInterface>(v.getDefiningOp());
    IRMapping mapping;
    mapping.map(def.getViewSource(), movedValue(def.getViewSource()));
    Value copyOfView = rewriter.clone(*def.getOperation(), mapping)->getResult(0);
    moved[v] = copyOfView;
    return copyOfView;
  };
  for (OpOperand *use : uses) {
    Operation *at = inBlock(use->getOwner(), block);
    if (at == fresh || !copy->isBeforeInBlock(at) || !before(use->get()))
      continue;
    Value replacement = movedValue(use->get());
    rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(replacement); });
  }
  return success();
}

/// Policy: which ops read their padded rows from the source: depthwise convolutions in
/// tlc-lower-convolutions' form (a generic with two inputs and reductions, the rows input 0
/// read through sums of loops in its last two dimensions), not already marked.
bool isDepthwiseWindow(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op->hasAttr(tlc::kPaddedSourceAttr) ||
      op.getNumLoops() != 6)
    return false;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (map.getNumResults() != 4 || map.getNumSymbols() != 0)
    return false;
  for (unsigned r = 0; r < 2; ++r)
    if (!isa<AffineDimExpr>(map.getResult(r)))
      return false;
  return !isa<AffineDimExpr>(map.getResult(2)) && !isa<AffineDimExpr>(map.getResult(3));
}

struct TLCReadUnpaddedRowsPass
    : tlc::impl::TLCReadUnpaddedRowsBase<TLCReadUnpaddedRowsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isDepthwiseWindow(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops) {
      Value padded = op.getDpsInputOperand(0)->get();
      std::optional<PaddedCopy> found = matchPaddedCopy(padded, op);
      if (!found)
        continue;
      Value source = found->copy.getSource();
      // A source that is not an alloc (an argument, maybe the caller's output) must not be
      // used between the copy and the convolution at all.
      memref::AllocOp sourceAlloc = rootAlloc(source);
      SmallVector<OpOperand *> argumentUses;
      if (!sourceAlloc)
        collectUses(tlc::rootBuffer(source), argumentUses);
      if (sourceAlloc ? failed(keepUnwritten(rewriter, sourceAlloc, found->copy, op))
                      : usedBetween(argumentUses, found->copy, op))
        continue;
      // The source joins as an input read at (n, c, 0, 0) by no block argument: the memory
      // plan keeps it live up to here, and tlc-tile-depthwise reads the rows from it.
      AffineMap rows = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
      MLIRContext *ctx = &getContext();
      AffineMap sourceMap = AffineMap::get(
          op.getNumLoops(), 0,
          {rows.getResult(0), rows.getResult(1), getAffineConstantExpr(0, ctx),
           getAffineConstantExpr(0, ctx)},
          ctx);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps.insert(maps.begin() + 2, sourceMap);
      rewriter.setInsertionPoint(op);
      auto marked = linalg::GenericOp::create(
          rewriter, op.getLoc(), TypeRange{},
          ValueRange{op.getDpsInputOperand(0)->get(), op.getDpsInputOperand(1)->get(), source},
          op.getDpsInits(), maps, op.getIteratorTypesArray());
      marked->setDiscardableAttrs(op->getDiscardableAttrDictionary());
      // The body, with the source's (unused) block argument after the two inputs'.
      Region &body = marked.getRegion();
      rewriter.inlineRegionBefore(op.getRegion(), body, body.end());
      Block &entry = body.front();
      entry.insertArgument(2u, getElementTypeOrSelf(source.getType()), op.getLoc());
      marked->setAttr(tlc::kPaddedSourceAttr,
                      rewriter.getDictionaryAttr(
                          {rewriter.getNamedAttr("source", rewriter.getI64IntegerAttr(2)),
                           rewriter.getNamedAttr("low", rewriter.getDenseI64ArrayAttr(found->low)),
                           rewriter.getNamedAttr("map", AffineMapAttr::get(rows)),
                           rewriter.getNamedAttr("value", found->value)}));
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
