// The pre-flight check: every unsupported op, attribute value and element type of a model,
// reported at once with node names, before anything is imported.
#ifndef TLC_COMPILER_ONNX_PREFLIGHT_H
#define TLC_COMPILER_ONNX_PREFLIGHT_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// The location of graph node `index`: a NameLoc of its name (or `OpType_index` when unnamed)
/// around the file location; for a node of a control-flow body, `fileLoc` is its parent
/// node's location and the name its path ("loop/relu").
mlir::Location nodeLocation(const onnx::NodeProto &node, int index, mlir::Location fileLoc);

/// Reports every problem as a located error; fails if there was any.
mlir::LogicalResult preflightCheck(const onnx::GraphProto &graph, int64_t opset,
                                   mlir::Location fileLoc);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_PREFLIGHT_H
