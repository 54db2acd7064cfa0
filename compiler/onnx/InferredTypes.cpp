// Value types from ONNX's own shape inference (used only once a node has failed to convert).
#include "InferredTypes.h"

#include "TensorData.h"

#include <onnx/shape_inference/implementation.h>

using namespace mlir;
using namespace tlc::onnx_import;

namespace {
/// `type` as a static tl tensor type, or null.
RankedTensorType staticType(const onnx::TypeProto &type, MLIRContext *ctx) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return {};
  Type et = elementTypeOf(ctx, type.tensor_type().elem_type());
  if (!et)
    return {};
  SmallVector<int64_t> shape;
  for (const onnx::TensorShapeProto::Dimension &d : type.tensor_type().shape().dim()) {
    if (!d.has_dim_value() || d.dim_value() < 0)
      return {};
    shape.push_back(d.dim_value());
  }
  return RankedTensorType::get(shape, et);
}
} // namespace

llvm::StringMap<RankedTensorType>
tlc::onnx_import::inferValueTypes(const onnx::GraphProto &graph, int64_t opset,
                                  const ValueTable &values, MLIRContext *ctx) {
  onnx::GraphProto copy = graph;
  // Only what the import knows: the inputs' imported types. Declared intermediate and output
  // types are dropped, so inference never has to merge (and throw on) a conflicting one.
  copy.clear_value_info();
  for (onnx::ValueInfoProto &output : *copy.mutable_output())
    output.clear_type();
  for (onnx::ValueInfoProto &input : *copy.mutable_input()) {
    auto it = values.find(input.name());
    if (it == values.end() || !it->second.type)
      continue;
    onnx::TypeProto_Tensor *tensor = input.mutable_type()->mutable_tensor_type();
    onnx::TensorShapeProto *shape = tensor->mutable_shape();
    shape->clear_dim();
    for (int64_t d : it->second.type.getShape())
      shape->add_dim()->set_dim_value(d);
  }
  // error_mode 0: a node inference cannot handle is skipped, not thrown (tlc is built without
  // exceptions).
  onnx::ShapeInferenceOptions options(/*check_type_val=*/false, /*strict_mode_val=*/0);
  onnx::shape_inference::InferShapes(&copy, {{"", static_cast<int>(opset)}},
                                     onnx::OpSchemaRegistry::Instance(), options);
  llvm::StringMap<RankedTensorType> types;
  for (const onnx::ValueInfoProto &info : copy.value_info())
    if (RankedTensorType t = staticType(info.type(), ctx))
      types[info.name()] = t;
  for (const onnx::ValueInfoProto &info : copy.output())
    if (RankedTensorType t = staticType(info.type(), ctx))
      types[info.name()] = t;
  return types;
}
