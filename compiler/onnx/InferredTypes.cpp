// Value types from ONNX's own shape inference (used only once a node has failed to convert).
#include "InferredTypes.h"
#include "GuardedInference.h"
#include "ModelLoader.h"

#include "TensorData.h"
#include "TL/SizeLimit.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"

#include <onnx/defs/schema.h>

using namespace mlir;
using namespace tlc::onnx_import;

namespace {
/// `type` as a static tl tensor type, or null (also past the size limit: libonnx infers the
/// output of a Reshape the importer has just refused for too many elements, and a placeholder
/// of that type wrapped its element count).
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
  if (!tlc::tl::checkedNumElements(shape))
    return {};
  return RankedTensorType::get(shape, et);
}

/// Whether `axis` indexes a tensor of `rank` dimensions, counted from either end (Flatten's
/// and Unsqueeze's axes may also name the position after the last one).
bool axisInRange(int64_t axis, int64_t rank) { return axis >= -rank && axis < rank; }

/// Whether libonnx's inference can read `node` safely. Some of its inference functions (1.12)
/// index shapes by attribute values without checking them first (found by fuzzing: a rank-2
/// ConvTranspose weight, a LayerNormalization axis of -5 for a rank-4 input), so a node whose
/// axes, permutation or convolution geometry do not fit its input's rank is not inferred. An
/// `axis` the node leaves at its schema's default counts too (a rank-0 LayerNormalization
/// input and the default axis -1: fuzz-onnx).
bool inferenceCanRead(const onnx::NodeProto &node, int64_t opset,
                      ArrayRef<RankedTensorType> inputs) {
  int64_t rank = inputs[0].getRank();
  StringRef op = node.op_type();
  int64_t extra = 0; // dimensions the output has beyond the input's
  if (op == "Flatten")
    extra = 1;
  else if (op == "Unsqueeze")
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.name() == "axes")
        extra = a.ints_size();
  bool hasAxis = llvm::any_of(node.attribute(),
                              [](const onnx::AttributeProto &a) { return a.name() == "axis"; });
  if (const onnx::OpSchema *schema = nodeSchema(node, opset); schema && !hasAxis) {
    auto axis = schema->attributes().find("axis");
    if (axis != schema->attributes().end() && axis->second.default_value.has_i() &&
        !axisInRange(axis->second.default_value.i(), rank + extra))
      return false;
  }
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.name() == "axis" && !axisInRange(a.i(), rank + extra))
      return false;
    // GatherND's inference indexes shapes by batch_dims unchecked (campaign seed 7: -2^31).
    if (a.name() == "batch_dims" && (a.i() < 0 || a.i() >= rank))
      return false;
    if (a.name() == "axes" &&
        llvm::any_of(a.ints(), [&](int64_t x) { return !axisInRange(x, rank + extra); }))
      return false;
    if (a.name() == "perm") {
      if (a.ints_size() != rank)
        return false;
      llvm::SmallBitVector seen(rank);
      for (int64_t x : a.ints()) {
        if (x < 0 || x >= rank || seen.test(x))
          return false;
        seen.set(x);
      }
    }
  }
  // A shape given as a tensor: libonnx makes an output of that tensor's length in dimensions
  // even when its values are unknown (a fuzzed ConstantOfShape shape of 2^32 elements built
  // 2^32 dimension protos: scripts/campaign.py). No tl tensor has more than a few dozen.
  static const llvm::StringMap<int> shapeInput = {
      {"ConstantOfShape", 0}, {"Expand", 1}, {"Reshape", 1}, {"Resize", 3}};
  if (auto s = shapeInput.find(op); s != shapeInput.end() &&
                                    s->second < static_cast<int>(inputs.size()) &&
                                    inputs[s->second] && inputs[s->second].getNumElements() > 64)
    return false;
  static const llvm::StringMap<int> weightInput = {
      {"Conv", 1},    {"ConvTranspose", 1}, {"ConvInteger", 1}, {"QLinearConv", 3},
      {"MaxPool", -1}, {"AveragePool", -1}, {"LpPool", -1},     {"MaxUnpool", 1}};
  auto it = weightInput.find(op);
  if (it == weightInput.end())
    return true;
  if (rank < 3)
    return false;
  // MaxUnpool's inference reads the second dimension of its indices, present or not, whatever
  // their rank (fuzz-onnx: indices of rank 1).
  if (op == "MaxUnpool" && (inputs.size() < 2 || !inputs[1]))
    return false;
  if (it->second >= 0 && it->second < static_cast<int>(inputs.size()) && inputs[it->second] &&
      inputs[it->second].getRank() != rank)
    return false;
  for (const onnx::AttributeProto &a : node.attribute()) {
    int64_t want = a.name() == "pads" ? 2 * (rank - 2) : rank - 2;
    if (llvm::is_contained({"kernel_shape", "strides", "dilations", "pads", "output_padding",
                            "output_shape"},
                           a.name()) &&
        a.ints_size() != want)
      return false;
  }
  return true;
}

/// `attr` as an ONNX tensor named `name`, for the integer constants (shapes, axes, indices)
/// that inference reads as data; false for other constants.
bool encodeIntConstant(DenseElementsAttr attr, const std::string &name, onnx::TensorProto &out) {
  auto type = cast<RankedTensorType>(attr.getType());
  bool i32 = type.getElementType().isInteger(32);
  if ((!i32 && !type.getElementType().isInteger(64)) || type.getNumElements() > kFoldLimit)
    return false;
  out.set_name(name);
  out.set_data_type(i32 ? onnx::TensorProto::INT32 : onnx::TensorProto::INT64);
  for (int64_t d : type.getShape())
    out.add_dims(d);
  for (int64_t v : toInts(attr)) {
    if (i32)
      out.add_int32_data(static_cast<int32_t>(v));
    else
      out.add_int64_data(v);
  }
  return true;
}
} // namespace

llvm::StringMap<RankedTensorType>
tlc::onnx_import::inferOutputTypes(const onnx::NodeProto &node, int64_t opset,
                                   const ValueTable &values, MLIRContext *ctx) {
  llvm::StringMap<RankedTensorType> types;
  SmallVector<RankedTensorType> inputTypes;
  onnx::GraphProto graph;
  llvm::StringSet<> declared;
  for (const std::string &in : node.input()) {
    if (in.empty()) {
      inputTypes.push_back({});
      continue;
    }
    auto it = values.find(in);
    if (it == values.end() || !it->second.type || !naturalOnnxType(it->second.type.getElementType()))
      return types;
    inputTypes.push_back(it->second.type);
    if (!declared.insert(in).second)
      continue;
    onnx::TensorProto data;
    if (it->second.constant && encodeIntConstant(it->second.constant, in, data)) {
      *graph.add_initializer() = std::move(data);
      continue;
    }
    onnx::ValueInfoProto *info = graph.add_input();
    info->set_name(in);
    onnx::TypeProto_Tensor *tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(naturalOnnxType(it->second.type.getElementType()));
    onnx::TensorShapeProto *shape = tensor->mutable_shape();
    for (int64_t d : it->second.type.getShape())
      shape->add_dim()->set_dim_value(d);
  }
  if (inputTypes.empty() || !inputTypes[0] || !inferenceCanRead(node, opset, inputTypes))
    return types;
  *graph.add_node() = node;
  for (const std::string &out : node.output())
    if (!out.empty())
      graph.add_output()->set_name(out);
  if (!inferShapesNoThrow(graph, opset))
    return types;
  for (const onnx::ValueInfoProto &info : graph.output())
    if (RankedTensorType t = staticType(info.type(), ctx))
      types[info.name()] = t;
  for (const onnx::ValueInfoProto &info : graph.value_info())
    if (RankedTensorType t = staticType(info.type(), ctx))
      types[info.name()] = t;
  return types;
}
