// Value types from ONNX's own shape inference, for placeholders after a node fails to convert
// (so the nodes after it are still checked and every unsupported node is reported at once).
#ifndef TLC_COMPILER_ONNX_INFERREDTYPES_H
#define TLC_COMPILER_ONNX_INFERREDTYPES_H

#include "NodeContext.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// The static types ONNX shape inference gives the outputs of `node` (one that failed to
/// convert), inferred from the node alone with its inputs' types taken from `values` (and
/// integer constants, which shape-computing inputs are, as data). Outputs whose inferred shape
/// is unknown, symbolic or of an element type tl cannot carry are left out, as are all of them
/// when an input's type is unknown or the node is one libonnx's inference would read out of
/// bounds.
llvm::StringMap<mlir::RankedTensorType> inferOutputTypes(const onnx::NodeProto &node,
                                                         int64_t opset, const ValueTable &values,
                                                         mlir::MLIRContext *ctx);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_INFERREDTYPES_H
