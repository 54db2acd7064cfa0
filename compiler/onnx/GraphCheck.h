// Well-formedness of an ONNX graph's names: unique inputs and initializers, one writer per
// tensor.
#ifndef TLC_COMPILER_ONNX_GRAPHCHECK_H
#define TLC_COMPILER_ONNX_GRAPHCHECK_H

#include "mlir/IR/Location.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// Reports, all at once, a graph input or initializer listed twice and a tensor written twice
/// (by two nodes, twice by one node, or by a node over a graph input or initializer), located at
/// the writing node. Fails if there was any.
mlir::LogicalResult checkGraphStructure(const onnx::GraphProto &graph, mlir::Location fileLoc);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_GRAPHCHECK_H
