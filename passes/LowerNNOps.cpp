// Lowering of tl neural-network ops (conv2d, quantized_conv2d, pooling, layer_norm, gather, pad,
// arg_max) to upstream linalg named ops where they exist (convolutions, pooling) and
// linalg.generic.
#include "passes/LinalgBuilders.h"
#include "passes/Passes.h"

#include "TL/NNShapes.h"
#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tlc;
namespace s = tlc::tl::scalar;

namespace {

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// `input` surrounded by `low`/`high` elements of `padValue`: a filled tensor with the input
/// inserted (bufferizes to a fill and a copy into a subview).
Value padConstant(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
                  ArrayRef<int64_t> high, TypedAttr padValue) {
  auto type = cast<RankedTensorType>(input.getType());
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    shape.push_back(type.getDimSize(d) + low[d] + high[d]);
  Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  Value fill = linalg::FillOp::create(b, loc, arith::ConstantOp::create(b, loc, padValue).getResult(), empty)
                   .getResult(0);
  SmallVector<int64_t> strides(type.getRank(), 1);
  return tensor::InsertSliceOp::create(b, loc, input, fill, ValueRange{}, ValueRange{},
                                       ValueRange{}, low, type.getShape(), strides);
}

DenseIntElementsAttr i64Pair(OpBuilder &b, ArrayRef<int64_t> v) {
  return DenseIntElementsAttr::get(RankedTensorType::get({2}, b.getI64Type()), v);
}

TypedAttr zeroOf(Type t) { return cast<TypedAttr>(OpBuilder(t.getContext()).getZeroAttr(t)); }

/// Adds a per-channel (axis 1) bias to an NCHW tensor.
Value addChannelBias(OpBuilder &b, Location loc, Value x, Value bias) {
  auto type = cast<RankedTensorType>(x.getType());
  MLIRContext *ctx = b.getContext();
  AffineMap full = AffineMap::getMultiDimIdentityMap(4, ctx);
  AffineMap channel = AffineMap::get(4, 0, {getAffineDimExpr(1, ctx)}, ctx);
  return buildParallelGeneric(b, loc, type, {x, bias}, {full, channel},
                              [](OpBuilder &nb, Location l, ValueRange a) {
                                return s::add(nb, l, a[0], a[1]);
                              });
}

struct LowerConv2D : OpRewritePattern<tl::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::Conv2DOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type et = type.getElementType();
    // The input and filter's type: bf16/f16 under mixed precision (the named convolutions
    // extend them to the f32 accumulator), else the result's.
    Type inEt = op.getInput().getType().getElementType();
    ArrayRef<int64_t> pads = op.getPads();
    Value input = padConstant(rewriter, loc, op.getInput(), {0, 0, pads[0], pads[1]},
                              {0, 0, pads[2], pads[3]}, zeroOf(inEt));
    Value filter = op.getFilter();
    RankedTensorType filterType = op.getFilter().getType();
    auto inType = cast<RankedTensorType>(input.getType());
    int64_t n = type.getDimSize(0), f = type.getDimSize(1), oh = type.getDimSize(2),
            ow = type.getDimSize(3), c = inType.getDimSize(1), g = op.getGroups();
    int64_t kh = filterType.getDimSize(2), kw = filterType.getDimSize(3);
    DenseIntElementsAttr strides = i64Pair(rewriter, op.getStrides());
    DenseIntElementsAttr dilations = i64Pair(rewriter, op.getDilations());
    Value zero = s::constant(rewriter, loc, et, 0);
    auto zeros = [&](RankedTensorType t) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, t.getShape(), et);
      return linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    };
    Value result;
    if (g == 1) {
      result = linalg::Conv2DNchwFchwOp::create(rewriter, loc, TypeRange{type},
                                                ValueRange{input, filter},
                                                ValueRange{zeros(type)}, strides, dilations)
                   .getResult(0);
    } else if (g == c && g == f) {
      Value dwFilter = reshapeTensor(rewriter, loc, filter,
                                     RankedTensorType::get({c, kh, kw}, inEt));
      result = linalg::DepthwiseConv2DNchwChwOp::create(rewriter, loc, TypeRange{type},
                                                        ValueRange{input, dwFilter},
                                                        ValueRange{zeros(type)}, strides,
                                                        dilations)
                   .getResult(0);
    } else {
      auto groupedIn = RankedTensorType::get(
          {n, g, c / g, inType.getDimSize(2), inType.getDimSize(3)}, inEt);
      auto groupedFilter = RankedTensorType::get({g, f / g, c / g, kh, kw}, inEt);
      auto groupedOut = RankedTensorType::get({n, g, f / g, oh, ow}, et);
      Value conv = linalg::Conv2DNgchwGfchwOp::create(
                       rewriter, loc, TypeRange{groupedOut},
                       ValueRange{reshapeTensor(rewriter, loc, input, groupedIn),
                                  reshapeTensor(rewriter, loc, filter, groupedFilter)},
                       ValueRange{zeros(groupedOut)}, strides, dilations)
                       .getResult(0);
      result = reshapeTensor(rewriter, loc, conv, type);
    }
    if (Value bias = op.getBias())
      result = addChannelBias(rewriter, loc, result, bias);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tl.quantized_conv2d as im2col and one integer contraction: the input padded with its zero
/// point, each window copied into a column of a [C*KH*KW, OH*OW] matrix (no copy for a 1x1
/// stride-1 window), the filter [F, C*KH*KW] times that matrix with each byte extended to i32
/// (zero-extended for an unsigned input) and the products summed in i32; then minus
/// zero point x the filter's row sums, which makes each tap (x - zero point) * w. The form
/// tlc-lower-convolutions gives a float convolution, so the contraction takes the same tiling.
struct LowerQuantizedConv2D : OpRewritePattern<tl::QuantizedConv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::QuantizedConv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType type = op.getType();
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    int64_t zp = op.getInputZeroPoint();
    bool isUnsigned = op.getUnsignedInput();
    ArrayRef<int64_t> pads = op.getPads(), strides = op.getStrides(), dilations = op.getDilations();
    auto zpBits = IntegerAttr::get(i8, APInt(8, static_cast<uint64_t>(zp) & 0xff));
    Value input = padConstant(rewriter, loc, op.getInput(), {0, 0, pads[0], pads[1]},
                              {0, 0, pads[2], pads[3]}, zpBits);
    auto inType = cast<RankedTensorType>(input.getType());
    RankedTensorType filterType = op.getFilter().getType();
    int64_t n = type.getDimSize(0), f = type.getDimSize(1), oh = type.getDimSize(2),
            ow = type.getDimSize(3), c = inType.getDimSize(1);
    int64_t kh = filterType.getDimSize(2), kw = filterType.getDimSize(3);
    int64_t k = c * kh * kw, p = oh * ow;

    // The columns: [N, C, KH, KW, OH, OW] with element (n, c, i, j, y, x) =
    // input[n, c, y * sh + i * dh, x * sw + j * dw], viewed as [N, C*KH*KW, OH*OW].
    Value cols;
    if (kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1) {
      cols = reshapeTensor(rewriter, loc, input, RankedTensorType::get({n, k, p}, i8));
    } else {
      AffineExpr d[6];
      bindDims(ctx, d[0], d[1], d[2], d[3], d[4], d[5]);
      AffineMap window = AffineMap::get(6, 0,
                                        {d[0], d[1], d[4] * strides[0] + d[2] * dilations[0],
                                         d[5] * strides[1] + d[3] * dilations[1]},
                                        ctx);
      auto colsType = RankedTensorType::get({n, c, kh, kw, oh, ow}, i8);
      Value copy = buildParallelGeneric(rewriter, loc, colsType, {input}, {window},
                                        [](OpBuilder &, Location, ValueRange a) { return a[0]; });
      cols = reshapeTensor(rewriter, loc, copy, RankedTensorType::get({n, k, p}, i8));
    }
    Value filter = reshapeTensor(rewriter, loc, op.getFilter(), RankedTensorType::get({f, k}, i8));

    // acc[n, f, p] = sum_k ext(filter[f, k]) * ext(cols[n, k, p]).
    auto accType = RankedTensorType::get({n, f, p}, i32);
    Value zero = arith::ConstantOp::create(rewriter, loc, IntegerAttr::get(i32, 0));
    Value empty = tensor::EmptyOp::create(rewriter, loc, accType.getShape(), i32);
    Value init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    AffineExpr bn, bf, bp, bk;
    bindDims(ctx, bn, bf, bp, bk);
    SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {bf, bk}, ctx),
                                   AffineMap::get(4, 0, {bn, bk, bp}, ctx),
                                   AffineMap::get(4, 0, {bn, bf, bp}, ctx)};
    SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    Value acc =
        linalg::GenericOp::create(
            rewriter, loc, accType, ValueRange{filter, cols}, ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange a) {
              Value w = arith::ExtSIOp::create(b, l, i32, a[0]);
              Value x = isUnsigned ? arith::ExtUIOp::create(b, l, i32, a[1]).getResult()
                                   : arith::ExtSIOp::create(b, l, i32, a[1]).getResult();
              Value product = arith::MulIOp::create(b, l, w, x);
              linalg::YieldOp::create(b, l, arith::AddIOp::create(b, l, a[2], product).getResult());
            })
            .getResult(0);

    if (zp != 0) {
      // Each output element minus zp x its filter row's sum.
      Value rowSums = buildReduction(
          rewriter, loc,
          buildParallelGeneric(rewriter, loc, RankedTensorType::get({f, k}, i32), {filter},
                               {rewriter.getMultiDimIdentityMap(2)},
                               [&](OpBuilder &b, Location l, ValueRange a) {
                                 return arith::ExtSIOp::create(b, l, i32, a[0]).getResult();
                               }),
          {1}, IntegerAttr::get(i32, 0), [](OpBuilder &b, Location l, Value x, Value y) {
            return arith::AddIOp::create(b, l, x, y).getResult();
          });
      AffineMap rowOf = AffineMap::get(3, 0, {getAffineDimExpr(1, ctx)}, ctx);
      acc = buildParallelGeneric(
          rewriter, loc, accType, {acc, rowSums}, {rewriter.getMultiDimIdentityMap(3), rowOf},
          [&](OpBuilder &b, Location l, ValueRange a) {
            Value point = arith::ConstantOp::create(b, l, IntegerAttr::get(i32, zp));
            Value shift = arith::MulIOp::create(b, l, a[1], point);
            return arith::SubIOp::create(b, l, a[0], shift).getResult();
          });
    }
    rewriter.replaceOp(op, reshapeTensor(rewriter, loc, acc, type));
    return success();
  }
};

/// The trailing padding a ceil-mode window needs beyond the declared pads, per spatial axis.
SmallVector<int64_t> ceilExtraPads(RankedTensorType in, RankedTensorType out,
                                   ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                   ArrayRef<int64_t> pads, ArrayRef<int64_t> dilations) {
  SmallVector<int64_t> extra;
  for (int i = 0; i < 2; ++i) {
    int64_t needed = (out.getDimSize(2 + i) - 1) * strides[i] + (kernel[i] - 1) * dilations[i] +
                     1 - (in.getDimSize(2 + i) + pads[i] + pads[i + 2]);
    extra.push_back(std::max<int64_t>(0, needed));
  }
  return extra;
}

template <typename PoolOp>
Value padForPool(PatternRewriter &rewriter, PoolOp op, TypedAttr padValue) {
  ArrayRef<int64_t> pads = op.getPads();
  SmallVector<int64_t> extra =
      ceilExtraPads(op.getInput().getType(), op.getType(), op.getKernel(), op.getStrides(),
                    pads, op.getDilations());
  return padConstant(rewriter, op.getLoc(), op.getInput(), {0, 0, pads[0], pads[1]},
                     {0, 0, pads[2] + extra[0], pads[3] + extra[1]}, padValue);
}

struct LowerMaxPool : OpRewritePattern<tl::MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::MaxPool2DOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type et = type.getElementType();
    auto lowest = FloatAttr::get(
        et, APFloat::getInf(cast<FloatType>(et).getFloatSemantics(), /*Negative=*/true));
    Value input = padForPool(rewriter, op, lowest);
    Value window = tensor::EmptyOp::create(rewriter, loc, op.getKernel(), et);
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), et);
    Value init = linalg::FillOp::create(rewriter, loc,
                                        arith::ConstantOp::create(rewriter, loc, lowest).getResult(), empty)
                     .getResult(0);
    rewriter.replaceOp(op, linalg::PoolingNchwMaxOp::create(
                               rewriter, loc, TypeRange{type}, ValueRange{input, window},
                               ValueRange{init}, i64Pair(rewriter, op.getStrides()),
                               i64Pair(rewriter, op.getDilations()))
                               .getResult(0));
    return success();
  }
};

struct LowerAvgPool : OpRewritePattern<tl::AvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::AvgPool2DOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type et = type.getElementType();
    Value input = padForPool(rewriter, op, zeroOf(et));
    Value window = tensor::EmptyOp::create(rewriter, loc, op.getKernel(), et);
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), et);
    Value init =
        linalg::FillOp::create(rewriter, loc, s::constant(rewriter, loc, et, 0), empty)
            .getResult(0);
    Value sum = linalg::PoolingNchwSumOp::create(rewriter, loc, TypeRange{type},
                                                 ValueRange{input, window}, ValueRange{init},
                                                 i64Pair(rewriter, op.getStrides()),
                                                 i64Pair(rewriter, op.getDilations()))
                    .getResult(0);
    // The divisor of each output position is known at compile time: the window taps that
    // land in the input (or, with count_include_pad, in the declared padding).
    RankedTensorType inType = op.getInput().getType();
    ArrayRef<int64_t> k = op.getKernel(), st = op.getStrides(), p = op.getPads(),
                      dl = op.getDilations();
    auto taps = [&](int axis, int64_t o) {
      int64_t lo = op.getCountIncludePad() ? -p[axis] : 0;
      int64_t hi = inType.getDimSize(2 + axis) + (op.getCountIncludePad() ? p[axis + 2] : 0);
      int64_t count = 0;
      for (int64_t t = 0; t < k[axis]; ++t) {
        int64_t pos = o * st[axis] - p[axis] + t * dl[axis];
        count += pos >= lo && pos < hi;
      }
      return count;
    };
    int64_t oh = type.getDimSize(2), ow = type.getDimSize(3);
    SmallVector<APFloat> recip;
    const llvm::fltSemantics &sem = cast<FloatType>(et).getFloatSemantics();
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x) {
        int64_t count = std::max<int64_t>(1, taps(0, y) * taps(1, x));
        APFloat v(1.0 / static_cast<double>(count));
        bool lost;
        v.convert(sem, APFloat::rmNearestTiesToEven, &lost);
        recip.push_back(v);
      }
    auto recipType = RankedTensorType::get({oh, ow}, et);
    Value scale = arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(recipType, recip));
    MLIRContext *ctx = rewriter.getContext();
    AffineMap full = AffineMap::getMultiDimIdentityMap(4, ctx);
    AffineMap spatial =
        AffineMap::get(4, 0, {getAffineDimExpr(2, ctx), getAffineDimExpr(3, ctx)}, ctx);
    rewriter.replaceOp(op, buildParallelGeneric(rewriter, loc, type, {sum, scale},
                                                {full, spatial},
                                                [](OpBuilder &b, Location l, ValueRange a) {
                                                  return s::mul(b, l, a[0], a[1]);
                                                }));
    return success();
  }
};

/// (x - mean) * rsqrt(var + eps) * scale + bias over the trailing axes.
struct LowerLayerNorm : OpRewritePattern<tl::LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::LayerNormOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type et = type.getElementType();
    int64_t rank = type.getRank(), axis = op.getNormalizedAxis();
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<int64_t> axes;
    int64_t count = 1;
    SmallVector<AffineExpr> rowExprs, paramExprs;
    for (int64_t d = 0; d < rank; ++d) {
      if (d >= axis) {
        axes.push_back(d);
        count *= type.getDimSize(d);
        paramExprs.push_back(getAffineDimExpr(d, ctx));
      } else {
        rowExprs.push_back(getAffineDimExpr(d, ctx));
      }
    }
    AffineMap full = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap row = AffineMap::get(rank, 0, rowExprs, ctx);
    AffineMap param = AffineMap::get(rank, 0, paramExprs, ctx);
    auto add = [](OpBuilder &b, Location l, Value acc, Value x) { return s::add(b, l, acc, x); };
    Value sum = buildReduction(rewriter, loc, op.getInput(), axes, zeroOf(et), add);
    double inv = 1.0 / static_cast<double>(count);
    Value centered = buildParallelGeneric(
        rewriter, loc, type, {op.getInput(), sum}, {full, row},
        [&](OpBuilder &b, Location l, ValueRange a) {
          return s::sub(b, l, a[0], s::mul(b, l, a[1], s::constant(b, l, et, inv)));
        });
    Value squares = buildElementwise(rewriter, loc, type, centered,
                                     [](OpBuilder &b, Location l, ValueRange a) {
                                       return s::mul(b, l, a[0], a[0]);
                                     });
    Value sq = buildReduction(rewriter, loc, squares, axes, zeroOf(et), add);
    double eps = op.getEpsilon().convertToDouble();
    Value result = buildParallelGeneric(
        rewriter, loc, type, {centered, sq, op.getScale(), op.getBias()},
        {full, row, param, param}, [&](OpBuilder &b, Location l, ValueRange a) {
          Value var = s::add(b, l, s::mul(b, l, a[1], s::constant(b, l, et, inv)),
                             s::constant(b, l, et, eps));
          Value norm = s::mul(b, l, a[0], math::RsqrtOp::create(b, l, var));
          return s::add(b, l, s::mul(b, l, norm, a[2]), a[3]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Clamps an index-typed `i` into [0, size).
Value clampIndex(OpBuilder &b, Location loc, Value i, int64_t size) {
  Value lo = indexConst(b, loc, 0), hi = indexConst(b, loc, size - 1);
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, i, lo), hi);
}

struct LowerGather : OpRewritePattern<tl::GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::GatherOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType(), inType = op.getInput().getType();
    RankedTensorType idxType = op.getIndices().getType();
    int64_t rank = type.getRank(), inRank = inType.getRank(), idxRank = idxType.getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += inRank;
    int64_t dim = inType.getDimSize(axis);
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> idxExprs;
    for (int64_t d = 0; d < idxRank; ++d)
      idxExprs.push_back(getAffineDimExpr(axis + d, ctx));
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, idxExprs, ctx),
                                   AffineMap::getMultiDimIdentityMap(rank, ctx)};
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), type.getElementType());
    Value input = op.getInput();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{op.getIndices()}, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
          Value neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i,
                                            indexConst(b, l, 0));
          i = arith::SelectOp::create(
              b, l, neg, arith::AddIOp::create(b, l, i, indexConst(b, l, dim)), i);
          SmallVector<Value> coords;
          for (int64_t d = 0; d < axis; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          coords.push_back(clampIndex(b, l, i, dim));
          for (int64_t d = axis + idxRank; d < rank; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          linalg::YieldOp::create(b, l, {tensor::ExtractOp::create(b, l, input, coords)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct LowerPad : OpRewritePattern<tl::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::PadOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType(), inType = op.getInput().getType();
    Type et = type.getElementType();
    int64_t rank = type.getRank();
    ArrayRef<int64_t> pads = op.getPads();
    double value = op.getValue().convertToDouble();
    if (op.getMode() == tl::PadMode::constant) {
      TypedAttr padValue = isa<FloatType>(et)
                               ? TypedAttr(FloatAttr::get(et, value))
                               : TypedAttr(IntegerAttr::get(et, static_cast<int64_t>(value)));
      rewriter.replaceOp(op, padConstant(rewriter, loc, op.getInput(), pads.take_front(rank),
                                         pads.drop_front(rank), padValue));
      return success();
    }
    bool reflect = op.getMode() == tl::PadMode::reflect;
    Value input = op.getInput();
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(), et);
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, ValueRange{init},
        {AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext())}, iterators,
        [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d) {
            int64_t size = inType.getDimSize(d);
            Value i = arith::SubIOp::create(b, l, linalg::IndexOp::create(b, l, d),
                                            indexConst(b, l, pads[d]));
            if (reflect) {
              // Mirror around 0 and around size-1 (pads are smaller than the extent).
              Value zero = indexConst(b, l, 0);
              Value isLow = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, zero);
              i = arith::SelectOp::create(b, l, isLow, arith::SubIOp::create(b, l, zero, i), i);
              Value last = indexConst(b, l, size - 1);
              Value isHigh = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, i, last);
              Value mirrored = arith::SubIOp::create(b, l, indexConst(b, l, 2 * (size - 1)), i);
              i = arith::SelectOp::create(b, l, isHigh, mirrored, i);
            }
            coords.push_back(clampIndex(b, l, i, size));
          }
          linalg::YieldOp::create(b, l, {tensor::ExtractOp::create(b, l, input, coords)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// One reduction generic carrying (best value, its index) along the axis.
struct LowerArgMax : OpRewritePattern<tl::ArgMaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::ArgMaxOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType();
    Type et = inType.getElementType();
    int64_t rank = inType.getRank(), axis = op.getAxis();
    if (axis < 0)
      axis += rank;
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<int64_t> outShape;
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      iterators.push_back(d == axis ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
      if (d != axis) {
        outShape.push_back(inType.getDimSize(d));
        outExprs.push_back(getAffineDimExpr(d, ctx));
      }
    }
    bool isMin = op.getMin(), last = op.getSelectLastIndex();
    Type i64 = rewriter.getI64Type();
    // The running best starts at the first element's value, so no identity is needed.
    SmallVector<int64_t> offsets(rank, 0), sizes(inType.getShape()), strides(rank, 1);
    sizes[axis] = 1;
    auto firstType = RankedTensorType::get(sizes, et);
    Value first = tensor::ExtractSliceOp::create(rewriter, loc, firstType, op.getInput(),
                                                 ValueRange{}, ValueRange{}, ValueRange{},
                                                 offsets, sizes, strides);
    auto valType = RankedTensorType::get(outShape, et);
    Value valInit = reshapeTensor(rewriter, loc, first, valType);
    Value idxEmpty = tensor::EmptyOp::create(rewriter, loc, outShape, i64);
    Value idxInit = linalg::FillOp::create(rewriter, loc, s::constant(rewriter, loc, i64, 0),
                                           idxEmpty)
                        .getResult(0);
    AffineMap out = AffineMap::get(rank, 0, outExprs, ctx);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valType, idxInit.getType()}, ValueRange{op.getInput()},
        ValueRange{valInit, idxInit}, {AffineMap::getMultiDimIdentityMap(rank, ctx), out, out},
        iterators, [&](OpBuilder &b, Location l, ValueRange a) {
          Value x = a[0], best = a[1], bestIdx = a[2];
          Value idx = arith::IndexCastOp::create(b, l, i64, linalg::IndexOp::create(b, l, axis));
          Value better;
          if (s::isFloat(et)) {
            auto pred = isMin ? (last ? arith::CmpFPredicate::OLE : arith::CmpFPredicate::OLT)
                              : (last ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT);
            better = arith::CmpFOp::create(b, l, pred, x, best);
          } else {
            auto pred = isMin ? (last ? arith::CmpIPredicate::sle : arith::CmpIPredicate::slt)
                              : (last ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sgt);
            better = arith::CmpIOp::create(b, l, pred, x, best);
          }
          linalg::YieldOp::create(
              b, l,
              {arith::SelectOp::create(b, l, better, x, best).getResult(),
               arith::SelectOp::create(b, l, better, idx, bestIdx).getResult()});
        });
    rewriter.replaceOp(op, reshapeTensor(rewriter, loc, generic.getResult(1), op.getType()));
    return success();
  }
};

} // namespace

void tlc::populateTLNNOpsToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerConv2D, LowerQuantizedConv2D, LowerMaxPool, LowerAvgPool, LowerLayerNorm,
               LowerGather, LowerPad, LowerArgMax>(patterns.getContext());
}
