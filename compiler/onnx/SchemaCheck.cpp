// Node arity against ONNX's own operator schemas.
#include "SchemaCheck.h"
#include "ModelLoader.h"

#include <onnx/defs/schema.h>

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace tlc::onnx_import;

void tlc::onnx_import::checkNodeSchema(const onnx::NodeProto &node, int64_t opset,
                                       llvm::SmallVectorImpl<std::string> &problems) {
  const onnx::OpSchema *schema = nodeSchema(node, opset);
  if (!schema) {
    problems.push_back("operator '" + node.op_type() + "' does not exist in opset " +
                       std::to_string(opset));
    return;
  }
  auto check = [&](const std::vector<onnx::OpSchema::FormalParameter> &formals,
                   const google::protobuf::RepeatedPtrField<std::string> &actual, int minCount,
                   int maxCount, const char *what) {
    int n = actual.size();
    if (n < minCount || n > maxCount) {
      problems.push_back("has " + std::to_string(n) + " " + what + "s, expected " +
                         std::to_string(minCount) +
                         (maxCount == minCount ? ""
                          : maxCount > 1000    ? " or more"
                                               : " to " + std::to_string(maxCount)));
      return;
    }
    for (size_t i = 0; i < (size_t)n && !formals.empty(); ++i) {
      // Actuals past the formals repeat the last, variadic one; a variadic input cannot be
      // empty (converters read every one), an unused variadic output can.
      const onnx::OpSchema::FormalParameter &f = formals[std::min(i, formals.size() - 1)];
      bool required = f.GetOption() == onnx::OpSchema::Single ||
                      (f.GetOption() == onnx::OpSchema::Variadic && what[0] == 'i');
      if (required && actual[i].empty())
        problems.push_back(std::string("required ") + what + " " + std::to_string(i) + " ('" +
                           f.GetName() + "') is missing");
    }
  };
  check(schema->inputs(), node.input(), schema->min_input(), schema->max_input(), "input");
  check(schema->outputs(), node.output(), schema->min_output(), schema->max_output(), "output");
}

void tlc::onnx_import::checkTypeBindings(
    const onnx::NodeProto &node, int64_t opset,
    llvm::function_ref<std::string(const std::string &)> elementTypeOf,
    llvm::SmallVectorImpl<std::string> &problems) {
  const onnx::OpSchema *schema = nodeSchema(node, opset);
  if (!schema)
    return;
  const std::vector<onnx::OpSchema::FormalParameter> &formals = schema->inputs();
  // The first input bound to each type variable: its index and element type.
  llvm::StringMap<std::pair<int, std::string>> bound;
  auto isTypeVariable = [&](const std::string &typeStr) {
    return llvm::any_of(schema->typeConstraintParams(),
                        [&](const auto &param) { return param.type_param_str == typeStr; });
  };
  for (int i = 0; i < node.input_size() && !formals.empty(); ++i) {
    const onnx::OpSchema::FormalParameter &f = formals[std::min<size_t>(i, formals.size() - 1)];
    if (node.input(i).empty() || !isTypeVariable(f.GetTypeStr()) ||
        (f.GetOption() == onnx::OpSchema::Variadic && !f.GetIsHomogeneous()))
      continue;
    std::string type = elementTypeOf(node.input(i));
    if (type.empty())
      continue;
    auto [it, inserted] = bound.try_emplace(f.GetTypeStr(), i, type);
    if (inserted || it->second.second == type)
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    int first = it->second.first;
    os << "inputs " << first << " ('" << node.input(first) << "', " << it->second.second
       << ") and " << i << " ('" << node.input(i) << "', " << type
       << ") must have the same element type (type variable " << f.GetTypeStr() << ")";
    problems.push_back(text);
  }
}
