// The ONNX importer's entry point: an ONNX model file's bytes to a tl-dialect module.
#ifndef TLC_COMPILER_ONNX_ONNXIMPORTER_H
#define TLC_COMPILER_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <string>
#include <vector>

namespace tlc {

struct OnnxImportOptions {
  /// Shapes pinning graph inputs (symbolic dimensions in particular), by ONNX input name.
  std::map<std::string, llvm::SmallVector<int64_t>> inputShapes;
  /// Graph inputs bound to a constant (an ONNX TensorProto file), by ONNX input name: the model
  /// is specialized to that value, e.g. a shape or axes fed as an input, and the input leaves
  /// the compiled signature.
  std::map<std::string, std::string> constantInputs;
  /// For training (--train): the float initializers read as weights (of Conv, Gemm, MatMul,
  /// normalizations, elementwise arithmetic, Gather's table) become named constants marked
  /// `tl.param` (their C name; `tl.onnx_name`: the initializer's) that the import treats as
  /// run-time values, never folding them at compile time.
  bool trainableWeights = false;
  /// Nodes converted again for control-flow bodies (each Loop iteration, both branches of a
  /// run-time If) in one import, in all: nested loops multiply their trip counts. Past it, a
  /// located error.
  int64_t maxExpandedNodes = int64_t(1) << 18;
  /// QDQ convolutions (uint8/int8 activations, int8 weights) as integer contractions summed in
  /// int32, scaled afterwards (tlc --int8-contractions, by default on where the target has
  /// int8 dot products); off: dequantized and run in float.
  bool int8Contractions = false;
};

/// The ONNX operators (default domain) the importer converts, sorted: its converter table's
/// names (`tlc --list-onnx-ops`; the README's operator list is generated from it).
std::vector<std::string> supportedOnnxOperators();

/// Parses "NAME=1x3x224x224" into `options.inputShapes`; returns an error message on failure.
std::string parseInputShapeSpec(llvm::StringRef spec, OnnxImportOptions &options);

/// Parses "NAME=FILE.pb" into `options.constantInputs`; returns an error message on failure.
std::string parseConstantInputSpec(llvm::StringRef spec, OnnxImportOptions &options);

/// Imports the ONNX model in `bytes` (read from `path`, used in locations) as a module with one
/// public function `funcName`. Errors (corrupt file, every unsupported op/attribute/type at
/// once, shape errors) are reported through the context's diagnostics, located at the file or
/// the ONNX node (a NameLoc of the node name), and yield null.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxModel(llvm::StringRef bytes, llvm::StringRef path,
                                                  mlir::MLIRContext *context,
                                                  llvm::StringRef funcName,
                                                  const OnnxImportOptions &options);

} // namespace tlc

#endif // TLC_COMPILER_ONNX_ONNXIMPORTER_H
