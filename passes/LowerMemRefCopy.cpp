// tlc-lower-memref-copy: memref.copy as linalg.copy, which lowers to loops for any layout. A
// copy (or any op that writes every element of its output without reading it, such as a
// convolution's BatchNorm and ReLU written into the next one's padded input) into part of a
// buffer that was filled whole right before (a padded input: the pad value, then the image
// into the interior) makes the fill cover only the rest.
#include "passes/BufferFills.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tlc {
#define GEN_PASS_DEF_TLCLOWERMEMREFCOPY
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Whether `op` writes every element of its one output and reads none of it: all loops
/// parallel, the output through a permutation, its value unused by the body (a copy, an
/// elementwise op into a fresh buffer).
bool overwritesOutput(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() || op->getNumRegions() != 1)
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  return op.getMatchingIndexingMap(init).isPermutation() &&
         op.getMatchingBlockArgument(init).use_empty();
}

/// The fill of all of `interior`'s source right before `at` (lastFillOf: only ops without
/// memory effects or fills of other allocations between), when `writer` (`at` itself, or the
/// first writer in a loop `at` whose iterations together write all of `interior`) overwrites
/// its output and reads no input from that buffer, and `interior` is a static, unit-stride,
/// rank-preserving subview; null otherwise.
linalg::FillOp fillAround(linalg::LinalgOp writer, Operation *at, memref::SubViewOp interior) {
  if (!interior || !interior.hasUnitStride() ||
      interior.getSourceType().getRank() != interior.getType().getRank() ||
      !interior.getSourceType().hasStaticShape() || !overwritesOutput(writer))
    return {};
  for (int64_t v : interior.getStaticOffsets())
    if (ShapedType::isDynamic(v))
      return {};
  for (int64_t v : interior.getStaticSizes())
    if (ShapedType::isDynamic(v))
      return {};
  for (Value input : writer.getDpsInputs())
    if (isa<BaseMemRefType>(input.getType()) && tlc::mayOverlap(input, interior.getSource()))
      return {};
  linalg::FillOp fill = tlc::lastFillOf(at, interior.getSource());
  return fill && fill.getDpsInitOperand(0)->get() == interior.getSource() ? fill : linalg::FillOp();
}

/// The fill of all of `interior`'s source right before `writer`, which overwrites all of it.
linalg::FillOp fillAround(linalg::LinalgOp writer, memref::SubViewOp interior) {
  return fillAround(writer, writer, interior);
}

/// The interior a loop overwrites row by row (tlc-lower-convolutions' pointwise rows: a 1x1
/// convolution writing the next convolution's padded input, each iteration filling its
/// output row before accumulating into it): an scf.forall over [0, n) whose body's first
/// memory-writing op overwrites (overwritesOutput, no inputs from that buffer) a subview of
/// the static interior that is whole but for one dimension, where it is one element at the
/// loop's index and the interior is n long. Returns the interior and the fill of all of its
/// buffer right before the loop (fillAround); nulls otherwise.
std::pair<linalg::FillOp, memref::SubViewOp> fillAroundRows(scf::ForallOp loop) {
  if (loop.getRank() != 1 || !loop.isNormalized() ||
      ShapedType::isDynamic(loop.getStaticUpperBound()[0]))
    return {};
  int64_t rows = loop.getStaticUpperBound()[0];
  Value index = loop.getInductionVar(0);
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isMemoryEffectFree(&op) && op.getNumRegions() == 0)
      continue;
    auto writer = dyn_cast<linalg::LinalgOp>(&op);
    if (!writer || writer.getNumDpsInits() != 1)
      return {};
    auto row = writer.getDpsInitOperand(0)->get().getDefiningOp<memref::SubViewOp>();
    if (!row || !row.hasUnitStride())
      return {};
    auto interior = row.getSource().getDefiningOp<memref::SubViewOp>();
    if (!interior || row.getSourceType().getRank() != row.getType().getRank())
      return {};
    ArrayRef<int64_t> full = row.getSourceType().getShape();
    int64_t along = -1;
    for (auto [d, offset, size] :
         llvm::enumerate(row.getMixedOffsets(), row.getMixedSizes())) {
      std::optional<int64_t> constantSize = getConstantIntValue(size);
      if (getConstantIntValue(offset) == 0 && constantSize == full[d])
        continue;
      if (along >= 0 || offset.dyn_cast<Value>() != index || constantSize != 1 ||
          full[d] != rows)
        return {};
      along = d;
    }
    if (along < 0)
      return {};
    linalg::FillOp fill = fillAround(writer, loop, interior);
    return {fill, fill ? interior : memref::SubViewOp()};
  }
  return {};
}

/// Policy: a slab of more rows (elements of all but its innermost dimension) than this is
/// filled in a loop LLVM keeps (slab-loops).
constexpr int64_t kSlabLoopMinRows = 16;

/// Fills `slab` (static shape) with `value` in an scf.for over its outermost dimension longer
/// than one, which LLVM is told not to unroll; one fill of a slice per iteration.
void fillInLoop(OpBuilder &b, Location loc, Value value, Value slab) {
  auto type = cast<MemRefType>(slab.getType());
  int64_t rank = type.getRank();
  int64_t dim = 0;
  while (type.getDimSize(dim) == 1)
    ++dim;
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim));
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, lower, upper, step);
  MLIRContext *ctx = b.getContext();
  auto noUnroll = LLVM::LoopUnrollAttr::get(ctx, /*disable=*/b.getBoolAttr(true), {}, {}, {}, {},
                                            {}, {});
  loop->setAttr("loop_annotation",
                LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, noUnroll, {}, {}, {}, {}, {}, {},
                                              {}, {}, {}, {}, {}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  SmallVector<OpFoldResult> at(rank, b.getIndexAttr(0)), size, strides(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    size.push_back(b.getIndexAttr(d == dim ? 1 : type.getDimSize(d)));
  at[dim] = loop.getInductionVar();
  Value slice = memref::SubViewOp::create(b, loc, slab, at, size, strides);
  linalg::FillOp::create(b, loc, value, slice);
}

/// Mechanism: `fill` of the whole buffer as fills of the slabs around `interior` (for each
/// dimension, the parts before and after the interior, within the interior along the
/// dimensions before it and whole along those after), which the copy then completes; with
/// `slabLoops`, a slab of many rows in a loop (fillInLoop).
void fillOnlyAround(OpBuilder &b, linalg::FillOp fill, memref::SubViewOp interior,
                    bool slabLoops) {
  ArrayRef<int64_t> full = interior.getSourceType().getShape();
  ArrayRef<int64_t> offsets = interior.getStaticOffsets(), sizes = interior.getStaticSizes();
  int64_t rank = full.size();
  b.setInsertionPoint(fill);
  auto fillSlab = [&](int64_t dim, int64_t from, int64_t extent) {
    if (extent <= 0)
      return;
    SmallVector<OpFoldResult> at, size, strides(rank, b.getIndexAttr(1));
    int64_t rows = 1; // the slab's elements along all but its innermost dimension
    for (int64_t d = 0; d < rank; ++d) {
      int64_t o = d < dim ? offsets[d] : d == dim ? from : 0;
      int64_t s = d < dim ? sizes[d] : d == dim ? extent : full[d];
      at.push_back(b.getIndexAttr(o));
      size.push_back(b.getIndexAttr(s));
      if (d + 1 < rank)
        rows *= s;
    }
    Value slab =
        memref::SubViewOp::create(b, fill.getLoc(), interior.getSource(), at, size, strides);
    if (slabLoops && rows > kSlabLoopMinRows)
      fillInLoop(b, fill.getLoc(), fill.getInputs()[0], slab);
    else
      linalg::FillOp::create(b, fill.getLoc(), fill.getInputs()[0], slab);
  };
  for (int64_t d = 0; d < rank; ++d) {
    fillSlab(d, 0, offsets[d]);
    fillSlab(d, offsets[d] + sizes[d], full[d] - offsets[d] - sizes[d]);
  }
  fill.erase();
}

struct TLCLowerMemRefCopyPass : tlc::impl::TLCLowerMemRefCopyBase<TLCLowerMemRefCopyPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    // Unranked copies have no loop nest; they stay memref.copy.
    getOperation().walk([&](memref::CopyOp op) {
      if (isa<MemRefType>(op.getSource().getType()) && isa<MemRefType>(op.getTarget().getType()))
        copies.push_back(op);
    });
    OpBuilder b(&getContext());
    for (memref::CopyOp copy : copies) {
      b.setInsertionPoint(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(), copy.getTarget());
      copy.erase();
    }
    SmallVector<std::pair<linalg::FillOp, memref::SubViewOp>> padded;
    getOperation().walk([&](linalg::LinalgOp writer) {
      if (isa<linalg::FillOp>(writer) || writer.getNumDpsInits() != 1)
        return;
      auto interior = writer.getDpsInitOperand(0)->get().getDefiningOp<memref::SubViewOp>();
      if (linalg::FillOp fill = fillAround(writer, interior))
        padded.push_back({fill, interior});
    });
    getOperation().walk([&](scf::ForallOp loop) {
      if (auto [fill, interior] = fillAroundRows(loop); fill)
        padded.push_back({fill, interior});
    });
    for (auto [fill, interior] : padded)
      fillOnlyAround(b, fill, interior, slabLoops);
  }
};

} // namespace
