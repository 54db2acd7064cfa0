// tlc-spirv-narrow-compares: integer compares of sign-extended values in their original width.
#include "targets/gpu/GPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSPIRVNARROWCOMPARES
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// `v` in width `narrow`: the source of an extsi from that type, or a constant it represents
/// (rebuilt in that width before `at`); null otherwise.
Value narrowed(PatternRewriter &rewriter, Operation *at, Value v, IntegerType narrow) {
  if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
    return ext.getIn().getType() == narrow ? ext.getIn() : Value();
  APInt c;
  if (!matchPattern(v, m_ConstantInt(&c)) || !c.isSignedIntN(narrow.getWidth()))
    return Value();
  return arith::ConstantOp::create(rewriter, at->getLoc(),
                                   rewriter.getIntegerAttr(narrow, c.trunc(narrow.getWidth())));
}

struct NarrowCompare : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpIOp op, PatternRewriter &rewriter) const override {
    if (!isa<IntegerType>(op.getLhs().getType()))
      return failure();
    auto ext = op.getLhs().getDefiningOp<arith::ExtSIOp>();
    if (!ext)
      ext = op.getRhs().getDefiningOp<arith::ExtSIOp>();
    if (!ext)
      return failure();
    auto narrow = cast<IntegerType>(ext.getIn().getType());
    // Both operands are checked before anything is created.
    auto fits = [&](Value v) {
      if (auto e = v.getDefiningOp<arith::ExtSIOp>())
        return e.getIn().getType() == narrow;
      APInt c;
      return matchPattern(v, m_ConstantInt(&c)) && c.isSignedIntN(narrow.getWidth());
    };
    if (!fits(op.getLhs()) || !fits(op.getRhs()))
      return failure();
    Value lhs = narrowed(rewriter, op, op.getLhs(), narrow);
    Value rhs = narrowed(rewriter, op, op.getRhs(), narrow);
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, op.getPredicate(), lhs, rhs);
    return success();
  }
};

struct TLCSPIRVNarrowComparesPass
    : tlc::impl::TLCSPIRVNarrowComparesBase<TLCSPIRVNarrowComparesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NarrowCompare>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
