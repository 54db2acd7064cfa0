// Contractions on the GPU as workgroup tiles staged through workgroup memory.
#ifndef TLC_TARGETS_GPU_TILEDCONTRACTION_H
#define TLC_TARGETS_GPU_TILEDCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <functional>

namespace tlc {

/// Workspace bytes past the planned arena for the kernels' own temporaries (a split
/// contraction's partial sums). Kernels run in order on one stream, so every temporary starts
/// at the same offset; the workspace grows by the largest (`bytes`).
struct WorkspaceTail {
  mlir::Value workspace; // the host function's workspace argument
  int64_t offset = 0;    // the planned arena's size, aligned
  int64_t bytes = 0;
  /// A view of `elements` elements of `type` at the tail.
  mlir::Value view(mlir::OpBuilder &b, mlir::Location loc, int64_t elements, mlir::Type type);
};

/// Emits `op` as a tiled contraction launch (in kernel `kernel` of gpu.module `module`) and
/// erases it, when it is a contraction the tiled kernel covers: one reduction loop, operands
/// read through projected permutations, static sizes, an m x n x k of at least 32 x 32 x 16.
/// `init`, when given, is a constant the output starts from instead of its contents (a fill
/// absorbed). An elementwise op right after `op`, in place on its output (bias, activation,
/// residual), runs in the tile's store and is erased too; `*epilogue` says which. With
/// `tail`, a contraction with too few tiles for a large GPU and a long k splits k over
/// workgroups: partial sums into the output and `tail`, then a second kernel (named by
/// `nextKernel`) sums them in order and runs the epilogue. Returns false (and leaves `op`
/// alone) otherwise.
bool mapTiledContraction(mlir::linalg::LinalgOp op, mlir::FlatSymbolRefAttr module,
                         mlir::FlatSymbolRefAttr kernel, mlir::Value init,
                         mlir::Operation **epilogue, WorkspaceTail *tail,
                         const std::function<mlir::FlatSymbolRefAttr()> &nextKernel);

} // namespace tlc

#endif // TLC_TARGETS_GPU_TILEDCONTRACTION_H
