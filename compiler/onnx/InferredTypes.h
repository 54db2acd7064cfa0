// Value types from ONNX's own shape inference, for placeholders after a node fails to convert
// (so the nodes after it are still checked and every unsupported node is reported at once).
#ifndef TLC_COMPILER_ONNX_INFERREDTYPES_H
#define TLC_COMPILER_ONNX_INFERREDTYPES_H

#include "NodeContext.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// The static types ONNX shape inference gives `graph`'s values, with the graph inputs
/// pinned to their types in `values` (as imported: --input-shape applied). Values whose
/// inferred shape is unknown, symbolic or of an element type tl cannot carry are left out.
llvm::StringMap<mlir::RankedTensorType> inferValueTypes(const onnx::GraphProto &graph,
                                                        int64_t opset, const ValueTable &values,
                                                        mlir::MLIRContext *ctx);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_INFERREDTYPES_H
