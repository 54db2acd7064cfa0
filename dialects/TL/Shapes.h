// Shape rules of tl ops, shared by the op verifiers and the frontends (one source of truth).
#ifndef TLC_DIALECTS_TL_SHAPES_H
#define TLC_DIALECTS_TL_SHAPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"

namespace tlc::tl {

using EmitErrorFn = llvm::function_ref<mlir::InFlightDiagnostic()>;

/// The numpy-broadcast shape of `shapes`, or failure (with an error naming both shapes).
llvm::FailureOr<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes, EmitErrorFn emitError);

/// Normalizes possibly negative axes against `rank`; fails on out-of-range or repeated axes.
llvm::FailureOr<llvm::SmallVector<int64_t>> normalizeAxes(llvm::ArrayRef<int64_t> axes,
                                                          int64_t rank, EmitErrorFn emitError);

/// The shape left after reducing `axes` (normalized) of `shape`.
llvm::SmallVector<int64_t> reducedShape(llvm::ArrayRef<int64_t> shape,
                                        llvm::ArrayRef<int64_t> axes, bool keepDims);

/// Result type of a transpose; fails unless `perm` is a permutation of [0, rank).
llvm::FailureOr<mlir::RankedTensorType> transposeType(mlir::RankedTensorType input,
                                                      llvm::ArrayRef<int64_t> perm,
                                                      EmitErrorFn emitError);

/// Result type of a concat of `inputs` along `axis` (may be negative).
llvm::FailureOr<mlir::RankedTensorType>
concatType(llvm::ArrayRef<mlir::RankedTensorType> inputs, int64_t axis, EmitErrorFn emitError);

/// Checks a slice box (offsets/sizes/strides) against `input` and returns the result type.
llvm::FailureOr<mlir::RankedTensorType>
sliceType(mlir::RankedTensorType input, llvm::ArrayRef<int64_t> offsets,
          llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> strides, EmitErrorFn emitError);

/// Checks that `input` broadcasts to `shape` (numpy broadcast_to rules).
llvm::LogicalResult checkBroadcastTo(llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> shape,
                                     EmitErrorFn emitError);

/// Formats a shape as `4x8` (or `scalar` for rank 0) for diagnostics.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Whether an op whose operands have element type `operand` may produce `result`: the same
/// type, or f32 from bf16/f16 operands (mixed precision: the products accumulate in f32).
bool isAccumulatorType(mlir::Type operand, mlir::Type result);

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_SHAPES_H
