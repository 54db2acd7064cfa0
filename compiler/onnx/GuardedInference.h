// libonnx's shape inference behind a catch-all, for a compiler built without exceptions.
#ifndef TLC_COMPILER_ONNX_GUARDEDINFERENCE_H
#define TLC_COMPILER_ONNX_GUARDEDINFERENCE_H

#include <onnx/onnx_pb.h>

#include <cstdint>

namespace tlc::onnx_import {

/// Runs ONNX shape inference (default domain at `opset`, errors collected rather than thrown)
/// over `graph`, adding what it infers to the graph's outputs and value_info. False when
/// libonnx threw anyway: some of its inference functions (1.13) rethrow a std::runtime_error as
/// an InferenceError from inside their own handler, past `strict_mode` (fuzz-onnx in CI).
bool inferShapesNoThrow(onnx::GraphProto &graph, int64_t opset);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_GUARDEDINFERENCE_H
