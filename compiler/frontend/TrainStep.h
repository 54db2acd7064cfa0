// Turning a model function into one training step (the .tl `train` statement, ONNX --train):
// the params the loss depends on become inputs, with the optimizer's state, the learning rate
// and the step number; their updated values become outputs.
#ifndef TLC_COMPILER_FRONTEND_TRAINSTEP_H
#define TLC_COMPILER_FRONTEND_TRAINSTEP_H

#include "TL/Optimizers.h"
#include "TL/TLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>

namespace tlc {

/// A candidate parameter: a float constant of the model, with the name the signature gives it.
struct TrainParam {
  std::string name;
  tl::ConstantOp constant;
};

/// Parses an optimizer's keyword value; returns an error message, empty on success.
std::string setOptimizerKeyword(tl::OptimizerConfig &config, llvm::StringRef optimizer,
                                llvm::StringRef keyword, double value, bool isBool);

/// Checks the keywords' combination (Nesterov needs momentum and no dampening); returns an
/// error message, empty when the configuration is valid.
std::string checkOptimizer(const tl::OptimizerConfig &config);

/// The optimizer named `name` with its defaults (sgd, adam, adamw, lion), or failure.
llvm::FailureOr<tl::OptimizerConfig> defaultOptimizer(llvm::StringRef name);

/// Parses `--optimizer` specs: NAME or NAME(key=value, ...), as in `.tl`'s `train`.
llvm::FailureOr<tl::OptimizerConfig> parseOptimizerSpec(llvm::StringRef spec, std::string &error);

/// Rewrites `func` (one block ending in func.return, arguments and results named by
/// `tl.name`) into a training step of `loss` with `config`: appends the inputs lr and step
/// (f32 scalars), then per trained param (each of `params` the loss depends on, in order) the
/// param and its optimizer state, and the outputs NAME_next and NAME_STATE_next; records the
/// state for the C ABI on the module (`tl.train`). Errors at `loc`.
mlir::LogicalResult buildTrainingStep(mlir::func::FuncOp func, mlir::Value loss,
                                      llvm::ArrayRef<TrainParam> params,
                                      const tl::OptimizerConfig &config, mlir::Location loc);

} // namespace tlc

#endif // TLC_COMPILER_FRONTEND_TRAINSTEP_H
