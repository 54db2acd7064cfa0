// Buffers behind views, and the fill that initializes a buffer before an op reads it (used by
// tlc-tile-contractions, to start accumulators from the fill value in registers,
// tlc-vectorize-rows, to know a reduction's accumulator starts from a non-NaN constant, and
// tlc-lower-memref-copy, to fill only the border of a padded buffer), whether two views'
// memory may overlap, and whether ops may access some memory.
#ifndef TLC_PASSES_BUFFERFILLS_H
#define TLC_PASSES_BUFFERFILLS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace tlc {

/// The buffer a memref view is taken from (through subviews, views, casts and reshapes);
/// `v` itself if it is not a memref.
mlir::Value rootBuffer(mlir::Value v);

/// Whether the memory of views `a` and `b` may overlap: false only when they are views of
/// the same root binding (a function argument, a global, the workspace) cut by memref.view
/// at constant offsets into disjoint byte ranges, of different roots, or static unit-stride
/// subviews of one buffer whose boxes do not intersect.
bool mayOverlap(mlir::Value a, mlir::Value b);

/// Whether `op` or an op nested in it may write memory (with `reads`, also read it) that
/// `touches` says an effect's value may name (called with the op having the effect and the
/// value). An op with unknown effects, or an effect that names no value, counts; an op with
/// recursive effects counts by its own effects and those of the ops it contains; one
/// `transparent` holds for, by the ops it contains only.
bool mayAccessMemory(mlir::Operation *op, bool reads,
                     llvm::function_ref<bool(mlir::Operation *, mlir::Value)> touches,
                     llvm::function_ref<bool(mlir::Operation *)> transparent = nullptr);

/// The linalg.fill (on buffers) that last wrote all of `buffer` before `op` in `op`'s block,
/// with nothing in between that may read or write it; null when there is none or it cannot
/// be told. The fill may write `buffer` itself or the same memory under another shape
/// (memref.collapse_shape, expand_shape and cast keep every element: a convolution's
/// contraction accumulates into a collapsed view of the filled output). Ops without memory
/// effects and fills of other allocations (which cannot alias it) are stepped over; any
/// other op, or a fill of memory that may overlap `buffer` only in part, ends the search.
mlir::linalg::FillOp lastFillOf(mlir::Operation *op, mlir::Value buffer);

} // namespace tlc

#endif // TLC_PASSES_BUFFERFILLS_H
