// What a GPU kernel may bind, the view chains cloned into a launch to reach it, and the
// launch limits every GPU API allows.
#ifndef TLC_TARGETS_GPU_KERNELLAUNCH_H
#define TLC_TARGETS_GPU_KERNELLAUNCH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tlc {

/// The most workgroups along one grid dimension every API allows (Vulkan's minimum limit).
constexpr int64_t kMaxGridDim = 65535;

/// Whether `value` is a whole binding: a function argument, a planned workspace buffer
/// (`memref.view`) or a constant (`memref.get_global`). Kernel arguments are these only.
bool isBindingRoot(mlir::Value value);

/// Clones the view ops `value` is reached through from its binding into the builder's block
/// (memoized in `map`) and returns the clone of `value`, so kernels receive whole bindings and
/// index them themselves.
mlir::Value cloneViewChain(mlir::OpBuilder &b, mlir::Value value, mlir::IRMapping &map);

} // namespace tlc

#endif // TLC_TARGETS_GPU_KERNELLAUNCH_H
