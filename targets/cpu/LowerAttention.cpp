// tl-lower-attention: tl.attention to a tiled online-softmax (flash attention) loop nest.
//
// For every batch index and every block of `br` query rows, the kernel walks the keys in blocks
// of `bc`, keeping per row a running maximum `m`, a running sum `l` of exp(score - m) and an
// unnormalized output accumulator `acc` ([br, Dv]); each key block rescales them by
// exp(m_old - m_new). The Sq x Sk scores are never formed: extra memory is O(br * bc +
// br * (D + Dv)) per batch index, plus the batch index's keys transposed once (Sk * D). Tiles
// are static: a sequence length that is not a multiple of its tile gets one more, smaller
// block after the loop (the same code at the remainder's size). Everything inside the loops is
// linalg on tiles, so codegen improvements to linalg contractions and elementwise ops apply to
// the kernel unchanged.
#include "passes/LinalgBuilders.h"
#include "targets/cpu/CPUPasses.h"

#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tlc {
#define GEN_PASS_DEF_TLLOWERATTENTION
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;
namespace s = tlc::tl::scalar;

namespace {

/// Builds one tl.attention as the loop nest, step by step from the batch loop (build) down to
/// one key block (keyBlock); holds the state of the lowering: shapes, tile sizes, loop-invariant
/// constants.
struct AttentionKernel {
  tl::AttentionOp op;
  PatternRewriter &rewriter;
  Location loc;
  Type et;
  int64_t rank, numBatch, sq, d, sk, dv;
  int64_t br, bc;     // full tile sizes
  int64_t rows, cols; // the tile being built: br or the query remainder, bc or the key one
  Value cZero, cOne, cQFull, cKFull, cBr, cBc, fZero, fNegInf;
  SmallVector<Value> batchIvs;
  Value keysT;          // [Sk / bc, D, bc]: the batch index's full key blocks, transposed
  Value keysTRemainder; // [D, Sk % bc]: its partial last key block, transposed
  MLIRContext *ctx;

  AttentionKernel(tl::AttentionOp op, AttentionTiling tiling, PatternRewriter &rewriter)
      : op(op), rewriter(rewriter), loc(op.getLoc()), ctx(op.getContext()) {
    RankedTensorType q = op.getQuery().getType();
    et = q.getElementType();
    rank = q.getRank();
    numBatch = rank - 2;
    sq = q.getDimSize(rank - 2);
    d = q.getDimSize(rank - 1);
    sk = op.getKey().getType().getDimSize(rank - 2);
    dv = op.getValue().getType().getDimSize(rank - 1);
    br = rows = std::min(sq, std::max<int64_t>(tiling.blockQ, 1));
    bc = cols = std::min(sk, std::max<int64_t>(tiling.blockK, 1));
    auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
    cZero = index(0);
    cOne = index(1);
    cQFull = index(sq / br * br);
    cKFull = index(sk / bc * bc);
    cBr = index(br);
    cBc = index(bc);
    fZero = s::constant(rewriter, loc, et, 0.0);
    fNegInf = arith::ConstantOp::create(
        rewriter, loc,
        FloatAttr::get(et, APFloat::getInf(cast<FloatType>(et).getFloatSemantics(), true)));
  }

  RankedTensorType tile(ArrayRef<int64_t> shape) { return RankedTensorType::get(shape, et); }
  AffineMap identity(unsigned n) { return AffineMap::getMultiDimIdentityMap(n, ctx); }
  AffineMap rowMap() { // (i, j) -> (i)
    return AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx);
  }

  Value filled(OpBuilder &b, ArrayRef<int64_t> shape, Value v) {
    Value empty = tensor::EmptyOp::create(b, loc, shape, et);
    return linalg::FillOp::create(b, loc, v, empty).getResult(0);
  }

  /// A [rows, cols] tile of the rank-`rank` tensor `source` at the current batch index.
  Value extractTile(OpBuilder &b, Value source, OpFoldResult rowStart, int64_t rows,
                    int64_t cols) {
    SmallVector<OpFoldResult> offsets(batchIvs.begin(), batchIvs.end()), sizes, strides;
    offsets.append({rowStart, b.getIndexAttr(0)});
    sizes.assign(numBatch, b.getIndexAttr(1));
    sizes.append({b.getIndexAttr(rows), b.getIndexAttr(cols)});
    strides.assign(rank, b.getIndexAttr(1));
    return tensor::ExtractSliceOp::create(b, loc, tile({rows, cols}), source, offsets, sizes,
                                          strides);
  }

  /// The mask's block for the scores tile at (qStart, kStart), and its map from the tile's
  /// (i, j): broadcast (size-1) mask axes stay size 1 and are read at index 0.
  std::pair<Value, AffineMap> maskTile(OpBuilder &b, Value mask, Value qStart, Value kStart) {
    auto type = cast<RankedTensorType>(mask.getType());
    int64_t mr = type.getRank();
    if (mr == 0)
      return {mask, AffineMap::get(2, 0, {}, ctx)};
    SmallVector<OpFoldResult> offsets, sizes, strides(mr, b.getIndexAttr(1));
    SmallVector<int64_t> tileShape;
    SmallVector<AffineExpr> exprs;
    for (int64_t a = 0; a < mr; ++a) {
      int64_t axis = a + (rank - mr); // the scores axis this mask axis lines up with
      bool broadcast = type.getDimSize(a) == 1;
      if (axis < numBatch) {
        offsets.push_back(broadcast ? OpFoldResult(b.getIndexAttr(0))
                                    : OpFoldResult(batchIvs[axis]));
        sizes.push_back(b.getIndexAttr(1));
        continue;
      }
      bool isQuery = axis == rank - 2;
      int64_t extent = broadcast ? 1 : (isQuery ? rows : cols);
      offsets.push_back(broadcast ? OpFoldResult(b.getIndexAttr(0))
                                  : OpFoldResult(isQuery ? qStart : kStart));
      sizes.push_back(b.getIndexAttr(extent));
      tileShape.push_back(extent);
      exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                : getAffineDimExpr(isQuery ? 0 : 1, ctx));
    }
    Value slice =
        tensor::ExtractSliceOp::create(b, loc, tile(tileShape), mask, offsets, sizes, strides);
    return {slice, AffineMap::get(2, 0, exprs, ctx)};
  }

  /// exp(expScale * x - m[i]) over each row x of the [rows, cols] tile, in place. Each row is
  /// a 1-D linalg op marked as a register tile, so tlc-vectorize turns it into full-width
  /// vector code (the polynomial exp included); as one 2-D loop nest LLVM leaves it scalar
  /// (the tile and m are views of the same arena, so it cannot rule out aliasing).
  Value expRows(OpBuilder &b, Value tileValue, Value m, double expScale) {
    auto loop = scf::ForOp::create(
        b, loc, cZero, arith::ConstantIndexOp::create(b, loc, rows), cOne,
        ValueRange{tileValue}, [&](OpBuilder &nb, Location, Value i, ValueRange args) {
          SmallVector<OpFoldResult> offsets = {i, nb.getIndexAttr(0)},
                                    sizes = {nb.getIndexAttr(1), nb.getIndexAttr(cols)},
                                    strides = {nb.getIndexAttr(1), nb.getIndexAttr(1)};
          Value row = tensor::ExtractSliceOp::create(nb, loc, tile({cols}), args[0], offsets,
                                                     sizes, strides);
          Value mi = tensor::ExtractOp::create(nb, loc, m, ValueRange{i});
          auto exp = linalg::GenericOp::create(
              nb, loc, row.getType(), ValueRange{}, ValueRange{row}, {identity(1)},
              {utils::IteratorType::parallel},
              [&](OpBuilder &eb, Location lc, ValueRange a) {
                Value x = a[0];
                if (expScale != 1.0)
                  x = s::mul(eb, lc, x, s::constant(eb, lc, et, expScale));
                linalg::YieldOp::create(eb, lc, s::exp(eb, lc, s::sub(eb, lc, x, mi)));
              });
          exp->setAttr("tlc.register_tile", UnitAttr::get(ctx));
          Value updated = tensor::InsertSliceOp::create(nb, loc, exp.getResult(0), args[0],
                                                        offsets, sizes, strides);
          scf::YieldOp::create(nb, loc, updated);
        });
    return loop.getResult(0);
  }

  /// Reduces each row of the [rows, cols] tile into `acc` ([rows]) with `combine`, row by row:
  /// each row is a 1-D reduction marked as a register tile, which tlc-vectorize turns into
  /// vector code and one horizontal reduction (a 2-D reduction into a buffer row stays scalar).
  Value reduceRows(OpBuilder &b, Value tileValue, Value acc,
                   function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
    auto loop = scf::ForOp::create(
        b, loc, cZero, arith::ConstantIndexOp::create(b, loc, rows), cOne, ValueRange{acc},
        [&](OpBuilder &nb, Location, Value i, ValueRange args) {
          Value row = tensor::ExtractSliceOp::create(
              nb, loc, tile({cols}), tileValue, ArrayRef<OpFoldResult>{i, nb.getIndexAttr(0)},
              ArrayRef<OpFoldResult>{nb.getIndexAttr(1), nb.getIndexAttr(cols)},
              ArrayRef<OpFoldResult>{nb.getIndexAttr(1), nb.getIndexAttr(1)});
          SmallVector<OpFoldResult> offsets = {i}, sizes = {nb.getIndexAttr(1)},
                                    strides = {nb.getIndexAttr(1)};
          Value element = tensor::ExtractSliceOp::create(nb, loc, tile({}), args[0], offsets,
                                                         sizes, strides);
          auto reduce = linalg::GenericOp::create(
              nb, loc, element.getType(), ValueRange{row}, ValueRange{element},
              {identity(1), AffineMap::get(1, 0, {}, ctx)}, {utils::IteratorType::reduction},
              [&](OpBuilder &rb, Location lc, ValueRange a) {
                linalg::YieldOp::create(rb, lc, combine(rb, lc, a[1], a[0]));
              });
          reduce->setAttr("tlc.register_tile", UnitAttr::get(ctx));
          Value updated = tensor::InsertSliceOp::create(nb, loc, reduce.getResult(0), args[0],
                                                        offsets, sizes, strides);
          scf::YieldOp::create(nb, loc, updated);
        });
    return loop.getResult(0);
  }

  /// The keys [kStart, kStart + cols) transposed, [D, cols]: a full block of keysT, or the
  /// partial last one.
  Value transposedKeys(OpBuilder &b, Value kStart) {
    if (cols != bc)
      return keysTRemainder;
    Value block = arith::DivUIOp::create(b, loc, kStart, cBc);
    return tensor::ExtractSliceOp::create(
        b, loc, tile({d, bc}), keysT,
        ArrayRef<OpFoldResult>{block, b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(d), b.getIndexAttr(bc)},
        ArrayRef<OpFoldResult>(SmallVector<OpFoldResult>(3, b.getIndexAttr(1))));
  }

  /// Without a mask a positive scale goes into the exponent instead of onto the scores
  /// (max(scale s) = scale max(s)), saving a pass over the scores tile. (Not into Q: a scaling
  /// generic on Q would be fused into the scores contraction, which then no longer reaches the
  /// register-tiled contraction path.)
  bool scaleInExponent() {
    return !op.getMask() && !op.getCausal() && op.getScale().convertToDouble() > 0.0;
  }

  /// Scale, mask and causal masking, in place on the scores tile at (qStart, kStart).
  Value scaleAndMask(OpBuilder &b, Value scores, Value qStart, Value kStart) {
    bool hasMask = static_cast<bool>(op.getMask()), causal = op.getCausal();
    double scale = op.getScale().convertToDouble();
    SmallVector<Value> ins;
    SmallVector<AffineMap> maps;
    if (hasMask) {
      auto [t, map] = maskTile(b, op.getMask(), qStart, kStart);
      ins.push_back(t);
      maps.push_back(map);
    }
    maps.push_back(identity(2));
    return linalg::GenericOp::create(
               b, loc, scores.getType(), ins, ValueRange{scores}, maps,
               SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value v = s::mul(nb, l, args.back(), s::constant(nb, l, et, scale));
                 if (hasMask)
                   v = s::add(nb, l, v, args[0]);
                 if (causal) {
                   Value i =
                       arith::AddIOp::create(nb, l, linalg::IndexOp::create(nb, l, 0), qStart);
                   Value j =
                       arith::AddIOp::create(nb, l, linalg::IndexOp::create(nb, l, 1), kStart);
                   Value future = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ugt, j, i);
                   v = arith::SelectOp::create(nb, l, future, fNegInf, v);
                 }
                 linalg::YieldOp::create(nb, l, v);
               })
        .getResult(0);
  }

  /// The online softmax's statistics after one more scores tile: the running maximum m_new,
  /// the factor alpha = exp(m_old - m_new) that rescales earlier blocks, and the running sum
  /// rescaled by it, in one pass over the rows.
  struct RowStatistics {
    Value m, alpha, lScaled;
  };
  RowStatistics updateRowStatistics(OpBuilder &b, Value scores, Value m, Value l,
                                    double expScale) {
    // maxnumf, not maximumf: a NaN-propagating maximum makes LLVM reduce each row with a
    // scalar compare-and-select chain; with maxnumf it is a tree of vector max instructions.
    // (A NaN score still reaches the output: exp(NaN - m) is NaN.)
    auto maxOf = [](OpBuilder &nb, Location l, Value a, Value x) -> Value {
      return arith::MaxNumFOp::create(nb, l, a, x);
    };
    Value rowMax = reduceRows(b, scores, filled(b, {rows}, fNegInf), maxOf);
    Value alphaInit = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows}, et);
    auto update = linalg::GenericOp::create(
        b, loc, TypeRange{m.getType(), alphaInit.getType(), l.getType()}, ValueRange{rowMax},
        ValueRange{m, alphaInit, l}, SmallVector<AffineMap>(4, identity(1)),
        {utils::IteratorType::parallel}, [&](OpBuilder &nb, Location lc, ValueRange args) {
          Value rowMaxScaled = args[0];
          if (expScale != 1.0)
            rowMaxScaled = s::mul(nb, lc, args[0], s::constant(nb, lc, et, expScale));
          Value mNew = s::max(nb, lc, args[1], rowMaxScaled);
          Value alpha = s::exp(nb, lc, s::sub(nb, lc, args[1], mNew));
          linalg::YieldOp::create(nb, lc,
                                  ValueRange{mNew, alpha, s::mul(nb, lc, args[3], alpha)});
        });
    // A register tile, so its exp is evaluated on vectors (one per row otherwise).
    update->setAttr("tlc.register_tile", UnitAttr::get(ctx));
    return {update.getResult(0), update.getResult(1), update.getResult(2)};
  }

  /// tile[i, j] = combine(tile[i, j], perRow[i]) in place, over a 2-D tile.
  Value combineRows(OpBuilder &b, Value tileValue, Value perRow,
                    Value (*combine)(OpBuilder &, Location, Value, Value)) {
    return linalg::GenericOp::create(
               b, loc, tileValue.getType(), ValueRange{perRow}, ValueRange{tileValue},
               {rowMap(), identity(2)},
               SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
               [&](OpBuilder &nb, Location lc, ValueRange args) {
                 linalg::YieldOp::create(nb, lc, combine(nb, lc, args[1], args[0]));
               })
        .getResult(0);
  }

  /// acc = alpha * acc + p v: rescales acc in place, then accumulates the contraction into it.
  Value accumulate(OpBuilder &b, Value acc, Value alpha, Value p, Value vTile) {
    Value accScaled = combineRows(b, acc, alpha, s::mul);
    return buildContraction(b, loc, "qk,kd->qd", {p, vTile}, accScaled);
  }

  /// One key block: updates (m, l, acc) with the keys [kStart, kStart + cols).
  SmallVector<Value> keyBlock(OpBuilder &b, Value qTile, Value qStart, Value kStart, Value m,
                              Value l, Value acc) {
    Value vTile = extractTile(b, op.getValue(), kStart, cols, dv);
    Value kT = transposedKeys(b, kStart);
    Value scores = buildContraction(b, loc, "qd,dk->qk", {qTile, kT},
                                    filled(b, {rows, cols}, fZero));
    double expScale = 1.0; // scores are scaled by this inside the exponent
    if (scaleInExponent())
      expScale = op.getScale().convertToDouble();
    else
      scores = scaleAndMask(b, scores, qStart, kStart);
    RowStatistics stats = updateRowStatistics(b, scores, m, l, expScale);
    // p = exp(expScale * scores - m_new) in place, row by row, then l += rowsum(p).
    Value p = expRows(b, scores, stats.m, expScale);
    Value lNew = reduceRows(b, p, stats.lScaled, [](OpBuilder &nb, Location lc, Value a, Value x) {
      return s::add(nb, lc, a, x);
    });
    return {stats.m, lNew, accumulate(b, acc, stats.alpha, p, vTile)};
  }

  /// A [rows, cols] tile at (rowStart, 0) of the batch's [Sq, Dv] output slice.
  Value outTile(OpBuilder &b, Value out, Value rowStart, int64_t rows, int64_t cols) {
    return tensor::ExtractSliceOp::create(
        b, loc, tile({rows, cols}), out, ArrayRef<OpFoldResult>{rowStart, b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  }

  /// One query block: the key loop, then acc / l written into the output tile in place.
  /// `out` is the current batch index's [Sq, Dv] output.
  Value queryBlock(OpBuilder &b, Value qStart, Value out) {
    Value qTile = extractTile(b, op.getQuery(), qStart, rows, d);
    // The accumulator is the output's own tile, so the final insert needs no copy.
    Value acc0 =
        linalg::FillOp::create(b, loc, fZero, outTile(b, out, qStart, rows, dv)).getResult(0);
    Value m0 = filled(b, {rows}, fNegInf), l0 = filled(b, {rows}, fZero);
    Value kEnd = cKFull;
    if (op.getCausal()) {
      // Key blocks wholly after the block's last query row are skipped: keys < qStart + rows,
      // rounded up to whole key blocks.
      Value last = arith::AddIOp::create(b, loc, qStart,
                                         arith::ConstantIndexOp::create(b, loc, rows));
      Value blocks = arith::CeilDivUIOp::create(b, loc, last, cBc);
      kEnd = arith::MinUIOp::create(b, loc, arith::MulIOp::create(b, loc, blocks, cBc), cKFull);
    }
    auto keys = scf::ForOp::create(
        b, loc, cZero, kEnd, cBc, ValueRange{m0, l0, acc0},
        [&](OpBuilder &nb, Location, Value kStart, ValueRange args) {
          scf::YieldOp::create(
              nb, loc, keyBlock(nb, qTile, qStart, kStart, args[0], args[1], args[2]));
        });
    SmallVector<Value> state(keys.getResults());
    if (int64_t rem = sk % bc) {
      // The last, partial key block (static size): keys [Sk - rem, Sk). Under causal masking it
      // may be wholly masked for this query block; then it leaves the state unchanged, since
      // every row has already seen key 0 (m is finite).
      cols = rem;
      state = keyBlock(b, qTile, qStart, arith::ConstantIndexOp::create(b, loc, sk - rem),
                       state[0], state[1], state[2]);
      cols = bc;
    }
    Value lFinal = state[1], accFinal = state[2];
    Value normalized = combineRows(b, accFinal, lFinal, s::div);
    return tensor::InsertSliceOp::create(
        b, loc, normalized, out, ArrayRef<OpFoldResult>{qStart, b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(dv)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  }

  /// The query blocks of one batch index over its [Sq, Dv] output `out`.
  Value queryLoop(OpBuilder &b, Value out) {
    // The keys of this batch index transposed once, block by block ([Sk / bc, D, bc], and
    // [D, Sk % bc] for a partial last block): Sk x D copies against Sq x Sk x D
    // multiply-adds, shared by every query block. Each block's K^T is contiguous, so the
    // scores contraction walks keys contiguously in its innermost loop, like a plain matmul
    // (one [D, Sk] K^T would put the rows of a block Sk floats apart: at a power-of-two Sk
    // they all fall into the same L1 set).
    if (int64_t full = sk / bc) {
      Value keys = extractTile(b, op.getKey(), b.getIndexAttr(0), full * bc, d);
      Value blocks = tensor::ExpandShapeOp::create(
          b, loc, tile({full, bc, d}), keys, SmallVector<ReassociationIndices>{{0, 1}, {2}});
      Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{full, d, bc}, et);
      keysT = linalg::TransposeOp::create(b, loc, blocks, init, ArrayRef<int64_t>{0, 2, 1})
                  ->getResult(0);
    }
    if (int64_t rem = sk % bc) {
      Value keys = extractTile(b, op.getKey(), b.getIndexAttr(sk - rem), rem, d);
      Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{d, rem}, et);
      keysTRemainder = linalg::TransposeOp::create(b, loc, keys, init, ArrayRef<int64_t>{1, 0})
                           ->getResult(0);
    }
    auto loop = scf::ForOp::create(b, loc, cZero, cQFull, cBr, ValueRange{out},
                                   [&](OpBuilder &nb, Location, Value qStart, ValueRange args) {
                                     scf::YieldOp::create(nb, loc,
                                                          queryBlock(nb, qStart, args[0]));
                                   });
    Value result = loop.getResult(0);
    if (int64_t rem = sq % br) { // the last, partial query block (static size)
      rows = rem;
      result = queryBlock(b, arith::ConstantIndexOp::create(b, loc, sq - rem), result);
      rows = br;
    }
    return result;
  }

  /// The batch axes as one scf.forall over their flattened extent (the batch indices are
  /// independent, so threads may take them: the loop becomes scf.parallel after
  /// bufferization and runs on the runtime's thread pool). Each iteration computes its
  /// [Sq, Dv] output slice and inserts it in parallel; every output element is computed by
  /// exactly one iteration, so results do not depend on the thread count.
  Value batchLoop(OpBuilder &b, Value out) {
    auto outType = cast<RankedTensorType>(out.getType());
    int64_t total = 1;
    for (int64_t a = 0; a < numBatch; ++a)
      total *= outType.getDimSize(a);
    auto forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(total)},
                                        ValueRange{out}, std::nullopt);
    OpBuilder nb = OpBuilder::atBlockBegin(forall.getBody());
    Value linear = forall.getInductionVars()[0];
    Value shared = forall.getRegionIterArgs()[0];
    // Row-major delinearization of the flat index into the batch indices.
    batchIvs.assign(numBatch, Value());
    for (int64_t a = numBatch - 1; a >= 0; --a) {
      Value extent = arith::ConstantIndexOp::create(nb, loc, outType.getDimSize(a));
      batchIvs[a] = a == 0 ? linear : arith::RemUIOp::create(nb, loc, linear, extent);
      if (a > 0)
        linear = arith::DivUIOp::create(nb, loc, linear, extent);
    }
    SmallVector<OpFoldResult> offsets(batchIvs.begin(), batchIvs.end()), sizes, strides;
    offsets.append({nb.getIndexAttr(0), nb.getIndexAttr(0)});
    sizes.assign(numBatch, nb.getIndexAttr(1));
    sizes.append({nb.getIndexAttr(sq), nb.getIndexAttr(dv)});
    strides.assign(rank, nb.getIndexAttr(1));
    Value slice = tensor::ExtractSliceOp::create(nb, loc, tile({sq, dv}), shared, offsets,
                                                 sizes, strides);
    Value result = queryLoop(nb, slice);
    nb.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(nb, loc, result, shared, offsets, sizes, strides);
    batchIvs.clear();
    return forall.getResult(0);
  }

  Value build() {
    Value out = tensor::EmptyOp::create(rewriter, loc, op.getType().getShape(), et);
    return numBatch == 0 ? queryLoop(rewriter, out) : batchLoop(rewriter, out);
  }
};

struct LowerAttention : OpRewritePattern<tl::AttentionOp> {
  LowerAttention(MLIRContext *ctx, AttentionTiling tiling)
      : OpRewritePattern(ctx), tiling(tiling) {}

  LogicalResult matchAndRewrite(tl::AttentionOp op, PatternRewriter &rewriter) const override {
    AttentionKernel k(op, tiling, rewriter);
    rewriter.replaceOp(op, k.build());
    return success();
  }

  AttentionTiling tiling;
};

struct TLLowerAttentionPass : tlc::impl::TLLowerAttentionBase<TLLowerAttentionPass> {
  using Base::Base;
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalOp<tl::AttentionOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateTLAttentionToLinalgPatterns(patterns, AttentionTiling{blockQ, blockK});
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void tlc::populateTLAttentionToLinalgPatterns(RewritePatternSet &patterns,
                                              AttentionTiling tiling) {
  patterns.add<LowerAttention>(patterns.getContext(), tiling);
}
