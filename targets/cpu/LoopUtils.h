// Loop rewrites shared by the tiling and outlining passes.
#ifndef TLC_TARGETS_CPU_LOOPUTILS_H
#define TLC_TARGETS_CPU_LOOPUTILS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {

/// Replaces `loop` (independent iterations, no iter_args) by an scf.parallel over the same
/// range, which tlc-outline-parallel-loops hands to the thread pool. Leaves a loop with
/// iter_args as it is and returns false.
bool forToParallel(mlir::RewriterBase &rewriter, mlir::scf::ForOp loop);

/// Whether a value of `type` crosses a call of an outlined function as one bare pointer or
/// scalar (the CPU target lowers calls with the bare-pointer convention): statically shaped,
/// identity-layout memrefs in the default memory space, integers, indices and floats.
bool isBarePointerPassable(mlir::Type type);

/// Marks `func` never to be inlined, by MLIR's inliner (`no_inline`) and by LLVM's (`noinline`
/// through `passthrough`: convert-func-to-llvm drops `no_inline`).
void setNeverInline(mlir::func::FuncOp func);

} // namespace tlc

#endif // TLC_TARGETS_CPU_LOOPUTILS_H
