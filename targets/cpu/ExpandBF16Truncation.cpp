// tlc-expand-bf16-truncation: f32 -> bf16 truncations as vectorizable integer arithmetic.
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tlc {
#define GEN_PASS_DEF_TLCEXPANDBF16TRUNCATION
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// `type` with its (scalar or vector) element type replaced by `element`.
Type withElementType(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

struct ExpandTruncation : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op, PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getIn().getType()).isF32() ||
        !getElementTypeOrSelf(op.getType()).isBF16())
      return failure();
    if (op.getRoundingmodeAttr() &&
        op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return failure();
    Location loc = op.getLoc();
    Type i32 = withElementType(op.getIn().getType(), rewriter.getI32Type());
    Type i16 = withElementType(op.getIn().getType(), rewriter.getI16Type());
    auto i32Constant = [&](int64_t value) {
      return createScalarOrSplatConstant(rewriter, loc, i32, value);
    };
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, op.getIn());
    // Round to nearest even: add 0x7fff and the lowest bit kept (bit 16); a carry into the
    // exponent rounds up to the next binade or to infinity, as it should.
    Value sixteen = i32Constant(16);
    Value kept = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, sixteen), i32Constant(1));
    Value bias = arith::AddIOp::create(rewriter, loc, kept, i32Constant(0x7fff));
    Value rounded = arith::AddIOp::create(rewriter, loc, bits, bias);
    // A NaN keeps its sign and high payload with the quiet bit set (rounding could carry a
    // payload in the low half into the exponent and make it infinity), as vcvtneps2bf16
    // does. Selected in the i32 lanes, with no constant arm: InstCombine moves a select with
    // a constant arm past the shift and truncation onto bf16 lanes, which X86 scalarizes.
    Value isNaN = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, op.getIn(),
                                        op.getIn());
    Value quieted = arith::OrIOp::create(rewriter, loc, bits, i32Constant(0x400000));
    Value chosen = arith::SelectOp::create(rewriter, loc, isNaN, quieted, rounded);
    Value high = arith::ShRUIOp::create(rewriter, loc, chosen, sixteen);
    Value narrow = arith::TruncIOp::create(rewriter, loc, i16, high);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), narrow);
    return success();
  }
};

struct TLCExpandBF16TruncationPass
    : tlc::impl::TLCExpandBF16TruncationBase<TLCExpandBF16TruncationPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandTruncation>(&getContext());
    // One walk: nothing the pattern creates is a truncation to bf16.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
