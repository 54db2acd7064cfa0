// Training losses built from tl ops (the .tl frontend's mse_loss, cross_entropy and
// bce_with_logits; the ONNX training frontend's --loss). Each returns a rank-0 tensor.
#ifndef TLC_DIALECTS_TL_LOSSES_H
#define TLC_DIALECTS_TL_LOSSES_H

#include "mlir/IR/Builders.h"

namespace tlc::tl {

enum class LossReduction { Mean, Sum };

/// mean or sum of (pred - target)^2 over all elements (target broadcasts to pred).
mlir::Value buildMSELoss(mlir::OpBuilder &b, mlir::Location loc, mlir::Value pred,
                         mlir::Value target, LossReduction reduction);

/// Cross-entropy of `logits` (N x C) against integer class `labels` (N), with label smoothing
/// `smoothing` (the target is (1 - s) one-hot + s / C): -sum_c target_c log_softmax(logits)_c
/// per row, then the mean over rows or their sum. A label outside [0, C) selects no class (its
/// row contributes only the smoothing term).
mlir::Value buildCrossEntropy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value logits,
                              mlir::Value labels, double smoothing, LossReduction reduction);

/// Binary cross-entropy of `logits` against targets in [0, 1], computed stably as
/// max(x, 0) - x t + log(1 + exp(-|x|)); mean or sum over all elements.
mlir::Value buildBCEWithLogits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value logits,
                               mlir::Value targets, LossReduction reduction);

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_LOSSES_H
