// Rematerialization (checkpoint) planning for backward graphs: which forward values the
// backward pass reads as kept, and which it recomputes (tl-autodiff's `remat` option).
#ifndef TLC_PASSES_REMATERIALIZE_H
#define TLC_PASSES_REMATERIALIZE_H

#include "mlir/IR/Block.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace tlc {

/// Which forward values the backward ops read as kept (the rest are recomputed before them):
/// - None: all of them (no recomputation);
/// - Cheap: all but the results of cheap ops (at most 16 operations per element: elementwise
///   math, broadcasts, shape ops), recomputed from kept values where that needs no other
///   recomputation of an expensive op;
/// - Segments: only `segments - 1` checkpoints, values that alone cross a cut of the forward
///   graph, chosen so the saved bytes between consecutive checkpoints are about equal; each
///   segment is recomputed from its checkpoint before its backward ops run (Chen et al., 2016).
struct RematPolicy {
  enum Kind { None, Cheap, Segments } kind = None;
  unsigned segments = 0;
  std::string str() const;
};

/// Parses `none`, `cheap` or `segments=N` (N >= 2); returns an error message, empty on success.
std::string parseRematPolicy(llvm::StringRef text, RematPolicy &policy);

/// The name of the function attribute that records what a rematerialization did (kept and
/// recomputed values with their locations and types, FLOPs): read by the driver's memory
/// report (compiler/MemoryReport.h) and by its search over policies.
inline constexpr llvm::StringLiteral kRematAttr = "tl.remat";

/// Applies `policy` to the backward ops [backwardBegin, backwardEnd) of `block`, which read
/// forward values defined before them: recomputed values are cloned before their first
/// backward reader (reading kept values through tl.remat_barrier) and the backward ops read
/// the clones. Records (merging into an existing record) what it did on `func` (kRematAttr).
void rematerialize(mlir::Operation *func, mlir::Block &block, mlir::Operation *backwardBegin,
                   mlir::Operation *backwardEnd, const RematPolicy &policy);

} // namespace tlc

#endif // TLC_PASSES_REMATERIALIZE_H
