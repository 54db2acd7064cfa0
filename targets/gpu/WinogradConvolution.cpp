// tlc-gpu-winograd: 3x3 stride-1 convolutions by Winograd's F(2x2, 3x3) on the GPU targets, as
// three data-parallel steps the shared GPU mapping already runs well:
//   V[a, b, c, n, y, x] = (B^T d B)[a, b] of the input's 4x4 tile d at (2y, 2x): one thread per
//     element of V, reading the 16 points of its tile (strided views of the padded input);
//   M[ab, f, p] = sum_c U[ab, f, c] V[ab, c, p]: one contraction batched over the 16 products
//     (p the tiles (n, y, x)), the tiled GEMM kernel with the batch on the grid's z dimension;
//     U = G g G^T transformed at compile time;
//   Y[n, f, h, w] = (A^T m A)[h % 2, w % 2] of the tile's 16 products: one thread per output
//     element, with the convolution's elementwise consumer (bias, BatchNorm, ReLU, residual)
//     fused in.
// 2.25x fewer multiply-adds than the implicit GEMM, for two passes over the transformed tiles.
// Each thread picks its element's combination of the tile with selects on its own indices: a
// one-element-per-thread op cannot write the 16 transformed planes of one tile at once without
// one-shot bufferization copying 15 of them (see WinogradConvolution.cpp of the CPU target).
#include "targets/gpu/GPUPasses.h"

#include "passes/LinalgBuilders.h"
#include "passes/Winograd.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {
#define GEN_PASS_DEF_TLCGPUWINOGRAD
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

using IT = utils::IteratorType;
constexpr int64_t kTile = tlc::kWinogradTile;
constexpr int64_t kProducts = tlc::kWinogradProducts;

/// `candidates[index]` for an index in [0, candidates.size()), as a chain of selects.
Value pick(OpBuilder &b, Location loc, Value index, ArrayRef<Value> candidates) {
  Value picked = candidates.back();
  for (int64_t k = static_cast<int64_t>(candidates.size()) - 2; k >= 0; --k) {
    Value isK = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                                      arith::ConstantIndexOp::create(b, loc, k));
    picked = arith::SelectOp::create(b, loc, isK, candidates[k], picked);
  }
  return picked;
}

/// Row `index` of B^T applied to (d0, d1, d2, d3).
Value inputRow(OpBuilder &b, Location loc, Value index, Value d0, Value d1, Value d2, Value d3) {
  return pick(b, loc, index, tlc::winogradInputRows(b, loc, d0, d1, d2, d3));
}

/// Row `index` of A^T applied to (m0, m1, m2, m3).
Value outputRow(OpBuilder &b, Location loc, Value index, Value m0, Value m1, Value m2, Value m3) {
  return pick(b, loc, index, tlc::winogradOutputRows(b, loc, m0, m1, m2, m3));
}

/// V = B^T d B for every 4x4 input tile: [4, 4, C, N, TH, TW] from the padded input
/// [N, C, 2 TH + 2, 2 TW + 2]. Point (i, j) of every tile is a stride-2 view of the input.
/// (Measured on an H100, resnet18 at batch 32: this one pass of 16 reads per element beat two
/// passes of 4, B^T down the columns into a [4, C, N, TH, W] tensor and then along the rows,
/// by 4-8% on each layer: the passes are bound by their stores.)
Value transformInput(OpBuilder &b, Location loc, Value input, int64_t th, int64_t tw) {
  MLIRContext *ctx = b.getContext();
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t n = inType.getDimSize(0), c = inType.getDimSize(1);
  Type et = inType.getElementType();
  auto pointType = RankedTensorType::get({n, c, th, tw}, et);
  SmallVector<Value> points;
  for (int64_t i = 0; i < kTile; ++i)
    for (int64_t j = 0; j < kTile; ++j)
      points.push_back(tensor::ExtractSliceOp::create(
          b, loc, pointType, input, getAsIndexOpFoldResult(ctx, {0, 0, i, j}),
          getAsIndexOpFoldResult(ctx, {n, c, th, tw}),
          getAsIndexOpFoldResult(ctx, {1, 1, 2, 2})));
  // Loops (c, n, y, a, b, x): a workgroup's threads cover all 16 (a, b) of a few rows of
  // tiles, so the tile points each reads 16 times come from its cache, and adjacent threads
  // store along x. Each point read at (n, c, y, x), V written at (a, b, c, n, y, x).
  AffineExpr dc, dn, dy, da, db, dx;
  bindDims(ctx, dc, dn, dy, da, db, dx);
  SmallVector<AffineMap> maps(kProducts, AffineMap::get(6, 0, {dn, dc, dy, dx}, ctx));
  maps.push_back(AffineMap::get(6, 0, {da, db, dc, dn, dy, dx}, ctx));
  Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{kTile, kTile, c, n, th, tw}, et);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), points, ValueRange{empty}, maps, SmallVector<IT>(6, IT::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value a = linalg::IndexOp::create(nb, l, 3), col = linalg::IndexOp::create(nb, l, 4);
        // Each row i of the tile combined over its columns by row `col` of B^T, then the four
        // results by row `a`.
        Value rows[kTile];
        for (int64_t i = 0; i < kTile; ++i)
          rows[i] = inputRow(nb, l, col, args[i * 4], args[i * 4 + 1], args[i * 4 + 2],
                             args[i * 4 + 3]);
        linalg::YieldOp::create(nb, l,
                                inputRow(nb, l, a, rows[0], rows[1], rows[2], rows[3]));
      });
  return generic.getResult(0);
}

/// Y[n, f, h, w] = (A^T m A)[h % 2, w % 2] of the 16 products m of the tile (h / 2, w / 2),
/// from M [4, 4, F, N, TH, TW] into an [N, F, OH, OW] tensor (for odd OH or OW, the last
/// tiles' second row or column is not written).
Value transformOutput(OpBuilder &b, Location loc, Value m, RankedTensorType outType) {
  MLIRContext *ctx = b.getContext();
  auto mType = cast<RankedTensorType>(m.getType());
  int64_t f = mType.getDimSize(2), n = mType.getDimSize(3), th = mType.getDimSize(4),
          tw = mType.getDimSize(5);
  auto planeType = RankedTensorType::get({f, n, th, tw}, outType.getElementType());
  SmallVector<Value> planes;
  for (int64_t a = 0; a < kTile; ++a)
    for (int64_t col = 0; col < kTile; ++col)
      planes.push_back(tensor::ExtractSliceOp::create(
          b, loc, planeType, m, getAsIndexOpFoldResult(ctx, {a, col, 0, 0, 0, 0}),
          getAsIndexOpFoldResult(ctx, {1, 1, f, n, th, tw}),
          getAsIndexOpFoldResult(ctx, {1, 1, 1, 1, 1, 1})));
  // Loops (n, f, h, w); each plane read at (f, n, h / 2, w / 2).
  AffineExpr dn, df, dh, dw;
  bindDims(ctx, dn, df, dh, dw);
  SmallVector<AffineMap> maps(
      kProducts, AffineMap::get(4, 0, {df, dn, dh.floorDiv(2), dw.floorDiv(2)}, ctx));
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value empty = tensor::EmptyOp::create(b, loc, outType.getShape(), outType.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, outType, planes, ValueRange{empty}, maps, SmallVector<IT>(4, IT::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value two = arith::ConstantIndexOp::create(nb, l, 2);
        Value i = arith::RemUIOp::create(nb, l, linalg::IndexOp::create(nb, l, 2), two);
        Value j = arith::RemUIOp::create(nb, l, linalg::IndexOp::create(nb, l, 3), two);
        Value rows[kTile];
        for (int64_t a = 0; a < kTile; ++a)
          rows[a] = outputRow(nb, l, j, args[a * 4], args[a * 4 + 1], args[a * 4 + 2],
                              args[a * 4 + 3]);
        linalg::YieldOp::create(nb, l, outputRow(nb, l, i, rows[0], rows[1], rows[2], rows[3]));
      });
  return generic.getResult(0);
}

/// `input` [N, C, H, W] (a convolution's padded input: H and W the output's + 2) grown with
/// `zero` rows and columns at the end to the 2 TH + 2 x 2 TW + 2 that the 4x4 tiles of TH x TW
/// 2x2 output tiles cover (one more row and column for odd output sizes).
Value padToTiles(OpBuilder &b, Location loc, Value input, Value zero, int64_t th, int64_t tw) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t h = 2 * th + 2, w = 2 * tw + 2;
  if (type.getDimSize(2) == h && type.getDimSize(3) == w)
    return input;
  SmallVector<int64_t> shape(type.getShape());
  shape[2] = h;
  shape[3] = w;
  Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  Value zeros = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  MLIRContext *ctx = b.getContext();
  return tensor::InsertSliceOp::create(b, loc, input, zeros,
                                       getAsIndexOpFoldResult(ctx, {0, 0, 0, 0}),
                                       getAsIndexOpFoldResult(ctx, type.getShape()),
                                       getAsIndexOpFoldResult(ctx, {1, 1, 1, 1}));
}

/// Rewrites `conv` (tlc::isWinogradConvolution); returns the output transform.
linalg::GenericOp lowerWinograd(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp conv) {
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  DenseElementsAttr filter;
  matchPattern(conv.getInputs()[1], m_Constant(&filter));
  auto fill = conv.getOutputs()[0].getDefiningOp<linalg::FillOp>();
  auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
  Type et = outType.getElementType();
  int64_t n = outType.getDimSize(0), f = outType.getDimSize(1);
  int64_t th = llvm::divideCeil(outType.getDimSize(2), 2);
  int64_t tw = llvm::divideCeil(outType.getDimSize(3), 2);
  Value input = padToTiles(rewriter, loc, conv.getInputs()[0], fill.getInputs()[0], th, tw);
  int64_t c = cast<RankedTensorType>(input.getType()).getDimSize(1);

  Value v = transformInput(rewriter, loc, input, th, tw);
  Value vFlat = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({kProducts, c, n * th * tw}, et), v,
      ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3, 4, 5}});
  Value u = arith::ConstantOp::create(rewriter, loc, tlc::winogradFilter(filter));
  Value mEmpty =
      tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{kProducts, f, n * th * tw}, et);
  Value mInit = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], mEmpty).getResult(0);
  Value m = tlc::buildContraction(rewriter, loc, "bfc,bcp->bfp", {u, vFlat}, mInit);
  Value mTiles = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({kTile, kTile, f, n, th, tw}, et), m,
      ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3, 4, 5}});
  Value y = transformOutput(rewriter, loc, mTiles, outType);
  rewriter.replaceOp(conv, y);
  if (fill->use_empty())
    rewriter.eraseOp(fill);
  return y.getDefiningOp<linalg::GenericOp>();
}

/// Fuses the output transform's one elementwise consumer (the convolution's bias, BatchNorm,
/// activation, residual add) into it, so the result is written once.
void fuseConsumer(RewriterBase &rewriter, linalg::GenericOp producer) {
  Value result = producer->getResult(0);
  if (!result.hasOneUse())
    return;
  OpOperand &use = *result.getUses().begin();
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!consumer || consumer.getNumLoops() != consumer.getNumParallelLoops() ||
      !linalg::areElementwiseOpsFusable(&use))
    return;
  rewriter.setInsertionPoint(consumer);
  FailureOr<linalg::ElementwiseOpFusionResult> fused = linalg::fuseElementwiseOps(rewriter, &use);
  if (failed(fused))
    return;
  for (auto [original, replacement] : fused->replacements)
    if (original.getDefiningOp() == consumer)
      rewriter.replaceAllUsesWith(original, replacement);
  if (consumer->use_empty())
    rewriter.eraseOp(consumer);
  if (producer->use_empty())
    rewriter.eraseOp(producer);
}

struct TLCGPUWinogradPass : tlc::impl::TLCGPUWinogradBase<TLCGPUWinogradPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    getOperation().walk([&](linalg::Conv2DNchwFchwOp conv) {
      if (!tlc::isWinogradConvolution(conv))
        return;
      auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
      int64_t c = cast<RankedTensorType>(conv.getInputs()[0].getType()).getDimSize(1);
      int64_t oh = outType.getDimSize(2), ow = outType.getDimSize(3);
      int64_t tiles =
          outType.getDimSize(0) * llvm::divideCeil(oh, 2) * llvm::divideCeil(ow, 2);
      if (c >= minChannels && outType.getDimSize(1) >= minChannels && tiles >= minTiles)
        convs.push_back(conv);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::Conv2DNchwFchwOp conv : convs)
      fuseConsumer(rewriter, lowerWinograd(rewriter, conv));
  }
};

} // namespace
