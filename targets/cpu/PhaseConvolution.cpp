// Strided 2-D convolutions as row tiles over their row phases: one phase-split copy of the input,
// per tile a copy of each row phase's rows at each column tap, read in place by every row tap.
#include "targets/cpu/ConvolutionTiles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cstring>

using namespace mlir;

namespace {

using IT = utils::IteratorType;

/// The phases along one axis of kernel size `k` and stride `s` whose sub-filters have the same
/// number of taps: phases [first, first + count) have `taps` taps each.
struct PhaseRange {
  int64_t first, count, taps;
};

/// Phase p < k % s has ceil(k / s) taps (s * a + p < k), the others floor(k / s); phases with
/// no tap (k < s) are left out.
SmallVector<PhaseRange> phaseRanges(int64_t k, int64_t s) {
  SmallVector<PhaseRange> ranges;
  int64_t r = k % s;
  if (r == 0)
    return {{0, s, k / s}};
  ranges.push_back({0, r, k / s + 1});
  if (k / s > 0)
    ranges.push_back({r, s - r, k / s});
  return ranges;
}

/// The sub-filters of phase rows `ry` and phase columns `rx`, packed [F, C, (ry.count),
/// (rx.count), ry.taps, rx.taps] (unit phase counts left out): element (f, c, i, j, a, b) is
/// filter[f, c, SH * a + ry.first + i, SW * b + rx.first + j]. Folded at compile time when the
/// filter is a dense constant, else copied by a linalg.generic.
Value packSubFilters(OpBuilder &b, Location loc, Value filter, int64_t sh, int64_t sw,
                     PhaseRange ry, PhaseRange rx) {
  auto type = cast<RankedTensorType>(filter.getType());
  int64_t f = type.getDimSize(0), c = type.getDimSize(1), kh = type.getDimSize(2),
          kw = type.getDimSize(3);
  SmallVector<int64_t> shape = {f, c};
  if (ry.count > 1)
    shape.push_back(ry.count);
  if (rx.count > 1)
    shape.push_back(rx.count);
  shape.append({ry.taps, rx.taps});
  auto packedType = RankedTensorType::get(shape, type.getElementType());
  // The source index of packed element (f, c, i, j, a, b).
  auto source = [&](int64_t ff, int64_t cc, int64_t i, int64_t j, int64_t a, int64_t bb) {
    return ((ff * c + cc) * kh + sh * a + ry.first + i) * kw + sw * bb + rx.first + j;
  };

  DenseElementsAttr dense;
  if (auto constant = filter.getDefiningOp<arith::ConstantOp>())
    dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  unsigned bits = type.getElementTypeBitWidth();
  if (dense && dense.isSplat())
    return arith::ConstantOp::create(b, loc, dense.resizeSplat(packedType));
  if (dense && bits % 8 == 0) {
    int64_t width = bits / 8;
    ArrayRef<char> src = dense.getRawData();
    std::vector<char> dst(packedType.getNumElements() * width);
    char *out = dst.data();
    for (int64_t ff = 0; ff < f; ++ff)
      for (int64_t cc = 0; cc < c; ++cc)
        for (int64_t i = 0; i < ry.count; ++i)
          for (int64_t j = 0; j < rx.count; ++j)
            for (int64_t a = 0; a < ry.taps; ++a)
              for (int64_t bb = 0; bb < rx.taps; ++bb, out += width)
                std::memcpy(out, &src[source(ff, cc, i, j, a, bb) * width], width);
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::getFromRawBuffer(packedType, dst));
  }

  // A filter computed at run time: (f, c, [i], [j], a, b) reads
  // filter[f, c, SH * a + first_y + i, SW * b + first_x + j].
  MLIRContext *ctx = b.getContext();
  unsigned rank = shape.size(), dim = 2;
  AffineExpr i = ry.count > 1 ? getAffineDimExpr(dim++, ctx) : getAffineConstantExpr(0, ctx);
  AffineExpr j = rx.count > 1 ? getAffineDimExpr(dim++, ctx) : getAffineConstantExpr(0, ctx);
  AffineExpr a = getAffineDimExpr(dim++, ctx), bb = getAffineDimExpr(dim++, ctx);
  AffineMap in = AffineMap::get(rank, 0,
                                {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                                 a * sh + ry.first + i, bb * sw + rx.first + j},
                                ctx);
  Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::GenericOp::create(b, loc, TypeRange{packedType}, ValueRange{filter},
                                   ValueRange{empty},
                                   ArrayRef<AffineMap>{in, b.getMultiDimIdentityMap(rank)},
                                   SmallVector<IT>(rank, IT::parallel),
                                   [](OpBuilder &nb, Location l, ValueRange args) {
                                     linalg::YieldOp::create(nb, l, args[0]);
                                   })
      .getResult(0);
}

} // namespace

bool tlc::canLowerConvPhases(linalg::Conv2DNchwFchwOp op) {
  ConvShape shape = getConvShape(op);
  return (shape.strides[0] != 1 || shape.strides[1] != 1) && shape.dilations[0] == 1 &&
         shape.dilations[1] == 1 && (shape.kh > 1 || shape.kw > 1) &&
         op.getOutputs()[0].getDefiningOp<linalg::FillOp>();
}

int64_t tlc::choosePhaseBlockPixels(int64_t f, int64_t pixels, int64_t align, int64_t blockBytes) {
  int64_t block = std::max<int64_t>(align, blockBytes / (4 * f) / align * align);
  return std::min(block, pixels);
}

LogicalResult tlc::lowerConvToRowPhaseTiles(RewriterBase &rewriter, linalg::Conv2DNchwFchwOp op,
                                            int64_t rows, int64_t block) {
  if (!canLowerConvPhases(op))
    return op.emitOpError("not a strided, undilated convolution over a zero-filled output");
  ConvShape shape = getConvShape(op);
  int64_t n = shape.n, f = shape.f, c = shape.c, oh = shape.oh, ow = shape.ow, kh = shape.kh,
          kw = shape.kw, sh = shape.strides[0], sw = shape.strides[1];
  if (rows <= 0 || oh % rows != 0)
    return op.emitOpError("convolution tile rows do not divide the output height");
  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Type et = shape.elementType;
  Value input = op.getInputs()[0], filter = op.getInputs()[1];
  auto fill = op.getOutputs()[0].getDefiningOp<linalg::FillOp>();
  rewriter.setInsertionPoint(op);

  // The input's stride phases, once; then per tile a copy X[c, py, x, r, j] of row phase py
  // at column tap x: phase (py, x % SW) from row row0 + r and column x / SW on, so tap
  // (SH * a + py, x) of output pixel (row0 + r, j) is X[c, py, x, r + a, j].
  int64_t ka = llvm::divideCeil(kh, sh), xRows = rows + ka - 1;
  Value phases = stridePhases(rewriter, loc, input, sh, sw, oh + ka - 1, ow + (kw - 1) / sw);
  SmallVector<PhaseRange> rowRanges = phaseRanges(kh, sh);
  SmallVector<Value> filters;
  for (PhaseRange ry : rowRanges)
    filters.push_back(packSubFilters(rewriter, loc, filter, sh, 1, ry, {0, 1, kw}));
  ConvTileLoop loop = buildConvTileLoop(rewriter, loc, n, oh / rows, rows, fill.getOutputs()[0]);
  OpFoldResult img = loop.image, row0 = loop.firstRow;
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  auto idx = [&](int64_t v) -> OpFoldResult { return rewriter.getIndexAttr(v); };
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  AffineExpr d0 = getAffineDimExpr(0, ctx);

  auto xType = RankedTensorType::get({c, sh, kw, xRows, ow}, et);
  auto rowsType = RankedTensorType::get({c, xRows, ow}, et);
  Value x0 = tensor::EmptyOp::create(rewriter, loc, xType.getShape(), et);
  scf::LoopNest taps = scf::buildLoopNest(
      rewriter, loc, ValueRange{index(0), index(0)}, ValueRange{index(sh), index(kw)},
      ValueRange{index(1), index(1)}, ValueRange{x0},
      [&](OpBuilder &b, Location l, ValueRange pyx, ValueRange iter) -> scf::ValueVector {
        auto at = [&](AffineExpr e, ArrayRef<OpFoldResult> operands) {
          return affine::makeComposedFoldedAffineApply(b, l, e, operands);
        };
        OpFoldResult py = pyx[0], x = pyx[1];
        SmallVector<OpFoldResult> from = {img,  zero,
                                          py,   at(d0 % sw, {x}),
                                          row0, at(d0.floorDiv(sw), {x})},
                                  fromSizes = {one, idx(c), one, one, idx(xRows), idx(ow)},
                                  to = {zero, py, x, zero, zero},
                                  toSizes = {idx(c), one, one, idx(xRows), idx(ow)};
        Value window = tensor::ExtractSliceOp::create(b, l, rowsType, phases, from, fromSizes,
                                                      SmallVector<OpFoldResult>(6, one));
        SmallVector<OpFoldResult> unit(5, one);
        Value slot = tensor::ExtractSliceOp::create(b, l, rowsType, iter[0], to, toSizes, unit);
        Value copied = copyRows(b, l, window, slot);
        return {tensor::InsertSliceOp::create(b, l, copied, iter[0], to, toSizes, unit)};
      });
  rewriter.setInsertionPointAfter(taps.loops.front());
  int64_t plane = xRows * ow, pixels = rows * ow;
  Value xFlat = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({c, sh * kw * plane}, et), taps.results[0],
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3, 4}});

  // The tile's output rows are contiguous (whole rows): the contractions accumulate straight
  // into them, viewed as [F, rows * OW], one block of pixels at a time (all row-phase groups
  // into a block while it is in cache).
  SmallVector<OpFoldResult> outOffsets = {img, zero, row0, zero},
                            outSizes = {one, idx(f), idx(rows), idx(ow)}, outUnit(4, one);
  auto tileType = RankedTensorType::get({f, rows, ow}, et);
  Value out = tensor::ExtractSliceOp::create(rewriter, loc, tileType, loop.outArg, outOffsets,
                                             outSizes, outUnit);
  Value out2 =
      tensor::CollapseShapeOp::create(rewriter, loc, RankedTensorType::get({f, pixels}, et), out,
                                      ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  if (block <= 0 || block > pixels)
    block = pixels;
  // Fills the `size` pixels of `all` from p0 on and accumulates every group into them.
  auto accumulateBlock = [&](OpBuilder &b, Location l, Value all, OpFoldResult p0,
                             int64_t size) -> Value {
    auto blockType = RankedTensorType::get({f, size}, et);
    SmallVector<OpFoldResult> offsets = {zero, p0}, sizes = {idx(f), idx(size)}, unit = {one, one};
    Value acc = tensor::ExtractSliceOp::create(b, l, blockType, all, offsets, sizes, unit);
    acc = linalg::FillOp::create(b, l, fill.getInputs()[0], acc).getResult(0);
    for (auto [ry, packed] : llvm::zip_equal(rowRanges, filters)) {
      // (m, p, c, [i], a, x): out[m, p] += w[m, c, [i], a, x] *
      //   X[c, first + i, x, p + a * OW] (X's flat index first * KW * plane + i * KW *
      //   plane + x * plane + p + a * OW).
      SmallVector<int64_t> ranges, strides;
      if (ry.count > 1) {
        ranges.push_back(ry.count);
        strides.push_back(kw * plane);
      }
      ranges.append({ry.taps, kw});
      strides.append({ow, plane});
      int64_t span = size;
      for (auto [range, stride] : llvm::zip_equal(ranges, strides))
        span += (range - 1) * stride;
      Value window = tensor::ExtractSliceOp::create(
          b, l, RankedTensorType::get({c, span}, et), xFlat,
          ArrayRef<OpFoldResult>{
              zero, affine::makeComposedFoldedAffineApply(b, l, d0 + ry.first * kw * plane, {p0})},
          ArrayRef<OpFoldResult>{idx(c), idx(span)}, ArrayRef<OpFoldResult>{one, one});
      unsigned numTaps = ranges.size(), numDims = 3 + numTaps;
      SmallVector<AffineExpr> filterResults = {getAffineDimExpr(0, ctx), getAffineDimExpr(2, ctx)};
      AffineExpr pixel = getAffineDimExpr(1, ctx);
      for (unsigned t = 0; t < numTaps; ++t) {
        filterResults.push_back(getAffineDimExpr(3 + t, ctx));
        pixel = pixel + getAffineDimExpr(3 + t, ctx) * strides[t];
      }
      SmallVector<AffineMap> maps = {
          AffineMap::get(numDims, 0, filterResults, ctx),
          AffineMap::get(numDims, 0, {getAffineDimExpr(2, ctx), pixel}, ctx),
          AffineMap::get(numDims, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx)};
      SmallVector<IT> iterators = {IT::parallel, IT::parallel};
      iterators.append(numTaps + 1, IT::reduction);
      acc = buildMacGeneric(b, l, packed, window, acc, maps, iterators);
    }
    return tensor::InsertSliceOp::create(b, l, acc, all, offsets, sizes, unit).getResult();
  };
  // Whole blocks in a loop, then the remaining pixels as one smaller block.
  int64_t whole = pixels / block * block;
  Value all = out2;
  if (whole > 0)
    all =
        scf::ForOp::create(rewriter, loc, index(0), index(whole), index(block), ValueRange{all},
                           [&](OpBuilder &b, Location l, Value p0, ValueRange args) {
                             scf::YieldOp::create(b, l, accumulateBlock(b, l, args[0], p0, block));
                           })
            .getResult(0);
  if (whole < pixels)
    all = accumulateBlock(rewriter, loc, all, idx(whole), pixels - whole);
  Value result = tensor::ExpandShapeOp::create(rewriter, loc, tileType, all,
                                               ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  rewriter.setInsertionPointToEnd(loop.forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, result, loop.outArg, outOffsets, outSizes,
                                        outUnit);
  rewriter.replaceOp(op, loop.forall.getResults());
  if (fill->use_empty())
    rewriter.eraseOp(fill);
  if (Operation *def = filter.getDefiningOp(); def && isOpTriviallyDead(def))
    rewriter.eraseOp(def);
  return success();
}
