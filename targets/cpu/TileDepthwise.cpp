// tlc-tile-depthwise: register tiles for contractions without an m dimension (a depthwise
// convolution: each output channel reads only its own input channel, so the weights share no
// dimension with the output that the input lacks). Each tile is a row of the output's
// contiguous dimension, written here as vector code (the row read, updated with the input
// row times the other operand's value broadcast, and written back, per reduction step), which
// tlc-vectorize keeps in registers across all reduction steps (taps): the row is written once.
// A small enough tile is instead straight-line code over all its taps and several output rows
// (one accumulator per row, every index a constant). Pooling (max, sum) takes the same tiles,
// its combiner in place of the multiply-add.
#include "passes/BufferFills.h"
#include "targets/cpu/CPUPasses.h"
#include "targets/cpu/LoopUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace tlc {
#define GEN_PASS_DEF_TLCTILEDEPTHWISE
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Marks of the row tiles and their fills between tiling and vectorization.
constexpr llvm::StringLiteral kRowTileAttr = "tlc.row_tile", kRowFillAttr = "tlc.row_fill";

/// A window op's unpadded row source (tlc::kPaddedSourceAttr): the input holding it, the
/// row input's map before tlc-view-window-operands, the padding before each of its dimensions
/// and the padding value.
struct PaddedSource {
  unsigned input;
  AffineMap map;
  SmallVector<int64_t> low;
  TypedAttr value;
};

/// A row accumulation: `row` is the loop of the output's last (contiguous) dimension, which
/// the input `rowOperand` reads too (along its last dimension, or at stride 2 along another:
/// see rowAccess); the other input is read once per row (broadcast along it).
struct RowAccumulation {
  unsigned row;
  unsigned rowOperand;
  /// Where the rows come from instead when the op has one (paddedSource).
  std::optional<PaddedSource> padded;
};

/// The static stride of dimension `dim` of buffer `v` (its innermost one by default), if it
/// has one.
std::optional<int64_t> strideOf(Value v, std::optional<unsigned> dim = std::nullopt) {
  auto type = dyn_cast<MemRefType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type || failed(type.getStridesAndOffset(strides, offset)) || strides.empty())
    return std::nullopt;
  int64_t stride = strides[dim.value_or(strides.size() - 1)];
  return ShapedType::isDynamic(stride) ? std::nullopt : std::optional<int64_t>(stride);
}

/// Whether the innermost dimension of buffer `v` has unit stride.
bool unitInnerStride(Value v) { return strideOf(v) == 1; }

/// Where the row operand's map reads loop `row` (a result position), and at what stride.
std::optional<std::pair<unsigned, int64_t>> rowAccess(linalg::LinalgOp op, OpOperand *rows,
                                                      unsigned row) {
  std::optional<unsigned> pos =
      op.getMatchingIndexingMap(rows).getResultPosition(getAffineDimExpr(row, op.getContext()));
  if (!pos)
    return std::nullopt;
  std::optional<int64_t> stride = strideOf(rows->get(), *pos);
  if (!stride)
    return std::nullopt;
  return std::make_pair(*pos, *stride);
}

/// Policy: row operands read at a stride up to this (a strided convolution's input rows) are
/// read as contiguous vectors this many times longer, of which every stride-th lane is kept.
constexpr int64_t kMaxRowStride = 2;

/// Policy: rows of up to this many tiles are unrolled when their tiles read masked source
/// rows (tlc.padded_source).
constexpr int64_t kMaxUnrolledRowTiles = 4;

/// The loop of `map`'s last result, if it is a plain loop dimension.
std::optional<unsigned> lastDim(AffineMap map) {
  if (map.getNumResults() == 0)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!dim)
    return std::nullopt;
  return dim.getPosition();
}

/// Whether `op`'s body is elementwise scalar code (vectorizable op by op).
bool elementwiseBody(linalg::GenericOp op) {
  for (Operation &bodyOp : op.getBody()->without_terminator())
    if (bodyOp.getNumRegions() != 0 || !OpTrait::hasElementwiseMappableTraits(&bodyOp))
      return false;
  return true;
}

/// Whether `op` is a pooling op's generic form: a reduction of input 0 over a window whose
/// shape input 1 gives (its values unused), with an elementwise combiner (max, add). After
/// tlc-view-window-operands input 0 reads every loop through a plain dimension.
bool isWindowReduction(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumReductionLoops() == 0 || generic.getNumDpsInputs() != 2 ||
      !generic.getMatchingBlockArgument(generic.getDpsInputOperand(1)).use_empty() ||
      !generic.getMatchingIndexingMap(generic.getDpsInputOperand(0)).isProjectedPermutation())
    return false;
  return elementwiseBody(generic);
}

/// Mechanism: `op`'s padded source, if it has one whose block argument is unused and whose
/// buffer's rows have unit stride (what the masked row reads need).
std::optional<PaddedSource> paddedSource(linalg::LinalgOp op) {
  auto attr = op->getAttrOfType<DictionaryAttr>(tlc::kPaddedSourceAttr);
  if (!attr)
    return std::nullopt;
  auto input = attr.getAs<IntegerAttr>("source");
  auto map = attr.getAs<AffineMapAttr>("map");
  auto low = attr.getAs<DenseI64ArrayAttr>("low");
  auto value = attr.getAs<TypedAttr>("value");
  if (!input || !map || !low || !value || input.getInt() < 0 ||
      input.getInt() >= op.getNumDpsInputs())
    return std::nullopt;
  OpOperand *source = op.getDpsInputOperand(input.getInt());
  auto type = dyn_cast<MemRefType>(source->get().getType());
  if (!op.getMatchingBlockArgument(source).use_empty() || !type ||
      static_cast<int64_t>(low.size()) != type.getRank() ||
      map.getValue().getNumResults() != type.getRank() || !type.hasStaticShape() ||
      !unitInnerStride(source->get()))
    return std::nullopt;
  return PaddedSource{static_cast<unsigned>(input.getInt()), map.getValue(),
                      llvm::to_vector(low.asArrayRef()), value};
}

/// Mechanism: whether `op` is a statically shaped multiply-accumulate on buffers with
/// reductions, whose dimensions split into those of one input and the output and those of
/// both inputs (no m, or no n, dimension: tlc-tile-contractions has no register tile for it),
/// with the output's contiguous dimension also the row input's, at unit stride in both, and not
/// the other input's; or a window reduction (pooling; isWindowReduction) likewise.
std::optional<RowAccumulation> matchRowAccumulation(linalg::LinalgOp op) {
  std::optional<PaddedSource> padded = paddedSource(op);
  if (!op.hasPureBufferSemantics() || op.hasDynamicShape() || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() != (padded ? 3u : 2u) || op->hasAttr("tlc.register_tile"))
    return std::nullopt;
  unsigned rowOperand;
  if (padded) {
    // tlc-lower-convolutions' depthwise form: the padded rows are input 0, the filter input 1.
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!generic || !elementwiseBody(generic) ||
        op.getIteratorTypesArray()[op.getNumLoops() - 1] != utils::IteratorType::parallel)
      return std::nullopt;
    rowOperand = 0;
  } else if (isWindowReduction(op)) {
    rowOperand = 0;
  } else {
    if (!linalg::isaContractionOpInterface(op))
      return std::nullopt;
    FailureOr<linalg::ContractionDimensions> dims = linalg::inferContractionDims(op);
    if (failed(dims) || dims->k.empty() || dims->m.empty() == dims->n.empty())
      return std::nullopt;
    // m: dimensions of input 0 and the output only; n: of input 1 and the output only.
    rowOperand = dims->m.empty() ? 1 : 0;
  }
  OpOperand *init = op.getDpsInitOperand(0), *rows = op.getDpsInputOperand(rowOperand);
  std::optional<unsigned> row = lastDim(op.getMatchingIndexingMap(init));
  if (!row || op.getIteratorTypesArray()[*row] != utils::IteratorType::parallel ||
      op.getStaticLoopRanges()[*row] < 2 || !unitInnerStride(init->get()))
    return std::nullopt;
  // The row is read along its last dimension at unit stride, or (a strided convolution's
  // input after tlc-view-window-operands, whose innermost dimension is then a tap) along
  // another one at a small stride; every other dimension is tiled by 1.
  // The other input is read once per row and broadcast along it, so it must not index the
  // row: in `bce,ec->be` the row e is a batch dimension of both inputs.
  if (op.getMatchingIndexingMap(op.getDpsInputOperand(1 - rowOperand)).isFunctionOfDim(*row))
    return std::nullopt;
  std::optional<std::pair<unsigned, int64_t>> access = rowAccess(op, rows, *row);
  if (!access || access->second < 1 || access->second > kMaxRowStride ||
      (access->second == 1 && access->first != op.getMatchingIndexingMap(rows).getNumResults() - 1))
    return std::nullopt;
  return RowAccumulation{*row, rowOperand, std::move(padded)};
}

/// Policy: the tile's extent along the row. The whole row when it fits `maxLanes`; else the
/// largest divisor of it up to `maxLanes` that is at least one vector (`lanes`), so every
/// tile has the same static size; else `maxLanes`, with a peeled last tile.
int64_t chooseRowTile(int64_t extent, int64_t lanes, int64_t maxLanes) {
  if (extent <= maxLanes)
    return extent;
  for (int64_t t = maxLanes; t >= lanes; --t)
    if (extent % t == 0)
      return t;
  return maxLanes;
}

/// Whether the map's results are loop dimensions (a projected permutation) whose last one,
/// if any result is `row`, is `row`.
bool rowLastIfPresent(AffineMap map, unsigned row) {
  if (!map.isProjectedPermutation())
    return false;
  std::optional<unsigned> pos = map.getResultPosition(getAffineDimExpr(row, map.getContext()));
  return !pos || *pos == map.getNumResults() - 1;
}

/// Mechanism: the elementwise op right after `op` that finishes its output `out` (bias,
/// activation: a depthwise convolution's epilogue), if it can run on each row tile while the
/// row is in registers: all its loops parallel, one per dimension of `out` in order; it reads
/// `out` through the identity, writes a buffer of `out`'s shape through the identity (`out`
/// itself, or another buffer if it does not read its own output), and reads its other
/// inputs either along the row (the last dimension, unit stride) or once per row.
linalg::GenericOp matchRowEpilogue(linalg::LinalgOp op, Value out) {
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(op->getNextNode());
  auto outType = cast<MemRefType>(out.getType());
  if (!epilogue || !epilogue.hasPureBufferSemantics() || epilogue.getNumDpsInits() != 1 ||
      epilogue.getNumLoops() != static_cast<unsigned>(outType.getRank()) ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() || epilogue.hasDynamicShape())
    return {};
  OpOperand *init = epilogue.getDpsInitOperand(0);
  unsigned row = outType.getRank() - 1;
  if (!epilogue.getMatchingIndexingMap(init).isIdentity() ||
      cast<MemRefType>(init->get().getType()).getShape() != outType.getShape() ||
      !unitInnerStride(init->get()) ||
      (init->get() != out && !epilogue.getMatchingBlockArgument(init).use_empty()))
    return {};
  unsigned reads = 0;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    if (input->get() == out) {
      if (!map.isIdentity())
        return {};
      ++reads;
      continue;
    }
    if (!rowLastIfPresent(map, row) ||
        (map.getResultPosition(getAffineDimExpr(row, map.getContext())) &&
         !unitInnerStride(input->get())))
      return {};
  }
  return reads == 1 && elementwiseBody(epilogue) ? epilogue : linalg::GenericOp();
}

/// Policy: the vector length for a row of `length` elements: a whole number of vectors of
/// `lanes` (a power of two below one vector). LLVM splits other lengths (e.g. 56 = 3.5
/// vectors) into element inserts; the lanes past the row are masked off.
int64_t vectorWidth(int64_t length, int64_t lanes) {
  return length < lanes ? static_cast<int64_t>(llvm::PowerOf2Ceil(length))
                        : llvm::alignTo(length, lanes);
}

/// The mask of a row's first `size` of `width` lanes (null when they are all of it).
Value rowMask(OpBuilder &b, Location loc, Value size, int64_t width) {
  if (getConstantIntValue(size) == width)
    return Value();
  return vector::CreateMaskOp::create(b, loc, VectorType::get({width}, b.getI1Type()),
                                      ValueRange{size});
}

/// The extent of a row view's last dimension (a constant when it is static), and a constant
/// upper bound of it (a peeled last tile's extent is an affine.apply of the loop index until
/// canonicalization); failure when it has none.
FailureOr<std::pair<Value, int64_t>> rowExtent(OpBuilder &b, Location loc, Value rowView) {
  auto type = cast<MemRefType>(rowView.getType());
  int64_t last = type.getRank() - 1;
  if (!type.isDynamicDim(last))
    return std::make_pair(Value(arith::ConstantIndexOp::create(b, loc, type.getDimSize(last))),
                          type.getDimSize(last));
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(rowView, last),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  if (failed(bound))
    return failure();
  return std::make_pair(Value(memref::DimOp::create(b, loc, rowView, last)), *bound);
}

/// The elementwise scalar `body` (of a linalg.generic whose block arguments `mapping` maps to
/// vectors) applied to those vectors: each op is cloned with vector result types (`vectorOf`),
/// scalars from outside the body (e.g. an activation's bounds) broadcast. Returns the value
/// the body yields.
Value applyOnVectors(RewriterBase &rewriter, Location loc, Block *body, IRMapping &mapping,
                     function_ref<VectorType(Type)> vectorOf) {
  for (Operation &op : body->without_terminator()) {
    for (Value operand : op.getOperands())
      if (!mapping.contains(operand) && operand.getParentBlock() != body)
        mapping.map(operand, vector::BroadcastOp::create(rewriter, loc, vectorOf(operand.getType()),
                                                         operand));
    Operation *vectorOp = rewriter.clone(op, mapping);
    for (OpResult r : vectorOp->getResults())
      r.setType(vectorOf(r.getType()));
  }
  return mapping.lookup(body->getTerminator()->getOperand(0));
}

/// The unpadded source a window op's row tiles read instead of its padded rows.
struct SourceRows {
  Value buffer; // the source input of the op before tiling
  PaddedSource padded;
};

/// Mechanism: the row of `tile`'s row input (input 0, a view of the padded rows read at
/// `stride`) for a row of `size` (at most `width`) elements, read from `src` instead: the
/// loop offsets of the tile (its row view's offsets, through its projected-permutation map)
/// give the padded coordinates (`src.padded.map`), less the padding the source's; one masked
/// load of stride * width lanes takes the lanes inside the source's row, the others are the
/// padding value, as is the whole row when it is outside the source (then read clamped).
/// Lanes before the source's first column read from a negative column, which a masked load
/// allows (the lane is not accessed).
Value readSourceRow(RewriterBase &rewriter, Location loc, linalg::GenericOp tile,
                    const SourceRows &src, int64_t stride, Value size, int64_t width,
                    ArrayRef<int64_t> point = {}) {
  OpOperand *rows = tile.getDpsInputOperand(0);
  auto view = rows->get().getDefiningOp<memref::SubViewOp>();
  AffineMap tileMap = tile.getMatchingIndexingMap(rows);
  SmallVector<OpFoldResult> loopOffsets(tile.getNumLoops(), rewriter.getIndexAttr(0));
  if (view)
    for (unsigned r = 0; r < tileMap.getNumResults(); ++r)
      loopOffsets[tileMap.getDimPosition(r)] = view.getMixedOffsets()[r];
  // A point within the tile (straight-line tiles: a row and a tap) moves the loop offsets.
  AffineExpr d0 = getAffineDimExpr(0, rewriter.getContext());
  for (auto [d, p] : llvm::enumerate(point))
    if (p != 0)
      loopOffsets[d] =
          affine::makeComposedFoldedAffineApply(rewriter, loc, d0 + p, {loopOffsets[d]});
  auto type = cast<MemRefType>(src.buffer.getType());
  unsigned rank = type.getRank();
  auto index = [&](int64_t v) { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  Value zero = index(0);
  int64_t lanes = stride * width;
  auto vectorType = VectorType::get({lanes}, type.getElementType());
  auto splat = [&](VectorType t) {
    return arith::ConstantOp::create(rewriter, loc,
                                     DenseElementsAttr::get(t, cast<Attribute>(src.padded.value)));
  };
  // Rows the tile's point places statically (straight-line tiles) are checked here: one
  // outside the source is the padding, one inside needs no test. The others are tested at run
  // time (`inside`, null if none is).
  Value inside;
  SmallVector<Value> at;
  AffineMap map = src.padded.map;
  for (unsigned k = 0; k < rank; ++k) {
    AffineExpr e = map.getResult(k) - src.padded.low[k];
    Value coord = getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(rewriter, loc, AffineMap::get(map.getNumDims(), 0, e),
                                              loopOffsets));
    if (k + 1 < rank && (!isa<AffineDimExpr>(map.getResult(k)) || src.padded.low[k] != 0)) {
      if (std::optional<int64_t> c = getConstantIntValue(coord)) {
        if (*c < 0 || *c >= type.getDimSize(k))
          return splat(VectorType::get({width}, type.getElementType()));
      } else {
        Value ok = arith::AndIOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, coord, zero),
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, coord,
                                  index(type.getDimSize(k))));
        inside = inside ? arith::AndIOp::create(rewriter, loc, inside, ok) : ok;
        coord = arith::SelectOp::create(rewriter, loc, ok, coord, zero);
      }
    }
    at.push_back(coord);
  }
  // Lanes [-x0, min(W - x0, span)) are inside the source's row, span = the row's extent.
  Value x0 = at.back();
  OpFoldResult span =
      affine::makeComposedFoldedAffineApply(rewriter, loc, d0 * stride - (stride - 1), {size});
  int64_t columns = type.getShape().back();
  auto maskType = VectorType::get({lanes}, rewriter.getI1Type());
  Value mask;
  std::optional<int64_t> x0Const = getConstantIntValue(x0), spanConst = getConstantIntValue(span);
  if (x0Const && spanConst) {
    SmallVector<bool> bits;
    for (int64_t i = 0; i < lanes; ++i)
      bits.push_back(i >= -*x0Const && i < std::min(columns - *x0Const, *spanConst));
    mask = arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(maskType, bits));
  } else {
    Value end = arith::MinSIOp::create(rewriter, loc,
                                       arith::SubIOp::create(rewriter, loc, index(columns), x0),
                                       getValueOrCreateConstantIndexOp(rewriter, loc, span));
    Value begin = arith::SubIOp::create(rewriter, loc, zero, x0);
    Value below = vector::CreateMaskOp::create(rewriter, loc, maskType, ValueRange{begin});
    Value upTo = vector::CreateMaskOp::create(rewriter, loc, maskType, ValueRange{end});
    Value all = arith::ConstantOp::create(rewriter, loc, DenseElementsAttr::get(maskType, true));
    mask = arith::AndIOp::create(rewriter, loc, upTo,
                                 arith::XOrIOp::create(rewriter, loc, below, all));
  }
  Value padding = splat(vectorType);
  // A row outside the source reads its clamped row and keeps the padding: the lane mask
  // depends on the column only (a constant once LLVM unrolls the taps of a whole-row tile).
  Value wide =
      vector::MaskedLoadOp::create(rewriter, loc, vectorType, src.buffer, at, mask, padding);
  if (inside)
    wide = arith::SelectOp::create(rewriter, loc, inside, wide, padding);
  if (stride == 1)
    return wide;
  SmallVector<int64_t> kept;
  for (int64_t i = 0; i < width; ++i)
    kept.push_back(i * stride);
  return vector::ShuffleOp::create(rewriter, loc, wide, wide, kept);
}

/// Whether `op` takes a view within one buffer (subview, reinterpret cast, reshape: not a
/// memref.view, which cuts a buffer out of the workspace).
bool isViewWithin(Operation *op) {
  return isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::CollapseShapeOp,
             memref::ExpandShapeOp>(op);
}

/// The buffer a chain of views within one buffer starts from (a workspace memref.view's
/// result, an alloc, an argument).
Value viewRoot(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isViewWithin(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// Erases the writes into `root` (fills and copies of it or of its views) when nothing else
/// uses it: a padded copy whose reader now reads the source. Returns whether it did.
bool eraseUnreadWrites(RewriterBase &rewriter, Value root) {
  SmallVector<Operation *> writes;
  bool onlyWrites = true;
  std::function<void(Value)> visit = [&](Value v) {
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isViewWithin(user)) {
        visit(user->getResult(0));
        continue;
      }
      auto dps = dyn_cast<DestinationStyleOpInterface>(user);
      if (isa<linalg::FillOp, linalg::CopyOp>(user) && dps.isDpsInit(&use))
        writes.push_back(user);
      else if (auto copy = dyn_cast<memref::CopyOp>(user); copy && copy.getTarget() == v)
        writes.push_back(user);
      else
        onlyWrites = false;
    }
  };
  visit(root);
  if (!onlyWrites)
    return false;
  for (Operation *write : writes)
    rewriter.eraseOp(write);
  return !writes.empty();
}

/// Vector code on the rows of one row tile: `width` lanes, the first `size` of them the row
/// (`mask` off the others, null when they are all of it).
struct RowVectors {
  RewriterBase &rewriter;
  Location loc;
  int64_t width;
  Value size, mask;

  MLIRContext *ctx() const { return rewriter.getContext(); }
  VectorType vectorOf(Type t) const { return VectorType::get({width}, getElementTypeOrSelf(t)); }
  Value index(int64_t v) const { return arith::ConstantIndexOp::create(rewriter, loc, v); }
  Value padding(Type et) const {
    return arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(et));
  }
  static AffineMap rowMap(Value buffer) {
    auto type = cast<MemRefType>(buffer.getType());
    return AffineMap::getMinorIdentityMap(type.getRank(), 1, type.getContext());
  }
  /// The indices of `buffer` (a tile's operand, read through the projected permutation `map`)
  /// at loop `point` within the tile (an empty point: its origin).
  SmallVector<Value> at(Value buffer, AffineMap map, ArrayRef<int64_t> point = {}) const {
    SmallVector<Value> indices;
    for (unsigned r = 0; r < static_cast<unsigned>(cast<MemRefType>(buffer.getType()).getRank());
         ++r)
      indices.push_back(index(point.empty() ? 0 : point[map.getDimPosition(r)]));
    return indices;
  }
  /// The row of `buffer` along its last dimension from `indices` (masked like the output row).
  Value readRow(Value buffer, ValueRange indices) const {
    Type et = getElementTypeOrSelf(buffer.getType());
    return vector::TransferReadOp::create(rewriter, loc, vectorOf(et), buffer, indices,
                                          rowMap(buffer), padding(et), mask,
                                          rewriter.getBoolArrayAttr({true}));
  }
  void writeRow(Value row, Value buffer, ValueRange indices) const {
    vector::TransferWriteOp::create(rewriter, loc, Type(), row, buffer, indices, rowMap(buffer),
                                    mask, rewriter.getBoolArrayAttr({true}));
  }
  /// The element of `buffer` at `indices`, broadcast along the row.
  Value broadcastElement(Value buffer, ValueRange indices) const {
    Value element = memref::LoadOp::create(rewriter, loc, buffer, indices);
    return vector::BroadcastOp::create(rewriter, loc, vectorOf(buffer.getType()), element);
  }
  /// A row read at stride s from `indices`: the s * (size - 1) + 1 elements it spans, read as
  /// one contiguous vector of s * width lanes (those past the span masked off), then every
  /// s-th lane.
  Value readStridedRow(Value buffer, int64_t stride, ValueRange indices) const {
    Type et = getElementTypeOrSelf(buffer.getType());
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc, buffer);
    AffineExpr d0 = getAffineDimExpr(0, ctx());
    OpFoldResult span =
        affine::makeComposedFoldedAffineApply(rewriter, loc, d0 * stride - (stride - 1), {size});
    // The flat offset of `indices`: the buffer's offset plus each index times its stride.
    OpFoldResult offset = metadata.getOffset();
    for (auto [i, s] : llvm::zip(indices, metadata.getStrides()))
      if (getConstantIntValue(i) != 0)
        offset = affine::makeComposedFoldedAffineApply(
            rewriter, loc, d0 + getAffineDimExpr(1, ctx()) * getAffineDimExpr(2, ctx()),
            {offset, OpFoldResult(i), OpFoldResult(s)});
    auto flatType = MemRefType::get({ShapedType::kDynamic}, et,
                                    StridedLayoutAttr::get(ctx(), ShapedType::kDynamic, {1}));
    Value flat = memref::ReinterpretCastOp::create(
        rewriter, loc, flatType, metadata.getBaseBuffer(), offset, ArrayRef<OpFoldResult>{span},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    Value wide = vector::TransferReadOp::create(
        rewriter, loc, VectorType::get({stride * width}, et), flat, ValueRange{index(0)},
        AffineMap::getMinorIdentityMap(1, 1, ctx()), padding(et), Value(),
        rewriter.getBoolArrayAttr({false}));
    SmallVector<int64_t> kept;
    for (int64_t i = 0; i < width; ++i)
      kept.push_back(i * stride);
    return vector::ShuffleOp::create(rewriter, loc, wide, wide, kept);
  }
  /// The value of `tile`'s input `input` at loop `point` (its row or its broadcast element),
  /// or null for the padded source (read in place of the row input).
  Value readInput(linalg::GenericOp tile, OpOperand *input, const RowAccumulation &acc,
                  const SourceRows *source, ArrayRef<int64_t> point = {}) const {
    Value buffer = input->get();
    AffineMap map = tile.getMatchingIndexingMap(input);
    if (source && input->getOperandNumber() == source->padded.input)
      return Value();
    if (input->getOperandNumber() != acc.rowOperand)
      return broadcastElement(buffer, at(buffer, map, point));
    std::optional<std::pair<unsigned, int64_t>> access = rowAccess(tile, input, acc.row);
    if (source)
      return readSourceRow(rewriter, loc, tile, *source, access->second, size, width, point);
    return access->second == 1 ? readRow(buffer, at(buffer, map, point))
                               : readStridedRow(buffer, access->second, at(buffer, map, point));
  }
};

/// A row to write: its value, the buffer and the indices.
struct RowWrite {
  Value row, buffer;
  SmallVector<Value> indices;
};

/// Mechanism: the epilogue (matchRowEpilogue) on one finished row `finished` of the tile's
/// output `out` (a subview of the op's output), `rowOffset` rows past the tile's first: its
/// other operands read at the row's position (along it, or once), its body on vectors; the
/// result's write into its output's row is returned, for the caller to make.
RowWrite epilogueOnRow(const RowVectors &io, linalg::GenericOp epilogue, Value out, Value finished,
                       int64_t rowOffset) {
  RewriterBase &rewriter = io.rewriter;
  Location loc = io.loc;
  auto view = out.getDefiningOp<memref::SubViewOp>();
  SmallVector<Value> position =
      getValueOrCreateConstantIndexOp(rewriter, loc, view.getMixedOffsets());
  unsigned rowDim = position.size() - 1;
  SmallVector<Value> outAt(position.size(), io.index(0));
  if (rowOffset != 0) {
    position[rowDim - 1] =
        arith::AddIOp::create(rewriter, loc, position[rowDim - 1], io.index(rowOffset));
    outAt[rowDim - 1] = io.index(rowOffset);
  }
  IRMapping mapping;
  OpOperand *init = epilogue.getDpsInitOperand(0);
  Value target = init->get();
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    Value buffer = input->get(), v;
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    SmallVector<Value> indices;
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      indices.push_back(position[map.getDimPosition(r)]);
    if (buffer == view.getSource())
      v = finished;
    else if (map.getResultPosition(getAffineDimExpr(rowDim, io.ctx())))
      v = io.readRow(buffer, indices);
    else
      v = io.broadcastElement(buffer, indices);
    mapping.map(epilogue.getMatchingBlockArgument(input), v);
  }
  // Only an epilogue writing `out` itself may read its output (then the finished row).
  mapping.map(epilogue.getMatchingBlockArgument(init), finished);
  Value row = applyOnVectors(rewriter, loc, epilogue.getBody(), mapping,
                             [&](Type t) { return io.vectorOf(t); });
  if (target == view.getSource())
    return {row, out, outAt};
  return {row, target, position};
}

/// Mechanism: the row tile `tile` (views of one row of the output and of input `acc.rowOperand`,
/// and one element of the other input) as vector code on rows of `size` (at most `bound`)
/// elements: both rows are read as vectors (lanes past `size` masked off), the element is
/// broadcast, the body's scalar ops are applied to them as vector ops, and the result is
/// written back. The output row's read and write use the
/// same indices, map and mask (`fillMask`, the mask of the row's fill, when it has one), so
/// tlc-vectorize keeps it in registers across enclosing loops and starts it from the fill.
/// `outer` is the outermost reduction loop around the tile (the tile itself if none); with
/// an `epilogue` (matchRowEpilogue), it runs on the row right after `outer`.
void rowTileToVectors(RewriterBase &rewriter, linalg::GenericOp tile, const RowAccumulation &acc,
                      Value size, int64_t bound, int64_t lanes, Value fillMask, Operation *outer,
                      linalg::GenericOp epilogue, const SourceRows *source) {
  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(outer);
  int64_t width = vectorWidth(bound, lanes);
  RowVectors io{rewriter, loc, width, size,
                fillMask ? fillMask : rowMask(rewriter, loc, size, width)};
  rewriter.setInsertionPoint(tile);
  IRMapping mapping;
  for (OpOperand *input : tile.getDpsInputOperands())
    if (Value v = io.readInput(tile, input, acc, source))
      mapping.map(tile.getMatchingBlockArgument(input), v);
  OpOperand *init = tile.getDpsInitOperand(0);
  Value out = init->get();
  SmallVector<Value> outAt = io.at(out, tile.getMatchingIndexingMap(init));
  mapping.map(tile.getMatchingBlockArgument(init), io.readRow(out, outAt));
  io.writeRow(applyOnVectors(rewriter, loc, tile.getBody(), mapping,
                             [&](Type t) { return io.vectorOf(t); }),
              out, outAt);
  if (epilogue) {
    // The epilogue on the finished row, after all reduction steps: the row read back (which
    // store-to-load forwarding takes from the accumulators).
    rewriter.setInsertionPointAfter(outer);
    RowWrite write = epilogueOnRow(
        io, epilogue, out, io.readRow(out, io.at(out, tile.getMatchingIndexingMap(init))), 0);
    io.writeRow(write.row, write.buffer, write.indices);
  }
  rewriter.eraseOp(tile);
}

/// Mechanism: the row tile `tile` of `rows` output rows (loop `rowsDim`, if any) and all of
/// its reduction steps (none tiled) as straight-line vector code with constant indices: one
/// accumulator per row (from `fillValue`, the output's fill, if it has one; else read), the
/// body applied per tap and row (an input that does not depend on the row read once per
/// tap), then the `epilogue` on each finished row before its only write. Every tap's row is
/// known here: a padded source's rows outside it, and its column masks, fold to constants.
void straightLineTile(RewriterBase &rewriter, linalg::GenericOp tile, const RowAccumulation &acc,
                      Value size, int64_t bound, int64_t lanes, std::optional<unsigned> rowsDim,
                      Value fillValue, linalg::GenericOp epilogue, const SourceRows *source) {
  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  int64_t width = vectorWidth(bound, lanes);
  RowVectors io{rewriter, loc, width, size, rowMask(rewriter, loc, size, width)};
  SmallVector<int64_t> ranges = tile.getStaticLoopRanges();
  int64_t rows = rowsDim ? ranges[*rowsDim] : 1;
  SmallVector<unsigned> reductions;
  int64_t taps = 1;
  for (auto [d, iterator] : llvm::enumerate(tile.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction) {
      reductions.push_back(d);
      taps *= ranges[d];
    }
  OpOperand *init = tile.getDpsInitOperand(0);
  Value out = init->get();
  AffineMap outMap = tile.getMatchingIndexingMap(init);
  SmallVector<int64_t> point(tile.getNumLoops(), 0);
  auto rowAt = [&](int64_t r) {
    if (rowsDim)
      point[*rowsDim] = r;
  };
  SmallVector<Value> accumulators;
  for (int64_t r = 0; r < rows; ++r) {
    rowAt(r);
    accumulators.push_back(fillValue ? vector::BroadcastOp::create(
                                           rewriter, loc, io.vectorOf(out.getType()), fillValue)
                                     : io.readRow(out, io.at(out, outMap, point)));
  }
  auto vectorOf = [&](Type t) { return io.vectorOf(t); };
  for (int64_t t = 0; t < taps; ++t) {
    int64_t rest = t;
    for (unsigned d : llvm::reverse(reductions)) {
      point[d] = rest % ranges[d];
      rest /= ranges[d];
    }
    rowAt(0);
    IRMapping perTap; // the inputs that do not depend on the row
    for (OpOperand *input : tile.getDpsInputOperands())
      if (!rowsDim || !tile.getMatchingIndexingMap(input).isFunctionOfDim(*rowsDim))
        if (Value v = io.readInput(tile, input, acc, source, point))
          perTap.map(tile.getMatchingBlockArgument(input), v);
    for (int64_t r = 0; r < rows; ++r) {
      rowAt(r);
      IRMapping mapping = perTap;
      for (OpOperand *input : tile.getDpsInputOperands())
        if (rowsDim && tile.getMatchingIndexingMap(input).isFunctionOfDim(*rowsDim))
          if (Value v = io.readInput(tile, input, acc, source, point))
            mapping.map(tile.getMatchingBlockArgument(input), v);
      mapping.map(tile.getMatchingBlockArgument(init), accumulators[r]);
      accumulators[r] = applyOnVectors(rewriter, loc, tile.getBody(), mapping, vectorOf);
    }
  }
  // The output itself is written unless the epilogue overwrites it; the epilogue reads all
  // its rows before any write (its other inputs read once for all rows).
  Value target = epilogue ? epilogue.getDpsInitOperand(0)->get() : Value();
  auto view = out.getDefiningOp<memref::SubViewOp>();
  SmallVector<RowWrite> writes;
  for (int64_t r = 0; r < rows; ++r) {
    rowAt(r);
    if (!epilogue || target != view.getSource())
      writes.push_back({accumulators[r], out, io.at(out, outMap, point)});
    if (epilogue)
      writes.push_back(epilogueOnRow(io, epilogue, out, accumulators[r], r));
  }
  for (RowWrite &write : writes)
    io.writeRow(write.row, write.buffer, write.indices);
  rewriter.eraseOp(tile);
}

/// The fill `fill` of one row tile's output as a vector write of the value, in the form of
/// the tile's own writes (see rowTileToVectors), which upstream's store-to-load forwarding
/// then turns into accumulators starting from the value. Returns its mask (null if none).
Value rowFillToVector(RewriterBase &rewriter, linalg::FillOp fill, Value size, int64_t bound,
                      int64_t lanes) {
  Location loc = fill.getLoc();
  rewriter.setInsertionPoint(fill);
  Value out = fill.getDpsInitOperand(0)->get();
  auto type = cast<MemRefType>(out.getType());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  int64_t width = vectorWidth(bound, lanes);
  Value splat = vector::BroadcastOp::create(
      rewriter, loc, VectorType::get({width}, type.getElementType()), fill.getInputs()[0]);
  SmallVector<Value> indices(type.getRank(), zero);
  Value mask = rowMask(rewriter, loc, size, width);
  vector::TransferWriteOp::create(
      rewriter, loc, Type(), splat, out, indices,
      AffineMap::getMinorIdentityMap(type.getRank(), 1, fill.getContext()), mask,
      rewriter.getBoolArrayAttr({true}));
  rewriter.eraseOp(fill);
  return mask;
}

/// The output's dimension before its row (a convolution's output rows), when the output's
/// map reads it as its second-to-last result through a parallel loop.
std::optional<unsigned> rowsDimension(linalg::LinalgOp op, unsigned row) {
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (map.getNumResults() < 2)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(map.getResult(map.getNumResults() - 2));
  if (!dim || dim.getPosition() == row ||
      op.getIteratorTypesArray()[dim.getPosition()] != utils::IteratorType::parallel)
    return std::nullopt;
  return dim.getPosition();
}

/// Whether straightLineTile can index `op`'s operands at any point: every one it reads
/// (all but a padded source's rows and source) and its output through plain loop dimensions.
bool indexableByPoint(linalg::LinalgOp op, const RowAccumulation &acc) {
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned n = operand.getOperandNumber();
    if (acc.padded && (n == acc.padded->input || n == acc.rowOperand))
      continue;
    if (!op.getMatchingIndexingMap(&operand).isProjectedPermutation())
      return false;
  }
  return true;
}

/// Policy: the output rows of a straight-line tile: the largest divisor of the extent that
/// keeps the tile's accumulators (rows times the vectors of a row) within half the vector
/// registers, which leaves the rest for the rows read and the broadcast weights.
int64_t chooseTileRows(int64_t extent, int64_t vectorsPerRow, int64_t registers) {
  int64_t most = std::max<int64_t>(1, registers / 2 / vectorsPerRow);
  for (int64_t r = std::min(extent, most); r > 1; --r)
    if (extent % r == 0)
      return r;
  return 1;
}

struct TLCTileDepthwisePass : tlc::impl::TLCTileDepthwiseBase<TLCTileDepthwisePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, RowAccumulation>> found;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<RowAccumulation> acc = matchRowAccumulation(op))
        found.push_back({op, *acc});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, acc] : found)
      tileRows(rewriter, op, acc);
  }

  void tileRows(IRRewriter &rewriter, linalg::LinalgOp op, const RowAccumulation &acc) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    Value init = op.getDpsInitOperand(0)->get();
    linalg::FillOp fill =
        llvm::is_contained(op.getDpsInputs(), init) ? nullptr : tlc::lastFillOf(op, init);
    int64_t bits = getElementTypeOrSelf(init.getType()).getIntOrFloatBitWidth();
    int64_t lanes = std::max<int64_t>(1, vectorBits / bits);
    int64_t rowTile = chooseRowTile(ranges[acc.row], lanes, lanes * vectors);
    linalg::GenericOp epilogue = matchRowEpilogue(op, init);
    std::optional<SourceRows> source;
    if (acc.padded)
      source = SourceRows{op.getDpsInputOperand(acc.padded->input)->get(), *acc.padded};
    Value paddedRows = viewRoot(op.getDpsInputOperand(acc.rowOperand)->get());
    // On the rows the epilogue writes its output while later rows still read the input: not
    // into memory the rows are read from (the memory plan may give the epilogue's output the
    // storage of an input whose last reader is this op, e.g. the padded source).
    if (epilogue) {
      Value target = epilogue.getDpsInitOperand(0)->get();
      if (tlc::mayOverlap(target, op.getDpsInputOperand(acc.rowOperand)->get()) ||
          (source && tlc::mayOverlap(target, source->buffer)))
        epilogue = nullptr;
    }

    // A tile small enough runs all its taps as straight-line code, over several output rows
    // (one accumulator each: independent chains, and rows a later row's taps read again).
    int64_t taps = 1;
    for (unsigned d = 0; d < ranges.size(); ++d)
      if (iterators[d] == utils::IteratorType::reduction)
        taps *= ranges[d];
    std::optional<unsigned> rowsDim = rowsDimension(op, acc.row);
    // A strided row is read as stride times as many vectors.
    std::optional<std::pair<unsigned, int64_t>> access =
        rowAccess(op, op.getDpsInputOperand(acc.rowOperand), acc.row);
    int64_t vectorsPerRow =
        llvm::divideCeil(vectorWidth(rowTile, lanes), lanes) * (access ? access->second : 1);
    int64_t rowsPerTile = rowsDim ? chooseTileRows(ranges[*rowsDim], vectorsPerRow, registers) : 1;
    bool straight =
        indexableByPoint(op, acc) && rowsPerTile * vectorsPerRow * taps <= straightLineSteps;
    if (!straight)
      rowsDim.reset();

    // Loops: the other parallel dimensions (tiles of 1, the rows of a straight-line tile
    // excepted), the row, then the reductions (not tiled in a straight-line tile).
    SmallVector<OpFoldResult> sizes;
    SmallVector<int64_t> order;
    unsigned numLoops = 0;
    for (unsigned d = 0; d < ranges.size(); ++d) {
      bool reduction = iterators[d] == utils::IteratorType::reduction;
      int64_t size = d == acc.row              ? rowTile
                     : d == rowsDim            ? rowsPerTile
                     : (straight && reduction) ? 0
                                               : 1;
      sizes.push_back(rewriter.getIndexAttr(size));
      numLoops += size != 0;
      if (d != acc.row && !reduction)
        order.push_back(d);
    }
    order.push_back(acc.row);
    for (unsigned d = 0; d < ranges.size(); ++d)
      if (iterators[d] == utils::IteratorType::reduction)
        order.push_back(d);
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes).setInterchange(order);
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled) || tiled->tiledOps.size() != 1 || tiled->loops.size() != numLoops)
      return; // left to convert-linalg-to-loops
    rewriter.eraseOp(op);
    tiled->tiledOps.front()->setAttr(kRowTileAttr, rewriter.getUnitAttr());
    SmallVector<scf::ForOp> loops;
    for (LoopLikeOpInterface loop : tiled->loops)
      loops.push_back(cast<scf::ForOp>(loop.getOperation()));
    unsigned numParallel = llvm::find(order, acc.row) - order.begin() + 1;
    scf::ForOp rowLoop = loops[numParallel - 1];

    // The fill of the whole output becomes one of each tile, before its reduction loops:
    // the tile's output view moves out of them first.
    if (fill && numParallel < loops.size()) {
      scf::ForOp firstReduction = loops[numParallel];
      for (unsigned i = loops.size(); i-- > numParallel;)
        moveLoopInvariantCode(cast<LoopLikeOpInterface>(loops[i].getOperation()));
      Value tileInit = cast<linalg::LinalgOp>(tiled->tiledOps.front()).getDpsInitOperand(0)->get();
      if (firstReduction.isDefinedOutsideOfLoop(tileInit)) {
        rewriter.setInsertionPoint(firstReduction);
        auto tileFill =
            linalg::FillOp::create(rewriter, fill.getLoc(), fill.getInputs()[0], tileInit);
        tileFill->setAttr(kRowFillAttr, rewriter.getUnitAttr());
        rewriter.eraseOp(fill);
      }
    }
    // Threads take the outermost parallel loop with more than one iteration.
    for (unsigned i = 0; i < numParallel; ++i) {
      std::optional<APInt> trips = loops[i].getStaticTripCount();
      if (!trips || trips->ugt(1)) {
        tlc::forToParallel(rewriter, loops[i]);
        if (i == numParallel - 1)
          rowLoop = nullptr;
        break;
      }
    }
    // A last, shorter row tile gets a loop of its own, so full tiles have static shapes.
    if (rowLoop && ranges[acc.row] % rowTile != 0) {
      scf::ForOp partial;
      rewriter.setInsertionPoint(rowLoop);
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, rowLoop, partial);
    }
    // Tiles reading the source's rows through column masks: a row of a few tiles is
    // unrolled, so each tile's columns (its masks) are constants, the interior tiles' loads
    // unmasked (masks from a loop index cost a few vector ops per tap and vector: 2 tiles per
    // 112-wide row ran mnasnet1_0's first depthwise layer 1.4x slower than its padded copy).
    if (source && rowLoop) {
      std::optional<APInt> trips = rowLoop.getStaticTripCount();
      if (trips && trips->ugt(1) && trips->ule(kMaxUnrolledRowTiles))
        (void)loopUnrollFull(rowLoop);
    }
    // A straight-line tile's loops of one iteration (a tile of all the rows, a row of one
    // tile) go first, so its offsets are constants when its code is written (a padded source's
    // row tests and column masks then fold right there, not in the canonicalizer).
    if (straight) {
      llvm::SetVector<scf::ForOp> single;
      getOperation().walk([&](linalg::GenericOp g) {
        if (!g->hasAttr(kRowTileAttr))
          return;
        for (auto loop = g->getParentOfType<scf::ForOp>(); loop;
             loop = loop->getParentOfType<scf::ForOp>())
          if (std::optional<APInt> trips = loop.getStaticTripCount(); trips && trips->isOne())
            single.insert(loop);
      });
      for (scf::ForOp loop : single)
        (void)loop.promoteIfSingleIteration(rewriter);
    }
    // Every row tile (the peeled one included) and its fill as vector code on its row.
    SmallVector<linalg::GenericOp> tiles;
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](Operation *op) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op); generic && generic->hasAttr(kRowTileAttr))
        tiles.push_back(generic);
      if (auto rowFill = dyn_cast<linalg::FillOp>(op); rowFill && rowFill->hasAttr(kRowFillAttr))
        fills.push_back(rowFill);
    });
    // Fills first: a row tile reuses its fill's mask (the same value, so the fill's write
    // forwards to the tile's first read of its accumulators).
    llvm::DenseMap<Value, Value> fillMasks;
    for (linalg::FillOp f : fills) {
      f->removeAttr(kRowFillAttr);
      rewriter.setInsertionPoint(f);
      Value row = f.getDpsInitOperand(0)->get();
      FailureOr<std::pair<Value, int64_t>> extent = rowExtent(rewriter, f.getLoc(), row);
      if (succeeded(extent))
        fillMasks[row] = rowFillToVector(rewriter, f, extent->first, extent->second, lanes);
    }
    // Each tile's outermost reduction loop, with the tile's output row moved out of the
    // reduction loops (it depends on the parallel loops only). The epilogue runs on the rows
    // only if every tile can take it (else it stays a pass of its own over the output).
    unsigned numReductions = loops.size() - numParallel;
    struct RowTile {
      linalg::GenericOp op;
      Operation *outer;
      FailureOr<std::pair<Value, int64_t>> extent;
    };
    SmallVector<RowTile> rowTiles;
    for (linalg::GenericOp t : tiles) {
      t->removeAttr(kRowTileAttr);
      Operation *outer = t;
      for (unsigned i = 0; i < numReductions && outer; ++i) {
        outer = outer->getParentOp();
        if (auto loop = dyn_cast_or_null<scf::ForOp>(outer))
          moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
        else
          outer = nullptr;
      }
      Value row = t.getDpsInitOperand(0)->get();
      auto view = row.getDefiningOp<memref::SubViewOp>();
      bool hoisted = outer && (outer == t || cast<scf::ForOp>(outer).isDefinedOutsideOfLoop(row));
      if (!hoisted)
        outer = t;
      rewriter.setInsertionPoint(outer);
      FailureOr<std::pair<Value, int64_t>> extent = rowExtent(rewriter, t.getLoc(), row);
      if (!hoisted || !view || view.getSource() != init || failed(extent) || !elementwiseBody(t))
        epilogue = nullptr;
      rowTiles.push_back({t, outer, extent});
    }
    bool fused = false, allRows = true;
    for (RowTile &t : rowTiles) {
      if (failed(t.extent) || !elementwiseBody(t.op)) {
        allRows = false;
        continue; // left to convert-linalg-to-loops (and the epilogue to its own pass)
      }
      Value row = t.op.getDpsInitOperand(0)->get();
      if (straight)
        straightLineTile(rewriter, t.op, acc, t.extent->first, t.extent->second, lanes, rowsDim,
                         fill ? fill.getInputs()[0] : Value(), epilogue,
                         source ? &*source : nullptr);
      else
        rowTileToVectors(rewriter, t.op, acc, t.extent->first, t.extent->second, lanes,
                         fillMasks.lookup(row), t.outer, epilogue, source ? &*source : nullptr);
      fused = epilogue != nullptr;
    }
    if (fused)
      rewriter.eraseOp(epilogue);
    // Every straight-line tile started from the fill's value: the fill is not read.
    if (straight && fill && allRows)
      rewriter.eraseOp(fill);
    // Every row read the source: the padded copy is not read any more.
    if (source && allRows)
      (void)eraseUnreadWrites(rewriter, paddedRows);
  }
};

} // namespace
