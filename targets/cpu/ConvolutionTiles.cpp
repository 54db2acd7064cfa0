// 2-D convolutions as a parallel loop over output tiles with a per-tile im2col block.
#include "targets/cpu/ConvolutionTiles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

using IT = utils::IteratorType;

} // namespace

Value tlc::stridePhases(OpBuilder &b, Location loc, Value input, int64_t sh, int64_t sw, int64_t hp,
                        int64_t wp) {
  auto type = cast<RankedTensorType>(input.getType());
  Type et = type.getElementType();
  int64_t n = type.getDimSize(0), c = type.getDimSize(1), h = type.getDimSize(2),
          w = type.getDimSize(3);
  SmallVector<int64_t> full = {n, c, sh * hp, sw * wp};
  SmallVector<OpFoldResult> zeros(4, b.getIndexAttr(0)), ones(4, b.getIndexAttr(1));
  Value ext;
  if (h >= full[2] && w >= full[3]) {
    ext = tensor::ExtractSliceOp::create(b, loc, RankedTensorType::get(full, et), input, zeros,
                                         getAsIndexOpFoldResult(b.getContext(), full), ones);
  } else {
    SmallVector<int64_t> kept = {n, c, std::min(h, full[2]), std::min(w, full[3])};
    Value part =
        tensor::ExtractSliceOp::create(b, loc, RankedTensorType::get(kept, et), input, zeros,
                                       getAsIndexOpFoldResult(b.getContext(), kept), ones);
    Value zero = arith::ConstantOp::create(b, loc, et, b.getZeroAttr(et));
    Value empty = tensor::EmptyOp::create(b, loc, full, et);
    Value filled = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
    ext = tensor::InsertSliceOp::create(b, loc, part, filled, zeros,
                                        getAsIndexOpFoldResult(b.getContext(), kept), ones);
  }
  auto ext6Type = RankedTensorType::get({n, c, hp, sh, wp, sw}, et);
  Value ext6 = tensor::ExpandShapeOp::create(b, loc, ext6Type, ext,
                                             ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
  Value phases = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{n, c, sh, sw, hp, wp}, et);
  return linalg::TransposeOp::create(b, loc, ext6, phases, ArrayRef<int64_t>{0, 1, 3, 5, 2, 4})
      .getResult()[0];
}

Value tlc::copyRows(OpBuilder &b, Location loc, Value from, Value into) {
  auto type = cast<RankedTensorType>(into.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(b, loc, TypeRange{type}, ValueRange{from}, ValueRange{into},
                                   ArrayRef<AffineMap>{id, id},
                                   SmallVector<IT>(type.getRank(), IT::parallel),
                                   [](OpBuilder &nb, Location l, ValueRange args) {
                                     linalg::YieldOp::create(nb, l, args[0]);
                                   })
      .getResult(0);
}

tlc::ConvTileLoop tlc::buildConvTileLoop(RewriterBase &rewriter, Location loc, int64_t images,
                                         int64_t rowBlocks, int64_t rows, Value dest) {
  auto forall = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(images * rowBlocks)},
      ValueRange{dest}, std::nullopt);
  rewriter.setInsertionPoint(forall.getTerminator());
  Value t = forall.getInductionVars()[0];
  AffineExpr d0 = getAffineDimExpr(0, rewriter.getContext());
  auto apply = [&](AffineExpr e, OpFoldResult v) {
    return affine::makeComposedFoldedAffineApply(rewriter, loc, e, {v});
  };
  OpFoldResult rowBlock = apply(d0 % rowBlocks, t);
  return {forall, forall.getRegionIterArgs()[0], apply(d0.floorDiv(rowBlocks), t), rowBlock,
          apply(d0 * rows, rowBlock)};
}

void tlc::buildMacBody(OpBuilder &b, Location loc, ValueRange args) {
  // Mixed precision: narrower float operands (bf16/f16) are extended to the accumulator's type.
  Type acc = args[2].getType();
  auto extend = [&](Value v) -> Value {
    return v.getType() == acc ? v : arith::ExtFOp::create(b, loc, acc, v).getResult();
  };
  Value p = arith::MulFOp::create(b, loc, extend(args[0]), extend(args[1]));
  Value s = arith::AddFOp::create(b, loc, args[2], p);
  linalg::YieldOp::create(b, loc, s);
}

Value tlc::buildMacGeneric(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init,
                           ArrayRef<AffineMap> maps, ArrayRef<utils::IteratorType> iterators) {
  return linalg::GenericOp::create(b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs},
                                   ValueRange{init}, maps, iterators, buildMacBody)
      .getResult(0);
}

double tlc::slotBalance(int64_t tiles, int64_t slots) {
  int64_t round = tiles > slots ? slots : 2;
  return double(tiles) / double(llvm::alignTo(tiles, round));
}

int64_t tlc::chooseConvTileRows(int64_t batch, int64_t outH, int64_t outW, int64_t depth,
                                int64_t pixels, int64_t blockBytes, int64_t slots) {
  int64_t rows = 1;
  double best = -1;
  int64_t bestDistance = 0;
  for (int64_t r = 1; r <= outH; ++r) {
    int64_t p = r * outW;
    if (r > 1 && (p > 2 * pixels || p * depth * 4 > blockBytes))
      break;
    if (outH % r != 0)
      continue;
    // Lanes used in the 32-wide register tiles, times how evenly the tiles spread.
    double score =
        double(p) / double(llvm::alignTo(p, 32)) * tlc::slotBalance(batch * (outH / r), slots);
    int64_t distance = std::abs(p - pixels);
    if (score > best + 1e-9 || (score > best - 1e-9 && distance < bestDistance)) {
      rows = r;
      best = score;
      bestDistance = distance;
    }
  }
  return rows;
}

SmallVector<int64_t> tlc::convAttrValues(DenseIntElementsAttr attr) {
  return llvm::to_vector(llvm::map_range(attr.getValues<APInt>(),
                                         [](const APInt &v) { return v.getSExtValue(); }));
}

tlc::ConvShape tlc::getConvShape(linalg::Conv2DNchwFchwOp op) {
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  auto fType = cast<RankedTensorType>(op.getInputs()[1].getType());
  auto outType = cast<RankedTensorType>(op.getOutputs()[0].getType());
  return {outType.getDimSize(0),       outType.getDimSize(1),
          outType.getDimSize(2),       outType.getDimSize(3),
          inType.getDimSize(1),        fType.getDimSize(2),
          fType.getDimSize(3),         convAttrValues(op.getStrides()),
          convAttrValues(op.getDilations()), outType.getElementType()};
}

tlc::ConvShape tlc::getConvShape(linalg::Conv2DNgchwGfchwOp op) {
  auto inType = cast<RankedTensorType>(op.getInputs()[0].getType());
  auto fType = cast<RankedTensorType>(op.getInputs()[1].getType());
  auto outType = cast<RankedTensorType>(op.getOutputs()[0].getType());
  int64_t g = inType.getDimSize(1);
  ConvShape shape = {
      outType.getDimSize(0),   g * outType.getDimSize(2),       outType.getDimSize(3),
      outType.getDimSize(4),   g * inType.getDimSize(2),        fType.getDimSize(3),
      fType.getDimSize(4),     convAttrValues(op.getStrides()), convAttrValues(op.getDilations()),
      outType.getElementType()};
  shape.groups = g;
  return shape;
}

namespace {

/// The tile loop of lowerConvToTiles and lowerGroupedConvToTiles over `input` [N, C, H, W],
/// `filter` [F, C / G, KH, KW] and `dest` [N, F, OH, OW] (each tile fills its slice with
/// `fillValue` first, when given); returns the loop's result.
Value buildConvTiles(RewriterBase &rewriter, Location loc, Value input, Value filter, Value dest,
                     Value fillValue, const tlc::ConvShape &shape, int64_t rows) {
  MLIRContext *ctx = rewriter.getContext();
  Type et = shape.elementType;
  int64_t n = shape.n, f = shape.f, oh = shape.oh, ow = shape.ow, c = shape.c, kh = shape.kh,
          kw = shape.kw, g = shape.groups;
  ArrayRef<int64_t> st = shape.strides, dil = shape.dilations;
  int64_t k = c / g * kh * kw;

  // Taps read unit-stride rows: of the input itself, or of its stride phases.
  bool strided = st[0] != 1 || st[1] != 1;
  Value src = input;
  if (strided)
    src = tlc::stridePhases(rewriter, loc, input, st[0], st[1], oh + (kh - 1) * dil[0] / st[0],
                            ow + (kw - 1) * dil[1] / st[1]);
  Value filter2 = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({f, k}, et), filter,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  if (g > 1)
    filter2 = tensor::ExpandShapeOp::create(rewriter, loc, RankedTensorType::get({g, f / g, k}, et),
                                            filter2, ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  tlc::ConvTileLoop loop = tlc::buildConvTileLoop(rewriter, loc, n, oh / rows, rows, dest);
  scf::ForallOp forall = loop.forall;
  Value outArg = loop.outArg;
  OpFoldResult img = loop.image, rowBlock = loop.rowBlock, row0 = loop.firstRow;
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  auto idx = [&](int64_t v) -> OpFoldResult { return rewriter.getIndexAttr(v); };

  // col[c, y, x, r, w] = input[img, c, (row0 + r) * SH + y * DH, w * SW + x * DW], one
  // [C, rows, OW] copy per filter tap in an scf.for nest (unrolled, a 7x7 filter would make
  // 49 copies of the same code).
  auto rowsType = RankedTensorType::get({c, rows, ow}, et);
  Value col = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{c, kh, kw, rows, ow}, et);
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  AffineExpr d1 = getAffineDimExpr(1, ctx);
  scf::LoopNest taps = scf::buildLoopNest(
      rewriter, loc, ValueRange{index(0), index(0)}, ValueRange{index(kh), index(kw)},
      ValueRange{index(1), index(1)}, ValueRange{col},
      [&](OpBuilder &b, Location l, ValueRange yx, ValueRange iter) -> scf::ValueVector {
        auto at = [&](AffineExpr e, ArrayRef<OpFoldResult> operands) {
          return affine::makeComposedFoldedAffineApply(b, l, e, operands);
        };
        OpFoldResult y = yx[0], x = yx[1];
        SmallVector<OpFoldResult> offsets, sizes;
        if (strided) {
          // Window offset y * DH is phase (y * DH) % SH, row (y * DH) / SH (likewise x).
          offsets = {img,
                     zero,
                     at((d0 * dil[0]) % st[0], {y}),
                     at((d0 * dil[1]) % st[1], {x}),
                     at(d0 * rows + (d1 * dil[0]).floorDiv(st[0]), {rowBlock, y}),
                     at((d0 * dil[1]).floorDiv(st[1]), {x})};
          sizes = {one, idx(c), one, one, idx(rows), idx(ow)};
        } else {
          offsets = {img, zero, at(d0 * rows + d1 * dil[0], {rowBlock, y}), at(d0 * dil[1], {x})};
          sizes = {one, idx(c), idx(rows), idx(ow)};
        }
        SmallVector<OpFoldResult> unit(offsets.size(), one);
        Value window = tensor::ExtractSliceOp::create(b, l, rowsType, src, offsets, sizes, unit);
        SmallVector<OpFoldResult> colOffsets = {zero, y, x, zero, zero},
                                  colSizes = {idx(c), one, one, idx(rows), idx(ow)},
                                  colUnit(5, one);
        Value slot = tensor::ExtractSliceOp::create(b, l, rowsType, iter[0], colOffsets, colSizes,
                                                    colUnit);
        Value copied = tlc::copyRows(b, l, window, slot);
        return {tensor::InsertSliceOp::create(b, l, copied, iter[0], colOffsets, colSizes,
                                              colUnit)};
      });
  col = taps.results[0];
  rewriter.setInsertionPointAfter(taps.loops.front());
  int64_t pixels = rows * ow;
  Value col2;
  if (g == 1) {
    col2 = tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({k, pixels}, et),
                                           col, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
  } else {
    // [C, KH, KW, rows, OW] as [G, C/G, KH, KW, rows, OW], then [G, C/G*KH*KW, pixels].
    Value col6 = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({g, c / g, kh, kw, rows, ow}, et), col,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}, {5}});
    col2 = tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({g, k, pixels}, et),
                                           col6,
                                           ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}, {4, 5}});
  }
  SmallVector<OpFoldResult> outOffsets = {img, zero, row0, zero},
                            outSizes = {one, idx(f), idx(rows), idx(ow)}, outUnit(4, one);
  auto tileType = RankedTensorType::get({f, rows, ow}, et);
  auto out2Type = RankedTensorType::get({f, pixels}, et);
  // The tile's output rows of each filter are contiguous (whole rows), so the contraction
  // accumulates straight into the output slice viewed as [F, rows * OW].
  Value out = tensor::ExtractSliceOp::create(rewriter, loc, tileType, outArg, outOffsets, outSizes,
                                             outUnit);
  Value out2 = tensor::CollapseShapeOp::create(rewriter, loc, out2Type, out,
                                               ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  Value mm;
  if (g == 1) {
    if (fillValue)
      out2 = linalg::FillOp::create(rewriter, loc, fillValue, out2).getResult(0);
    // (m, p, k): out[m, p] += w[m, k] * col[k, p]
    AffineExpr m, p, kk;
    bindDims(ctx, m, p, kk);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, kk}, ctx),
                                   AffineMap::get(3, 0, {kk, p}, ctx),
                                   AffineMap::get(3, 0, {m, p}, ctx)};
    mm = tlc::buildMacGeneric(rewriter, loc, filter2, col2, out2, maps,
                              {IT::parallel, IT::parallel, IT::reduction});
  } else {
    auto out3Type = RankedTensorType::get({g, f / g, pixels}, et);
    Value out3 = tensor::ExpandShapeOp::create(rewriter, loc, out3Type, out2,
                                               ArrayRef<ReassociationIndices>{{0, 1}, {2}});
    if (fillValue)
      out3 = linalg::FillOp::create(rewriter, loc, fillValue, out3).getResult(0);
    // (g, m, p, k): out[g, m, p] += w[g, m, k] * col[g, k, p]
    AffineExpr gg, m, p, kk;
    bindDims(ctx, gg, m, p, kk);
    SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {gg, m, kk}, ctx),
                                   AffineMap::get(4, 0, {gg, kk, p}, ctx),
                                   AffineMap::get(4, 0, {gg, m, p}, ctx)};
    Value mm3 = tlc::buildMacGeneric(rewriter, loc, filter2, col2, out3, maps,
                                     {IT::parallel, IT::parallel, IT::parallel, IT::reduction});
    mm = tensor::CollapseShapeOp::create(rewriter, loc, out2Type, mm3,
                                         ArrayRef<ReassociationIndices>{{0, 1}, {2}});
  }
  Value result = tensor::ExpandShapeOp::create(rewriter, loc, tileType, mm,
                                               ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  rewriter.setInsertionPointToEnd(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, result, outArg, outOffsets, outSizes,
                                        outUnit);
  rewriter.setInsertionPointAfter(forall);
  return forall.getResult(0);
}

} // namespace

LogicalResult tlc::lowerConvToTiles(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op,
                                    int64_t rows) {
  tlc::ConvShape shape = tlc::getConvShape(op);
  if (rows <= 0 || shape.oh % rows != 0)
    return op.emitOpError("convolution tile rows do not divide the output height");
  rewriter.setInsertionPoint(op);
  // A constant-filled init (the usual zeros) is not filled up front: each tile fills its own
  // output slice right before contracting into it (a fill tlc-tile-contractions moves into
  // the register tiles).
  Value init = op.getOutputs()[0], fillValue, dest = init;
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (fill) {
    fillValue = fill.getInputs()[0];
    dest = fill.getOutputs()[0];
  }
  Value result = buildConvTiles(rewriter, op.getLoc(), op.getInputs()[0], op.getInputs()[1], dest,
                                fillValue, shape, rows);
  rewriter.replaceOp(op, result);
  // Nothing reads the whole-output fill any more (bufferized, it would be a memset of the
  // whole output, e.g. 25 MB for 8x64x112x112).
  if (fill && fill->use_empty())
    rewriter.eraseOp(fill);
  return success();
}

LogicalResult tlc::lowerGroupedConvToTiles(RewriterBase &rewriter, linalg::Conv2DNgchwGfchwOp op,
                                           int64_t rows) {
  return lowerUngrouped(rewriter, op, rows,
                        [&](Value input, Value filter, Value dest, Value fillValue) {
                          return buildConvTiles(rewriter, op.getLoc(), input, filter, dest,
                                                fillValue, getConvShape(op), rows);
                        });
}

LogicalResult tlc::lowerUngrouped(
    RewriterBase &rewriter, linalg::Conv2DNgchwGfchwOp op, int64_t rows,
    llvm::function_ref<Value(Value input, Value filter, Value dest, Value fillValue)> build) {
  tlc::ConvShape shape = tlc::getConvShape(op);
  if (rows <= 0 || shape.oh % rows != 0)
    return op.emitOpError("convolution tile rows do not divide the output height");
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // The operands without their group axis: input [N, C, H, W], filter [F, C/G, KH, KW].
  Value grouped = op.getInputs()[0];
  Value input = tlc::ungroupChannels(rewriter, loc, grouped, 1);
  Value filter = tlc::ungroupChannels(rewriter, loc, op.getInputs()[1], 0);
  // A filled init is not filled up front: the lowering fills each tile (see lowerConvToTiles).
  Value init = op.getOutputs()[0], fillValue, dest;
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (fill) {
    fillValue = fill.getInputs()[0];
    dest = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{shape.n, shape.f, shape.oh, shape.ow}, shape.elementType);
  } else {
    dest = tlc::ungroupChannels(rewriter, loc, init, 1);
  }
  Value result = build(input, filter, dest, fillValue);
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      op, init.getType(), result, ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  if (fill)
    eraseDeadProducers(rewriter, fill.getResult(0));
  eraseDeadProducers(rewriter, grouped);
  return success();
}

void tlc::eraseDeadProducers(RewriterBase &rewriter, Value value) {
  for (Operation *dead = value.getDefiningOp(); dead && isOpTriviallyDead(dead);) {
    SmallVector<Value> operands(dead->getOperands());
    rewriter.eraseOp(dead);
    dead = nullptr;
    for (Value operand : operands)
      if (Operation *def = operand.getDefiningOp(); def && isOpTriviallyDead(def))
        dead = def;
  }
}

Value tlc::ungroupChannels(OpBuilder &b, Location loc, Value grouped, unsigned axis) {
  // Grouped operands are usually expand_shape views of ungrouped ones.
  if (auto expand = grouped.getDefiningOp<tensor::ExpandShapeOp>())
    if (expand.getReassociationIndices()[axis] == ReassociationIndices{axis, axis + 1})
      return expand.getSrc();
  auto type = cast<RankedTensorType>(grouped.getType());
  SmallVector<ReassociationIndices> groups;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    if (d == axis + 1)
      continue;
    groups.push_back(d == axis ? ReassociationIndices{d, d + 1} : ReassociationIndices{d});
  }
  return tensor::CollapseShapeOp::create(b, loc, grouped, groups);
}
