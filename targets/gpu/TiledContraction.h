// Contractions on the GPU as workgroup tiles staged through workgroup memory.
#ifndef TLC_TARGETS_GPU_TILEDCONTRACTION_H
#define TLC_TARGETS_GPU_TILEDCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tlc {

/// Emits `op` as a tiled contraction launch (in kernel `kernel` of gpu.module `module`) and
/// erases it, when it is a contraction the tiled kernel covers: one reduction loop, operands
/// read through projected permutations, static sizes, an m x n x k of at least 32 x 32 x 16.
/// `init`, when given, is a constant the output starts from instead of its contents (a fill
/// absorbed). An elementwise op right after `op`, in place on its output (bias, activation,
/// residual), runs in the tile's store and is erased too; `*epilogue` says which. Returns
/// false (and leaves `op` alone) otherwise.
bool mapTiledContraction(mlir::linalg::LinalgOp op, mlir::FlatSymbolRefAttr module,
                         mlir::FlatSymbolRefAttr kernel,
                         mlir::Value init = {}, mlir::Operation **epilogue = nullptr);

} // namespace tlc

#endif // TLC_TARGETS_GPU_TILEDCONTRACTION_H
