// ONNX tensor data: element types, TensorProto decoding, and host-side value access.
#ifndef TLC_COMPILER_ONNX_TENSORDATA_H
#define TLC_COMPILER_ONNX_TENSORDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// The MLIR element type of an ONNX TensorProto::DataType, or null if tl cannot carry it.
mlir::Type elementTypeOf(mlir::MLIRContext *ctx, int onnxType);

/// The ONNX name of a data type ("float", "int8", ...), for messages.
llvm::StringRef onnxTypeName(int onnxType);

/// Decodes `tensor` into a dense constant; on error returns failure with `error` set.
llvm::FailureOr<mlir::DenseElementsAttr> decodeTensor(mlir::MLIRContext *ctx,
                                                      const onnx::TensorProto &tensor,
                                                      std::string &error);

/// Element values of a constant as integers (floats truncate, booleans are 0/1).
llvm::SmallVector<int64_t> toInts(mlir::DenseElementsAttr attr);
/// Element values of a constant as doubles.
llvm::SmallVector<double> toDoubles(mlir::DenseElementsAttr attr);
/// A constant of `type` from integer values (converted to the element type).
mlir::DenseElementsAttr fromInts(mlir::RankedTensorType type, llvm::ArrayRef<int64_t> values);
/// A constant of `type` from double values (converted to the element type).
mlir::DenseElementsAttr fromDoubles(mlir::RankedTensorType type, llvm::ArrayRef<double> values);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_TENSORDATA_H
