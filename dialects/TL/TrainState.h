// What an importer marks for the training step builder (compiler/frontend/TrainStep.h) beyond
// the trained params: state tensors that are not trained (batch norm's running statistics)
// and values that differ between the step and the inference beside it.
#ifndef TLC_DIALECTS_TL_TRAINSTATE_H
#define TLC_DIALECTS_TL_TRAINSTATE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tlc::tl {

/// On a tl.constant: a state tensor that is not trained but updated by the step (its C name),
/// e.g. a running mean; its initial value is the constant's.
inline constexpr llvm::StringLiteral kStateBufferAttr = "tl.state_buffer";
/// On the op whose first result is the next value of the state buffer it names.
inline constexpr llvm::StringLiteral kNextStateAttr = "tl.next_state";
/// On the marker op of buildTrainOrEval.
inline constexpr llvm::StringLiteral kTrainOrEvalAttr = "tl.train_or_eval";

/// A value that is `train` in the training step and `eval` in the inference (batch norm on
/// the batch's statistics vs on the running ones): a marker (an unrealized cast of the two)
/// that the step builder resolves in each function before anything else sees it.
inline mlir::Value buildTrainOrEval(mlir::OpBuilder &b, mlir::Location loc, mlir::Value train,
                                    mlir::Value eval) {
  auto marker = mlir::UnrealizedConversionCastOp::create(b, loc, train.getType(),
                                                         mlir::ValueRange{train, eval});
  marker->setAttr(kTrainOrEvalAttr, b.getUnitAttr());
  return marker.getResult(0);
}

/// Replaces each marker of buildTrainOrEval under `root` by its train (or eval) value.
inline void resolveTrainOrEval(mlir::Operation *root, bool train) {
  root->walk([&](mlir::UnrealizedConversionCastOp marker) {
    if (!marker->hasAttr(kTrainOrEvalAttr))
      return;
    marker.getResult(0).replaceAllUsesWith(marker.getOperand(train ? 0 : 1));
    marker.erase();
  });
}

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_TRAINSTATE_H
