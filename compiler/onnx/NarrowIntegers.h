// ONNX's narrow and unsigned integer types (uint8, int8, uint16, int16, uint32) in tl: stored
// in their own width at the model's boundary, computed in a wider signed type (i32; i64 for
// uint32) in which every value of the type is exact and unsigned order, division and
// conversion to float are the signed ones. A result that may leave its type's range (Add,
// Mul, Cast, ...) wraps back into it (narrow, then widen again), as the narrow arithmetic
// would. uint64 has no wider type and stays unsupported.
#ifndef TLC_COMPILER_ONNX_NARROWINTEGERS_H
#define TLC_COMPILER_ONNX_NARROWINTEGERS_H

#include "NodeContext.h"

namespace tlc::onnx_import {

/// The ONNX element type of `v` (its narrow type, else the natural one of its tl type).
int onnxTypeOf(const OnnxValue &v);

/// A host constant decoded from a tensor of ONNX type `dataType` (its narrow type recorded).
OnnxValue constantOfType(mlir::DenseElementsAttr c, int dataType);

/// checkTypeBindings for `node` with its inputs' element types from `values`.
void checkValueTypeBindings(const onnx::NodeProto &node, int64_t opset, const ValueTable &values,
                            llvm::SmallVectorImpl<std::string> &problems);

/// `arg`, a model input stored as `onnxType` (narrow), widened to its compute type.
mlir::Value widenInput(mlir::OpBuilder &b, mlir::Location loc, mlir::Value arg, int onnxType);

/// `v`, computed in the wide type, narrowed to `onnxType`'s storage type for a model output.
mlir::Value narrowOutput(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, int onnxType);

/// Records the ONNX element type of each output of `node` (just converted) where it is
/// narrow, from the operator's schema (an output typed like an input) or the node's `to`,
/// `dtype` or tensor attribute, and wraps the results of ops that can leave the type's range.
void settleNarrowOutputs(const onnx::NodeProto &node, int64_t opset, ValueTable &values,
                         mlir::OpBuilder &b, mlir::Location loc);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_NARROWINTEGERS_H
