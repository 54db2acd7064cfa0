// 2-D convolutions as a parallel loop over output tiles, each building its own im2col block
// right before contracting it with the filter (tlc-lower-convolutions).
#ifndef TLC_PASSES_CONVOLUTIONTILES_H
#define TLC_PASSES_CONVOLUTIONTILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {

/// The multiply-accumulate body `acc + x * w` of a contraction generic.
void buildMacBody(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args);

/// Policy: the output rows per tile for an output of `outH` x `outW` pixels per channel: a
/// divisor of `outH` (static tile shapes) whose pixel count (rows x outW) stays within
/// 2 x `pixels` and fills the 32-wide register tiles best, nearest `pixels` among equals.
int64_t chooseConvTileRows(int64_t outH, int64_t outW, int64_t pixels);

/// Mechanism: rewrites `op` (static NCHW/FCHW shapes, one float type) as a one-dimensional
/// scf.forall over tiles of `rows` output rows (all channels) of one image. Each tile copies
/// the input windows it needs into a [C, KH, KW, rows, OW] block, one unit-stride
/// [rows, OW] copy (a linalg.generic) per channel and filter tap, and contracts the filter
/// [F, C*KH*KW] with it into its output slice. A strided
/// convolution first splits the input into its stride phases (a linalg.transpose), so every
/// tap reads unit-stride rows. A constant-filled init (zeros) is not filled up front: each
/// tile accumulates into a contiguous [F, rows * OW] buffer of its own, filled in cache, and
/// copies it out. (Filling the output's strided tile slice in place instead gives LLVM a
/// loop of small constant memsets, which it unrolls into one block of hundreds of stores
/// that its scheduler takes seconds over.)
mlir::LogicalResult lowerConvToTiles(mlir::RewriterBase &rewriter,
                                     mlir::linalg::Conv2DNchwFchwOp op, int64_t rows);

} // namespace tlc

#endif // TLC_PASSES_CONVOLUTIONTILES_H
