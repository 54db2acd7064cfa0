// ONNX external data: tensors whose bytes live in files beside the model.
#ifndef TLC_COMPILER_ONNX_EXTERNALDATA_H
#define TLC_COMPILER_ONNX_EXTERNALDATA_H

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/onnx_pb.h>

#include <memory>
#include <optional>

namespace tlc::onnx_import {

/// The bytes of a model's tensors stored outside it: the files, mapped, and where in them
/// each such tensor's bytes are. decodeTensor reads an external tensor from the set in scope
/// on its thread (Scope), so that gigabytes of weights are not copied into the protobuf
/// messages before they are copied into attributes.
class ExternalBytes {
public:
  /// Makes `bytes` the set decodeTensor reads while the scope lives.
  class Scope {
  public:
    explicit Scope(const ExternalBytes &bytes);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    const ExternalBytes *previous;
  };
  /// The bytes of `tensor` if it is an external tensor of the set in scope.
  static std::optional<llvm::StringRef> lookup(const onnx::TensorProto &tensor);

private:
  friend mlir::LogicalResult loadExternalData(onnx::ModelProto &, llvm::StringRef,
                                              mlir::Location, ExternalBytes &);
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> files;
  llvm::DenseMap<const onnx::TensorProto *, llvm::StringRef> tensors;
};

/// Finds the bytes of every tensor of `model` stored outside it (data_location EXTERNAL, as
/// exporters write models over protobuf's 2 GiB: initializers, Constant values, subgraphs'
/// tensors) and records them in `bytes`: `length` bytes (default: to the end of the file) at
/// `offset` (default 0) of the file `location`, a relative path inside `modelDir` (the
/// model's folder). Errors, at `fileLoc`, name the tensor and the file. The tensors are
/// decoded while `bytes` is in scope (ExternalBytes::Scope) and `model` unchanged.
mlir::LogicalResult loadExternalData(onnx::ModelProto &model, llvm::StringRef modelDir,
                                     mlir::Location fileLoc, ExternalBytes &bytes);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_EXTERNALDATA_H
