// Pair-interleaving transposes as vector shuffles (part of tlc-vectorize-rows).
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

} // namespace tlc

#endif
