// Lowering of tl shape ops (reshape, transpose, broadcast_to, concat, slice) to tensor/linalg.
#include "passes/LinalgBuilders.h"
#include "passes/Passes.h"

#include "TL/TLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tlc;

namespace {

struct LowerReshape : OpRewritePattern<tl::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::ReshapeOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, reshapeTensor(rewriter, op.getLoc(), op.getInput(), op.getType()));
    return success();
  }
};

struct LowerTranspose : OpRewritePattern<tl::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::TransposeOp op, PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(), type.getShape(),
                                         type.getElementType());
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(op, op.getInput(), init, op.getPerm());
    return success();
  }
};

struct LowerBroadcastTo : OpRewritePattern<tl::BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::BroadcastToOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, buildElementwise(rewriter, op.getLoc(), op.getType(), op.getInput(),
                                            [](OpBuilder &, Location, ValueRange a) {
                                              return a[0];
                                            }));
    return success();
  }
};

struct LowerConcat : OpRewritePattern<tl::ConcatOp> {
  LowerConcat(MLIRContext *ctx, unsigned maxInPlace)
      : OpRewritePattern(ctx), maxInPlace(maxInPlace) {}

  LogicalResult matchAndRewrite(tl::ConcatOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += rank;
    // One-shot bufferization analyses an insert_slice chain in time growing with about the cube
    // of its length (all links alias one buffer); tensor.concat bufferizes in linear time, at
    // the price of copying each input into its slice instead of computing it there.
    if (op.getInputs().size() > maxInPlace) {
      rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, type, axis, op.getInputs());
      return success();
    }
    Value result =
        tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    int64_t offset = 0;
    for (Value input : op.getInputs()) {
      auto inType = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result, ValueRange{},
                                             ValueRange{}, ValueRange{}, offsets,
                                             inType.getShape(), strides);
      offset += inType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  unsigned maxInPlace;
};

struct LowerSlice : OpRewritePattern<tl::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::SliceOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), op.getInput(), ValueRange{}, ValueRange{}, ValueRange{},
        op.getOffsets(), op.getSizes(), op.getStrides());
    return success();
  }
};

} // namespace

void tlc::populateTLShapeOpsToTensorPatterns(RewritePatternSet &patterns,
                                             unsigned maxInPlaceConcat) {
  patterns.add<LowerReshape, LowerTranspose, LowerBroadcastTo, LowerSlice>(
      patterns.getContext());
  patterns.add<LowerConcat>(patterns.getContext(), maxInPlaceConcat);
}
