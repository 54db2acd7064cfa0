// Loop rewrites shared by the tiling passes.
#ifndef TLC_PASSES_LOOPUTILS_H
#define TLC_PASSES_LOOPUTILS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {

/// Replaces `loop` (independent iterations, no iter_args) by an scf.parallel over the same
/// range, which tlc-outline-parallel-loops hands to the thread pool. Leaves a loop with
/// iter_args as it is and returns false.
bool forToParallel(mlir::RewriterBase &rewriter, mlir::scf::ForOp loop);

} // namespace tlc

#endif // TLC_PASSES_LOOPUTILS_H
