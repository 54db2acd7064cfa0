// Register tiles as dot-product instructions: bf16 k pairs (AVX-512 BF16 vdpbf16ps, AArch64
// BFDOT) and AVX-512 VNNI int8 k quads (vpdpbusd), the contractions tlc-tile-contractions marks (used by
// tlc-vectorize).
#ifndef TLC_TARGETS_CPU_DOTPRODUCTTILES_H
#define TLC_TARGETS_CPU_DOTPRODUCTTILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {

/// Mechanism: replaces the register tile `tile` (marked `tlc.bf16_pairs` = [m, n, k] loop
/// positions by tlc-tile-contractions: C[m, n] += A[m, k] * B[2 n + k] with bf16 A and B
/// extended to f32 C, B a 1-D view of one row of a k-pair panel, k extent at most 2) by
/// vector code: the accumulators as one masked transfer of the m x n output tile, one 32-bit
/// broadcast of each row's k pair, one load of B per `lanes` columns, and per row and `lanes`
/// columns one `x86vector.avx512.dot` (vdpbf16ps; `lanes` 16) or one AArch64 BFDOT
/// (`llvm.aarch64.neon.bfdot` through `llvm.call_intrinsic`; `lanes` 4). `bounds` are static upper
/// bounds of the tile's loop ranges. B's view must be the whole interleaved row of the strip
/// (2 x the rounded-up n bound elements, zeros past the block's columns and in a missing k
/// row), as packRhsPanel writes it. Fails without changing the IR when the tile is not of
/// that form.
mlir::LogicalResult vectorizeBF16PairTile(mlir::RewriterBase &rewriter,
                                          mlir::linalg::GenericOp tile,
                                          llvm::ArrayRef<int64_t> bounds, int64_t lanes);

/// Mechanism: the same for a tile marked `tlc.int8_quads`: C[m, n] += ext(A[m, k]) *
/// ext(B[4 n + k]) with i8 A and B, one zero-extended and one sign-extended, into i32 C, k
/// extent at most 4; one 32-bit broadcast of each row's k quad, one 64-byte load of B per 16
/// columns, one `llvm.x86.avx512.vpdpbusd.512` per row and 16 columns (its unsigned operand
/// the zero-extended one). B's view is 4 x the rounded-up n bound bytes.
mlir::LogicalResult vectorizeInt8QuadTile(mlir::RewriterBase &rewriter,
                                          mlir::linalg::GenericOp tile,
                                          llvm::ArrayRef<int64_t> bounds);

/// Whether `op` is a dot-product intrinsic call vectorizeInt8QuadTile emits: arithmetic on
/// registers (llvm.call_intrinsic declares no memory effects, so passes must be told).
bool isDotProductIntrinsic(mlir::Operation *op);

} // namespace tlc

#endif // TLC_TARGETS_CPU_DOTPRODUCTTILES_H
