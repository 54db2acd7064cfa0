// The graph walk: value table, function signature, one converter call per node.
#ifndef TLC_COMPILER_ONNX_GRAPHIMPORTER_H
#define TLC_COMPILER_ONNX_GRAPHIMPORTER_H

#include "compiler/onnx/OnnxImporter.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// Imports `graph` (already pre-flight checked) into a new module.
mlir::OwningOpRef<mlir::ModuleOp> importGraph(const onnx::GraphProto &graph, int64_t opset,
                                              mlir::Location fileLoc, llvm::StringRef funcName,
                                              const OnnxImportOptions &options);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_GRAPHIMPORTER_H
