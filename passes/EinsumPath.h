// Contraction paths for n-ary einsums: which operands to contract pairwise, in which order, and
// what each order costs (the mechanism behind tl-plan-einsum-paths and --report=einsum).
#ifndef TLC_PASSES_EINSUMPATH_H
#define TLC_PASSES_EINSUMPATH_H

#include "TL/Einsum.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace tlc {
namespace tl {
class EinsumOp;
} // namespace tl

/// Labels a pairwise equation can spell (a-z, A-Z): einsums with more loop dimensions are left
/// as one loop nest.
constexpr int64_t kMaxEinsumLabels = 52;

/// How tl-plan-einsum-paths (and tlc --einsum-path) chooses a contraction order.
enum class EinsumPathMode { Optimal, Greedy, None };

/// One step of a path. Operands are numbered as nodes: 0..n-1 are the einsum's operands (after
/// their preparation, see EinsumPath::reducedFirst), n+k is the result of step k.
struct EinsumStep {
  int64_t lhs, rhs;
  uint64_t labels;   // loop dimensions (EinsumSpec numbering) the step's result keeps
  double flops;      // this step's FLOPs, preparation of leaf operands included
  double size;       // elements of the step's result
};

/// A contraction path and its cost. FLOPs follow numpy.einsum_path's convention, so the two
/// compare directly: a contraction of k operands over a loop nest of N points costs
/// N * (max(1, k - 1) + 1 if it sums a label, else + 0). Taking a diagonal is a copy (0 FLOPs).
struct EinsumPath {
  /// Per operand: its labels once its diagonals are taken (each label once).
  llvm::SmallVector<uint64_t> operandLabels;
  /// Per operand: labels summed out that appear in that operand only.
  llvm::SmallVector<uint64_t> uniqueSummed;
  /// Per operand: whether `uniqueSummed` is reduced in a one-operand step before its first
  /// contraction (else that contraction sums it, when that costs fewer FLOPs).
  llvm::SmallVector<bool> reducedFirst;
  /// Per operand: whether the operand repeats a label (a diagonal is taken first).
  llvm::SmallVector<bool> hasDiagonal;
  llvm::SmallVector<EinsumStep> steps; // pairwise, in order; the last one makes the result
  double flops = 0;
  double largestIntermediate = 0; // the largest tensor made besides operands and result
  bool exact = false;             // found by the exhaustive search (else greedy)
};

/// The path `mode` chooses for `spec` (at least two operands, at most 64 loop dimensions):
/// exhaustive search when `mode` is Optimal and there are at most `exactLimit` operands (capped
/// at 16), greedy otherwise. Least FLOPs, then the smallest largest intermediate.
EinsumPath planEinsumPath(const tl::EinsumSpec &spec, EinsumPathMode mode, int64_t exactLimit);

/// The order with the most FLOPs (exhaustive, at most `exactLimit` operands capped at 16), for
/// comparison; std::nullopt-like empty steps when there are more operands.
EinsumPath worstEinsumPath(const tl::EinsumSpec &spec, int64_t exactLimit);

/// The spec of `op` when tl-plan-einsum-paths splits it: three or more static operands and at
/// most kMaxEinsumLabels loop dimensions.
llvm::FailureOr<tl::EinsumSpec> splittableEinsum(tl::EinsumOp op);

/// Folds each einsum whose result has one use, by an einsum of the same block, into that
/// consumer: `ij,jk->ik` feeding `ik,kl->il` becomes `ij,jk,kl->il`, whose path is then chosen
/// as a whole. Only where the merged einsum has 3 to `exactLimit` operands (the exhaustive
/// search then sees the order as written among its candidates, so the chosen path never costs
/// more FLOPs than it), equal element types, static shapes, no `...` broadcast and no repeated
/// label on the folded operand. Returns the number of einsums folded.
int64_t mergeEinsumChains(mlir::Operation *root, mlir::RewriterBase &rewriter,
                          int64_t exactLimit);

/// FLOPs of the einsum as one loop nest over all its labels (tl-lower-to-linalg's form).
double singleLoopNestFlops(const tl::EinsumSpec &spec);

} // namespace tlc

#endif // TLC_PASSES_EINSUMPATH_H
