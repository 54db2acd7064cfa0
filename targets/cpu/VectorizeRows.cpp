// tlc-vectorize-rows: linalg ops whose innermost loop walks contiguous rows to vector loops.
//
// The innermost loop of each qualifying op is strip-mined by the target's vector length. A
// reduction along it keeps several independent vector accumulators (hiding the combiner's
// latency; the unrolled steps are emitted op by op, interleaved, so a long body such as
// softmax's exp overlaps its dependence chains), folds them into one at the end of the row and
// reduces that horizontally into the output element; an elementwise innermost loop loads,
// computes and stores whole vectors. A reduction may also write a value per column (softmax's
// exp(x - max) beside their sum; its scaling in place beside the next row's maximum): such
// outputs are loaded (when the body reads them) and stored vector by vector in the same loop. The
// row's last partial vector is masked. Outer loops become scf.for loops around the row. Operands
// the innermost loop does not index (a per-row mean or maximum, a scalar) are read once per row
// and broadcast. The scalar body is cloned on vectors, so every elementwise-mappable body works
// (f16/bf16 bodies that extend to f32 included). An op marked kPrefetchNextRowAttr prefetches
// the next row of its row operands as it goes (RowEmitter.cpp, nextRowOf). A fill of
// contiguous memory becomes one fill of a collapsed 1-D view, a single loop for LLVM.
#include "passes/BufferFills.h"
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/RowEmitter.h"
#include "targets/cpu/VectorizeInterleaves.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

namespace tlc {
#define GEN_PASS_DEF_TLCVECTORIZEROWS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;
using tlc::RowPlan;

namespace {

bool isVectorizableScalar(Type t) {
  return (isa<FloatType>(t) || isa<IntegerType>(t)) && t.getIntOrFloatBitWidth() >= 8;
}

/// Whether output `init` of `op` holds a non-NaN value when `op` starts: the last write to it
/// is a linalg.fill with a non-NaN constant (lastFillOf).
bool initializedNotNaN(linalg::GenericOp op, unsigned init) {
  linalg::FillOp fill = tlc::lastFillOf(op, op.getDpsInitOperand(init)->get());
  FloatAttr value;
  return fill && matchPattern(fill.getInputs()[0], m_Constant(&value)) && !value.getValue().isNaN();
}

/// Replaces each fill of a static buffer whose elements are contiguous (any layout whose
/// strides allow collapsing all dimensions) by a fill of its collapsed 1-D view. The loop nest
/// of a [31, 961] fill (a pooling's output planes) was fully unrolled by LLVM, outer loop and
/// vectorized rows alike: 3,724 stores in one block, over which LLVM's machine scheduler took
/// 10 s; as one loop of 29,791 elements it stays a loop.
void collapseContiguousFills(Operation *root) {
  SmallVector<linalg::FillOp> fills;
  root->walk([&](linalg::FillOp op) {
    auto t = dyn_cast<MemRefType>(op.getOutputs()[0].getType());
    if (t && t.getRank() > 1 && t.hasStaticShape() &&
        memref::CollapseShapeOp::isGuaranteedCollapsible(
            t, {llvm::to_vector(llvm::seq<int64_t>(0, t.getRank()))}))
      fills.push_back(op);
  });
  for (linalg::FillOp fill : fills) {
    OpBuilder b(fill);
    Value out = fill.getOutputs()[0];
    SmallVector<ReassociationIndices> all = {
        llvm::to_vector(llvm::seq<int64_t>(0, cast<MemRefType>(out.getType()).getRank()))};
    Value flat = memref::CollapseShapeOp::create(b, fill.getLoc(), out, all);
    linalg::FillOp::create(b, fill.getLoc(), fill.getInputs()[0], flat);
    fill.erase();
  }
}

/// Reads each input of an elementwise op that a map indexes at constant positions (a
/// per-channel gate [1, C, 1, 1] read as (d0, d1, 0, 0)) through a rank-reducing subview that
/// drops those dimensions, so its map is a plain projection: upstream's loop collapsing
/// (collapseShortRows) takes no maps with constant results.
void dropConstantIndexedDims(Operation *root, RewriterBase &rewriter) {
  SmallVector<linalg::GenericOp> ops;
  root->walk([&](linalg::GenericOp op) {
    if (op.hasPureBufferSemantics() && op.getNumParallelLoops() == op.getNumLoops())
      ops.push_back(op);
  });
  for (linalg::GenericOp op : ops) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = maps[input->getOperandNumber()];
      auto type = dyn_cast<MemRefType>(input->get().getType());
      if (!type || map.getNumResults() == 0 ||
          llvm::none_of(map.getResults(), llvm::IsaPred<AffineConstantExpr>))
        continue;
      rewriter.setInsertionPoint(op);
      SmallVector<OpFoldResult> offsets, sizes, strides;
      SmallVector<AffineExpr> kept;
      SmallVector<int64_t> keptShape;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        strides.push_back(rewriter.getIndexAttr(1));
        if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
          offsets.push_back(rewriter.getIndexAttr(c.getValue()));
          sizes.push_back(rewriter.getIndexAttr(1));
          continue;
        }
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(memref::getMixedSize(rewriter, op.getLoc(), input->get(), i));
        kept.push_back(expr);
        keptShape.push_back(type.getDimSize(i));
      }
      auto reducedType = memref::SubViewOp::inferRankReducedResultType(keptShape, type, offsets,
                                                                       sizes, strides);
      Value view = memref::SubViewOp::create(rewriter, op.getLoc(), reducedType, input->get(),
                                             offsets, sizes, strides);
      rewriter.modifyOpInPlace(op, [&] { input->set(view); });
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), map.getNumSymbols(), kept, op.getContext());
      changed = true;
    }
    if (changed)
      rewriter.modifyOpInPlace(
          op, [&] { op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps)); });
  }
}

/// The first loop of the longest run of trailing loops [first, n) that every operand of `op`
/// either reads through its last results, in loop order, over dimensions that collapse into
/// one (contiguous), or does not read at all. n - 1 when there is none longer than one loop.
unsigned collapsibleSuffix(linalg::GenericOp op) {
  unsigned n = op.getNumLoops();
  unsigned first = n - 1;
  for (unsigned j = n - 1; j-- > 0;) {
    bool ok = true;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      unsigned reads = 0;
      for (AffineExpr expr : map.getResults())
        if (auto dim = dyn_cast<AffineDimExpr>(expr); dim && dim.getPosition() >= j)
          ++reads;
      if (reads == 0)
        continue;
      unsigned rank = map.getNumResults(), suffix = n - j;
      if (!type || reads != suffix || rank < suffix) {
        ok = false;
        break;
      }
      for (unsigned r = 0; r < suffix && ok; ++r) {
        auto dim = dyn_cast<AffineDimExpr>(map.getResult(rank - suffix + r));
        ok = dim && dim.getPosition() == j + r;
      }
      SmallVector<ReassociationIndices> groups;
      for (unsigned r = 0; r + suffix < rank; ++r)
        groups.push_back({static_cast<int64_t>(r)});
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(rank - suffix, rank)));
      if (!ok || !memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups)) {
        ok = false;
        break;
      }
    }
    if (!ok)
      break;
    first = j;
  }
  return first;
}

/// Replaces each elementwise loop nest whose rows are short (shorter than four vectors: a
/// convolution filter's [F, C, 3, 3] optimizer update walks rows of 3, a squeeze-and-excite
/// gate multiplies 7x7 or 14x14 planes, which stayed scalar code) by one whose row is the run
/// of trailing loops every operand walks contiguously or not at all (collapsibleSuffix): the
/// whole nest when every operand is contiguous and read through the identity, the planes of
/// [N, C, H, W] under a per-channel operand.
void collapseShortRows(Operation *root, RewriterBase &rewriter, int64_t lanes) {
  SmallVector<std::pair<linalg::GenericOp, unsigned>> nests;
  root->walk([&](linalg::GenericOp op) {
    if (!op.hasPureBufferSemantics() || op.getNumLoops() < 2 || op.hasIndexSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (ShapedType::isDynamic(ranges.back()) || ranges.back() >= 4 * lanes)
      return;
    unsigned first = collapsibleSuffix(op);
    if (first + 1 == op.getNumLoops() ||
        llvm::any_of(ArrayRef(ranges).drop_front(first), ShapedType::isDynamic))
      return;
    nests.push_back({op, first});
  });
  for (auto [op, first] : nests) {
    rewriter.setInsertionPoint(op);
    ReassociationIndices suffix = llvm::to_vector(llvm::seq<int64_t>(first, op.getNumLoops()));
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(cast<linalg::LinalgOp>(op.getOperation()), {suffix},
                                        rewriter);
    if (succeeded(collapsed))
      rewriter.eraseOp(op);
  }
}

/// Mechanism: whether `op` qualifies. Buffers, a static row length; every operand either indexes
/// the innermost loop in its last, unit-stride dimension (and nowhere else) or not at all; map
/// results are loop dimensions or constants; the body is elementwise-mappable scalar code; for
/// a reduction, each output is one recognized combiner applied to the accumulator.
std::optional<RowPlan> analyze(linalg::GenericOp op, int64_t lanes, int64_t minRow) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0)
    return std::nullopt;
  RowPlan plan;
  plan.inner = op.getNumLoops() - 1;
  // Only the row needs a static length (whole vectors, the masked tail); outer loops may run
  // to dynamic bounds, e.g. the last, shorter chunk tlc-parallelize-loops cuts.
  plan.extent = op.getStaticLoopRanges()[plan.inner];
  if (ShapedType::isDynamic(plan.extent))
    return std::nullopt;
  plan.reduction = op.getIteratorTypesArray()[plan.inner] == utils::IteratorType::reduction;
  if (!plan.reduction && plan.extent < (minRow > 0 ? minRow : lanes))
    return std::nullopt; // a short elementwise row: scalar code is as good
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !isVectorizableScalar(type.getElementType()))
      return std::nullopt;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    bool usesInner = false;
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        if (dim.getPosition() != plan.inner)
          continue;
        if (i + 1 != map.getNumResults())
          return std::nullopt; // the innermost loop walks a strided dimension
        usesInner = true;
      } else if (!isa<AffineConstantExpr>(expr)) {
        return std::nullopt;
      }
    }
    if (usesInner) {
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
        return std::nullopt;
    }
    plan.isVector.push_back(usesInner);
  }
  for (unsigned i = 0; i < op.getNumDpsInits(); ++i) {
    bool vectorOut = plan.isVector[op.getNumDpsInputs() + i];
    if (!plan.reduction) {
      if (!vectorOut)
        return std::nullopt;
      continue;
    }
    if (vectorOut) {
      // A per-column output of a reduction: each column's element is read (its value before
      // the op: softmax scales its row in place while taking the next row's maximum) and
      // written once, like an elementwise op's output; nothing is carried through it.
      plan.selectCombine.push_back(false);
      plan.kinds.push_back(vector::CombiningKind::ADD);
      plan.identities.push_back(TypedAttr());
      continue;
    }
    SmallVector<Operation *> combiners;
    if (!matchReduction(op.getRegionOutputArgs(), i, combiners) || combiners.size() != 1)
      return std::nullopt;
    std::optional<vector::CombiningKind> kind = linalg::getCombinerOpKind(combiners[0]);
    std::optional<TypedAttr> identity = arith::getNeutralElement(combiners[0]);
    if (!kind || !identity)
      return std::nullopt;
    // A maxnumf/minnumf reduction into a non-NaN initial value is combined by compare-and-
    // select (RowEmitter::numCombine), starting from -inf/+inf rather than the neutral NaN, which a
    // compare would never leave. With a NaN (or unknown) initial value that would turn an
    // all-NaN row's NaN into -inf/+inf, so such reductions keep maxnumf.
    bool select = isa<arith::MaxNumFOp, arith::MinNumFOp>(combiners[0]) && initializedNotNaN(op, i);
    if (select) {
      auto ft = cast<FloatType>(identity->getType());
      identity = FloatAttr::get(
          ft, APFloat::getInf(ft.getFloatSemantics(), isa<arith::MaxNumFOp>(combiners[0])));
    }
    plan.selectCombine.push_back(select);
    plan.kinds.push_back(*kind);
    plan.identities.push_back(*identity);
  }
  plan.prefetchNextRow = op->hasAttr(tlc::kPrefetchNextRowAttr) && op.getNumLoops() == 1;
  for (Operation &bodyOp : op.getBlock()->without_terminator()) {
    if (bodyOp.getNumRegions() != 0)
      return std::nullopt;
    bool constant = matchPattern(&bodyOp, m_Constant());
    if (!constant && !OpTrait::hasElementwiseMappableTraits(&bodyOp))
      return std::nullopt;
    // Integer division traps on the zero lanes of a masked tail (and x86 has no vector form).
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
            arith::CeilDivUIOp, arith::FloorDivSIOp>(bodyOp))
      return std::nullopt;
    for (Type t : llvm::concat<Type>(bodyOp.getOperandTypes(), bodyOp.getResultTypes()))
      if (!t.isIntOrFloat())
        return std::nullopt;
  }
  return plan;
}

struct TLCVectorizeRowsPass : tlc::impl::TLCVectorizeRowsBase<TLCVectorizeRowsPass> {
  using Base::Base;

  void runOnOperation() override {
    int64_t lanes = std::max<int64_t>(vectorBits / 32, 2);
    int64_t accs = std::max<int64_t>(accumulators, 1);
    // Copies on buffers (tlc-lower-memref-copy's, e.g. a convolution's padding copy and its
    // tiles' copy-out) are rows like any elementwise op: as generics they take the same
    // vector path (LLVM left their short rows as unrolled scalar moves).
    SmallVector<linalg::CopyOp> copies;
    getOperation().walk([&](linalg::CopyOp op) {
      if (op.hasPureBufferSemantics())
        copies.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      if (failed(linalg::generalizeNamedOp(rewriter, copy)))
        return signalPassFailure();
    }
    // Transposes that split or merge rows of element pairs: shuffles of whole vectors.
    SmallVector<std::pair<linalg::TransposeOp, tlc::PairTranspose>> pairs;
    getOperation().walk([&](linalg::TransposeOp op) {
      if (std::optional<tlc::PairTranspose> pair = tlc::matchPairTranspose(op))
        pairs.push_back({op, *pair});
    });
    for (auto &[op, pair] : pairs)
      tlc::vectorizePairTranspose(rewriter, op, pair, lanes);
    // Transposes that move the input's inner dimension (also as permuting copies, e.g. an
    // einsum "ad->da"): register tiles of lanes x lanes.
    SmallVector<std::pair<linalg::TransposeOp, tlc::BlockedTranspose>> blocked;
    getOperation().walk([&](linalg::TransposeOp op) {
      if (std::optional<tlc::BlockedTranspose> t = tlc::matchBlockedTranspose(op, lanes))
        blocked.push_back({op, *t});
    });
    // Permuting copies that take the tiles become the transposes they are (the others stay
    // generics for the row path).
    SmallVector<std::tuple<linalg::GenericOp, SmallVector<int64_t>, tlc::BlockedTranspose>>
        permutingCopies;
    getOperation().walk([&](linalg::GenericOp op) {
      std::optional<SmallVector<int64_t>> perm = tlc::matchPermutingCopy(op);
      if (!perm)
        return;
      Value in = op.getDpsInputs()[0], out = op.getDpsInits()[0];
      if (std::optional<tlc::BlockedTranspose> t = tlc::matchBlockedTranspose(
              cast<MemRefType>(in.getType()), cast<MemRefType>(out.getType()), *perm, lanes))
        permutingCopies.push_back({op, std::move(*perm), *t});
    });
    for (auto &[op, perm, t] : permutingCopies) {
      rewriter.setInsertionPoint(op);
      blocked.push_back({linalg::TransposeOp::create(rewriter, op.getLoc(), op.getDpsInputs()[0],
                                                     op.getDpsInits()[0], perm),
                         t});
      rewriter.eraseOp(op);
    }
    for (auto &[op, t] : blocked)
      tlc::vectorizeBlockedTranspose(rewriter, op, t, lanes);
    dropConstantIndexedDims(getOperation(), rewriter);
    collapseShortRows(getOperation(), rewriter, lanes);
    SmallVector<std::pair<linalg::GenericOp, RowPlan>, 4> work;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<RowPlan> plan = analyze(op, lanes, minRow))
        work.push_back({op, std::move(*plan)});
    });
    for (auto &[op, plan] : work) {
      OpBuilder b(op);
      tlc::emitVectorRows(b, op, plan, lanes, accs);
      op->erase();
    }
    // Last: the row ops above may have looked for their outputs' fills (initializedNotNaN).
    collapseContiguousFills(getOperation());
  }
};

} // namespace
