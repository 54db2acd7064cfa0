// Loading and validating an ONNX ModelProto (protobuf parse, graph, opset).
#ifndef TLC_COMPILER_ONNX_MODELLOADER_H
#define TLC_COMPILER_ONNX_MODELLOADER_H

#include "mlir/IR/Diagnostics.h"

#include <onnx/onnx_pb.h>

namespace onnx {
class OpSchema;
} // namespace onnx

namespace tlc::onnx_import {

constexpr int64_t kMinOpset = 7, kMaxOpset = 17;

/// Parses `bytes` into `model` and checks what the importer relies on: a graph and a
/// default-domain opset in [kMinOpset, kMaxOpset] (an older one is accepted, as kMinOpset,
/// when no operator of the graph changed up to kMinOpset). Errors are reported at `fileLoc`.
/// Returns the default-domain opset version.
mlir::FailureOr<int64_t> loadModelProto(llvm::StringRef bytes, mlir::Location fileLoc,
                                        onnx::ModelProto &model);

/// Whether `domain` is ONNX's default operator domain.
inline bool isDefaultDomain(const std::string &domain) {
  return domain.empty() || domain == "ai.onnx";
}

/// The one other operator domain tlc converts: ONNX's training optimizers (Adagrad, Adam,
/// Momentum), version 1.
inline constexpr const char *kTrainingDomain = "ai.onnx.preview.training";

/// Whether tlc converts operators of `domain`.
inline bool isKnownDomain(const std::string &domain) {
  return isDefaultDomain(domain) || domain == kTrainingDomain;
}

/// The schema of `node` (null if none): at the default-domain `opset`, or version 1 of the
/// training domain.
const onnx::OpSchema *nodeSchema(const onnx::NodeProto &node, int64_t opset);

/// The converter table's key for `node`: its op type, prefixed by "DOMAIN::" outside the default
/// domain.
std::string converterKey(const onnx::NodeProto &node);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_MODELLOADER_H
