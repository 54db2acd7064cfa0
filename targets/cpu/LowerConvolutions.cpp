// tlc-lower-convolutions: 2-D convolutions on tensors as im2col + contraction or as direct
// contractions over the input (which the contraction tiler and vectorizer handle) and
// depthwise convolutions as loops in a vectorizable order.
#include "TL/ConstantData.h"
#include "passes/LinalgBuilders.h"
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/ConvolutionTiles.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {
#define GEN_PASS_DEF_TLCLOWERCONVOLUTIONS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

using IT = utils::IteratorType;

/// Mechanism: whether `op` is a static, tensor-semantics convolution whose operands all have
/// the same float element type.
bool qualifies(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() || op->getNumResults() != 1)
    return false;
  Type et = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isa<FloatType>(et))
    return false;
  return llvm::all_of(op->getOperands(),
                      [&](Value v) { return getElementTypeOrSelf(v.getType()) == et; });
}

/// Mechanism: whether `op` is a static non-grouped convolution whose inputs are all bf16.
bool isBF16Convolution(linalg::LinalgOp op) {
  auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation());
  return conv && op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
         llvm::all_of(op.getDpsInputs(), [](Value v) { return getElementTypeOrSelf(v).isBF16(); });
}

/// Mechanism: a mixed-precision convolution (bf16/f16 input and filter, f32 output) rebuilt
/// over its operands extended to the output's type first, so every strategy below applies.
/// The extension is exact, so the result is that of the low-precision operands; the cost is one
/// pass converting each operand (the weights are still stored in the low type). With
/// `foldConstants`, a constant operand is extended at compile time instead (stored in the
/// output's type): for a filter that Winograd transforms at compile time anyway, which needs a
/// constant filter.
/// TODO(issue 17): direct and phase tiles on bf16 operands, converting or pairing while
/// packing as the contraction tiler does; Winograd's input phases copied in bf16.
Operation *extendMixedOperands(RewriterBase &rewriter, linalg::LinalgOp op, bool foldConstants) {
  Type et = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isa<FloatType>(et) ||
      llvm::all_of(op.getDpsInputs(), [&](Value v) { return getElementTypeOrSelf(v) == et; }))
    return nullptr;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs;
  for (Value v : op.getDpsInputs()) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getElementType() == et || !isa<FloatType>(type.getElementType())) {
      inputs.push_back(v);
      continue;
    }
    DenseFPElementsAttr constant;
    if (foldConstants && matchPattern(v, m_Constant(&constant))) {
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, tlc::tl::convertFloatElements(constant, cast<FloatType>(et))));
      continue;
    }
    inputs.push_back(tlc::buildElementwise(
        rewriter, loc, type.clone(et), v, [&](OpBuilder &b, Location l, ValueRange args) {
          return arith::ExtFOp::create(b, l, et, args[0]).getResult();
        }));
  }
  Value init = op.getDpsInits()[0];
  Type resultType = op->getResult(0).getType();
  Operation *rebuilt = nullptr;
  if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation()))
    rebuilt = linalg::Conv2DNchwFchwOp::create(rewriter, loc, TypeRange{resultType}, inputs,
                                               ValueRange{init}, conv.getStrides(),
                                               conv.getDilations());
  else if (auto grouped = dyn_cast<linalg::Conv2DNgchwGfchwOp>(op.getOperation()))
    rebuilt = linalg::Conv2DNgchwGfchwOp::create(rewriter, loc, TypeRange{resultType}, inputs,
                                                 ValueRange{init}, grouped.getStrides(),
                                                 grouped.getDilations());
  else if (auto depthwise = dyn_cast<linalg::DepthwiseConv2DNchwChwOp>(op.getOperation()))
    rebuilt = linalg::DepthwiseConv2DNchwChwOp::create(rewriter, loc, TypeRange{resultType},
                                                       inputs, ValueRange{init},
                                                       depthwise.getStrides(),
                                                       depthwise.getDilations());
  if (rebuilt)
    rewriter.replaceOp(op, rebuilt->getResults());
  return rebuilt;
}

/// The im2col matrix of `input` [..., C, H, W] (padding applied) for a KH x KW window with
/// strides `st` and dilations `dil` over OH x OW outputs: [..., C * KH * KW, OH * OW], rows
/// (c, y, x), columns the output pixels. For a 1x1 window at stride 1 over OH x OW pixels it is
/// the input itself, collapsed; otherwise a copy, one linalg.generic writing
/// [..., C, KH, KW, OH, OW] (unit stride innermost) from input[..., c, oh * SH + y * DH,
/// ow * SW + x * DW].
Value im2colMatrix(RewriterBase &rewriter, Location loc, Value input, int64_t kh, int64_t kw,
                   int64_t oh, int64_t ow, ArrayRef<int64_t> st, ArrayRef<int64_t> dil) {
  auto inType = cast<RankedTensorType>(input.getType());
  Type et = inType.getElementType();
  int64_t rank = inType.getRank(), lead = rank - 2; // the dimensions before H and W
  SmallVector<int64_t> shape(inType.getShape().take_front(lead));
  int64_t c = shape.back();
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 1 < lead; ++d)
    groups.push_back({d});
  if (kh == 1 && kw == 1 && st[0] == 1 && st[1] == 1 && inType.getDimSize(lead) == oh &&
      inType.getDimSize(lead + 1) == ow) {
    groups.push_back({lead - 1});
    groups.push_back({lead, lead + 1});
    shape.push_back(oh * ow);
    return tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get(shape, et), input,
                                           groups);
  }
  MLIRContext *ctx = rewriter.getContext();
  int64_t colRank = rank + 2;
  SmallVector<int64_t> colShape(shape);
  llvm::append_values(colShape, kh, kw, oh, ow);
  auto colType = RankedTensorType::get(colShape, et);
  Value empty = tensor::EmptyOp::create(rewriter, loc, colShape, et);
  // Window dims y, x at lead, lead + 1; output pixel dims at lead + 2, lead + 3.
  SmallVector<AffineExpr> reads;
  for (int64_t d = 0; d < lead; ++d)
    reads.push_back(getAffineDimExpr(d, ctx));
  reads.push_back(getAffineDimExpr(lead + 2, ctx) * st[0] + getAffineDimExpr(lead, ctx) * dil[0]);
  reads.push_back(getAffineDimExpr(lead + 3, ctx) * st[1] +
                  getAffineDimExpr(lead + 1, ctx) * dil[1]);
  AffineMap inMap = AffineMap::get(colRank, 0, reads, ctx);
  AffineMap outMap = AffineMap::getMultiDimIdentityMap(colRank, ctx);
  Value col =
      linalg::GenericOp::create(
          rewriter, loc, TypeRange{colType}, ValueRange{input}, ValueRange{empty},
          ArrayRef<AffineMap>{inMap, outMap}, SmallVector<IT>(colRank, IT::parallel),
          [](OpBuilder &b, Location l, ValueRange args) { linalg::YieldOp::create(b, l, args[0]); })
          .getResult(0);
  groups.push_back({lead - 1, lead, lead + 1});
  groups.push_back({lead + 2, lead + 3});
  shape.back() = c * kh * kw;
  shape.push_back(oh * ow);
  return tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get(shape, et), col,
                                         groups);
}

/// The filter [F, C, KH, KW] as the [F, C * KH * KW] matrix of an im2col contraction.
Value filterMatrix(RewriterBase &rewriter, Location loc, Value filter, int64_t f, int64_t k) {
  return tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({f, k}, getElementTypeOrSelf(filter)), filter,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
}

/// conv_2d_nchw_fchw -> im2col copy (unless 1x1, stride 1) + [F, K] x [N, K, P] contraction.
LogicalResult lowerConv(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0], filter = op.getInputs()[1], init = op.getOutputs()[0];
  auto outType = cast<RankedTensorType>(init.getType());
  tlc::ConvShape shape = tlc::getConvShape(op);
  Type et = shape.elementType;
  int64_t n = shape.n, f = shape.f, oh = shape.oh, ow = shape.ow, c = shape.c, kh = shape.kh,
          kw = shape.kw;
  ArrayRef<int64_t> st = shape.strides, dil = shape.dilations;
  int64_t k = c * kh * kw, p = oh * ow;
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);

  Value col = im2colMatrix(rewriter, loc, input, kh, kw, oh, ow, st, dil);
  Value filter2 = filterMatrix(rewriter, loc, filter, f, k);
  auto out3Type = RankedTensorType::get({n, f, p}, et);
  Value out3 = tensor::CollapseShapeOp::create(rewriter, loc, out3Type, init,
                                               ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  // (b, m, n, k): out[b, m, n] += filter[m, k] * col[b, k, n]
  AffineExpr b, m, nn, kk;
  bindDims(ctx, b, m, nn, kk);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {m, kk}, ctx),
                                 AffineMap::get(4, 0, {b, kk, nn}, ctx),
                                 AffineMap::get(4, 0, {b, m, nn}, ctx)};
  Value mm = tlc::buildMacGeneric(rewriter, loc, filter2, col, out3, maps,
                                  {IT::parallel, IT::parallel, IT::parallel, IT::reduction});
  Value result = tensor::ExpandShapeOp::create(rewriter, loc, outType, mm,
                                               ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  rewriter.replaceOp(op, result);
  return success();
}

/// Policy input: the filter of `op` as constant data, if it is a constant of the output's
/// element type.
DenseElementsAttr constantFilter(linalg::Conv2DNchwFchwOp op) {
  DenseElementsAttr filter;
  if (!matchPattern(op.getInputs()[1], m_Constant(&filter)) ||
      filter.getElementType() != getElementTypeOrSelf(op.getOutputs()[0]))
    return {};
  return filter;
}

/// `v` [1, a, b, c] transposed into [1, a, c, b].
Value swapLastTwo(RewriterBase &rewriter, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(type.getShape());
  std::swap(shape[2], shape[3]);
  return linalg::TransposeOp::create(
             rewriter, loc, v, tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType()),
             ArrayRef<int64_t>{0, 1, 3, 2})
      ->getResult(0);
}

/// A channel-vector product's layout [1, F / w, P, w] back to NCHW `nchwType` [1, F, OH, OW]:
/// the last two dimensions swapped, the channels joined, the pixels split.
Value productToNCHW(RewriterBase &rewriter, Location loc, Value product,
                    RankedTensorType nchwType) {
  auto type = cast<RankedTensorType>(product.getType());
  auto channelsType =
      RankedTensorType::get({1, nchwType.getDimSize(1), type.getDimSize(2)}, type.getElementType());
  Value channels = tensor::CollapseShapeOp::create(
      rewriter, loc, channelsType, swapLastTwo(rewriter, loc, product),
      ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}});
  return tensor::ExpandShapeOp::create(rewriter, loc, nchwType, channels,
                                       ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
}

/// Mechanism: the elementwise op `epilogue` of a channel-vector convolution's result `result`
/// ([1, F, OH, OW], its only use) rebuilt over the product `product` ([1, F / w, P, w], see
/// lowerConvChannelVectors) and its result transposed back into [1, F, OH, OW], so that
/// tlc-fuse-epilogues runs it on the product's tiles. Each other operand is reshaped (F split
/// into [F / w, w], OH and OW joined into P) and read through the permuted map; the op keeps
/// its body (moved), location and attributes. Fails (nothing changed) when `epilogue` does
/// not qualify: all loops parallel, one result written through the identity from an unread
/// init, `result` read through the identity, every other operand read by the batch, channel
/// and whole (row, column) pairs or at 0 in a unit dimension.
LogicalResult epilogueOnProduct(RewriterBase &rewriter, linalg::GenericOp epilogue, Value result,
                                Value product, int64_t channels) {
  auto productType = cast<RankedTensorType>(product.getType());
  int64_t blocks = productType.getDimSize(1), p = productType.getDimSize(2);
  if (!epilogue || epilogue.getNumLoops() != 4 ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      epilogue.getNumDpsInits() != 1 || epilogue->getNumResults() != 1 ||
      !epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0)).isIdentity() ||
      !epilogue.getMatchingBlockArgument(epilogue.getDpsInitOperand(0)).use_empty() ||
      llvm::is_contained(epilogue.getDpsInits(), result))
    return failure();
  MLIRContext *ctx = rewriter.getContext();
  Location loc = epilogue.getLoc();
  // Loops of the rebuilt op: (b, o, pp, i); of the epilogue: (b, f, h, w).
  AffineExpr b, o, pp, i;
  bindDims(ctx, b, o, pp, i);
  struct Operand {
    SmallVector<int64_t> shape;
    SmallVector<AffineExpr> exprs;
  };
  SmallVector<Operand> plans;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    Operand plan;
    if (input->get() == result) {
      if (!map.isIdentity())
        return failure();
      plans.push_back(plan);
      continue;
    }
    if (!type)
      return failure();
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      AffineExpr e = map.getResult(r);
      if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0 &&
                                                    type.getDimSize(r) == 1) {
        plan.shape.push_back(1);
        plan.exprs.push_back(e);
        continue;
      }
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        return failure();
      if (dim.getPosition() == 0) {
        plan.shape.push_back(type.getDimSize(r));
        plan.exprs.push_back(b);
      } else if (dim.getPosition() == 1) {
        llvm::append_values(plan.shape, blocks, channels);
        llvm::append_values(plan.exprs, o, i);
      } else if (dim.getPosition() == 2 && r + 1 < map.getNumResults() &&
                 map.getResult(r + 1) == getAffineDimExpr(3, ctx)) {
        plan.shape.push_back(p);
        plan.exprs.push_back(pp);
        ++r;
      } else {
        return failure();
      }
    }
    plans.push_back(plan);
  }
  rewriter.setInsertionPoint(epilogue);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (auto [input, plan] : llvm::zip(epilogue.getDpsInputOperands(), plans)) {
    if (input->get() == result) {
      inputs.push_back(product);
      maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
      continue;
    }
    inputs.push_back(tlc::reshapeTensor(
        rewriter, loc, input->get(),
        RankedTensorType::get(plan.shape, getElementTypeOrSelf(input->get()))));
    maps.push_back(AffineMap::get(4, 0, plan.exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Type outEt = getElementTypeOrSelf(epilogue->getResult(0).getType());
  Value empty = tensor::EmptyOp::create(rewriter, loc, productType.getShape(), outEt);
  auto rebuilt = linalg::GenericOp::create(
      rewriter, loc, TypeRange{empty.getType()}, inputs, ValueRange{empty}, maps,
      epilogue.getIteratorTypesArray());
  rebuilt->setDiscardableAttrs(epilogue->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(epilogue.getRegion(), rebuilt.getRegion(),
                              rebuilt.getRegion().begin());
  rewriter.replaceOp(epilogue,
                     productToNCHW(rewriter, loc, rebuilt.getResult(0),
                                   cast<RankedTensorType>(epilogue->getResult(0).getType())));
  return success();
}

/// conv_2d_nchw_fchw of one image with few output pixels and a constant filter -> im2col
/// matrix [K, P] (unless 1x1, stride 1) and one contraction whose output's contiguous
/// dimension is the output channels, in blocks of `channels`: T[o, p, i] += col[k, p] *
/// Wp[o, k, i], F = o * channels + i, then T transposed into [1, F, OH, OW]. The register tiles'
/// vectors run along the channels (all lanes in use: 49 pixels take 4 vectors of 16 over the
/// pixels, 77% of their lanes), Wp, the filter packed at compile time in strips of `channels`
/// columns, streams through each strip's tiles in order, and each strip's block of T is
/// contiguous (the transpose reads no rows a multiple of 4 KiB apart, which share cache sets).
LogicalResult lowerConvChannelVectors(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op,
                                      DenseElementsAttr filter, int64_t channels) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0], init = op.getOutputs()[0];
  auto outType = cast<RankedTensorType>(init.getType());
  tlc::ConvShape shape = tlc::getConvShape(op);
  Type et = shape.elementType;
  int64_t f = shape.f, oh = shape.oh, ow = shape.ow;
  int64_t k = shape.c * shape.kh * shape.kw, p = oh * ow, blocks = f / channels;
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);

  Value col = im2colMatrix(rewriter, loc, input, shape.kh, shape.kw, oh, ow, shape.strides,
                           shape.dilations); // [1, K, P]
  // Wp[o, k, i] = filter[o * channels + i, k]
  DenseElementsAttr packed = tlc::tl::transposeElements(
      filter.reshape(RankedTensorType::get({blocks, channels, k}, et)), {0, 2, 1});
  if (!packed)
    return op.emitOpError("packing the filter failed");
  Value wp = arith::ConstantOp::create(rewriter, loc, packed);
  auto productType = RankedTensorType::get({1, blocks, p, channels}, et);
  // The initial value in the product's layout: a fill stays a fill (of the new shape), anything
  // else is transposed.
  Value productInit;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, productType.getShape(), et);
    productInit = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty).getResult(0);
  } else {
    // [1, F, OH, OW] -> [1, F, P] -> [1, blocks, channels, P] -> [1, blocks, P, channels]
    Value init3 = tensor::CollapseShapeOp::create(
        rewriter, loc, RankedTensorType::get({1, f, p}, et), init,
        ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
    productInit =
        swapLastTwo(rewriter, loc,
                    tensor::ExpandShapeOp::create(
                        rewriter, loc, RankedTensorType::get({1, blocks, channels, p}, et), init3,
                        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}}));
  }
  // (b, o, pp, i, kk): out[b, o, pp, i] += col[b, kk, pp] * wp[o, kk, i]
  AffineExpr b, o, pp, i, kk;
  bindDims(ctx, b, o, pp, i, kk);
  SmallVector<AffineMap> maps = {AffineMap::get(5, 0, {b, kk, pp}, ctx),
                                 AffineMap::get(5, 0, {o, kk, i}, ctx),
                                 AffineMap::get(5, 0, {b, o, pp, i}, ctx)};
  Value product =
      tlc::buildMacGeneric(rewriter, loc, col, wp, productInit, maps,
                           {IT::parallel, IT::parallel, IT::parallel, IT::parallel, IT::reduction});
  // An elementwise epilogue (bias, activation, residual add) moves onto the product, where
  // tlc-fuse-epilogues runs it on the register tiles' output; the transpose then follows it.
  Value result = op->getResult(0);
  if (result.hasOneUse() &&
      succeeded(epilogueOnProduct(rewriter, dyn_cast<linalg::GenericOp>(*result.getUsers().begin()),
                                  result, product, channels))) {
    rewriter.eraseOp(op);
    return success();
  }
  rewriter.setInsertionPointAfterValue(product);
  rewriter.replaceOp(op, productToNCHW(rewriter, loc, product, outType));
  return success();
}

/// conv_2d_nchw_fchw over a batch of small images (fewer output pixels than a register tile's
/// columns) -> an im2col matrix with the batch among its columns, [C * KH * KW, N * OH * OW],
/// one contraction [F, K] x [K, N * P] -> [F, N * P], and a transpose of that (small) result
/// to [N, F, P]. Batched over N, each image's product had P columns (4 at 2x2: resnet18's
/// layer 4 at 64x64 inputs ran 32 GFLOP/s in training).
LogicalResult lowerConvBatchColumns(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0], filter = op.getInputs()[1], init = op.getOutputs()[0];
  auto outType = cast<RankedTensorType>(init.getType());
  tlc::ConvShape shape = tlc::getConvShape(op);
  Type et = shape.elementType;
  int64_t n = shape.n, f = shape.f, oh = shape.oh, ow = shape.ow, c = shape.c, kh = shape.kh,
          kw = shape.kw;
  ArrayRef<int64_t> st = shape.strides, dil = shape.dilations;
  int64_t k = c * kh * kw, p = oh * ow;
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);

  // col[c, y, x, b, oh, ow] = input[b, c, oh * SH + y * DH, ow * SW + x * DW]
  AffineExpr cc, y, x, b, r, q;
  bindDims(ctx, cc, y, x, b, r, q);
  SmallVector<int64_t> colShape = {c, kh, kw, n, oh, ow};
  Value empty = tensor::EmptyOp::create(rewriter, loc, colShape, et);
  AffineMap inMap =
      AffineMap::get(6, 0, {b, cc, r * st[0] + y * dil[0], q * st[1] + x * dil[1]}, ctx);
  Value col = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{empty.getType()}, ValueRange{input}, ValueRange{empty},
                  ArrayRef<AffineMap>{inMap, AffineMap::getMultiDimIdentityMap(6, ctx)},
                  SmallVector<IT>(6, IT::parallel),
                  [](OpBuilder &bb, Location l, ValueRange args) {
                    linalg::YieldOp::create(bb, l, args[0]);
                  })
                  .getResult(0);
  col = tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({k, n * p}, et), col,
                                        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
  Value filter2 = filterMatrix(rewriter, loc, filter, f, k);
  // The initial value (a fill, or a bias) in the product's layout.
  Value init3 = tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({n, f, p}, et),
                                                init, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  Value initT = linalg::TransposeOp::create(
                    rewriter, loc, init3, tensor::EmptyOp::create(rewriter, loc, {f, n, p}, et),
                    ArrayRef<int64_t>{1, 0, 2})
                    ->getResult(0);
  Value init2 = tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({f, n * p}, et),
                                                initT, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  // (m, j, k): out[m, j] += filter[m, k] * col[k, j]
  AffineExpr m, j, kk;
  bindDims(ctx, m, j, kk);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, kk}, ctx),
                                 AffineMap::get(3, 0, {kk, j}, ctx),
                                 AffineMap::get(3, 0, {m, j}, ctx)};
  Value mm = tlc::buildMacGeneric(rewriter, loc, filter2, col, init2, maps,
                                  {IT::parallel, IT::parallel, IT::reduction});
  Value mm3 = tensor::ExpandShapeOp::create(rewriter, loc, RankedTensorType::get({f, n, p}, et), mm,
                                            ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  Value out3 = linalg::TransposeOp::create(rewriter, loc, mm3,
                                           tensor::EmptyOp::create(rewriter, loc, {n, f, p}, et),
                                           ArrayRef<int64_t>{1, 0, 2})
                   ->getResult(0);
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      op, outType, out3, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  return success();
}

/// Policy input: whether `conv`'s result is only written into the interior of a padded tensor
/// (an insert_slice into a fill), directly or through one elementwise op (its epilogue): the
/// next convolution's padded input.
bool feedsPadding(linalg::Conv2DNchwFchwOp conv) {
  Value value = conv->getResult(0);
  if (!value.hasOneUse())
    return false;
  Operation *user = *value.getUsers().begin();
  if (auto epilogue = dyn_cast<linalg::GenericOp>(user)) {
    if (epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
        epilogue->getNumResults() != 1 || !epilogue->getResult(0).hasOneUse())
      return false;
    user = *epilogue->getResult(0).getUsers().begin();
  }
  auto insert = dyn_cast<tensor::InsertSliceOp>(user);
  return insert && insert.getDest().getDefiningOp<linalg::FillOp>();
}

/// A 1x1 stride-1 convolution over unpadded input -> one contraction over (b, m, h, w, k) with
/// the output's rows kept: out[b, m, h, w] += filter[m, k] * input[b, k, h, w]. Unlike the
/// [F, C] x [N, C, H * W] form it can write a strided destination, e.g. the interior of the
/// next convolution's padded input, in place (a collapsed output cannot be a view of it, and
/// bufferization copies it there).
LogicalResult lowerPointwiseRows(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0], filter = op.getInputs()[1], init = op.getOutputs()[0];
  tlc::ConvShape shape = tlc::getConvShape(op);
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  Value filter2 = filterMatrix(rewriter, loc, filter, shape.f, shape.c); // 1x1: K = C
  AffineExpr b, m, h, w, k;
  bindDims(ctx, b, m, h, w, k);
  SmallVector<AffineMap> maps = {AffineMap::get(5, 0, {m, k}, ctx),
                                 AffineMap::get(5, 0, {b, k, h, w}, ctx),
                                 AffineMap::get(5, 0, {b, m, h, w}, ctx)};
  rewriter.replaceOp(op, tlc::buildMacGeneric(rewriter, loc, filter2, input, init, maps,
                                              {IT::parallel, IT::parallel, IT::parallel,
                                               IT::parallel, IT::reduction}));
  return success();
}

/// conv_2d_ngchw_gfchw -> im2col copy (unless 1x1, stride 1) + a contraction batched over
/// the groups: [G, F/G, K] x [N, G, K, P] -> [N, G, F/G, P], K = C/G * KH * KW.
LogicalResult lowerGroupedConv(RewriterBase &rewriter, linalg::Conv2DNgchwGfchwOp op) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0], filter = op.getInputs()[1], init = op.getOutputs()[0];
  auto outType = cast<RankedTensorType>(init.getType());
  tlc::ConvShape shape = tlc::getConvShape(op);
  Type et = shape.elementType;
  int64_t n = shape.n, g = shape.groups, fg = shape.f / g, oh = shape.oh, ow = shape.ow;
  int64_t k = shape.c / g * shape.kh * shape.kw, p = oh * ow;
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);

  Value col = im2colMatrix(rewriter, loc, input, shape.kh, shape.kw, oh, ow, shape.strides,
                           shape.dilations);
  Value filter3 =
      tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({g, fg, k}, et), filter,
                                      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
  auto out4Type = RankedTensorType::get({n, g, fg, p}, et);
  Value out4 = tensor::CollapseShapeOp::create(
      rewriter, loc, out4Type, init, ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  // (b, g, m, n, k): out[b, g, m, n] += filter[g, m, k] * col[b, g, k, n]
  AffineExpr b, gg, m, nn, kk;
  bindDims(ctx, b, gg, m, nn, kk);
  SmallVector<AffineMap> maps = {AffineMap::get(5, 0, {gg, m, kk}, ctx),
                                 AffineMap::get(5, 0, {b, gg, kk, nn}, ctx),
                                 AffineMap::get(5, 0, {b, gg, m, nn}, ctx)};
  Value mm =
      tlc::buildMacGeneric(rewriter, loc, filter3, col, out4, maps,
                           {IT::parallel, IT::parallel, IT::parallel, IT::parallel, IT::reduction});
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      op, outType, mm, ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
  return success();
}

/// depthwise_conv_2d_nchw_chw -> generic over (n, c, oh, kh, kw, ow): ow innermost.
LogicalResult lowerDepthwise(RewriterBase &rewriter, linalg::DepthwiseConv2DNchwChwOp op) {
  Location loc = op.getLoc();
  Value input = op.getInputs()[0], filter = op.getInputs()[1], init = op.getOutputs()[0];
  SmallVector<int64_t> st = tlc::convAttrValues(op.getStrides()),
                       dil = tlc::convAttrValues(op.getDilations());
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr n, c, oh, kh, kw, ow;
  bindDims(ctx, n, c, oh, kh, kw, ow);
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {n, c, oh * st[0] + kh * dil[0], ow * st[1] + kw * dil[1]}, ctx),
      AffineMap::get(6, 0, {c, kh, kw}, ctx), AffineMap::get(6, 0, {n, c, oh, ow}, ctx)};
  rewriter.setInsertionPoint(op);
  rewriter.replaceOp(op, tlc::buildMacGeneric(rewriter, loc, input, filter, init, maps,
                                              {IT::parallel, IT::parallel, IT::parallel,
                                               IT::reduction, IT::reduction, IT::parallel}));
  return success();
}

struct TLCLowerConvolutionsPass
    : tlc::impl::TLCLowerConvolutionsBase<TLCLowerConvolutionsPass> {
  using Base::Base;

  /// Policy (with bf16-dots): a bf16 convolution lowered as it is (lowerConv: one
  /// contraction, whose tiler takes the bf16 dot products on its operands) instead of extended
  /// first: a 1x1 window (its im2col matrix is the input, or a strided copy of it in bf16), or
  /// a window whose f32 form would also be one im2col matrix and one contraction (not
  /// Winograd, see takesWholeIm2col): the matrix is then copied in bf16. resnet18's 7x7 and
  /// 14x14 3x3 convolutions (layer4's 512-channel ones 1.6 ms each at fp32, 1 thread, Zen 5).
  /// Without bf16 dot products (AVX2) the extension pass measured faster on mobilenet_v2
  /// than converting while packing (12.9 against 14.0 ms).
  bool lowersMixedAsContraction(linalg::LinalgOp op) {
    if (!isBF16Convolution(op))
      return false;
    auto conv = cast<linalg::Conv2DNchwFchwOp>(op.getOperation());
    tlc::ConvShape shape = tlc::getConvShape(conv);
    if (shape.kh == 1 && shape.kw == 1)
      return true;
    return !takesWinograd(conv) && takesWholeIm2col(shape);
  }

  /// The f32 policy's choice (lower) of one im2col matrix and one contraction for a windowed
  /// convolution: see lower.
  bool takesWholeIm2col(const tlc::ConvShape &shape) {
    int64_t n = shape.n, oh = shape.oh, ow = shape.ow;
    int64_t depth = shape.c * shape.kh * shape.kw;
    int64_t rows =
        tlc::chooseConvTileRows(n, oh, ow, depth, tilePixels, tileBytes, tileSlots);
    int64_t im2colBytes = n * depth * oh * ow * 4;
    return !tileIm2col || im2colBytes <= minIm2colBytes || rows * ow < minTilePixels ||
           n * (oh / rows) < minTiles;
  }

  /// Policy: one image whose output pixels fill the 16-lane vectors of a register tile's
  /// columns badly (at most `channel-vector-max-pixels` pixels, at least 15% of the lanes
  /// empty: 7x7 -> 49 pixels in 64 lanes), of a constant filter whose output channels are
  /// whole strips of `channel-vector-width`, takes vectors along the channels
  /// (lowerConvChannelVectors). Returns the filter then.
  DenseElementsAttr takesChannelVectors(linalg::Conv2DNchwFchwOp conv) {
    tlc::ConvShape shape = tlc::getConvShape(conv);
    int64_t p = shape.oh * shape.ow;
    if (channelVectorWidth <= 0 || shape.n != 1 || p > channelVectorMaxPixels ||
        shape.f % channelVectorWidth != 0 ||
        100 * p > 85 * static_cast<int64_t>(llvm::alignTo(p, 16)))
      return {};
    return constantFilter(conv);
  }

  /// The shape half of the Winograd policy below (types and the constant filter aside).
  bool takesWinograd(linalg::Conv2DNchwFchwOp conv) {
    tlc::ConvShape shape = tlc::getConvShape(conv);
    return winograd && shape.c >= winogradMinChannels && shape.f >= winogradMinChannels &&
           tlc::winogradGain(shape, 32) >= winogradMinGain;
  }

  /// Policy: tiled im2col for a convolution with a window wider than 1x1 (a strided 1x1
  /// convolution copies a quarter of its input or less; splitting all of it into stride
  /// phases costs more) whose whole im2col matrix would outgrow the caches (more than
  /// `min-im2col-bytes`) and whose row tiles are large enough to feed the register tiles
  /// (at least `min-tile-pixels` pixels) and many enough for the threads (`min-tiles`).
  /// Measured on resnet18's layers: 56x56 and 112x112 outputs gain (per-tile copies in
  /// cache, vectorized); 28x28 and smaller lose (their matrix fits in cache anyway, and the
  /// byte bound makes tiles of one or two rows, too short for the register tiles).
  /// Before those, a 3x3 stride-1 convolution of a constant filter with at least
  /// `winograd-min-channels` input and output channels takes Winograd's F(2x2, 3x3) when its
  /// estimated gain (tlc::winogradGain: 2.25x fewer multiply-adds, less the lanes its tiles
  /// leave empty in the 32-wide register tiles) is at least `winograd-min-gain`.
  LogicalResult lower(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp conv) {
    tlc::ConvShape shape = tlc::getConvShape(conv);
    int64_t n = shape.n, oh = shape.oh, ow = shape.ow;
    int64_t depth = shape.c * shape.kh * shape.kw;
    int64_t rows =
        tlc::chooseConvTileRows(n, oh, ow, depth, tilePixels, tileBytes, tileSlots);
    bool window = shape.kh > 1 || shape.kw > 1;
    // A pointwise convolution writing the next convolution's padded input keeps its rows when
    // they are wide enough for the register tiles. Measured on mobilenet_v2 (1 thread): its
    // 112-pixel rows (3.5 register tiles of 32) gain 1.4 ms over the copy (2.9 -> 1.5 ms);
    // 56- and 28-pixel rows break even or lose (the row form's contraction ran 35-40 GFLOP/s
    // against 60-95 over collapsed pixels, which ate the 0.07-0.26 ms copies).
    if (!window && shape.strides[0] == 1 && shape.strides[1] == 1 && ow >= pointwiseRowsMinWidth &&
        cast<RankedTensorType>(conv.getInputs()[0].getType()).getDimSize(3) == ow &&
        feedsPadding(conv))
      return lowerPointwiseRows(rewriter, conv);
    // A batch of images smaller than a register tile's columns: the batch joins the columns.
    if (n > 1 && oh * ow < batchColumnsMaxPixels)
      return lowerConvBatchColumns(rewriter, conv);
    if (takesWinograd(conv) && tlc::canLowerConvWinograd(conv)) {
      // A bf16 convolution's U is bf16; where the CPU multiplies bf16 natively, V is rounded
      // to bf16 too, so the batched products take the dot products (resnet18 224, Zen 5,
      // 1 thread: 16.2 -> 12.6 ms, fp32 18.7; error against PyTorch 4.1e-3 -> 3.9e-3).
      // Without them V stays f32: U is extended while packed.
      Type storage = winogradFilterStorage.lookup(conv);
      Type transform = storage && storage.isBF16() && bf16Dots ? storage : Type();
      return tlc::lowerConvWinograd(rewriter, conv, storage, transform);
    }
    if (!window || takesWholeIm2col(shape)) {
      if (DenseElementsAttr filter = takesChannelVectors(conv))
        return lowerConvChannelVectors(rewriter, conv, filter, channelVectorWidth);
      return lowerConv(rewriter, conv);
    }
    // The same convolutions, when stride 1, contract the input in place instead of copying
    // its windows per tile.
    if (direct && tlc::canLowerConvDirect(conv)) {
      int64_t inW = cast<RankedTensorType>(conv.getInputs()[0].getType()).getDimSize(3);
      int64_t directRows = tlc::chooseDirectConvRows(n, oh, ow, inW, shape.c * inW * 4, tilePixels,
                                                     tileBytes, tileSlots, directAlign);
      if (n * (oh / directRows) >= minTiles)
        return tlc::lowerConvToDirectTiles(rewriter, conv, directRows, directAlign);
    }
    // Strided ones copy per tile only the rows of their row phases at each column tap and
    // read every row tap from them in place. (Splitting the columns into phases too, each
    // tile a sum of stride-1 direct contractions over the phase images, measured 15-20%
    // slower than im2col on the 7x7 stride-2 convolution: its accumulator over the phase row
    // pitch costs a copy into the output, 14% of the time for its 147-deep reduction, and
    // writing output rows in place leaves 112 of 128 lanes of the register tiles in use.)
    if (direct && phases && tlc::canLowerConvPhases(conv)) {
      int64_t taps = shape.c * shape.strides[0] * shape.kw;
      int64_t rowTaps = llvm::divideCeil(shape.kh, shape.strides[0]);
      int64_t phaseRows = tlc::chooseDirectConvRows(n, oh, ow, ow, taps * ow * 4, tilePixels,
                                                    tileBytes, tileSlots, directAlign,
                                                    /*copiedExtraRows=*/rowTaps - 1);
      int64_t block =
          tlc::choosePhaseBlockPixels(shape.f, phaseRows * ow, directAlign, phaseBlockBytes);
      if (n * (oh / phaseRows) >= minTiles)
        return tlc::lowerConvToRowPhaseTiles(rewriter, conv, phaseRows, block);
    }
    return tlc::lowerConvToTiles(rewriter, conv, rows);
  }

  /// Policy: a grouped convolution of stride 1 (over a filled output) becomes direct tiles
  /// (rows as for lower()'s direct tiles); otherwise it is tiled under lower()'s im2col
  /// conditions (every tile copies the windows of all groups' channels), else lowered whole.
  LogicalResult lower(RewriterBase &rewriter, linalg::Conv2DNgchwGfchwOp conv) {
    tlc::ConvShape shape = tlc::getConvShape(conv);
    if (direct && tlc::canLowerGroupedConvDirect(conv)) {
      int64_t inW = cast<RankedTensorType>(conv.getInputs()[0].getType()).getDimSize(4);
      int64_t directRows =
          tlc::chooseDirectConvRows(shape.n, shape.oh, shape.ow, inW, shape.c * inW * 4, tilePixels,
                                    tileBytes, tileSlots, directAlign);
      return tlc::lowerGroupedConvToDirectTiles(rewriter, conv, directRows, directAlign);
    }
    int64_t depth = shape.c * shape.kh * shape.kw;
    int64_t rows = tlc::chooseConvTileRows(shape.n, shape.oh, shape.ow, depth, tilePixels,
                                           tileBytes, tileSlots);
    bool window = shape.kh > 1 || shape.kw > 1;
    if (window && !takesWholeIm2col(shape))
      return tlc::lowerGroupedConvToTiles(rewriter, conv, rows);
    return lowerGroupedConv(rewriter, conv);
  }

  /// Policy: a mixed-precision convolution whose shape takes Winograd gets its constant filter
  /// extended at compile time (Winograd transforms constant filters only); its transformed
  /// filter is then stored in the filter's type (winogradFilterStorage). Measured on resnet18
  /// (224x224, 1 thread, Zen 5, x86-64-v3 code): bf16 51.1 ms with these convolutions
  /// direct/im2col on extended operands, 34.6 ms by Winograd, fp32 34.1 ms.
  bool takesWinogradFilter(linalg::LinalgOp op) {
    auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation());
    return conv && !op.hasDynamicShape() && takesWinograd(conv);
  }

  /// The type each mixed-precision Winograd candidate's filter had (takesWinogradFilter), by
  /// the f32 convolution rebuilt from it: its transformed filter is stored in that type.
  llvm::DenseMap<Operation *, Type> winogradFilterStorage;

  void runOnOperation() override {
    winogradFilterStorage.clear();
    SmallVector<linalg::LinalgOp> mixed;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNgchwGfchwOp,
              linalg::DepthwiseConv2DNchwChwOp>(op) &&
          op.hasPureTensorSemantics())
        mixed.push_back(op);
    });
    IRRewriter extender(&getContext());
    SmallVector<linalg::LinalgOp> asContractions;
    for (linalg::LinalgOp op : mixed) {
      if (bf16Dots && lowersMixedAsContraction(op))
        asContractions.push_back(op);
      else if (!takesWinogradFilter(op))
        extendMixedOperands(extender, op, /*foldConstants=*/false);
      else {
        Type filterType = getElementTypeOrSelf(op.getDpsInputs()[1]);
        if (Operation *rebuilt = extendMixedOperands(extender, op, /*foldConstants=*/true))
          winogradFilterStorage[rebuilt] = filterType;
      }
    }
    for (linalg::LinalgOp op : asContractions)
      if (failed(lowerConv(extender, cast<linalg::Conv2DNchwFchwOp>(op.getOperation()))))
        return signalPassFailure();
    SmallVector<linalg::LinalgOp> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNgchwGfchwOp,
              linalg::DepthwiseConv2DNchwChwOp>(op) &&
          qualifies(op))
        work.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : work) {
      LogicalResult done = success();
      if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation()))
        done = lower(rewriter, conv);
      else if (auto grouped = dyn_cast<linalg::Conv2DNgchwGfchwOp>(op.getOperation()))
        done = lower(rewriter, grouped);
      else
        done = lowerDepthwise(rewriter, cast<linalg::DepthwiseConv2DNchwChwOp>(op.getOperation()));
      if (failed(done))
        return signalPassFailure();
    }
  }
};

} // namespace
