// tl.attention by its definition, softmax(scale * Q K^T + mask) V, for targets without the CPU's
// flash-attention loop nest (the GPU targets, until they have their own).
#include "passes/LinalgBuilders.h"
#include "passes/Passes.h"

#include "TL/TLDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace tlc;

namespace {

/// Scores = einsum(Q, K) over the head dimension; scaled and causally masked in one elementwise
/// pass (a key after the query's position becomes -inf); plus the additive mask; softmax over
/// the keys; einsum with V. Forms the Sq x Sk scores: memory grows with the square of the
/// sequence, which the CPU's tiled lowering avoids.
struct AttentionByDefinition : OpRewritePattern<tl::AttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tl::AttentionOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto qType = cast<RankedTensorType>(op.getQuery().getType());
    auto kType = cast<RankedTensorType>(op.getKey().getType());
    int64_t batch = op.getNumBatchDims();
    Type element = qType.getElementType();
    std::string prefix;
    for (int64_t i = 0; i < batch; ++i)
      prefix.push_back(char('a' + i)); // batch labels a.., then q, k, d, e
    SmallVector<int64_t> scoreShape(qType.getShape().drop_back());
    scoreShape.push_back(kType.getShape()[batch]);
    auto scoreType = RankedTensorType::get(scoreShape, element);
    Value scores = tl::EinsumOp::create(rewriter, loc, scoreType,
                                        prefix + "qd," + prefix + "kd->" + prefix + "qk",
                                        ValueRange{op.getQuery(), op.getKey()});
    double scale = op.getScale().convertToDouble();
    bool causal = op.getCausal();
    int64_t rank = scoreType.getRank();
    scores = buildElementwise(
        rewriter, loc, scoreType, scores, [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value x = arith::MulFOp::create(b, l, a[0],
                                          arith::ConstantOp::create(
                                              b, l, b.getFloatAttr(element, scale)));
          if (!causal)
            return x;
          Value row = linalg::IndexOp::create(b, l, rank - 2);
          Value col = linalg::IndexOp::create(b, l, rank - 1);
          Value future = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ugt, col, row);
          Value minusInf = arith::ConstantOp::create(
              b, l, b.getFloatAttr(element, -std::numeric_limits<double>::infinity()));
          return arith::SelectOp::create(b, l, future, minusInf, x);
        });
    if (Value mask = op.getMask())
      scores = tl::AddOp::create(rewriter, loc, scoreType, scores, mask);
    Value probs = tl::SoftmaxOp::create(rewriter, loc, scoreType, scores,
                                        rewriter.getI64IntegerAttr(rank - 1));
    rewriter.replaceOpWithNewOp<tl::EinsumOp>(
        op, op.getType(), prefix + "qk," + prefix + "ke->" + prefix + "qe",
        ValueRange{probs, op.getValue()});
    return success();
  }
};

} // namespace

void tlc::populateTLAttentionDefinitionPatterns(RewritePatternSet &patterns) {
  patterns.add<AttentionByDefinition>(patterns.getContext());
}
