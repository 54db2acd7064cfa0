// `tlc model.onnx --train`: a training step built around an imported forward graph.
#ifndef TLC_COMPILER_ONNXTRAINING_H
#define TLC_COMPILER_ONNXTRAINING_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tlc {

struct OnnxTrainOptions {
  std::string loss = "cross_entropy"; // cross_entropy (labels), mse or bce (a target)
  std::string optimizer = "sgd";      // NAME or NAME(key=value, ...)
  std::vector<std::string> freeze;    // ONNX initializer names not to train
};

/// Turns the imported model function `name` into one training step: the loss of its first
/// output against a new input (`labels`, i64 [N], for cross_entropy; `target`, shaped like the
/// output, for mse and bce) becomes the first output, and the weights the importer marked
/// (`tl.param`) become trained parameters with the optimizer's state (TrainStep.h).
mlir::LogicalResult addOnnxTraining(mlir::ModuleOp module, llvm::StringRef name,
                                    const OnnxTrainOptions &options);

} // namespace tlc

#endif // TLC_COMPILER_ONNXTRAINING_H
