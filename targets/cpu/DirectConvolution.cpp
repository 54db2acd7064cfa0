// 2-D stride-1 convolutions as a parallel loop over output row tiles that contract the filter
// with the input in place (no im2col copy), over the input's padded row pitch.
#include "targets/cpu/ConvolutionTiles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

using IT = utils::IteratorType;

/// The contraction's pixel extent for a tile of `rows` output rows: whole input rows (pitch
/// `inW`) but the last, which stops at the output width (its tail would read past the image).
int64_t directPixels(int64_t rows, int64_t inW, int64_t outW) { return (rows - 1) * inW + outW; }

/// `input` with `extra` more rows at the bottom of each image (they only feed output pixels
/// that are dropped). A padded input (an insert_slice into a filled tensor, the usual pad)
/// is rebuilt taller with the same fill; any other one is copied into a zero-filled taller
/// tensor.
Value extendRows(OpBuilder &b, Location loc, Value input, int64_t extra) {
  auto type = cast<RankedTensorType>(input.getType());
  Type et = type.getElementType();
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += extra;
  Value source = input;
  SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0)), strides(4, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = getAsIndexOpFoldResult(b.getContext(), type.getShape());
  Value fillValue;
  if (auto insert = input.getDefiningOp<tensor::InsertSliceOp>())
    if (auto fill = insert.getDest().getDefiningOp<linalg::FillOp>()) {
      source = insert.getSource();
      offsets = insert.getMixedOffsets();
      sizes = insert.getMixedSizes();
      strides = insert.getMixedStrides();
      fillValue = fill.getInputs()[0];
    }
  if (!fillValue)
    fillValue = arith::ConstantOp::create(b, loc, et, b.getZeroAttr(et));
  Value empty = tensor::EmptyOp::create(b, loc, shape, et);
  Value filled = linalg::FillOp::create(b, loc, fillValue, empty).getResult(0);
  return tensor::InsertSliceOp::create(b, loc, source, filled, offsets, sizes, strides);
}

/// Whether a convolution of `shape` over an input of `inH` x `inW` pixels (padding applied)
/// into `init` can be lowered to direct tiles: stride 1, a window wider than 1x1, and an
/// output that is what a valid (unpadded) window sweep over the input gives (the row pitch
/// is the input's width, so no tap of a real pixel reads past its row), filled.
bool directShape(const tlc::ConvShape &shape, int64_t inH, int64_t inW, Value init) {
  if (shape.strides[0] != 1 || shape.strides[1] != 1 || (shape.kh == 1 && shape.kw == 1))
    return false;
  return inW == shape.ow + (shape.kw - 1) * shape.dilations[1] &&
         inH == shape.oh + (shape.kh - 1) * shape.dilations[0] &&
         init.getDefiningOp<linalg::FillOp>();
}

/// The tile loop of lowerConvToDirectTiles and lowerGroupedConvToDirectTiles over `input` [N,
/// C, H, W] (padding applied) and `filter` [F, C / G, KH, KW], each tile's accumulator filled
/// with `fillValue`, into `dest` [N, F, OH, OW]; returns the loop's result.
Value buildDirectTiles(RewriterBase &rewriter, Location loc, Value input, Value filter, Value dest,
                       Value fillValue, const tlc::ConvShape &shape, int64_t rows,
                       int64_t pixelAlign);

} // namespace

bool tlc::canLowerConvDirect(linalg::Conv2DNchwFchwOp op) {
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  return directShape(getConvShape(op), inType.getDimSize(2), inType.getDimSize(3),
                     op.getOutputs()[0]);
}

bool tlc::canLowerGroupedConvDirect(linalg::Conv2DNgchwGfchwOp op) {
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  return directShape(getConvShape(op), inType.getDimSize(3), inType.getDimSize(4),
                     op.getOutputs()[0]);
}

int64_t tlc::chooseDirectConvRows(int64_t batch, int64_t outH, int64_t outW, int64_t inW,
                                  int64_t windowBytesPerRow, int64_t pixels, int64_t blockBytes,
                                  int64_t slots, int64_t align, int64_t copiedExtraRows) {
  int64_t rows = 1;
  double best = -1;
  for (int64_t r = 1; r <= outH; ++r) {
    int64_t q = directPixels(r, inW, outW);
    if (r > 1 && (q > 4 * pixels || (r + 2) * windowBytesPerRow > blockBytes))
      break;
    if (outH % r != 0)
      continue;
    // Useful lanes (real output pixels) of the register tiles, times how evenly the tiles
    // spread over the slots.
    double score = double(r * outW) / double(llvm::alignTo(q, align)) *
                   slotBalance(batch * (outH / r), slots) * double(r) / double(r + copiedExtraRows);
    if (score > best + 1e-9) {
      rows = r;
      best = score;
    }
  }
  return rows;
}

namespace {

Value buildDirectTiles(RewriterBase &rewriter, Location loc, Value input, Value filter, Value dest,
                       Value fillValue, const tlc::ConvShape &shape, int64_t rows,
                       int64_t pixelAlign) {
  using namespace tlc;
  MLIRContext *ctx = rewriter.getContext();
  Type et = shape.elementType;
  int64_t n = shape.n, f = shape.f, oh = shape.oh, ow = shape.ow, c = shape.c, kh = shape.kh,
          kw = shape.kw, dh = shape.dilations[0], dw = shape.dilations[1], g = shape.groups;
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t inH = inType.getDimSize(2), inW = inType.getDimSize(3);

  // A tile's pixel range, rounded up to whole register tiles: the pixels past the last
  // output row's end are computed and dropped like the columns past each row's end; the
  // rows added below each image keep the reads in it.
  int64_t q = llvm::alignTo(directPixels(rows, inW, ow), std::max<int64_t>(pixelAlign, 1));
  int64_t extraRows = llvm::divideCeil(q - directPixels(rows, inW, ow), inW);
  if (extraRows > 0)
    input = extendRows(rewriter, loc, input, extraRows);
  // Each channel's image as one row of pixels: the tap (y, x) of output pixel q (counted
  // over the input's row pitch) reads pixel q + y * DH * W + x * DW of it.
  int64_t imagePixels = (inH + extraRows) * inW;
  Value flat =
      tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({n, c, imagePixels}, et),
                                      input, ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  tlc::ConvTileLoop loop = tlc::buildConvTileLoop(rewriter, loc, n, oh / rows, rows, dest);
  scf::ForallOp forall = loop.forall;
  Value outArg = loop.outArg;
  OpFoldResult img = loop.image, row0 = loop.firstRow;
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  auto apply = [&](AffineExpr e, OpFoldResult v) {
    return affine::makeComposedFoldedAffineApply(rewriter, loc, e, {v});
  };
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  auto idx = [&](int64_t v) -> OpFoldResult { return rewriter.getIndexAttr(v); };

  // The tile's input window: from row row0 of every channel up to the last pixel the last
  // tap of its last pixel reads.
  int64_t span = q + (kh - 1) * dh * inW + (kw - 1) * dw;
  Value window = tensor::ExtractSliceOp::create(
      rewriter, loc, RankedTensorType::get({c, span}, et), flat,
      ArrayRef<OpFoldResult>{img, zero, apply(d0 * inW, row0)},
      ArrayRef<OpFoldResult>{one, idx(c), idx(span)}, ArrayRef<OpFoldResult>{one, one, one});
  // The tile's output over the row pitch (whole rows holding its q pixels; the columns past
  // OW of each row are computed and dropped), filled, then accumulated over (c, y, x).
  int64_t accRows = llvm::divideCeil(q, inW);
  Value acc = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{f, accRows * inW}, et);
  SmallVector<OpFoldResult> accOffsets = {zero, zero}, accSizes = {idx(f), idx(q)},
                            accUnit = {one, one};
  auto accQType = RankedTensorType::get({f, q}, et);
  Value accQ =
      tensor::ExtractSliceOp::create(rewriter, loc, accQType, acc, accOffsets, accSizes, accUnit);
  Value mm;
  if (g == 1) {
    accQ = linalg::FillOp::create(rewriter, loc, fillValue, accQ).getResult(0);
    // (m, p, c, y, x): acc[m, p] += filter[m, c, y, x] * window[c, p + y * DH * W + x * DW]
    AffineExpr m, p, cc, y, x;
    bindDims(ctx, m, p, cc, y, x);
    SmallVector<AffineMap> maps = {AffineMap::get(5, 0, {m, cc, y, x}, ctx),
                                   AffineMap::get(5, 0, {cc, p + y * (dh * inW) + x * dw}, ctx),
                                   AffineMap::get(5, 0, {m, p}, ctx)};
    mm = buildMacGeneric(rewriter, loc, filter, window, accQ, maps,
                         {IT::parallel, IT::parallel, IT::reduction, IT::reduction, IT::reduction});
  } else {
    // The same per group: (g, m, p, c, y, x) over the filter [G, F/G, C/G, KH, KW], the
    // window [G, C/G, span] and the accumulator [G, F/G, q].
    int64_t cg = c / g, fg = f / g;
    auto acc3Type = RankedTensorType::get({g, fg, q}, et);
    Value acc3 = tensor::ExpandShapeOp::create(rewriter, loc, acc3Type, accQ,
                                               ArrayRef<ReassociationIndices>{{0, 1}, {2}});
    acc3 = linalg::FillOp::create(rewriter, loc, fillValue, acc3).getResult(0);
    Value filter5 = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({g, fg, cg, kh, kw}, et), filter,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    Value window3 =
        tensor::ExpandShapeOp::create(rewriter, loc, RankedTensorType::get({g, cg, span}, et),
                                      window, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
    AffineExpr gg, m, p, cc, y, x;
    bindDims(ctx, gg, m, p, cc, y, x);
    SmallVector<AffineMap> maps = {AffineMap::get(6, 0, {gg, m, cc, y, x}, ctx),
                                   AffineMap::get(6, 0, {gg, cc, p + y * (dh * inW) + x * dw}, ctx),
                                   AffineMap::get(6, 0, {gg, m, p}, ctx)};
    Value mm3 = buildMacGeneric(
        rewriter, loc, filter5, window3, acc3, maps,
        {IT::parallel, IT::parallel, IT::parallel, IT::reduction, IT::reduction, IT::reduction});
    mm = tensor::CollapseShapeOp::create(rewriter, loc, accQType, mm3,
                                         ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  }
  acc = tensor::InsertSliceOp::create(rewriter, loc, mm, acc, accOffsets, accSizes, accUnit);
  Value rowsAcc =
      tensor::ExpandShapeOp::create(rewriter, loc, RankedTensorType::get({f, accRows, inW}, et),
                                    acc, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  auto tileType = RankedTensorType::get({f, rows, ow}, et);
  Value tile = tensor::ExtractSliceOp::create(
      rewriter, loc, tileType, rowsAcc, ArrayRef<OpFoldResult>{zero, zero, zero},
      ArrayRef<OpFoldResult>{idx(f), idx(rows), idx(ow)}, ArrayRef<OpFoldResult>{one, one, one});
  rewriter.setInsertionPointToEnd(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, tile, outArg,
                                        ArrayRef<OpFoldResult>{img, zero, row0, zero},
                                        ArrayRef<OpFoldResult>{one, idx(f), idx(rows), idx(ow)},
                                        ArrayRef<OpFoldResult>{one, one, one, one});
  rewriter.setInsertionPointAfter(forall);
  return forall.getResult(0);
}

} // namespace

LogicalResult tlc::lowerConvToDirectTiles(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op,
                                          int64_t rows, int64_t pixelAlign) {
  if (!canLowerConvDirect(op))
    return op.emitOpError("not a stride-1 convolution over a zero-filled output");
  ConvShape shape = getConvShape(op);
  if (rows <= 0 || shape.oh % rows != 0)
    return op.emitOpError("convolution tile rows do not divide the output height");
  auto fill = op.getOutputs()[0].getDefiningOp<linalg::FillOp>();
  Value input = op.getInputs()[0];
  rewriter.setInsertionPoint(op);
  Value result =
      buildDirectTiles(rewriter, op.getLoc(), input, op.getInputs()[1], fill.getOutputs()[0],
                       fill.getInputs()[0], shape, rows, pixelAlign);
  rewriter.replaceOp(op, result);
  if (fill->use_empty())
    rewriter.eraseOp(fill);
  // A padded input rebuilt taller leaves the original padding unused: erase it, or it would
  // still be bufferized and computed.
  eraseDeadProducers(rewriter, input);
  return success();
}

LogicalResult tlc::lowerGroupedConvToDirectTiles(RewriterBase &rewriter,
                                                 linalg::Conv2DNgchwGfchwOp op, int64_t rows,
                                                 int64_t pixelAlign) {
  if (!canLowerGroupedConvDirect(op))
    return op.emitOpError("not a stride-1 convolution over a zero-filled output");
  return lowerUngrouped(rewriter, op, rows,
                        [&](Value input, Value filter, Value dest, Value fillValue) {
                          return buildDirectTiles(rewriter, op.getLoc(), input, filter, dest,
                                                  fillValue, getConvShape(op), rows, pixelAlign);
                        });
}
