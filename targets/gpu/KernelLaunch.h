// What a GPU kernel may bind, the view chains cloned into a launch to reach it, and the
// launch limits every GPU API allows; creating a launch and the coordinates inside it.
#ifndef TLC_TARGETS_GPU_KERNELLAUNCH_H
#define TLC_TARGETS_GPU_KERNELLAUNCH_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

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

/// A gpu.launch of a grid of `grid` (x, y, z) workgroups of `threads` threads (1-D), with
/// workgroup attributions of the `workgroup` types, as kernel `kernel` of gpu.module `module`
/// (all of a model's kernels go into one module, named after the model), created at `b`'s
/// insertion point. `b` is left before the body's terminator.
mlir::gpu::LaunchOp createKernelLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                       std::array<int64_t, 3> grid, int64_t threads,
                                       mlir::TypeRange workgroup,
                                       mlir::FlatSymbolRefAttr module,
                                       mlir::FlatSymbolRefAttr kernel);

/// One thread per point of a linear range of `points`: workgroups of `block` threads on a grid
/// of `x` (at most kMaxGridDim) by `y`.
struct PointGrid {
  int64_t points, block, x, y;
};

/// The grid for `points` (> 0) points with workgroups of `blockSize` threads (fewer, a whole
/// number of warps, for a smaller range); nullopt when it would need more than kMaxGridDim
/// rows of workgroups.
std::optional<PointGrid> pointGrid(int64_t points, int64_t blockSize);

/// A launch of `grid` (kernel `kernel` of gpu.module `module`) at `b`'s insertion point and the
/// linear index of its thread's point, (block_y * x + block_x) * block + thread_x; `b` is left
/// inside the guard `point < points` in the launch's body.
mlir::Value createPointLaunch(mlir::OpBuilder &b, mlir::Location loc, const PointGrid &grid,
                              mlir::FlatSymbolRefAttr module, mlir::FlatSymbolRefAttr kernel);

/// The coordinates of loop dimensions `dims` (outermost first, extents in `ranges` by
/// dimension) from their linear index, the innermost fastest: (dimension, value) pairs,
/// innermost first. The outermost takes what is left of the index unbounded.
llvm::SmallVector<std::pair<unsigned, mlir::Value>>
delinearize(mlir::OpBuilder &b, mlir::Location loc, mlir::Value linear,
            llvm::ArrayRef<unsigned> dims, llvm::ArrayRef<int64_t> ranges);

/// The indices `map` gives at the loop point `coords` (one value per loop dimension; only the
/// ones `map` uses need be set): a dimension's value, a constant, or the expression expanded
/// into arith ops (oh * stride + kh).
llvm::SmallVector<mlir::Value> indicesAt(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::AffineMap map, llvm::ArrayRef<mlir::Value> coords);

/// Index arithmetic at a builder's insertion point, shared by the kernel emitters.
class KernelEmitterBase {
protected:
  KernelEmitterBase(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}
  mlir::Value index(int64_t v);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, int64_t c);
  /// x < bound (unsigned).
  mlir::Value below(mlir::Value x, int64_t bound);
  /// min(x, bound - 1): an index kept in range for a load whose value is then discarded.
  mlir::Value clampBelow(mlir::Value x, int64_t bound);

  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace tlc

#endif // TLC_TARGETS_GPU_KERNELLAUNCH_H
