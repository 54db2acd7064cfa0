// Optimizer updates built from tl ops, with PyTorch's update rules (torch.optim in 1.13; Lion
// as in Chen et al. 2023): SGD (momentum, dampening, Nesterov, weight decay), Adam (L2 weight
// decay), AdamW (decoupled weight decay), Lion. The learning rate and the step number (1 for the
// first step) are run-time rank-0 f32 values, so schedules need no recompilation.
#ifndef TLC_DIALECTS_TL_OPTIMIZERS_H
#define TLC_DIALECTS_TL_OPTIMIZERS_H

#include "mlir/IR/Builders.h"

#include <string>

namespace tlc::tl {

struct OptimizerConfig {
  enum Kind { SGD, Adam, AdamW, Lion } kind = SGD;
  double momentum = 0.0, dampening = 0.0, weightDecay = 0.0;
  bool nesterov = false;
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
};

/// The names of the per-parameter state tensors the optimizer keeps (each shaped like the
/// parameter, zero before the first step): PyTorch's state names.
llvm::SmallVector<std::string> optimizerSlots(const OptimizerConfig &config);

/// One update of parameter `p` with gradient `g` and state `slots` (optimizerSlots order):
/// returns the new parameter followed by the new state.
llvm::SmallVector<mlir::Value> buildOptimizerUpdate(mlir::OpBuilder &b, mlir::Location loc,
                                                    const OptimizerConfig &config, mlir::Value p,
                                                    mlir::Value g, mlir::ValueRange slots,
                                                    mlir::Value lr, mlir::Value step);

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_OPTIMIZERS_H
