// ONNX external data: tensors whose bytes live in files beside the model.
#ifndef TLC_COMPILER_ONNX_EXTERNALDATA_H
#define TLC_COMPILER_ONNX_EXTERNALDATA_H

#include "mlir/IR/Diagnostics.h"

#include <onnx/onnx_pb.h>

namespace tlc::onnx_import {

/// Reads every tensor of `model` stored outside it (data_location EXTERNAL, as exporters write
/// models over protobuf's 2 GiB: initializers, Constant values, subgraphs' tensors) into its
/// raw_data: `length` bytes (default: to the end of the file) at `offset` (default 0) of the
/// file `location`, a relative path inside `modelDir` (the model's folder). Errors, at
/// `fileLoc`, name the tensor and the file.
mlir::LogicalResult loadExternalData(onnx::ModelProto &model, llvm::StringRef modelDir,
                                     mlir::Location fileLoc);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_EXTERNALDATA_H
