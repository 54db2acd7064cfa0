// 3x3 stride-1 convolutions by Winograd's minimal filtering F(2x2, 3x3) (Lavin and Gray, "Fast
// Algorithms for Convolutional Neural Networks", 2016): 16 multiplies per 2x2 output tile and
// channel pair instead of 36, as 16 batched contractions between elementwise transforms.
//
// Upstream MLIR has linalg.winograd_{filter,input,output}_transform, but only for NHWC/FHWC
// convolutions, and its decomposition is a loop per (image, channel, tile) around 4x4 matmuls.
// tlc's models are NCHW and its code generator vectorizes rows, so the transforms here are
// row-wise elementwise ops over whole tile planes (unit stride innermost) and the product is one
// contraction that tlc-tile-contractions register-tiles like any other.
#include "targets/cpu/ConvolutionTiles.h"

#include "TL/ConstantData.h"
#include "passes/Winograd.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

using IT = utils::IteratorType;

constexpr int64_t kTile = tlc::kWinogradTile;
constexpr int64_t kProducts = tlc::kWinogradProducts;

/// The body of the input transform: B^T d B of the 4x4 tile d (args 0-15, row-major), 16
/// results; B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1].
void inputTransformBody(OpBuilder &b, Location l, ValueRange args) {
  // One 4-point transform: rows (stride 4) or columns (stride 1) of a 4x4 array.
  auto bt = [&](Value d0, Value d1, Value d2, Value d3) {
    return tlc::winogradInputRows(b, l, d0, d1, d2, d3);
  };
  Value t[kTile][kTile];
  for (int j = 0; j < kTile; ++j) {
    auto col = bt(args[j], args[4 + j], args[8 + j], args[12 + j]);
    for (int i = 0; i < kTile; ++i)
      t[i][j] = col[i];
  }
  SmallVector<Value> v;
  for (int i = 0; i < kTile; ++i)
    llvm::append_range(v, bt(t[i][0], t[i][1], t[i][2], t[i][3]));
  // Stored in the output planes' type: rounded where that is narrower (lowerConvWinograd's
  // transformStorage).
  Block *block = b.getInsertionBlock();
  Type stored = block->getArgument(block->getNumArguments() - 1).getType();
  for (Value &x : v)
    if (x.getType() != stored)
      x = arith::TruncFOp::create(b, l, stored, x);
  linalg::YieldOp::create(b, l, v);
}

/// The body of the output transform: A^T m A of the 4x4 products m (args 0-15), results
/// y00, y01, y10, y11; A^T = [1 1 1 0; 0 1 -1 -1].
void outputTransformBody(OpBuilder &b, Location l, ValueRange args) {
  auto at = [&](Value m0, Value m1, Value m2, Value m3) {
    return tlc::winogradOutputRows(b, l, m0, m1, m2, m3);
  };
  Value s[2][kTile];
  for (int j = 0; j < kTile; ++j) {
    auto col = at(args[j], args[4 + j], args[8 + j], args[12 + j]);
    s[0][j] = col[0];
    s[1][j] = col[1];
  }
  SmallVector<Value> y;
  for (int i = 0; i < 2; ++i)
    llvm::append_range(y, at(s[i][0], s[i][1], s[i][2], s[i][3]));
  linalg::YieldOp::create(b, l, y);
}

/// A rank-reducing slice of `source` at `offsets` with `sizes` (unit strides) of type `type`.
Value slice(OpBuilder &b, Location loc, RankedTensorType type, Value source,
            ArrayRef<OpFoldResult> offsets, ArrayRef<int64_t> sizes) {
  SmallVector<OpFoldResult> unit(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, type, source, offsets,
                                        getAsIndexOpFoldResult(b.getContext(), sizes), unit);
}

SmallVector<OpFoldResult> indices(OpBuilder &b, ArrayRef<int64_t> values) {
  return getAsIndexOpFoldResult(b.getContext(), values);
}

/// A transform between tile planes: one elementwise linalg.generic (4 parallel loops, `maps`:
/// inputs then outputs, `body`) from `numIn` input planes to `numOut` output planes, run as an
/// scf.forall over `chunks` chunks of one dimension (channels or filters) that writes each
/// chunk's output planes into `dest` with parallel_insert_slice. `inPlane(b, start, i)` is
/// input plane i of the chunk that starts at `start`; `outSlice(b, start, k)` the offsets and
/// sizes of output plane k's chunk in `dest` (a rank-reducing slice of `outType`). Returns the
/// written `dest`. (Each output plane is a slice of one tensor: as a chain of insert_slices of
/// a multi-result op, one-shot bufferization would copy all but the first.)
struct SliceSpec {
  SmallVector<OpFoldResult> offsets;
  SmallVector<int64_t> sizes;
};
Value chunkedTransform(RewriterBase &rewriter, Location loc, int64_t chunks, Value dest,
                       int64_t numIn, function_ref<Value(OpBuilder &, OpFoldResult, int64_t)> inPlane,
                       int64_t numOut, RankedTensorType outType,
                       function_ref<SliceSpec(OpBuilder &, OpFoldResult, int64_t)> outSlice,
                       int64_t chunk, ArrayRef<AffineMap> maps,
                       function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto forall = scf::ForallOp::create(rewriter, loc,
                                      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(chunks)},
                                      ValueRange{dest}, std::nullopt);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(forall.getTerminator());
  AffineExpr d0 = getAffineDimExpr(0, rewriter.getContext());
  OpFoldResult start = affine::makeComposedFoldedAffineApply(
      rewriter, loc, d0 * chunk, {OpFoldResult(forall.getInductionVars()[0])});
  Value destArg = forall.getRegionIterArgs()[0];
  SmallVector<Value> ins, outs;
  SmallVector<SliceSpec> specs;
  for (int64_t i = 0; i < numIn; ++i)
    ins.push_back(inPlane(rewriter, start, i));
  for (int64_t k = 0; k < numOut; ++k) {
    specs.push_back(outSlice(rewriter, start, k));
    outs.push_back(slice(rewriter, loc, outType, destArg, specs.back().offsets, specs.back().sizes));
  }
  auto generic = linalg::GenericOp::create(rewriter, loc, SmallVector<Type>(numOut, outType), ins,
                                           outs, maps, SmallVector<IT>(4, IT::parallel), body);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  SmallVector<OpFoldResult> unit(specs.front().offsets.size(), rewriter.getIndexAttr(1));
  for (int64_t k = 0; k < numOut; ++k)
    tensor::ParallelInsertSliceOp::create(rewriter, loc, generic.getResult(k), destArg,
                                          specs[k].offsets,
                                          indices(rewriter, specs[k].sizes), unit);
  return forall.getResult(0);
}

/// The most chunks, up to 8, that split `extent` evenly.
int64_t chunkCount(int64_t extent) {
  for (int64_t chunks : {8, 4, 2})
    if (extent % chunks == 0)
      return chunks;
  return 1;
}

} // namespace

bool tlc::canLowerConvWinograd(linalg::Conv2DNchwFchwOp op) {
  return isWinogradConvolution(op);
}

double tlc::winogradGain(const ConvShape &shape, int64_t lanes) {
  int64_t th = llvm::divideCeil(shape.oh, 2), tw = llvm::divideCeil(shape.ow, 2);
  int64_t pixels = shape.oh * shape.ow, tiles = shape.n * th * tw;
  double fewerProducts = 9.0 * double(pixels) / double(kProducts * th * tw);
  auto used = [&](int64_t n) { return double(n) / double(llvm::alignTo(n, lanes)); };
  return fewerProducts * used(tiles) / used(pixels);
}

LogicalResult tlc::lowerConvWinograd(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op,
                                     Type filterStorage, Type transformStorage) {
  if (!canLowerConvWinograd(op))
    return op.emitOpError("not a 3x3 stride-1 f32 convolution of a constant filter over a "
                          "zero-filled output");
  ConvShape shape = getConvShape(op);
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  Type et = shape.elementType;
  int64_t n = shape.n, f = shape.f, c = shape.c;
  int64_t th = llvm::divideCeil(shape.oh, 2), tw = llvm::divideCeil(shape.ow, 2);
  int64_t tiles = n * th * tw;
  Value input = op.getInputs()[0];
  auto fill = op.getOutputs()[0].getDefiningOp<linalg::FillOp>();
  DenseElementsAttr filter;
  matchPattern(op.getInputs()[1], m_Constant(&filter));
  rewriter.setInsertionPoint(op);
  Value zero = fill.getInputs()[0];
  AffineMap id4 = AffineMap::getMultiDimIdentityMap(4, ctx);
  // (n, c, y, x) -> (c, n, y, x): the transposed planes of the tile-major operands.
  AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0, 2, 3}, ctx);

  // Input tiles: tile (y, x) covers rows 2y..2y+3 and columns 2x..2x+3 of the padded input,
  // so element (i, j) of every tile is one unit-stride plane of the input's 2x2 stride phases:
  // phase (i % 2, j % 2) from row i / 2 and column j / 2 on. V[ab, c, n, y, x] = (B^T d B)[a, b]
  // of each tile d, over chunks of channels.
  Value phases = stridePhases(rewriter, loc, input, 2, 2, th + 1, tw + 1);
  int64_t cChunks = chunkCount(c), cChunk = c / cChunks;
  auto planeType = RankedTensorType::get({n, cChunk, th, tw}, et);
  Type vt = transformStorage ? transformStorage : et;
  auto vPlaneType = RankedTensorType::get({cChunk, n, th, tw}, vt);
  SmallVector<AffineMap> inMaps(kProducts, id4);
  inMaps.append(kProducts, swap);
  Value v = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{kProducts, c, n, th, tw}, vt);
  v = chunkedTransform(
      rewriter, loc, cChunks, v, kProducts,
      [&](OpBuilder &b, OpFoldResult c0, int64_t ij) {
        int64_t i = ij / kTile, j = ij % kTile;
        SmallVector<OpFoldResult> offsets = indices(b, {0, 0, i % 2, j % 2, i / 2, j / 2});
        offsets[1] = c0;
        return slice(b, loc, planeType, phases, offsets, {n, cChunk, 1, 1, th, tw});
      },
      kProducts, vPlaneType,
      [&](OpBuilder &b, OpFoldResult c0, int64_t ab) {
        SmallVector<OpFoldResult> offsets = indices(b, {ab, 0, 0, 0, 0});
        offsets[1] = c0;
        return SliceSpec{offsets, {1, cChunk, n, th, tw}};
      },
      cChunk, inMaps, inputTransformBody);

  // M[ab, f, p] = sum_c U[ab, f, c] V[ab, c, p] over the tiles p = (n, y, x): one contraction
  // batched over the 16 products.
  DenseElementsAttr uValues = winogradFilter(filter);
  if (filterStorage && filterStorage != et)
    uValues = tlc::tl::convertFloatElements(uValues, cast<FloatType>(filterStorage));
  Value u = arith::ConstantOp::create(rewriter, loc, uValues);
  Value vFlat = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({kProducts, c, tiles}, vt), v,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
  Value mEmpty = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{kProducts, f, tiles}, et);
  Value mInit = linalg::FillOp::create(rewriter, loc, zero, mEmpty).getResult(0);
  AffineExpr ab, fe, p, ce;
  bindDims(ctx, ab, fe, p, ce);
  Value m = buildMacGeneric(rewriter, loc, u, vFlat, mInit,
                            {AffineMap::get(4, 0, {ab, fe, ce}, ctx),
                             AffineMap::get(4, 0, {ab, ce, p}, ctx),
                             AffineMap::get(4, 0, {ab, fe, p}, ctx)},
                            {IT::parallel, IT::parallel, IT::parallel, IT::reduction});

  // Output tiles: Y[n, f, 2y + i, 2x + j] = (A^T m A)[i, j], written as the four planes
  // (i, j) of [N, F, 2, 2, TH, TW] over chunks of filters, then interleaved into rows.
  Value mTiles = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({kProducts, f, n, th, tw}, et), m,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
  int64_t fChunks = chunkCount(f), fChunk = f / fChunks;
  auto mPlaneType = RankedTensorType::get({fChunk, n, th, tw}, et);
  auto yPlaneType = RankedTensorType::get({n, fChunk, th, tw}, et);
  SmallVector<AffineMap> outMaps(kProducts, swap);
  outMaps.append(4, id4);
  Value yPhases = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{n, f, 4, th, tw}, et);
  yPhases = chunkedTransform(
      rewriter, loc, fChunks, yPhases, kProducts,
      [&](OpBuilder &b, OpFoldResult f0, int64_t ab) {
        SmallVector<OpFoldResult> offsets = indices(b, {ab, 0, 0, 0, 0});
        offsets[1] = f0;
        return slice(b, loc, mPlaneType, mTiles, offsets, {1, fChunk, n, th, tw});
      },
      4, yPlaneType,
      [&](OpBuilder &b, OpFoldResult f0, int64_t ij) {
        SmallVector<OpFoldResult> offsets = indices(b, {0, 0, ij, 0, 0});
        offsets[1] = f0;
        return SliceSpec{offsets, {n, fChunk, 1, th, tw}};
      },
      fChunk, outMaps, outputTransformBody);
  yPhases = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({n, f, 2, 2, th, tw}, et), yPhases,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4}, {5}});
  Value rowsEmpty =
      tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{n, f, th, 2, tw, 2}, et);
  Value rows = linalg::TransposeOp::create(rewriter, loc, yPhases, rowsEmpty,
                                           ArrayRef<int64_t>{0, 1, 4, 2, 5, 3})
                   .getResult()[0];
  Value result = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({n, f, 2 * th, 2 * tw}, et), rows,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
  if (2 * th != shape.oh || 2 * tw != shape.ow)
    result = slice(rewriter, loc, cast<RankedTensorType>(op->getResult(0).getType()), result,
                   indices(rewriter, {0, 0, 0, 0}), {n, f, shape.oh, shape.ow});
  Value filterValue = op.getInputs()[1];
  rewriter.replaceOp(op, result);
  eraseDeadProducers(rewriter, fill.getResult(0));
  eraseDeadProducers(rewriter, filterValue);
  return success();
}
