// Reductions on the GPU with one workgroup per output element.
#ifndef TLC_TARGETS_GPU_WORKGROUPREDUCTION_H
#define TLC_TARGETS_GPU_WORKGROUPREDUCTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tlc {

/// Emits `op` as a launch with one workgroup per output element (in kernel `kernel` of
/// gpu.module `module`) and erases it, when it is a reduction that pays for it: one output
/// whose value is carried through one combiner with a neutral element (add, mul, max, min,
/// ...), at least 128 elements reduced into each output element, operands read through
/// projected permutations, static sizes, no linalg.index in the body. Returns false (and
/// leaves `op` alone) otherwise. `init`, when given, is a constant the output starts from
/// instead of its contents (a fill absorbed).
bool mapWorkgroupReduction(mlir::linalg::LinalgOp op, mlir::FlatSymbolRefAttr module,
                           mlir::FlatSymbolRefAttr kernel,
                           mlir::Value init = {});

} // namespace tlc

#endif // TLC_TARGETS_GPU_WORKGROUPREDUCTION_H
