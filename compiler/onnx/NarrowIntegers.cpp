// Narrow and unsigned ONNX integer types: widening at the boundary, the element type of each
// node's outputs, and the wrap of results back into their type's range.
#include "NarrowIntegers.h"

#include "ModelLoader.h"
#include "SchemaCheck.h"
#include "TensorData.h"

#include "llvm/ADT/StringSet.h"

#include <onnx/defs/schema.h>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

int tlc::onnx_import::onnxTypeOf(const OnnxValue &v) {
  return v.onnxType ? v.onnxType : naturalOnnxType(v.type.getElementType());
}

OnnxValue tlc::onnx_import::constantOfType(DenseElementsAttr c, int dataType) {
  return OnnxValue{nullptr, c, cast<RankedTensorType>(c.getType()),
                   isNarrowType(dataType) ? dataType : 0};
}

void tlc::onnx_import::checkValueTypeBindings(const onnx::NodeProto &node, int64_t opset,
                                              const ValueTable &values,
                                              SmallVectorImpl<std::string> &problems) {
  // Narrow types by their ONNX names (uint8 and int32 both compute in i32), others as tl
  // prints them ("f32").
  checkTypeBindings(
      node, opset,
      [&](const std::string &name) -> std::string {
        auto v = values.find(name);
        if (v == values.end())
          return "";
        if (v->second.onnxType)
          return onnxTypeName(v->second.onnxType).str();
        std::string s;
        llvm::raw_string_ostream os(s);
        v->second.type.getElementType().print(os);
        return s;
      },
      problems);
}

namespace {
RankedTensorType withElementType(Value v, Type et) {
  return cast<RankedTensorType>(v.getType()).clone(et);
}

/// The ONNX data type a schema type string names ("tensor(uint8)"), or 0.
int dataTypeOfTypeString(llvm::StringRef s) {
  if (!s.consume_front("tensor(") || !s.consume_back(")"))
    return 0;
  for (int t = onnx::TensorProto::FLOAT; t <= onnx::TensorProto::BFLOAT16; ++t)
    if (onnxTypeName(t) == s)
      return t;
  return 0;
}

/// The ONNX element type of output `index` of `node`: the type its schema names, or that of
/// the first input its type variable binds, or the one the node's attributes give; 0 where
/// none of these says.
int outputOnnxType(const onnx::NodeProto &node, int index, int64_t opset,
                   const ValueTable &values) {
  const onnx::OpSchema *schema = nodeSchema(node, opset);
  if (!schema || schema->outputs().empty())
    return 0;
  const auto &outs = schema->outputs();
  const std::string &typeStr = outs[std::min<size_t>(index, outs.size() - 1)].GetTypeStr();
  if (int t = dataTypeOfTypeString(typeStr))
    return t;
  const auto &ins = schema->inputs();
  for (int i = 0; i < node.input_size() && !ins.empty(); ++i) {
    if (node.input(i).empty() ||
        ins[std::min<size_t>(i, ins.size() - 1)].GetTypeStr() != typeStr)
      continue;
    auto v = values.find(node.input(i));
    return v == values.end() ? 0 : onnxTypeOf(v->second);
  }
  for (const onnx::AttributeProto &a : node.attribute()) {
    if ((a.name() == "to" || a.name() == "dtype") && a.type() == onnx::AttributeProto::INT)
      return static_cast<int>(a.i());
    if (a.has_t())
      return a.t().data_type();
  }
  return 0;
}

/// Ops whose results stay in their inputs' range (they select, move or order elements), so
/// a narrow result needs no wrap.
bool keepsRange(llvm::StringRef op) {
  static const llvm::StringSet<> ops = {
      "Identity",  "Reshape",   "Flatten",      "Squeeze",         "Unsqueeze",
      "Transpose", "Concat",    "Split",        "Slice",           "Gather",
      "GatherElements", "GatherND", "Expand",   "Tile",            "Max",
      "Min",       "Clip",      "MaxPool",      "Where",           "Pad",
      "ReduceMax", "ReduceMin", "Relu",         "DepthToSpace",    "SpaceToDepth",
      "Compress",  "ReverseSequence", "TopK",   "ScatterElements", "ScatterND",
      "Scatter",   "Mod",       "Constant",     "Dropout",         "Trilu",
      // Quantizing ops saturate into their type themselves.
      "QuantizeLinear", "DynamicQuantizeLinear", "QLinearMatMul", "QLinearConv"};
  return ops.contains(op);
}

/// `c` (integers in the compute type) wrapped into `onnxType`'s range.
DenseElementsAttr wrapConstant(DenseElementsAttr c, int onnxType) {
  unsigned bits = storageTypeOf(c.getContext(), onnxType).getIntOrFloatBitWidth();
  unsigned wide = c.getElementType().getIntOrFloatBitWidth();
  bool isUnsigned = isUnsignedType(onnxType);
  return c.mapValues(c.getElementType(), [&](const APInt &x) {
    APInt narrow = x.trunc(bits);
    return isUnsigned ? narrow.zext(wide) : narrow.sext(wide);
  });
}
} // namespace

Value tlc::onnx_import::widenInput(OpBuilder &b, Location loc, Value arg, int onnxType) {
  auto widened = tl::CastOp::create(
      b, loc, withElementType(arg, elementTypeOf(b.getContext(), onnxType)), arg);
  if (isUnsignedType(onnxType))
    widened.setFromUnsigned(true);
  return widened.getResult();
}

Value tlc::onnx_import::narrowOutput(OpBuilder &b, Location loc, Value v, int onnxType) {
  return tl::CastOp::create(b, loc,
                            withElementType(v, storageTypeOf(b.getContext(), onnxType)), v)
      .getResult();
}

void tlc::onnx_import::settleNarrowOutputs(const onnx::NodeProto &node, int64_t opset,
                                           ValueTable &values, OpBuilder &b, Location loc) {
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    auto it = values.find(node.output(i));
    if (it == values.end())
      continue;
    OnnxValue &v = it->second;
    // Narrow types compute in i32 or i64 only: float and boolean results skip the schema.
    Type et = v.type.getElementType();
    if (!v.onnxType && !et.isInteger(32) && !et.isInteger(64))
      continue;
    int t = v.onnxType ? v.onnxType : outputOnnxType(node, i, opset, values);
    // A converter that made another type (QuantizeLinear's own) keeps it.
    if (!isNarrowType(t) || et != elementTypeOf(b.getContext(), t))
      continue;
    v.onnxType = t;
    if (keepsRange(node.op_type()))
      continue;
    if (v.constant) {
      v.constant = wrapConstant(v.constant, t);
      if (v.value)
        v.value = nullptr; // rematerialized from the wrapped constant when read
      continue;
    }
    v.value = widenInput(b, loc, narrowOutput(b, loc, v.value, t), t);
  }
}
