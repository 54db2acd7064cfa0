// Node arity against ONNX's own operator schemas.
#include "SchemaCheck.h"

#include <onnx/defs/schema.h>

#include <algorithm>

using namespace tlc::onnx_import;

void tlc::onnx_import::checkNodeSchema(const onnx::NodeProto &node, int64_t opset,
                                       llvm::SmallVectorImpl<std::string> &problems) {
  const onnx::OpSchema *schema =
      onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
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
