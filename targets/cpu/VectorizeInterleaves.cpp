// Transposes that split rows of element pairs into two rows (deinterleave: a stride-2 phase
// split, as of a convolution's input) or merge two rows into one of pairs (interleave: a
// Winograd output's column phases) as vector loads, vector.deinterleave / vector.interleave
// shuffles and vector stores. As loops, LLVM left them as scalar moves (13 GB/s on resnet18's
// 56x56 planes).
#include "targets/cpu/VectorizeInterleaves.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace {

/// Whether the last two dimensions of `type` have strides 2 and 1 (pairs of unit-stride
/// elements, the pairs adjacent) or, with `pairs` false, whether the last one has stride 1.
bool unitInner(MemRefType type, bool pairs) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return false;
  return !pairs || (type.getRank() >= 2 && strides[strides.size() - 2] == 2);
}

/// `memref` with its last two dimensions merged (they must be contiguous).
Value mergeLastTwo(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 2 < type.getRank(); ++d)
    groups.push_back({d});
  groups.push_back({type.getRank() - 2, type.getRank() - 1});
  return memref::CollapseShapeOp::create(b, loc, memref, groups);
}

} // namespace

void tlc::wholeDimensionLoops(OpBuilder &b, Location loc, Value out, ArrayRef<int64_t> dims,
                              SmallVectorImpl<Value> &lbs, SmallVectorImpl<Value> &ubs,
                              SmallVectorImpl<Value> &steps) {
  for (int64_t d : dims) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(memref::DimOp::create(b, loc, out, d));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
}

std::optional<tlc::PairTranspose> tlc::matchPairTranspose(linalg::TransposeOp op) {
  if (!op.hasPureBufferSemantics())
    return std::nullopt;
  auto inType = cast<MemRefType>(op.getInput().getType());
  auto outType = cast<MemRefType>(op.getInit().getType());
  int64_t rank = inType.getRank();
  Type et = inType.getElementType();
  if (rank < 2 || !et.isIntOrFloat() || et.getIntOrFloatBitWidth() != 32)
    return std::nullopt;
  ArrayRef<int64_t> perm = op.getPermutation();
  // The last two dimensions of both sides must be static (outer ones may be a chunk's).
  for (MemRefType type : {inType, outType})
    if (type.isDynamicDim(rank - 1) || type.isDynamicDim(rank - 2))
      return std::nullopt;
  // Deinterleave: the input's innermost pairs [X, 2] go to a non-innermost output dimension,
  // the output's innermost is the input's X.
  if (inType.getDimSize(rank - 1) == 2 && perm[rank - 1] == rank - 2 &&
      unitInner(inType, /*pairs=*/true) && unitInner(outType, /*pairs=*/false) &&
      memref::CollapseShapeOp::isGuaranteedCollapsible(
          inType, {ReassociationIndices{rank - 2, rank - 1}}))
    return PairTranspose{/*deinterleave=*/true, inType.getDimSize(rank - 2)};
  // Interleave: the output's innermost pairs [X, 2] come from the input's innermost X and a
  // size-2 input dimension.
  if (outType.getDimSize(rank - 1) == 2 && perm[rank - 2] == rank - 1 &&
      unitInner(outType, /*pairs=*/true) && unitInner(inType, /*pairs=*/false))
    return PairTranspose{/*deinterleave=*/false, inType.getDimSize(rank - 1)};
  return std::nullopt;
}

void tlc::vectorizePairTranspose(RewriterBase &rewriter, linalg::TransposeOp op,
                                 const PairTranspose &pair, int64_t lanes) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value in = op.getInput(), out = op.getInit();
  auto inType = cast<MemRefType>(in.getType());
  int64_t rank = inType.getRank();
  ArrayRef<int64_t> perm = op.getPermutation();
  Type et = inType.getElementType();
  // The pair dimension's position in the output (deinterleave) or input (interleave), and the
  // loops: every output dimension but the two the rows run along.
  int64_t pairDim = pair.deinterleave ? llvm::find(perm, rank - 1) - perm.begin() : perm[rank - 1];
  SmallVector<int64_t> loopDims;
  for (int64_t d = 0; d < rank; ++d)
    if (d != rank - 1 && (pair.deinterleave ? d != pairDim : d != rank - 2))
      loopDims.push_back(d);
  SmallVector<Value> lbs, ubs, steps;
  tlc::wholeDimensionLoops(rewriter, loc, out, loopDims, lbs, ubs, steps);
  // The side whose rows hold the pairs, with the pair dimension merged into its rows.
  Value merged = mergeLastTwo(rewriter, loc, pair.deinterleave ? in : out);
  auto vec = [&](int64_t n) { return VectorType::get({n}, et); };
  Value zero = arith::ConstantOp::create(rewriter, loc, et, rewriter.getZeroAttr(et));

  scf::buildLoopNest(rewriter, loc, lbs, ubs, steps, [&](OpBuilder &b, Location l, ValueRange ivs) {
    // Indices of the unmerged side (x and the pair slot filled in per access) and of the
    // merged one (its last index is 2 * x).
    SmallVector<Value> plain(rank), pairs(rank - 1);
    Value c0 = arith::ConstantIndexOp::create(b, l, 0), c1 = arith::ConstantIndexOp::create(b, l, 1);
    for (auto [d, iv] : llvm::zip_equal(loopDims, ivs)) {
      int64_t inDim = perm[d];
      if (pair.deinterleave) {
        plain[d] = iv;      // output index
        pairs[inDim] = iv;  // input index (inDim < rank - 2)
      } else {
        plain[inDim] = iv;  // input index
        pairs[d] = iv;      // output index (d < rank - 2)
      }
    }
    // One step of `n` <= lanes row elements from x0, masked when `n` is a partial vector.
    auto step = [&](OpBuilder &s, Value x0, int64_t n) {
      Value x2 = arith::MulIOp::create(s, l, x0, arith::ConstantIndexOp::create(s, l, 2));
      SmallVector<Value> at = pairs;
      at.back() = x2;
      Value mask, pairMask;
      if (n < lanes) {
        mask = vector::CreateMaskOp::create(s, l, VectorType::get({lanes}, s.getI1Type()),
                                            ValueRange{arith::ConstantIndexOp::create(s, l, n)});
        pairMask = vector::CreateMaskOp::create(
            s, l, VectorType::get({2 * lanes}, s.getI1Type()),
            ValueRange{arith::ConstantIndexOp::create(s, l, 2 * n)});
      }
      auto rowAt = [&](Value slot) {
        SmallVector<Value> idx = plain;
        idx[pairDim] = slot;
        idx[rank - 1] = x0;
        return idx;
      };
      if (pair.deinterleave) {
        Value v = mask ? vector::MaskedLoadOp::create(
                             s, l, vec(2 * lanes), merged, at, pairMask,
                             vector::BroadcastOp::create(s, l, vec(2 * lanes), zero))
                             .getResult()
                       : vector::LoadOp::create(s, l, vec(2 * lanes), merged, at).getResult();
        auto halves = vector::DeinterleaveOp::create(s, l, v);
        Value parts[2] = {halves.getRes1(), halves.getRes2()};
        for (int k = 0; k < 2; ++k) {
          SmallVector<Value> idx = rowAt(k == 0 ? c0 : c1);
          if (mask)
            vector::MaskedStoreOp::create(s, l, out, idx, mask, parts[k]);
          else
            vector::StoreOp::create(s, l, parts[k], out, idx);
        }
        return;
      }
      Value parts[2];
      for (int k = 0; k < 2; ++k) {
        SmallVector<Value> idx = rowAt(k == 0 ? c0 : c1);
        parts[k] = mask ? vector::MaskedLoadOp::create(
                              s, l, vec(lanes), in, idx, mask,
                              vector::BroadcastOp::create(s, l, vec(lanes), zero))
                              .getResult()
                        : vector::LoadOp::create(s, l, vec(lanes), in, idx).getResult();
      }
      Value v = vector::InterleaveOp::create(s, l, parts[0], parts[1]);
      if (mask)
        vector::MaskedStoreOp::create(s, l, merged, at, pairMask, v);
      else
        vector::StoreOp::create(s, l, v, merged, at);
    };
    int64_t whole = pair.extent / lanes * lanes;
    if (whole > 0)
      scf::ForOp::create(b, l, arith::ConstantIndexOp::create(b, l, 0),
                         arith::ConstantIndexOp::create(b, l, whole),
                         arith::ConstantIndexOp::create(b, l, lanes), ValueRange{},
                         [&](OpBuilder &s, Location, Value x0, ValueRange) {
                           step(s, x0, lanes);
                           scf::YieldOp::create(s, l);
                         });
    if (pair.extent > whole)
      step(b, arith::ConstantIndexOp::create(b, l, whole), pair.extent - whole);
  });
  rewriter.eraseOp(op);
}
