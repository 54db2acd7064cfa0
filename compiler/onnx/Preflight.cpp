// The pre-flight check: every unsupported op, attribute value and element type at once.
#include "Preflight.h"

#include "AttributeCheck.h"
#include "GraphCheck.h"
#include "ModelLoader.h"
#include "NodeContext.h"
#include "SchemaCheck.h"
#include "TensorData.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tlc::onnx_import;

Location tlc::onnx_import::nodeLocation(const onnx::NodeProto &node, int index,
                                        Location fileLoc) {
  std::string name = node.name();
  if (name.empty())
    name = node.op_type() + "_" + std::to_string(index);
  // A node of an If/Loop/Scan body: named by its path, "loop/relu".
  if (auto parent = dyn_cast<NameLoc>(fileLoc))
    return NameLoc::get(StringAttr::get(fileLoc->getContext(),
                                        parent.getName().str() + "/" + name),
                        parent.getChildLoc());
  return NameLoc::get(StringAttr::get(fileLoc->getContext(), name), fileLoc);
}

namespace {
/// Subgraphs nest at most this deep (each level is a recursion of the checks and the import).
constexpr int kMaxSubgraphDepth = 16;

/// Whether `node` is one whose graph attributes tlc expands (ControlFlow.cpp).
bool isControlFlow(const onnx::NodeProto &node) {
  return node.domain().empty() &&
         (node.op_type() == "If" || node.op_type() == "Loop" || node.op_type() == "Scan");
}

/// Element types named by a node's attributes (Cast's `to`, tensor-valued attributes).
void checkAttributeTypes(const onnx::NodeProto &node, MLIRContext *ctx,
                         SmallVectorImpl<std::string> &problems) {
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.has_t() && !elementTypeOf(ctx, a.t().data_type()))
      problems.push_back(("attribute '" + a.name() + "' has unsupported element type " +
                          onnxTypeName(a.t().data_type()))
                             .str());
    if ((a.type() == onnx::AttributeProto::GRAPH && !isControlFlow(node)) ||
        a.type() == onnx::AttributeProto::GRAPHS)
      problems.push_back("subgraph attribute '" + a.name() + "' is not supported");
  }
  if (node.op_type() == "Cast")
    if (const onnx::AttributeProto *to = findAttr(node, "to"))
      if (!elementTypeOf(ctx, static_cast<int>(to->i())))
        problems.push_back(
            ("cast to unsupported element type " + onnxTypeName(static_cast<int>(to->i())))
                .str());
}

void checkValueInfo(const onnx::ValueInfoProto &info, const char *what, MLIRContext *ctx,
                    Location fileLoc, bool &failedAny) {
  if (!info.type().has_tensor_type()) {
    if (info.has_type()) {
      emitError(fileLoc) << what << " '" << info.name()
                         << "' is not a tensor (sequences, maps and optionals are not supported)";
      failedAny = true;
    }
    return;
  }
  int et = info.type().tensor_type().elem_type();
  if (!elementTypeOf(ctx, et)) {
    emitError(fileLoc) << what << " '" << info.name() << "' has unsupported element type "
                       << onnxTypeName(et);
    failedAny = true;
  }
}

/// Checks each node of `graph` (and of the bodies of its control-flow nodes), located in
/// `scopeLoc`; false if any problem was reported.
bool checkNodes(const onnx::GraphProto &graph, int64_t opset, Location scopeLoc, int depth,
                bool &reportedDepth) {
  MLIRContext *ctx = scopeLoc->getContext();
  const ConverterTable &table = getConverterTable();
  bool failedAny = false;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    Location loc = nodeLocation(node, i, scopeLoc);
    if (!isKnownDomain(node.domain())) {
      emitError(loc) << "unsupported operator '" << node.op_type() << "' of domain '"
                     << node.domain() << "'";
      failedAny = true;
      continue;
    }
    auto it = table.find(converterKey(node));
    if (it == table.end()) {
      emitError(loc) << "unsupported operator '" << node.op_type() << "' (opset " << opset
                     << ")";
      failedAny = true;
      continue;
    }
    SmallVector<std::string> problems;
    checkNodeSchema(node, opset, problems);
    checkNodeAttributes(node, opset, problems);
    checkAttributeTypes(node, ctx, problems);
    if (it->second.check)
      it->second.check(node, problems);
    for (const std::string &p : problems)
      emitError(loc) << node.op_type() << ": " << p;
    failedAny |= !problems.empty();
    // The bodies of If, Loop and Scan, located at their node.
    if (!isControlFlow(node))
      continue;
    if (depth >= kMaxSubgraphDepth) {
      // Once: a graph's copies of one deep body would each say it again.
      if (!reportedDepth)
        emitError(loc) << node.op_type() << ": subgraphs nested more than " << kMaxSubgraphDepth
                       << " deep are not supported";
      reportedDepth = true;
      failedAny = true;
      continue;
    }
    for (const onnx::AttributeProto &a : node.attribute())
      if (a.has_g())
        failedAny |= !checkNodes(a.g(), opset, loc, depth + 1, reportedDepth);
  }
  return !failedAny;
}
} // namespace

LogicalResult tlc::onnx_import::preflightCheck(const onnx::GraphProto &graph, int64_t opset,
                                               Location fileLoc) {
  MLIRContext *ctx = fileLoc->getContext();
  bool failedAny = false;
  llvm::StringSet<> initializerNames;
  for (const onnx::TensorProto &t : graph.initializer()) {
    initializerNames.insert(t.name());
    if (!elementTypeOf(ctx, t.data_type())) {
      emitError(fileLoc) << "initializer '" << t.name() << "' has unsupported element type "
                         << onnxTypeName(t.data_type());
      failedAny = true;
    }
  }
  for (const onnx::ValueInfoProto &v : graph.input())
    if (!initializerNames.contains(v.name()))
      checkValueInfo(v, "input", ctx, fileLoc, failedAny);
  for (const onnx::ValueInfoProto &v : graph.output())
    checkValueInfo(v, "output", ctx, fileLoc, failedAny);
  for (const onnx::ValueInfoProto &v : graph.value_info())
    checkValueInfo(v, "value", ctx, fileLoc, failedAny);

  bool reportedDepth = false;
  failedAny |= !checkNodes(graph, opset, fileLoc, 0, reportedDepth);
  failedAny |= failed(checkGraphStructure(graph, fileLoc));
  return failure(failedAny);
}
