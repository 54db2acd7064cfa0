// tl-lower-attention: tl.attention to a tiled online-softmax (flash attention) loop nest.
//
// For every batch index and every block of `br` query rows, the kernel walks the keys in blocks
// of `bc`, keeping per row a running maximum `m`, a running sum `l` of exp(score - m) and an
// unnormalized output accumulator `acc` ([br, Dv]); each key block rescales them by
// exp(m_old - m_new). Extra memory is O(br * bc + br * (D + Dv)): the Sq x Sk scores are never
// formed. Tiles are static: a sequence length that is not a multiple of its tile gets one more,
// smaller block after the loop (the same code at the remainder's size). Everything inside the
// loops is linalg on tiles, so codegen improvements to linalg contractions and elementwise ops
// apply to the kernel unchanged.
#include "passes/LinalgBuilders.h"
#include "passes/Passes.h"

#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tlc {
#define GEN_PASS_DEF_TLLOWERATTENTION
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;
namespace s = tlc::tl::scalar;

namespace {

struct LowerAttention : OpRewritePattern<tl::AttentionOp> {
  LowerAttention(MLIRContext *ctx, AttentionTiling tiling)
      : OpRewritePattern(ctx), tiling(tiling) {}

  LogicalResult matchAndRewrite(tl::AttentionOp op, PatternRewriter &rewriter) const override {
    Kernel k(op, tiling, rewriter);
    rewriter.replaceOp(op, k.build());
    return success();
  }

private:
  /// The state of one lowering: shapes, tile sizes, loop-invariant constants.
  struct Kernel {
    tl::AttentionOp op;
    PatternRewriter &rewriter;
    Location loc;
    Type et;
    int64_t rank, numBatch, sq, d, sk, dv;
    int64_t br, bc;     // full tile sizes
    int64_t rows, cols; // the tile being built: br or the query remainder, bc or the key one
    Value cZero, cOne, cQFull, cKFull, cBr, cBc, fZero, fNegInf;
    SmallVector<Value> batchIvs;
    MLIRContext *ctx;

    Kernel(tl::AttentionOp op, AttentionTiling tiling, PatternRewriter &rewriter)
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

    /// One key block: updates (m, l, acc) with the keys [kStart, kStart + cols).
    SmallVector<Value> keyBlock(OpBuilder &b, Value qTile, Value qStart, Value kStart, Value m,
                                Value l, Value acc) {
      Value kTile = extractTile(b, op.getKey(), kStart, cols, d);
      Value vTile = extractTile(b, op.getValue(), kStart, cols, dv);
      // K^T once per tile (bc x d copies against br x bc x d multiply-adds), so the scores
      // contraction walks keys contiguously in its innermost loop, like a plain matmul.
      Value kTInit = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{d, cols}, et);
      Value kT = linalg::TransposeOp::create(b, loc, kTile, kTInit, ArrayRef<int64_t>{1, 0})
                     ->getResult(0);
      Value scores = buildContraction(b, loc, "qd,dk->qk", {qTile, kT},
                                      filled(b, {rows, cols}, fZero));

      // scale, mask and causal masking, in place on the scores tile.
      SmallVector<Value> ins;
      SmallVector<AffineMap> maps;
      if (Value mask = op.getMask()) {
        auto [t, map] = maskTile(b, mask, qStart, kStart);
        ins.push_back(t);
        maps.push_back(map);
      }
      maps.push_back(identity(2));
      bool hasMask = static_cast<bool>(op.getMask()), causal = op.getCausal();
      double scale = op.getScale().convertToDouble();
      SmallVector<utils::IteratorType> parallel2(2, utils::IteratorType::parallel);
      scores = linalg::GenericOp::create(
                   b, loc, scores.getType(), ins, ValueRange{scores}, maps, parallel2,
                   [&](OpBuilder &nb, Location l, ValueRange args) {
                     Value v = s::mul(nb, l, args.back(), s::constant(nb, l, et, scale));
                     if (hasMask)
                       v = s::add(nb, l, v, args[0]);
                     if (causal) {
                       Value i = arith::AddIOp::create(nb, l, linalg::IndexOp::create(nb, l, 0),
                                                       qStart);
                       Value j = arith::AddIOp::create(nb, l, linalg::IndexOp::create(nb, l, 1),
                                                       kStart);
                       Value future =
                           arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ugt, j, i);
                       v = arith::SelectOp::create(nb, l, future, fNegInf, v);
                     }
                     linalg::YieldOp::create(nb, l, v);
                   })
                   .getResult(0);

      // Running maximum and the factor exp(m_old - m_new) that rescales earlier blocks.
      auto maxOf = [](OpBuilder &nb, Location l, Value a, Value x) { return s::max(nb, l, a, x); };
      auto negInf = cast<TypedAttr>(cast<arith::ConstantOp>(fNegInf.getDefiningOp()).getValue());
      Value rowMax = buildReduction(b, loc, scores, {1}, negInf, maxOf);
      Value alphaInit = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows}, et);
      auto update = linalg::GenericOp::create(
          b, loc, TypeRange{m.getType(), alphaInit.getType()}, ValueRange{rowMax},
          ValueRange{m, alphaInit}, SmallVector<AffineMap>(3, identity(1)),
          {utils::IteratorType::parallel}, [&](OpBuilder &nb, Location l, ValueRange args) {
            Value mNew = s::max(nb, l, args[1], args[0]);
            Value alpha = s::exp(nb, l, s::sub(nb, l, args[1], mNew));
            linalg::YieldOp::create(nb, l, ValueRange{mNew, alpha});
          });
      Value mNew = update.getResult(0), alpha = update.getResult(1);

      // p = exp(scores - m_new), in place.
      Value p = linalg::GenericOp::create(
                    b, loc, scores.getType(), ValueRange{mNew}, ValueRange{scores},
                    {rowMap(), identity(2)}, parallel2,
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          nb, l, s::exp(nb, l, s::sub(nb, l, args[1], args[0])));
                    })
                    .getResult(0);

      // l = alpha * l + rowsum(p): rescale in place, then reduce into it.
      Value lScaled = linalg::GenericOp::create(
                          b, loc, l.getType(), ValueRange{alpha}, ValueRange{l},
                          {identity(1), identity(1)}, {utils::IteratorType::parallel},
                          [&](OpBuilder &nb, Location lc, ValueRange args) {
                            linalg::YieldOp::create(nb, lc, s::mul(nb, lc, args[1], args[0]));
                          })
                          .getResult(0);
      Value lNew = linalg::GenericOp::create(
                       b, loc, l.getType(), ValueRange{p}, ValueRange{lScaled},
                       {identity(2), rowMap()},
                       {utils::IteratorType::parallel, utils::IteratorType::reduction},
                       [&](OpBuilder &nb, Location lc, ValueRange args) {
                         linalg::YieldOp::create(nb, lc, s::add(nb, lc, args[1], args[0]));
                       })
                       .getResult(0);

      // acc = alpha * acc + p v: rescale in place, then accumulate the contraction into it.
      Value accScaled = linalg::GenericOp::create(
                            b, loc, acc.getType(), ValueRange{alpha}, ValueRange{acc},
                            {rowMap(), identity(2)}, parallel2,
                            [&](OpBuilder &nb, Location lc, ValueRange args) {
                              linalg::YieldOp::create(nb, lc, s::mul(nb, lc, args[1], args[0]));
                            })
                            .getResult(0);
      Value accNew = buildContraction(b, loc, "qk,kd->qd", {p, vTile}, accScaled);
      return {mNew, lNew, accNew};
    }

    /// One query block: the key loop, then acc / l written into the output tile in place.
    Value queryBlock(OpBuilder &b, Value qStart, Value out) {
      Value qTile = extractTile(b, op.getQuery(), qStart, rows, d);
      // The accumulator is the output's own tile, so the final insert needs no copy.
      Value outTile = extractTile(b, out, qStart, rows, dv);
      Value acc0 = linalg::FillOp::create(b, loc, fZero, outTile).getResult(0);
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
      Value normalized =
          linalg::GenericOp::create(
              b, loc, accFinal.getType(), ValueRange{lFinal}, ValueRange{accFinal},
              {rowMap(), identity(2)},
              SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
              [&](OpBuilder &nb, Location lc, ValueRange args) {
                linalg::YieldOp::create(nb, lc, s::div(nb, lc, args[1], args[0]));
              })
              .getResult(0);
      SmallVector<OpFoldResult> offsets(batchIvs.begin(), batchIvs.end()), sizes, strides;
      offsets.append({qStart, b.getIndexAttr(0)});
      sizes.assign(numBatch, b.getIndexAttr(1));
      sizes.append({b.getIndexAttr(rows), b.getIndexAttr(dv)});
      strides.assign(rank, b.getIndexAttr(1));
      return tensor::InsertSliceOp::create(b, loc, normalized, out, offsets, sizes, strides);
    }

    /// Loops over the batch axes from `level` on, then over query blocks, carrying `out`.
    Value loops(OpBuilder &b, unsigned level, Value out) {
      if (level == numBatch) {
        auto loop = scf::ForOp::create(
            b, loc, cZero, cQFull, cBr, ValueRange{out},
            [&](OpBuilder &nb, Location, Value qStart, ValueRange args) {
              scf::YieldOp::create(nb, loc, queryBlock(nb, qStart, args[0]));
            });
        Value result = loop.getResult(0);
        if (int64_t rem = sq % br) { // the last, partial query block (static size)
          rows = rem;
          result = queryBlock(b, arith::ConstantIndexOp::create(b, loc, sq - rem), result);
          rows = br;
        }
        return result;
      }
      Value ub = arith::ConstantIndexOp::create(b, loc, op.getQuery().getType().getDimSize(level));
      auto loop = scf::ForOp::create(b, loc, cZero, ub, cOne, ValueRange{out},
                                     [&](OpBuilder &nb, Location, Value iv, ValueRange args) {
                                       batchIvs.push_back(iv);
                                       Value result = loops(nb, level + 1, args[0]);
                                       batchIvs.pop_back();
                                       scf::YieldOp::create(nb, loc, result);
                                     });
      return loop.getResult(0);
    }

    Value build() {
      Value out = tensor::EmptyOp::create(rewriter, loc, op.getType().getShape(), et);
      return loops(rewriter, 0, out);
    }
  };

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
