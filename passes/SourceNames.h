// How reports and profiles name an op's source.
#ifndef TLC_PASSES_SOURCENAMES_H
#define TLC_PASSES_SOURCENAMES_H

#include "mlir/IR/Location.h"

#include <string>

namespace tlc {

/// An op's source location for reports: file:line:col for source files, the node name for
/// ONNX nodes, each part of a fused location joined by " + ".
std::string describeLocation(mlir::Location loc);

} // namespace tlc

#endif // TLC_PASSES_SOURCENAMES_H
