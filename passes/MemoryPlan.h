// Static memory planning mechanism: buffer live ranges, in-place candidates, arena placement.
#ifndef TLC_PASSES_MEMORYPLAN_H
#define TLC_PASSES_MEMORYPLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace tlc {

/// A buffer to place: `size` bytes live over the inclusive program-point range
/// [start, end]. Two buffers conflict iff their ranges intersect.
struct BufferInterval {
  int64_t size = 0;
  int64_t start = 0;
  int64_t end = 0;
  bool overlaps(const BufferInterval &o) const { return start <= o.end && o.start <= end; }
};

/// An arena layout: one offset per interval, and the arena's size.
struct ArenaPlacement {
  llvm::SmallVector<int64_t> offsets;
  int64_t arenaSize = 0;
};

/// Greedy by size with best fit: buffers are placed largest first (ties: earlier start); each
/// goes into the smallest gap, among the buffers already placed that it conflicts with, that
/// holds it, or above all of them. Sizes and offsets are rounded up to `alignment`.
ArenaPlacement placeGreedyBySize(llvm::ArrayRef<BufferInterval> buffers, int64_t alignment);

/// Every buffer after the previous one, in order (no reuse): the baseline placement.
ArenaPlacement placeSequentially(llvm::ArrayRef<BufferInterval> buffers, int64_t alignment);

/// The most bytes (each size rounded up to `alignment`) live at any one program point: no
/// placement of these intervals can use a smaller arena.
int64_t peakLiveBytes(llvm::ArrayRef<BufferInterval> buffers, int64_t alignment);

/// Round `x` up to a multiple of `alignment`.
inline int64_t alignTo(int64_t x, int64_t alignment) {
  return (x + alignment - 1) / alignment * alignment;
}

/// The live range of every `memref.alloc` in `func`, whose body must be a single block (no
/// unstructured control flow; structured ops with regions are fine). Program points are the
/// positions of the entry block's operations; a use nested in a region counts at its top-level
/// ancestor, so everything used inside one loop is live over the whole loop. Views of a buffer
/// (any op deriving a memref result from it, region arguments it flows into) are aliases: their
/// uses extend its range. A range spans the first to the last use that is not itself only a
/// view; a buffer that reaches `func.return` or a call lives to the end.
struct BufferLiveness {
  llvm::SmallVector<mlir::memref::AllocOp> allocs;
  llvm::SmallVector<BufferInterval> intervals;  // parallel to allocs (size in bytes)
  llvm::SmallVector<mlir::Operation *> topLevel; // program point -> operation
  /// For each alloc, every value aliasing it (the alloc's result included).
  llvm::SmallVector<llvm::SmallVector<mlir::Value>> aliases;
};

/// Computes the liveness above. Fails (with a diagnostic on the offending op) on an
/// allocation that cannot live in a plain byte arena: dynamic shape, non-identity layout,
/// non-default memory space, or a function body with more than one block.
mlir::FailureOr<BufferLiveness> computeBufferLiveness(mlir::func::FuncOp func,
                                                     const mlir::DataLayout &layout);

/// Keeps the inputs of each top-level op with a reduction loop (a contraction, a convolution)
/// live through the next op that touches memory when that op is all-parallel (its epilogue:
/// bias, activation, a residual add), past views, allocations and fills: a code generator
/// that runs the two as one kernel must not find the epilogue's output in bytes the
/// contraction still reads.
void extendInputsThroughEpilogues(BufferLiveness &liveness);

/// In-place reuse: pairs (output alloc index, input alloc index) such that a top-level linalg
/// op with only parallel loops reads the input buffer (directly, not through a view) through
/// the same indexing map, shape and element size as it writes the output buffer, the input is
/// read by no other operand of the op, the input's live range ends at that op and the
/// output's begins there. Each element is then read before it is overwritten by the same
/// iteration, so the output may take the input's storage. Each input is given away at most once.
llvm::SmallVector<std::pair<unsigned, unsigned>>
findInPlaceReuse(const BufferLiveness &liveness);

/// On a `memref.copy` into an out-param that must stay the last write of it: the out-param may
/// be the memory of an input that ops before the copy read (tlc-alias-state-outputs).
constexpr llvm::StringLiteral kCopyLastAttr = "tlc.copy_last";

/// Zero-copy outputs (copies marked kCopyLastAttr excepted): a `memref.copy` into an argument of `func` (an out-param) whose source is
/// an alloc, or reshapes (collapse/expand_shape) of one, that dies at the copy, while the
/// argument is not used before it. The alloc can then be that argument (reshaped), and the copy
/// disappears. Returns (alloc index, copy) pairs.
llvm::SmallVector<std::pair<unsigned, mlir::memref::CopyOp>>
findForwardableOutputCopies(mlir::func::FuncOp func, const BufferLiveness &liveness);

} // namespace tlc

#endif // TLC_PASSES_MEMORYPLAN_H
