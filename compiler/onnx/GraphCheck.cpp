// Well-formedness of an ONNX graph's names: unique inputs and initializers, one writer per
// tensor.
#include "GraphCheck.h"

#include "Preflight.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tlc::onnx_import;

LogicalResult tlc::onnx_import::checkGraphStructure(const onnx::GraphProto &graph,
                                                    Location fileLoc) {
  bool failedAny = false;
  llvm::StringSet<> inputs, initializers;
  for (const onnx::ValueInfoProto &v : graph.input())
    if (!inputs.insert(v.name()).second) {
      emitError(fileLoc) << "graph input '" << v.name() << "' is listed twice";
      failedAny = true;
    }
  for (const onnx::TensorProto &t : graph.initializer())
    if (!initializers.insert(t.name()).second) {
      emitError(fileLoc) << "initializer '" << t.name() << "' is listed twice";
      failedAny = true;
    }
  // Which node wrote each tensor so far (its name for the message).
  llvm::StringMap<std::string> writers;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    Location loc = nodeLocation(node, i, fileLoc);
    std::string self = cast<NameLoc>(loc).getName().str();
    for (const std::string &out : node.output()) {
      if (out.empty())
        continue;
      const char *what = inputs.contains(out)         ? "a graph input"
                         : initializers.contains(out) ? "an initializer"
                                                      : nullptr;
      if (what) {
        emitError(loc) << node.op_type() << ": output '" << out << "' is " << what
                       << ", which a node cannot write";
        failedAny = true;
        continue;
      }
      auto [it, inserted] = writers.try_emplace(out, self);
      if (!inserted) {
        emitError(loc) << node.op_type() << ": output '" << out
                       << "' is already written by node '" << it->second << "'";
        failedAny = true;
      }
    }
  }
  return failure(failedAny);
}
