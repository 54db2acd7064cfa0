// The one libonnx call tlc makes that can throw. This file alone is compiled with exceptions
// (CMakeLists.txt): an exception leaving libonnx into a -fno-exceptions frame would terminate.
#include "GuardedInference.h"

#include <onnx/shape_inference/implementation.h>

bool tlc::onnx_import::inferShapesNoThrow(onnx::GraphProto &graph, int64_t opset) {
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/false, /*strict_mode_val=*/0);
    onnx::shape_inference::InferShapes(&graph, {{"", static_cast<int>(opset)}},
                                       onnx::OpSchemaRegistry::Instance(), options);
    return true;
  } catch (...) {
    return false;
  }
}
