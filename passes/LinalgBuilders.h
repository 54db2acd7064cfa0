// Builders of linalg.generic ops shared by the tl lowerings (broadcasting, reductions, reshapes).
#ifndef TLC_PASSES_LINALGBUILDERS_H
#define TLC_PASSES_LINALGBUILDERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tlc {

using ScalarBodyFn =
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// The map from a rank-`resultShape` iteration space to an operand of `operandShape` under
/// numpy broadcasting (right-aligned; size-1 axes against larger extents read index 0).
mlir::AffineMap broadcastMap(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> operandShape,
                             llvm::ArrayRef<int64_t> resultShape);

/// A parallel linalg.generic producing `resultType` from `operands` read through `maps` (one per
/// operand); `body` receives one scalar per operand.
mlir::Value buildParallelGeneric(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::RankedTensorType resultType, mlir::ValueRange operands,
                                 llvm::ArrayRef<mlir::AffineMap> maps, ScalarBodyFn body);

/// An elementwise linalg.generic over `operands` broadcast to `resultType`'s shape.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType, mlir::ValueRange operands,
                             ScalarBodyFn body);

using CombineFn = llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::Value,
                                                 mlir::Value)>;

/// Reduces `input` over the sorted, non-negative `axes` into a tensor without those axes,
/// starting from `identity` and folding with `combine(acc, x)`. With no axes, returns `input`.
mlir::Value buildReduction(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                           llvm::ArrayRef<int64_t> axes, mlir::TypedAttr identity,
                           CombineFn combine);

/// The reassociation that groups all `rank` dimensions into one (collapse to, or expand from,
/// rank 1).
llvm::SmallVector<llvm::SmallVector<int64_t, 2>> allDimsReassociation(int64_t rank);

/// Of the loop dimensions `candidates` (e.g. a contraction's m dimensions, outermost first),
/// the innermost one with more than one iteration in `ranges` (the last candidate if all are
/// unit). Tiling a unit dimension, e.g. the batch axis of [seq, 1, d] activations, would give
/// one-row tiles.
unsigned innermostNonUnitDim(llvm::ArrayRef<unsigned> candidates, llvm::ArrayRef<int64_t> ranges);

/// Row-major reshape of `value` to `type` (same element count) with tensor.collapse_shape and
/// tensor.expand_shape, which bufferize to views.
mlir::Value reshapeTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                          mlir::RankedTensorType type);

/// The contraction `equation` (einsum, explicit output) of `inputs`, accumulated into `init`
/// (a tensor of the result's shape, e.g. zero-filled) as one linalg.generic whose maps come
/// from the einsum engine.
mlir::Value buildContraction(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef equation,
                             mlir::ValueRange inputs, mlir::Value init);

} // namespace tlc

#endif // TLC_PASSES_LINALGBUILDERS_H
