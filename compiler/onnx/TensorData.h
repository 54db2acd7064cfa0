// ONNX tensor data: element types, TensorProto decoding, and host-side value access.
#ifndef TLC_COMPILER_ONNX_TENSORDATA_H
#define TLC_COMPILER_ONNX_TENSORDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// The MLIR element type tl computes an ONNX TensorProto::DataType in, or null if tl cannot
/// carry it: uint8, int8, uint16 and int16 compute in i32, uint32 in i64 (NarrowIntegers.h).
mlir::Type elementTypeOf(mlir::MLIRContext *ctx, int onnxType);
/// The element type a tensor of `onnxType` is stored in at the model's boundary (i8 for uint8
/// and int8, i16, i32 for uint32; elementTypeOf for the others).
mlir::Type storageTypeOf(mlir::MLIRContext *ctx, int onnxType);
/// Whether tl computes `onnxType` in a wider type than it stores it in.
bool isNarrowType(int onnxType);
/// Whether `onnxType` is an unsigned integer type.
bool isUnsignedType(int onnxType);
/// The ONNX data type whose compute type is `t` and that is not narrow (FLOAT for f32, INT32
/// for i32, ...), or 0.
int naturalOnnxType(mlir::Type t);

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

// Host integer arithmetic of constant folding wraps like the generated code (no signed-overflow
// UB), and division is defined where a bare divide traps: x / 0 is 0, INT64_MIN / -1 wraps to
// INT64_MIN.
inline int64_t iadd(int64_t a, int64_t b) { return int64_t(uint64_t(a) + uint64_t(b)); }
inline int64_t isub(int64_t a, int64_t b) { return int64_t(uint64_t(a) - uint64_t(b)); }
inline int64_t imul(int64_t a, int64_t b) { return int64_t(uint64_t(a) * uint64_t(b)); }
inline int64_t idiv(int64_t a, int64_t b) {
  if (b == 0)
    return 0;
  if (b == -1)
    return int64_t(0 - uint64_t(a));
  return a / b;
}

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_TENSORDATA_H
