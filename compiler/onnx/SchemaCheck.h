// Node arity against ONNX's own operator schemas (libonnx), so converters may rely on every
// required input and output being present.
#ifndef TLC_COMPILER_ONNX_SCHEMACHECK_H
#define TLC_COMPILER_ONNX_SCHEMACHECK_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <onnx/onnx_pb.h>
#include <string>

namespace tlc::onnx_import {

/// Appends a problem for each missing required input/output or excess input/output of `node`
/// under `opset`'s schema (default domain).
void checkNodeSchema(const onnx::NodeProto &node, int64_t opset,
                     llvm::SmallVectorImpl<std::string> &problems);

/// Appends a problem for each pair of `node`'s inputs that one type variable of `opset`'s
/// schema binds (e.g. ConvTranspose's X, W and B: T) but whose element types differ; the
/// converters rely on them agreeing. `elementTypeOf` names an input's element type ("f32",
/// "uint8"; empty when unknown: not checked).
void checkTypeBindings(const onnx::NodeProto &node, int64_t opset,
                       llvm::function_ref<std::string(const std::string &)> elementTypeOf,
                       llvm::SmallVectorImpl<std::string> &problems);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_SCHEMACHECK_H
