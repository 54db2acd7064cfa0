// tl.attention as tl.fused_attention, one op in destination-passing style that bufferizes and
// reaches the GPU mapping whole (its flash-attention kernel, targets/gpu/FlashAttention.cpp),
// and that op's bufferization.
#include "passes/Passes.h"

#include "TL/TLDialect.h"

#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tlc;

namespace {

/// The largest head dimension (D or Dv) the GPU kernel stages through workgroup memory: with
/// 16-row tiles its Q, K and V tiles then fit the 32 KiB every GPU API offers. Larger heads,
/// and element types other than f32, keep the definition (the pattern below it).
constexpr int64_t kMaxFusedHeadDim = 128;

struct AttentionAsFusedOp : OpRewritePattern<tl::AttentionOp> {
  AttentionAsFusedOp(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(tl::AttentionOp op, PatternRewriter &rewriter) const override {
    RankedTensorType q = op.getQuery().getType(), v = op.getValue().getType();
    if (!q.getElementType().isF32() || !q.hasStaticShape() ||
        !op.getKey().getType().hasStaticShape() || !v.hasStaticShape() ||
        q.getShape().back() > kMaxFusedHeadDim || v.getShape().back() > kMaxFusedHeadDim)
      return rewriter.notifyMatchFailure(op, "not an f32 attention with static small heads");
    if (Value mask = op.getMask(); mask && !cast<RankedTensorType>(mask.getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic mask");
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), op.getType().getShape(),
                                         op.getType().getElementType());
    rewriter.replaceOpWithNewOp<tl::FusedAttentionOp>(
        op, TypeRange{op.getType()}, op.getQuery(), op.getKey(), op.getValue(), op.getMask(),
        init, op.getScaleAttr(), op.getCausalAttr());
    return success();
  }
};

/// Bufferizes like a linalg op: the same op on its operands' buffers, writing init's buffer.
struct FusedAttentionBufferization
    : bufferization::DstBufferizableOpInterfaceExternalModel<FusedAttentionBufferization,
                                                             tl::FusedAttentionOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const bufferization::AnalysisState &) const {
    // init is only written.
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const bufferization::BufferizationOptions &options,
                          bufferization::BufferizationState &state) const {
    auto attention = cast<tl::FusedAttentionOp>(op);
    auto buffer = [&](Value tensor) -> FailureOr<Value> {
      if (!tensor)
        return Value();
      return bufferization::getBuffer(rewriter, tensor, options, state);
    };
    FailureOr<Value> q = buffer(attention.getQuery()), k = buffer(attention.getKey()),
                     v = buffer(attention.getValue()), mask = buffer(attention.getMask()),
                     init = buffer(attention.getInit());
    if (failed(q) || failed(k) || failed(v) || failed(mask) || failed(init))
      return failure();
    rewriter.setInsertionPoint(op);
    tl::FusedAttentionOp::create(rewriter, op->getLoc(), TypeRange{}, *q, *k, *v, *mask, *init,
                                 attention.getScaleAttr(), attention.getCausalAttr());
    bufferization::replaceOpWithBufferizedValues(rewriter, op, *init);
    return success();
  }
};

} // namespace

void tlc::registerFusedAttentionBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tl::TLDialect *) {
    tl::FusedAttentionOp::attachInterface<FusedAttentionBufferization>(*ctx);
  });
}

void tlc::populateTLAttentionFusedPatterns(RewritePatternSet &patterns) {
  patterns.add<AttentionAsFusedOp>(patterns.getContext());
}
