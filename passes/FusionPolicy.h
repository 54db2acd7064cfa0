// Fusion policy: which ops form a fusion group and why (the fusion passes and the report share it).
#ifndef TLC_PASSES_FUSIONPOLICY_H
#define TLC_PASSES_FUSIONPOLICY_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <string>

namespace tlc::fusion {

/// Discardable attributes the fusion passes leave for `tlc --report=fusion`:
/// on a group's root op (the fused elementwise op, or the tile loop of a contraction and its
/// epilogue) a dictionary {kind, reason, ops = [locations of the fused source ops]};
/// on an op a fusion pass considered and left alone, the reason as a string.
constexpr llvm::StringLiteral kGroupAttr = "tlc.fusion_group";
constexpr llvm::StringLiteral kUnfusedAttr = "tlc.fusion_unfused";

/// A contraction, the elementwise op to run on each of its output tiles, and the reshape
/// between them (the expand_shape of a convolution's [N, F, OH*OW] contraction), if any.
struct EpilogueCandidate {
  mlir::linalg::LinalgOp contraction;
  mlir::linalg::GenericOp epilogue;
  mlir::tensor::ExpandShapeOp reshape;
};

/// `map` without its constant results (the size-1 dimensions a broadcast operand reads at 0).
mlir::AffineMap dropConstantResults(mlir::AffineMap map);

/// The contractions the epilogue policy considers: static, on tensors, one result, a plain
/// m/n/k contraction, directly in a function body (not inside another kernel's loop nest).
bool isEpilogueRoot(mlir::linalg::LinalgOp op);

/// Policy: whether `contraction`'s one consumer is fused into it as an epilogue. On failure
/// `reason` says why not (e.g. the result has two consumers, so fusing would compute the
/// contraction twice, or the consumer is a reduction).
std::optional<EpilogueCandidate> decideEpilogue(mlir::linalg::LinalgOp contraction,
                                                std::string &reason);

/// Policy: an output tile extent for a dimension of `extent`: the largest divisor of the
/// extent that is at most `target` and a multiple of `align` (whole register tiles), else the
/// largest divisor at most `target` (static tile shapes either way), else the whole extent.
int64_t chooseTileExtent(int64_t extent, int64_t target, int64_t align);

/// The most operands (inputs and outputs) an elementwise fusion may produce.
constexpr unsigned kMaxFusedOperands = 24;

/// Whether the producer of `operand` is an elementwise op whose result is also a result of
/// the function (e.g. a training step's next optimizer state, which the next param's update
/// reads), consumed element for element by an elementwise `operand` owner: fused, the one loop
/// nest writes both results and the consumer reads the producer's value from registers.
bool isReturnedAlongside(mlir::OpOperand *operand);

/// Policy: whether the elementwise producer of `operand` is fused into its consumer (one
/// loop nest): only when the consumer is its one use (or its other uses are returns, see
/// isReturnedAlongside) and reads each of its elements once (no
/// contraction or broadcast reuse), so nothing is computed twice, and the fused body would
/// hold at most `maxOps` ops and `kMaxFusedOperands` operands.
bool shouldFuseElementwise(mlir::OpOperand *operand, unsigned maxOps);

/// The source locations an op stands for: those of its recorded group, else its own.
llvm::SmallVector<mlir::Attribute> groupLocations(mlir::Operation *op);

/// What an op's body computes, for reasons in the report (e.g. "addf, mulf, tanh").
std::string describeBody(mlir::Operation *op);

/// Why `op` forms a group of its own, for ops no fusion pass recorded a reason on.
std::string describeSingleOp(mlir::Operation *op);

} // namespace tlc::fusion

#endif // TLC_PASSES_FUSIONPOLICY_H
