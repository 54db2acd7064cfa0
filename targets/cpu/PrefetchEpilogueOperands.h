// Prefetching the operands an epilogue-fused contraction's epilogue will read, while the
// contraction's register tiles run (used by tlc-tile-contractions).
#ifndef TLC_TARGETS_CPU_PREFETCHEPILOGUEOPERANDS_H
#define TLC_TARGETS_CPU_PREFETCHEPILOGUEOPERANDS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {

/// The operands of the epilogue of `contraction` (on buffers) worth prefetching: the
/// elementwise linalg.generic right after it in its block that writes the contraction's output
/// in place (tlc-fuse-epilogues' tile), its inputs read element for element at the output's
/// place (identity maps, the output's shape), other than the output itself, when the output
/// tile has at most `maxBytes` (what the prefetched lines must stay cached in until the
/// epilogue reads them). With the map results of the contraction's m and n loops in its output.
struct EpilogueOperands {
  llvm::SmallVector<mlir::Value> operands;
  unsigned mResult = 0, nResult = 0;
};
EpilogueOperands epilogueOperands(mlir::linalg::LinalgOp contraction, unsigned m, unsigned n,
                                  int64_t maxBytes);

/// Mechanism: before `before` (the register tile's k loop, or the tile itself), prefetches
/// into the cache (`locality`, as llvm.prefetch's) the lines of each of `epilogue`'s operands
/// at the register tile's output slice: one per row and 64 bytes of the slice's columns.
/// `init` is the contraction's output, of which the tile's output is a chain of subviews;
/// nothing is done when it is not.
void prefetchEpilogueOperands(mlir::RewriterBase &rewriter, const EpilogueOperands &epilogue,
                              mlir::Value init, mlir::linalg::LinalgOp registerTile,
                              mlir::Operation *before, int64_t locality);

} // namespace tlc

#endif // TLC_TARGETS_CPU_PREFETCHEPILOGUEOPERANDS_H
