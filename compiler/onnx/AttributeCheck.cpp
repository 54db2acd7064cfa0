// Node attributes against ONNX's operator schemas and the ranges converters rely on.
#include "AttributeCheck.h"
#include "ModelLoader.h"

#include "TL/SizeLimit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <onnx/defs/schema.h>

using namespace tlc::onnx_import;

namespace {
std::string typeName(onnx::AttributeProto::AttributeType t) {
  return llvm::StringRef(onnx::AttributeProto::AttributeType_Name(t)).lower();
}

/// Each integer of attribute `a`, of type `type`, must lie in [lo, hi].
void checkRange(const onnx::AttributeProto &a, onnx::AttributeProto::AttributeType type,
                int64_t lo, int64_t hi, llvm::SmallVectorImpl<std::string> &problems) {
  auto bad = [&](int64_t v) {
    problems.push_back("attribute '" + a.name() + "' has value " + std::to_string(v) +
                       ", expected " +
                       (hi == INT64_MAX ? "at least " + std::to_string(lo)
                                        : std::to_string(lo) + " to " + std::to_string(hi)));
  };
  if (type == onnx::AttributeProto::INT && (a.i() < lo || a.i() > hi))
    return bad(a.i());
  if (type == onnx::AttributeProto::INTS)
    for (int64_t v : a.ints())
      if (v < lo || v > hi)
        return bad(v);
}
} // namespace

void tlc::onnx_import::checkNodeAttributes(const onnx::NodeProto &node, int64_t opset,
                                           llvm::SmallVectorImpl<std::string> &problems) {
  const onnx::OpSchema *schema = nodeSchema(node, opset);
  if (!schema)
    return; // checkNodeSchema reports it
  const auto &declared = schema->attributes();
  for (const auto &[name, attr] : declared)
    if (attr.required && llvm::none_of(node.attribute(), [&](const onnx::AttributeProto &a) {
          return a.name() == name;
        }))
      problems.push_back("required attribute '" + name + "' is missing");
  for (const onnx::AttributeProto &a : node.attribute()) {
    auto it = declared.find(a.name());
    // Unknown attributes are ignored, as before. Old writers leave the type UNDEFINED: the
    // converters then read the schema's type, so its ranges are checked all the same.
    if (it == declared.end())
      continue;
    onnx::AttributeProto::AttributeType type = a.type();
    if (type == onnx::AttributeProto::UNDEFINED) {
      type = it->second.type;
    } else if (type != it->second.type) {
      problems.push_back("attribute '" + a.name() + "' is of type " + typeName(a.type()) +
                         ", expected " + typeName(it->second.type));
      continue;
    }
    const std::string &n = a.name();
    if (n == "strides" || n == "dilations" || n == "kernel_shape")
      checkRange(a, type, 1, tlc::tl::kMaxElements, problems);
    else if (n == "pads")
      checkRange(a, type, 0, tlc::tl::kMaxElements, problems);
    else if (n == "group")
      checkRange(a, type, 1, tlc::tl::kMaxElements, problems);
    else if (n == "blocksize")
      // blocksize^2 is computed, so it must not overflow.
      checkRange(a, type, 1, int64_t(1) << 20, problems);
  }
}
