// The lowering strategies tl-lower-to-linalg takes from a target.
#ifndef TLC_PASSES_TARGETLOWERINGPATTERNS_H
#define TLC_PASSES_TARGETLOWERINGPATTERNS_H

#include "mlir/IR/DialectInterface.h"
#include "mlir/Support/TypeID.h"

namespace mlir {
class MLIRContext;
class RewritePatternSet;
} // namespace mlir

namespace tlc {

/// The patterns behind tl-lower-to-linalg's `row-loops` and `tiled-attention`: strategies
/// that only fit one kind of hardware, so a target provides them (the CPU targets' row loops
/// and flash-attention tiles: registerCPULoweringPatterns in targets/cpu/CPUPasses.h) as this
/// interface of the tl dialect, added to the dialect registry. The shared pass links no
/// target's code; a target that keeps both options off (the GPU targets) needs none.
class TargetLoweringPatterns : public mlir::DialectInterface::Base<TargetLoweringPatterns> {
public:
  explicit TargetLoweringPatterns(mlir::Dialect *dialect) : Base(dialect) {}
  /// softmax, log_softmax and layer_norm over trailing axes as loops over rows; preferred
  /// over the shared whole-tensor patterns.
  virtual void populateRowOpPatterns(mlir::RewritePatternSet &patterns) const = 0;
  /// tl.attention as the target's tiled kernel, with its default tiles.
  virtual void populateTiledAttentionPatterns(mlir::RewritePatternSet &patterns) const = 0;

  /// The interface registered for the tl dialect in `ctx`, or null (none registered, or the
  /// tl dialect not loaded: then there is no tl op to lower).
  static const TargetLoweringPatterns *lookup(mlir::MLIRContext *ctx);
};

} // namespace tlc

MLIR_DECLARE_EXPLICIT_TYPE_ID(tlc::TargetLoweringPatterns)

#endif // TLC_PASSES_TARGETLOWERINGPATTERNS_H
