// The driver's rematerialization planning (--remat, --max-workspace): tl-autodiff policies
// tried on copies of the model through memory planning, each judged by its real arena.
#ifndef TLC_COMPILER_REMATSEARCH_H
#define TLC_COMPILER_REMATSEARCH_H

#include "compiler/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc {

/// A value of the forward pass that the backward pass reads: kept, or recomputed.
struct RematValue {
  std::string location, type;
  int64_t bytes = 0;
};

/// What a policy did (the `tl.remat` record of tl-autodiff), and the workspace it gave.
struct RematPlan {
  std::string policy;
  int64_t workspace = -1; // bytes of the planned arena; -1: not planned
  int64_t flops = 0, extraFlops = 0, cutPoints = 0;
  std::vector<RematValue> kept, recomputed;
};

/// The outcome of the search: the policies tried, in order, and the chosen one.
struct RematSearch {
  std::vector<RematPlan> tried;
  std::optional<size_t> chosen;
};

/// Takes (and removes) the `tl.remat` record from `module`'s functions after the graph passes;
/// std::nullopt when no function has one (no gradients, or no policy given).
std::optional<RematPlan> takeRematRecord(mlir::ModuleOp module);

/// Compiles copies of `module` (as loaded) through memory planning under the policies none,
/// cheap and segments=N (N from 2 up to the number of checkpoint candidates, about
/// geometrically), and chooses: within `maxWorkspace` (> 0) the one with the fewest extra
/// FLOPs (then the smallest workspace); without a budget the smallest workspace (then the
/// fewest extra FLOPs). An error at `loc` when no policy fits, naming the smallest workspace
/// found. Diagnostics of a failing copy are the compile's own and are reported once.
mlir::FailureOr<RematSearch> searchRematPolicies(mlir::ModuleOp module, GraphOptions graph,
                                                 const LoweringStrategy &strategy,
                                                 llvm::StringRef name, int64_t maxWorkspace,
                                                 mlir::Location loc);

} // namespace tlc

#endif // TLC_COMPILER_REMATSEARCH_H
