// Transposes that move the input's innermost dimension elsewhere (a matrix transpose, the
// k-major operand of a weight gradient, "ad->da") as register tiles: `lanes` input rows loaded
// as vectors, transposed in registers (vector.transpose lowered to shuffles), stored as
// `lanes` output rows. As loops every element was a strided scalar access (1024x512 f32 at
// 1.8 GB/s on a 2.6 GHz Xeon). The edges a whole tile does not cover stay linalg.transposes
// of subviews, for the loop path.
#include "targets/cpu/VectorizeInterleaves.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

bool unitStrideInner(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) && strides.back() == 1;
}

/// `view` restricted to [start, end) along dimension `dim`.
Value restrict(OpBuilder &b, Location loc, Value view, int64_t dim, int64_t start, int64_t end) {
  auto type = cast<MemRefType>(view.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), strides(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, view);
  offsets[dim] = b.getIndexAttr(start);
  sizes[dim] = b.getIndexAttr(end - start);
  return memref::SubViewOp::create(b, loc, view, offsets, sizes, strides);
}

} // namespace

std::optional<SmallVector<int64_t>> tlc::matchPermutingCopy(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  AffineMap inMap = op.getIndexingMapsArray()[0], outMap = op.getIndexingMapsArray()[1];
  if (!outMap.isIdentity() || !inMap.isPermutation() || inMap.isIdentity())
    return std::nullopt;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 || yield.getValues()[0] != body.getArgument(0))
    return std::nullopt;
  // Output dimension d is loop d; input dimension k is loop inMap(k): d comes from the input
  // dimension that inMap sends to d.
  SmallVector<int64_t> perm(inMap.getNumResults());
  for (unsigned k = 0; k < inMap.getNumResults(); ++k)
    perm[inMap.getDimPosition(k)] = k;
  return perm;
}

std::optional<tlc::BlockedTranspose> tlc::matchBlockedTranspose(MemRefType inType,
                                                                MemRefType outType,
                                                                ArrayRef<int64_t> perm,
                                                                int64_t lanes) {
  int64_t rank = inType.getRank();
  Type et = inType.getElementType();
  if (lanes < 2 || rank < 2 || !et.isIntOrFloat() || et.getIntOrFloatBitWidth() != 32)
    return std::nullopt;
  BlockedTranspose t;
  t.outRow = llvm::find(perm, rank - 1) - perm.begin(); // output dim of the input's rows
  t.inRow = perm[rank - 1];                             // input dim of the output's rows
  if (t.outRow == rank - 1 || !unitStrideInner(inType) || !unitStrideInner(outType) ||
      outType.isDynamicDim(t.outRow) || outType.isDynamicDim(rank - 1))
    return std::nullopt;
  t.rows = outType.getDimSize(t.outRow);
  t.cols = outType.getDimSize(rank - 1);
  if (t.rows < lanes || t.cols < lanes)
    return std::nullopt;
  return t;
}

std::optional<tlc::BlockedTranspose> tlc::matchBlockedTranspose(linalg::TransposeOp op,
                                                                int64_t lanes) {
  if (!op.hasPureBufferSemantics())
    return std::nullopt;
  return matchBlockedTranspose(cast<MemRefType>(op.getInput().getType()),
                               cast<MemRefType>(op.getInit().getType()), op.getPermutation(),
                               lanes);
}

void tlc::vectorizeBlockedTranspose(RewriterBase &rewriter, linalg::TransposeOp op,
                                    const BlockedTranspose &t, int64_t lanes) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value in = op.getInput(), out = op.getInit();
  auto inType = cast<MemRefType>(in.getType());
  int64_t rank = inType.getRank();
  ArrayRef<int64_t> perm = op.getPermutation();
  Type et = inType.getElementType();
  int64_t fullRows = t.rows / lanes * lanes, fullCols = t.cols / lanes * lanes;
  auto index = [&](OpBuilder &b, int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };

  // Loops: every other output dimension (whole), then tiles of lanes x lanes over the output's
  // rows (t.outRow, the input's inner dimension) and columns (its inner dimension).
  SmallVector<int64_t> loopDims;
  for (int64_t d = 0; d < rank; ++d)
    if (d != t.outRow && d != rank - 1)
      loopDims.push_back(d);
  SmallVector<Value> lbs, ubs, steps;
  tlc::wholeDimensionLoops(rewriter, loc, out, loopDims, lbs, ubs, steps);
  loopDims.append({t.outRow, rank - 1});
  lbs.append({index(rewriter, 0), index(rewriter, 0)});
  ubs.append({index(rewriter, fullRows), index(rewriter, fullCols)});
  steps.append({index(rewriter, lanes), index(rewriter, lanes)});
  auto row = VectorType::get({lanes}, et), tile = VectorType::get({lanes, lanes}, et);
  SmallVector<Operation *> transposes;
  scf::buildLoopNest(rewriter, loc, lbs, ubs, steps, [&](OpBuilder &b, Location l, ValueRange ivs) {
    SmallVector<Value> outIdx(rank), inIdx(rank);
    for (auto [d, iv] : llvm::zip_equal(loopDims, ivs)) {
      outIdx[d] = iv;
      inIdx[perm[d]] = iv;
    }
    // Input rows: the output's columns j0 + r, each `lanes` along the input's inner dimension.
    Value block = ub::PoisonOp::create(b, l, tile);
    Value col0 = outIdx[rank - 1];
    for (int64_t r = 0; r < lanes; ++r) {
      SmallVector<Value> at = inIdx;
      at[t.inRow] = arith::AddIOp::create(b, l, col0, index(b, r));
      Value v = vector::LoadOp::create(b, l, row, in, at);
      block = vector::InsertOp::create(b, l, v, block, r);
    }
    auto flipped = vector::TransposeOp::create(b, l, block, ArrayRef<int64_t>{1, 0});
    transposes.push_back(flipped);
    Value row0 = outIdx[t.outRow];
    for (int64_t c = 0; c < lanes; ++c) {
      SmallVector<Value> at = outIdx;
      at[t.outRow] = arith::AddIOp::create(b, l, row0, index(b, c));
      Value v = vector::ExtractOp::create(b, l, flipped, c);
      vector::StoreOp::create(b, l, v, out, at);
    }
  });
  // The edges: the remaining rows (all columns), then the remaining columns of the full rows.
  // Output dimension t.outRow is the input's inner one.
  if (fullRows < t.rows)
    linalg::TransposeOp::create(rewriter, loc,
                                restrict(rewriter, loc, in, rank - 1, fullRows, t.rows),
                                restrict(rewriter, loc, out, t.outRow, fullRows, t.rows), perm);
  if (fullCols < t.cols) {
    Value inRows = restrict(rewriter, loc, in, rank - 1, 0, fullRows);
    Value outRows = restrict(rewriter, loc, out, t.outRow, 0, fullRows);
    linalg::TransposeOp::create(rewriter, loc,
                                restrict(rewriter, loc, inRows, t.inRow, fullCols, t.cols),
                                restrict(rewriter, loc, outRows, rank - 1, fullCols, t.cols), perm);
  }
  rewriter.eraseOp(op);
  // 16 x 16 of 32 bits: the unpack/shuffle network for AVX-512; otherwise one shuffle of the
  // flattened tile, which LLVM lowers to the target's shuffles.
  RewritePatternSet patterns(rewriter.getContext());
  vector::populateVectorTransposeLoweringPatterns(
      patterns, lanes == 16 ? vector::VectorTransposeLowering::Shuffle16x16
                            : vector::VectorTransposeLowering::Shuffle1D);
  (void)applyOpPatternsGreedily(transposes, std::move(patterns));
}
