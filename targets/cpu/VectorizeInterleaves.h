// Transposes as vector shuffles (part of tlc-vectorize-rows): pair-interleaving ones and
// blocked register-tile ones.
#ifndef TLC_TARGETS_CPU_VECTORIZEINTERLEAVES_H
#define TLC_TARGETS_CPU_VECTORIZEINTERLEAVES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace tlc {

/// A linalg.transpose on buffers (32-bit elements, static last two dimensions on both sides)
/// that either splits each input row of X element pairs ([..., X, 2], pairs adjacent, unit
/// stride) into two unit-stride output rows of X (`deinterleave`: a stride-2 phase split), or
/// merges two unit-stride input rows of X into one output row of X pairs (an interleave).
struct PairTranspose {
  bool deinterleave;
  int64_t extent; // X
};
std::optional<PairTranspose> matchPairTranspose(mlir::linalg::TransposeOp op);

/// Mechanism: replaces `op` by loops over its other dimensions around a row loop of `lanes`
/// elements per step (the last partial step masked): load 2 x lanes, vector.deinterleave,
/// store both halves; or load two rows, vector.interleave, store 2 x lanes.
void vectorizePairTranspose(mlir::RewriterBase &rewriter, mlir::linalg::TransposeOp op,
                            const PairTranspose &pair, int64_t lanes);

/// Loops over the whole extent of each dimension `dims` of `out` (a memref): their bounds
/// and unit steps, appended to `lbs`, `ubs` and `steps` for scf::buildLoopNest.
void wholeDimensionLoops(mlir::OpBuilder &b, mlir::Location loc, mlir::Value out,
                         llvm::ArrayRef<int64_t> dims, llvm::SmallVectorImpl<mlir::Value> &lbs,
                         llvm::SmallVectorImpl<mlir::Value> &ubs,
                         llvm::SmallVectorImpl<mlir::Value> &steps);

/// The permutation of a linalg.generic on buffers that only copies its input through one
/// (identity output map): the linalg.transpose it is.
std::optional<llvm::SmallVector<int64_t>> matchPermutingCopy(mlir::linalg::GenericOp op);

/// A linalg.transpose on buffers (32-bit elements, unit-stride inner dimensions) that moves
/// the input's inner dimension to output dimension `outRow` (not the inner one), so the
/// output's inner dimension comes from input dimension `inRow`; `rows` x `cols` (static, each
/// at least a vector) are the extents of output dimensions outRow and the inner one.
struct BlockedTranspose {
  int64_t outRow, inRow, rows, cols;
};
std::optional<BlockedTranspose> matchBlockedTranspose(mlir::linalg::TransposeOp op,
                                                      int64_t lanes);
/// The same for a transpose by `perm` from `inType` to `outType` (a permuting copy's).
std::optional<BlockedTranspose> matchBlockedTranspose(mlir::MemRefType inType,
                                                      mlir::MemRefType outType,
                                                      llvm::ArrayRef<int64_t> perm, int64_t lanes);

/// Mechanism: replaces `op` by loops over its other dimensions around tiles of lanes x lanes:
/// `lanes` vector loads of input rows, a vector.transpose (lowered to shuffles here), `lanes`
/// vector stores of output rows; the edges past whole tiles become linalg.transposes of
/// subviews (VectorizeTransposes.cpp).
void vectorizeBlockedTranspose(mlir::RewriterBase &rewriter, mlir::linalg::TransposeOp op,
                               const BlockedTranspose &transpose, int64_t lanes);

} // namespace tlc

#endif
