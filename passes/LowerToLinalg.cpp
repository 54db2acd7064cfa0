// tl-lower-to-linalg: tl ops to linalg/tensor/arith/math through the tl op interfaces.
#include "passes/LinalgBuilders.h"
#include "passes/Passes.h"
#include "passes/TargetLoweringPatterns.h"

#include "TL/Einsum.h"
#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tlc {
#define GEN_PASS_DEF_TLLOWERTOLINALG
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;
namespace s = tlc::tl::scalar;

namespace {

RankedTensorType resultType(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType());
}

/// Every elementwise op, through its scalar body.
struct LowerElementwise : OpInterfaceRewritePattern<tl::ElementwiseOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(tl::ElementwiseOpInterface op,
                                PatternRewriter &rewriter) const override {
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType(op), op->getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) { return op.buildScalar(b, loc, args); });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Policy: into how many parts a reduction over every axis of `type` is split (0: not split).
/// From 2^16 elements (the size tlc-parallelize-loops starts threading at) into 16 equal rows,
/// or fewer when 16 does not divide the element count.
int64_t splitParts(RankedTensorType type, size_t numReduced, int64_t count) {
  if (!type.hasStaticShape() || numReduced != static_cast<size_t>(type.getRank()) ||
      count < (1 << 16))
    return 0;
  for (int64_t parts : {16, 8, 4, 2})
    if (count % parts == 0)
      return parts;
  return 0;
}

/// The first of `axes` when they are two or more trailing axes of the static `type`, in
/// order; -1 otherwise.
int64_t trailingAxesStart(RankedTensorType type, ArrayRef<int64_t> axes) {
  int64_t rank = type.getRank(), n = axes.size();
  if (n < 2 || n >= rank || !type.hasStaticShape())
    return -1;
  for (int64_t i = 0; i < n; ++i)
    if (axes[i] != rank - n + i)
      return -1;
  return rank - n;
}

/// Every reduction, through its identity, combiner and finalizer.
struct LowerReduction : OpInterfaceRewritePattern<tl::ReductionOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(tl::ReductionOpInterface op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = op->getOperand(0);
    auto inputType = cast<RankedTensorType>(input.getType());
    Type elementType = inputType.getElementType();
    SmallVector<int64_t> axes = op.getReducedAxes();
    auto combine = [&](OpBuilder &b, Location l, Value acc, Value x) {
      return op.buildCombine(b, l, acc, x);
    };
    int64_t count = 1;
    for (int64_t a : axes)
      count *= inputType.getDimSize(a);
    Value reduced;
    if (int64_t parts = splitParts(inputType, axes.size(), count)) {
      // A large full reduction in two levels: `parts` partial results (independent rows,
      // which tlc-parallelize-loops gives to threads), then those folded in order. The
      // grouping depends only on the shape, so the result does not depend on the thread count.
      auto rows = RankedTensorType::get({parts, count / parts}, elementType);
      Value partial = buildReduction(rewriter, loc, reshapeTensor(rewriter, loc, input, rows),
                                     {1}, op.getIdentity(elementType), combine);
      reduced = buildReduction(rewriter, loc, partial, {0}, op.getIdentity(elementType), combine);
    } else if (int64_t first = trailingAxesStart(inputType, axes); first >= 0) {
      // Reduced trailing axes (a global pool's H and W) as one row: tlc-vectorize-rows then
      // reduces each channel's H * W elements in whole vectors and folds the lanes once,
      // instead of once per row of W (a 14x14 pool: 14 masked rows of 14).
      SmallVector<int64_t> shape(inputType.getShape().take_front(first));
      shape.push_back(count);
      Value rows = reshapeTensor(rewriter, loc, input, RankedTensorType::get(shape, elementType));
      reduced = buildReduction(rewriter, loc, rows, {first}, op.getIdentity(elementType), combine);
    } else {
      reduced = buildReduction(rewriter, loc, input, axes, op.getIdentity(elementType), combine);
    }
    auto reducedType = cast<RankedTensorType>(reduced.getType());
    reduced = buildElementwise(rewriter, loc, reducedType, reduced,
                               [&](OpBuilder &b, Location l, ValueRange args) {
                                 return op.buildFinalize(b, l, args[0], count);
                               });
    rewriter.replaceOp(op, reshapeTensor(rewriter, loc, reduced, resultType(op)));
    return success();
  }
};

/// Einsum: one linalg.generic whose maps come from the einsum engine.
struct LowerEinsum : OpRewritePattern<tl::EinsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::EinsumOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<ArrayRef<int64_t>> shapes;
    for (Value v : op.getInputs())
      shapes.push_back(cast<RankedTensorType>(v.getType()).getShape());
    FailureOr<tl::EinsumSpec> spec =
        tl::parseEinsum(op.getEquation(), shapes, [&] { return op.emitOpError(); });
    if (failed(spec))
      return failure();
    RankedTensorType type = op.getType();
    Type elementType = type.getElementType();
    bool reduces = spec->numDims() > spec->numResultDims;
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), elementType);
    if (reduces) {
      Value zero = s::constant(rewriter, loc, elementType, 0);
      init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
    }
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < spec->numDims(); ++d)
      iterators.push_back(spec->isReductionDim(d) ? utils::IteratorType::reduction
                                                  : utils::IteratorType::parallel);
    SmallVector<Value> inputs(op.getInputs());
    SmallVector<AffineMap> maps = spec->indexingMaps(rewriter.getContext());
    // Linalg's contraction matching (and so the CPU and GPU contraction generators) takes the
    // m loops from the first operand and the n loops, the vectorized ones, from the second: the
    // operand holding the result's innermost non-unit label goes second. Exact: the product
    // commutes. (x^T g as "ab,ac->cb" ran 25x slower with g first.)
    if (inputs.size() == 2) {
      std::optional<int64_t> inner;
      for (int64_t d = spec->numResultDims - 1; d >= 0 && !inner; --d)
        if (spec->dimSizes[d] != 1)
          inner = d;
      auto holds = [&](int i) { return inner && llvm::is_contained(spec->operandDims[i], *inner); };
      if (holds(0) && !holds(1)) {
        std::swap(inputs[0], inputs[1]);
        std::swap(maps[0], maps[1]);
      }
    }
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, inputs, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          // Mixed precision: bf16/f16 operands extend to the f32 accumulator (exactly), so
          // the products and the sum are f32.
          auto operand = [&](Value v) {
            return v.getType() == elementType ? v : arith::ExtFOp::create(b, l, elementType, v);
          };
          Value product = operand(args[0]);
          for (Value v : args.drop_front().drop_back())
            product = s::mul(b, l, product, operand(v));
          linalg::YieldOp::create(b, l, reduces ? s::add(b, l, args.back(), product) : product);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// softmax(x) = exp(x - max) / sum(exp(x - max));
/// log_softmax(x) = (x - max) - log(sum(exp(x - max))), both along one axis.
template <typename SoftmaxLike, bool isLog>
struct LowerSoftmax : OpRewritePattern<SoftmaxLike> {
  using OpRewritePattern<SoftmaxLike>::OpRewritePattern;
  LogicalResult matchAndRewrite(SoftmaxLike op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type et = type.getElementType();
    int64_t axis = op.getNormalizedAxis(), rank = type.getRank();
    MLIRContext *ctx = rewriter.getContext();
    auto lowest = FloatAttr::get(
        et, APFloat::getInf(cast<FloatType>(et).getFloatSemantics(), /*Negative=*/true));
    Value max = buildReduction(rewriter, loc, op.getInput(), {axis}, lowest,
                               [](OpBuilder &b, Location l, Value acc, Value x) {
                                 return s::max(b, l, acc, x);
                               });
    // Maps for reading a per-row value (the axis removed) from the full iteration space.
    SmallVector<AffineExpr> rowExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        rowExprs.push_back(getAffineDimExpr(d, ctx));
    AffineMap full = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap row = AffineMap::get(rank, 0, rowExprs, ctx);
    Value shifted = buildParallelGeneric(rewriter, loc, type, {op.getInput(), max}, {full, row},
                                         [](OpBuilder &b, Location l, ValueRange a) {
                                           return s::sub(b, l, a[0], a[1]);
                                         });
    Value exps = buildElementwise(rewriter, loc, type, shifted,
                                  [](OpBuilder &b, Location l, ValueRange a) {
                                    return s::exp(b, l, a[0]);
                                  });
    Value sum = buildReduction(rewriter, loc, exps, {axis}, FloatAttr::get(et, 0.0),
                               [](OpBuilder &b, Location l, Value acc, Value x) {
                                 return s::add(b, l, acc, x);
                               });
    Value result;
    if (isLog)
      result = buildParallelGeneric(rewriter, loc, type, {shifted, sum}, {full, row},
                                    [](OpBuilder &b, Location l, ValueRange a) {
                                      return s::sub(b, l, a[0], s::log(b, l, a[1]));
                                    });
    else
      result = buildParallelGeneric(rewriter, loc, type, {exps, sum}, {full, row},
                                    [](OpBuilder &b, Location l, ValueRange a) {
                                      return s::div(b, l, a[0], a[1]);
                                    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LowerConstant : OpRewritePattern<tl::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::ConstantOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

struct TLLowerToLinalgPass : tlc::impl::TLLowerToLinalgBase<TLLowerToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<tl::TLDialect>();
    // The destination-style attention the GPU targets map whole (fused-attention).
    target.addLegalOp<tl::FusedAttentionOp>();
    // Removed after the lowering's CSE (tlc-drop-remat-barriers).
    target.addLegalOp<tl::RematBarrierOp>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect, arith::ArithDialect,
                           math::MathDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (!getContext().getLoadedDialect<tl::TLDialect>())
      return; // no tl op to lower
    const TargetLoweringPatterns *targetPatterns = TargetLoweringPatterns::lookup(&getContext());
    if ((rowLoops || tiledAttention) && !targetPatterns) {
      getOperation().emitError() << "tl-lower-to-linalg: row-loops and tiled-attention are "
                                    "a target's lowering patterns, and none is registered";
      return signalPassFailure();
    }
    lowerConcatChains(getOperation(), maxInPlaceConcat);
    RewritePatternSet patterns(&getContext());
    populateTLToLinalgPatterns(patterns, targetPatterns, rowLoops, tiledAttention,
                               fusedAttention, maxInPlaceConcat);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

MLIR_DEFINE_EXPLICIT_TYPE_ID(tlc::TargetLoweringPatterns)

const TargetLoweringPatterns *TargetLoweringPatterns::lookup(MLIRContext *ctx) {
  Dialect *dialect = ctx->getLoadedDialect<tl::TLDialect>();
  return dialect ? dialect->getRegisteredInterface<TargetLoweringPatterns>() : nullptr;
}

void tlc::populateTLToLinalgPatterns(RewritePatternSet &patterns,
                                     const TargetLoweringPatterns *target, bool rowLoops,
                                     bool tiledAttention, bool fusedAttention,
                                     unsigned maxInPlaceConcat) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LowerElementwise, LowerReduction>(ctx);
  patterns.add<LowerEinsum, LowerConstant, LowerSoftmax<tl::SoftmaxOp, false>,
               LowerSoftmax<tl::LogSoftmaxOp, true>>(ctx);
  populateTLShapeOpsToTensorPatterns(patterns, maxInPlaceConcat);
  populateTLNNOpsToLinalgPatterns(patterns);
  if (rowLoops)
    target->populateRowOpPatterns(patterns);
  if (tiledAttention)
    target->populateTiledAttentionPatterns(patterns);
  else
    populateTLAttentionDefinitionPatterns(patterns);
  if (!tiledAttention && fusedAttention)
    populateTLAttentionFusedPatterns(patterns);
}
