// Loading and validating an ONNX ModelProto.
#include "ModelLoader.h"

#include <google/protobuf/io/coded_stream.h>
#include <onnx/defs/schema.h>

#include <set>

using namespace mlir;
using namespace tlc::onnx_import;

FailureOr<int64_t> tlc::onnx_import::loadModelProto(llvm::StringRef bytes, Location fileLoc,
                                                    onnx::ModelProto &model) {
  if (bytes.empty())
    return emitError(fileLoc) << "the ONNX model file is empty";
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(bytes.data()), static_cast<int>(bytes.size()));
  stream.SetTotalBytesLimit(INT32_MAX);
  if (bytes.size() > INT32_MAX)
    return emitError(fileLoc) << "the ONNX model is larger than 2 GiB, more than protobuf "
                                 "reads: save its tensors as external data (onnx.save_model(..., "
                                 "save_as_external_data=True))";
  if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
    return emitError(fileLoc) << "not a valid ONNX model: the protobuf data is truncated or "
                                 "corrupt";
  if (!model.has_graph())
    return emitError(fileLoc) << "not a valid ONNX model: it has no graph";
  int64_t opset = -1;
  for (const onnx::OperatorSetIdProto &id : model.opset_import())
    if (isDefaultDomain(id.domain()))
      opset = id.version();
  if (opset < 0) {
    // A graph of training-domain operators only (an optimizer step) needs no default opset.
    bool training = model.graph().node_size() > 0;
    for (const onnx::NodeProto &node : model.graph().node())
      training &= node.domain() == kTrainingDomain;
    if (training)
      return kMaxOpset;
    // IR version 1-2 models predate opset_import and mean opset 1.
    return emitError(fileLoc) << "the model imports no default-domain (ai.onnx) opset";
  }
  if (opset >= 1 && opset < kMinOpset) {
    // An older model imports as kMinOpset when none of its operators changed in between
    // (e.g. InstanceNormalization-6, Not-1): the converters then see the same definitions.
    std::set<std::string> changed;
    for (const onnx::NodeProto &node : model.graph().node()) {
      if (!isDefaultDomain(node.domain()))
        continue;
      const onnx::OpSchema *old =
          onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
      const onnx::OpSchema *now =
          onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(kMinOpset), "");
      if (!old || !now || old->since_version() != now->since_version())
        changed.insert(node.op_type());
    }
    if (changed.empty())
      return kMinOpset;
    std::string names;
    for (const std::string &n : changed)
      names += (names.empty() ? "" : ", ") + n;
    return emitError(fileLoc) << "opset " << opset << " is not supported (tlc imports opsets "
                              << kMinOpset << " to " << kMaxOpset
                              << ", and older ones whose operators are unchanged by opset "
                              << kMinOpset << "; changed: " << names << ")";
  }
  if (opset < kMinOpset || opset > kMaxOpset)
    return emitError(fileLoc) << "opset " << opset << " is not supported (tlc imports opsets "
                              << kMinOpset << " to " << kMaxOpset << ")";
  return opset;
}

const onnx::OpSchema *tlc::onnx_import::nodeSchema(const onnx::NodeProto &node, int64_t opset) {
  if (node.domain() == kTrainingDomain)
    return onnx::OpSchemaRegistry::Schema(node.op_type(), 1, kTrainingDomain);
  return onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(opset), "");
}

std::string tlc::onnx_import::converterKey(const onnx::NodeProto &node) {
  if (isDefaultDomain(node.domain()))
    return node.op_type();
  return node.domain() + "::" + node.op_type();
}
