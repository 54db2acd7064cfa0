// Host-side evaluation of small constant tensors: the shape subgraphs exporters emit (Shape,
// Gather, Concat, Slice, arithmetic on shapes, ...) fold to constants so models lower to
// static IR.
#ifndef TLC_COMPILER_ONNX_HOSTEVAL_H
#define TLC_COMPILER_ONNX_HOSTEVAL_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tlc::onnx_import {

using IntFn = llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)>;
using FloatFn = llvm::function_ref<double(llvm::ArrayRef<double>)>;

/// Applies `intFn` (integer operands) or `floatFn` (float operands) elementwise over the
/// numpy-broadcast operands, giving a tensor of `resultShape` with `resultElementType`.
mlir::DenseElementsAttr hostElementwise(llvm::ArrayRef<mlir::DenseElementsAttr> operands,
                                        llvm::ArrayRef<int64_t> resultShape,
                                        mlir::Type resultElementType, IntFn intFn,
                                        FloatFn floatFn);

/// Result element `i` is input element `sourceIndex(i)` (a gather by flat index).
mlir::DenseElementsAttr hostRemap(mlir::DenseElementsAttr input, mlir::RankedTensorType type,
                                  llvm::function_ref<int64_t(int64_t)> sourceIndex);

/// `input` transposed by `perm` (result dimension i is input dimension perm[i]), moving
/// elements as raw bytes: any element type, no rounding, linear in the size (weights).
mlir::DenseElementsAttr hostTranspose(mlir::DenseElementsAttr input,
                                      llvm::ArrayRef<int64_t> perm);

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// Converts a constant to another element type (tl.cast semantics).
mlir::DenseElementsAttr hostCast(mlir::DenseElementsAttr input, mlir::Type elementType);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_HOSTEVAL_H
