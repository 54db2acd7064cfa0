// Register tiles as dot products: bf16 k pairs as x86vector dot products (vdpbf16ps) or AArch64
// BFDOT, int8 k quads as AVX-512 VNNI vpdpbusd.
#include "targets/cpu/DotProductTiles.h"
#include "targets/cpu/PackContractionOperands.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"

using namespace mlir;

namespace {

/// `view` reduced to the dimensions its map `map` gives loops `keep` (in that order, the
/// last one its last result), every other result a loop of bound 1 in `bounds`: `view`
/// itself when nothing drops, else a rank-reducing subview of its whole extent.
FailureOr<Value> reduceToLoops(RewriterBase &rewriter, Location loc, Value view, AffineMap map,
                               ArrayRef<unsigned> keep, ArrayRef<int64_t> bounds) {
  auto type = dyn_cast<MemRefType>(view.getType());
  if (!type || map.getNumResults() != unsigned(type.getRank()))
    return failure();
  SmallVector<int64_t> keptShape;
  unsigned next = 0;
  for (auto [i, e] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim)
      return failure();
    if (next < keep.size() && dim.getPosition() == keep[next]) {
      keptShape.push_back(type.getDimSize(i));
      ++next;
      continue;
    }
    if (bounds[dim.getPosition()] != 1)
      return failure();
  }
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (next != keep.size() || !last || last.getPosition() != keep.back())
    return failure();
  if (keep.size() == unsigned(type.getRank()))
    return view;
  unsigned rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0)),
      strides(rank, rewriter.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(rewriter, loc, view);
  auto reduced =
      memref::SubViewOp::inferRankReducedResultType(keptShape, type, offsets, sizes, strides);
  return memref::SubViewOp::create(rewriter, loc, cast<MemRefType>(reduced), view, offsets,
                                   sizes, strides)
      .getResult();
}

/// The operands of a marked tile: A, read through plain dimensions (each row's k group), and
/// B, the panel row read through the one non-dimension result g n + k; null when not so.
std::pair<OpOperand *, OpOperand *> groupTileOperands(linalg::GenericOp tile) {
  OpOperand *aOperand = nullptr, *bOperand = nullptr;
  for (OpOperand *input : tile.getDpsInputOperands()) {
    AffineMap map = tile.getMatchingIndexingMap(input);
    (map.getNumResults() == 1 && !isa<AffineDimExpr>(map.getResult(0)) ? bOperand : aOperand) =
        input;
  }
  return {aOperand, bOperand};
}

/// What differs between the dot-product tiles: the marking attribute, the k group, the
/// operands' and accumulator's element types, the accumulator lanes of one instruction (16 for
/// AVX-512's 512-bit vectors, 4 for NEON's 128-bit ones), and the instruction: `dot(acc, a, b)`
/// for `lanes` columns, `a` the row's broadcast k group and `b` the panel's `lanes` column
/// groups.
struct DotKind {
  llvm::StringRef attr;
  int64_t group;
  Type element, accumulator;
  int64_t lanes;
  function_ref<Value(OpBuilder &, Location, Value, Value, Value)> dot;
};

LogicalResult vectorizeGroupTile(RewriterBase &rewriter, linalg::GenericOp tile,
                                 ArrayRef<int64_t> bounds, const DotKind &kind) {
  auto loopsAttr = tile->getAttrOfType<DenseI64ArrayAttr>(kind.attr);
  if (!loopsAttr || loopsAttr.size() != 3 || tile.getNumDpsInputs() != 2 ||
      tile.getNumDpsInits() != 1 || !tile.hasPureBufferSemantics())
    return failure();
  unsigned m = loopsAttr[0], n = loopsAttr[1], k = loopsAttr[2];
  for (unsigned d = 0; d < bounds.size(); ++d)
    if (d != m && d != n && d != k && bounds[d] != 1)
      return failure();
  int64_t g = kind.group, kLanes = kind.lanes;
  int64_t mBound = bounds[m], nBound = bounds[n];
  int64_t nVectors = llvm::divideCeil(nBound, kLanes), width = nVectors * kLanes;
  if (bounds[k] > g || mBound < 1)
    return failure();
  // B: the operand read through the non-dimension map result g n + k.
  auto [aOperand, bOperand] = groupTileOperands(tile);
  if (!aOperand || !bOperand)
    return failure();
  auto bType = dyn_cast<MemRefType>(bOperand->get().getType());
  if (!bType || bType.getRank() != 1 || bType.getElementType() != kind.element ||
      bType.isDynamicDim(0) || bType.getDimSize(0) < g * width)
    return failure();
  OpOperand *cOperand = tile.getDpsInitOperand(0);

  Location loc = tile.getLoc();
  rewriter.setInsertionPoint(tile);
  FailureOr<Value> a = reduceToLoops(rewriter, loc, aOperand->get(),
                                     tile.getMatchingIndexingMap(aOperand), {m, k}, bounds);
  FailureOr<Value> c = reduceToLoops(rewriter, loc, cOperand->get(),
                                     tile.getMatchingIndexingMap(cOperand), {m, n}, bounds);
  if (failed(a) || failed(c))
    return failure();
  auto aType = cast<MemRefType>(a->getType()), cType = cast<MemRefType>(c->getType());
  if (aType.getElementType() != kind.element || cType.getElementType() != kind.accumulator)
    return failure();

  MLIRContext *ctx = rewriter.getContext();
  Type i32 = rewriter.getI32Type();
  Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
  auto dimOf = [&](Value v, unsigned d) -> Value {
    return memref::DimOp::create(rewriter, loc, v, d);
  };
  // The accumulators: one transfer of the whole output tile, masked when the tile is an edge
  // tile or narrower than its vectors.
  auto accType = VectorType::get({mBound, width}, kind.accumulator);
  bool fullC = cType.hasStaticShape() && cType.getDimSize(0) == mBound &&
               cType.getDimSize(1) == width;
  Value cMask;
  if (!fullC)
    cMask = vector::CreateMaskOp::create(rewriter, loc,
                                         VectorType::get({mBound, width}, rewriter.getI1Type()),
                                         ValueRange{dimOf(*c, 0), dimOf(*c, 1)});
  ArrayAttr inBounds2 = rewriter.getBoolArrayAttr({true, true});
  AffineMap identity2 = AffineMap::getMultiDimIdentityMap(2, ctx);
  Value acc = vector::TransferReadOp::create(
      rewriter, loc, accType, *c, ValueRange{c0, c0}, identity2,
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(kind.accumulator)), cMask,
      inBounds2);

  // Each row's k group as one 32-bit element broadcast to all lanes; masked (a missing k or a
  // row past the tile's m extent reads as zeros) unless A's tile is static and full.
  bool fullA = aType.hasStaticShape() && aType.getDimSize(0) == mBound && aType.getDimSize(1) == g;
  Value mA = fullA ? Value() : dimOf(*a, 0), kA = fullA ? Value() : dimOf(*a, 1);
  auto groupType = VectorType::get({g}, kind.element);
  auto dotType = VectorType::get({g * kLanes}, kind.element);
  Value elementZero = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(kind.element));
  SmallVector<Value> aGroups;
  for (int64_t i = 0; i < mBound; ++i) {
    Value row = arith::ConstantIndexOp::create(rewriter, loc, i);
    Value mask;
    if (!fullA) {
      Value inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, row, mA);
      Value valid = arith::SelectOp::create(rewriter, loc, inside, kA, c0);
      mask = vector::CreateMaskOp::create(
          rewriter, loc, VectorType::get({g}, rewriter.getI1Type()), ValueRange{valid});
    }
    Value group = vector::TransferReadOp::create(
        rewriter, loc, groupType, *a, ValueRange{row, c0}, AffineMap::getMinorIdentityMap(2, 1, ctx),
        elementZero, mask, rewriter.getBoolArrayAttr({true}));
    Value bits = vector::BitCastOp::create(rewriter, loc, VectorType::get({1}, i32), group);
    Value scalar = vector::ExtractOp::create(rewriter, loc, bits, ArrayRef<int64_t>{0});
    Value splat = vector::BroadcastOp::create(rewriter, loc, VectorType::get({kLanes}, i32), scalar);
    aGroups.push_back(vector::BitCastOp::create(rewriter, loc, dotType, splat));
  }
  // B: 16 columns' groups per load of the interleaved row.
  SmallVector<Value> bGroups;
  for (int64_t j = 0; j < nVectors; ++j) {
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, g * kLanes * j);
    bGroups.push_back(vector::LoadOp::create(rewriter, loc, dotType, bOperand->get(),
                                             ValueRange{offset}));
  }
  for (int64_t i = 0; i < mBound; ++i) {
    Value row = vector::ExtractOp::create(rewriter, loc, acc, ArrayRef<int64_t>{i});
    for (int64_t j = 0; j < nVectors; ++j) {
      Value part = nVectors == 1 ? row
                                 : vector::ExtractStridedSliceOp::create(
                                       rewriter, loc, row, ArrayRef<int64_t>{j * kLanes},
                                       ArrayRef<int64_t>{kLanes}, ArrayRef<int64_t>{1});
      part = kind.dot(rewriter, loc, part, aGroups[i], bGroups[j]);
      row = nVectors == 1 ? part
                          : vector::InsertStridedSliceOp::create(rewriter, loc, part, row,
                                                                 ArrayRef<int64_t>{j * kLanes},
                                                                 ArrayRef<int64_t>{1});
    }
    acc = vector::InsertOp::create(rewriter, loc, row, acc, ArrayRef<int64_t>{i});
  }
  vector::TransferWriteOp::create(rewriter, loc, Type(), acc, *c, ValueRange{c0, c0}, identity2, cMask,
                                  inBounds2);
  rewriter.eraseOp(tile);
  return success();
}

constexpr llvm::StringLiteral kVpdpbusd = "llvm.x86.avx512.vpdpbusd.512";
constexpr llvm::StringLiteral kBfdot = "llvm.aarch64.neon.bfdot.v4f32.v8bf16";

} // namespace

bool tlc::isDotProductIntrinsic(Operation *op) {
  auto call = dyn_cast<LLVM::CallIntrinsicOp>(op);
  return call && (call.getIntrin() == kVpdpbusd || call.getIntrin() == kBfdot);
}

LogicalResult tlc::vectorizeBF16PairTile(RewriterBase &rewriter, linalg::GenericOp tile,
                                         ArrayRef<int64_t> bounds, int64_t lanes) {
  Type f32 = rewriter.getF32Type();
  auto resultType = VectorType::get({lanes}, f32);
  auto dot = [&](OpBuilder &b, Location loc, Value acc, Value a, Value bv) -> Value {
    if (lanes == 16)
      return x86vector::DotBF16Op::create(b, loc, resultType, acc, a, bv);
    // BFDOT (vector form): lane i += a[2i] * b[2i] + a[2i + 1] * b[2i + 1], the products and
    // sums in f32 precision (rounded to odd, denormals flushed, unless FEAT_EBF16 is on).
    return LLVM::CallIntrinsicOp::create(b, loc, resultType, b.getStringAttr(kBfdot),
                                         ValueRange{acc, a, bv})
        .getResult(0);
  };
  if (lanes != 16 && lanes != 4)
    return failure();
  return vectorizeGroupTile(rewriter, tile, bounds,
                            {"tlc.bf16_pairs", 2, rewriter.getBF16Type(), f32, lanes, dot});
}

LogicalResult tlc::vectorizeInt8QuadTile(RewriterBase &rewriter, linalg::GenericOp tile,
                                         ArrayRef<int64_t> bounds) {
  // vpdpbusd multiplies its first byte operand as unsigned, its second as signed.
  OpOperand *broadcast = groupTileOperands(tile).first;
  if (!broadcast)
    return failure();
  std::optional<bool> aUnsigned =
      extendedIntegerSignedness(tile, broadcast->getOperandNumber());
  if (!aUnsigned)
    return failure();
  Type i32 = rewriter.getI32Type();
  auto dot = [&](OpBuilder &b, Location loc, Value acc, Value a, Value bv) -> Value {
    Value u = *aUnsigned ? a : bv, s = *aUnsigned ? bv : a;
    return LLVM::CallIntrinsicOp::create(b, loc, VectorType::get({16}, i32),
                                         b.getStringAttr(kVpdpbusd),
                                         ValueRange{acc, u, s})
        .getResult(0);
  };
  return vectorizeGroupTile(rewriter, tile, bounds,
                            {"tlc.int8_quads", 4, rewriter.getI8Type(), i32, 16, dot});
}
