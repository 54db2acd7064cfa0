// The CPU targets' code generation passes (declared in CPUPasses.td) and the lowering
// strategies they give the shared tl-lower-to-linalg (row loops, tiled attention).
#ifndef TLC_TARGETS_CPU_CPUPASSES_H
#define TLC_TARGETS_CPU_CPUPASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class RewritePatternSet;
} // namespace mlir

namespace tlc {

#define GEN_PASS_DECL
#include "targets/cpu/CPUPasses.h.inc"

/// The CPU targets' TargetLoweringPatterns (passes/TargetLoweringPatterns.h): the row loops
/// and the flash-attention tiles below, for tl-lower-to-linalg's `row-loops` and
/// `tiled-attention`.
void registerCPULoweringPatterns(mlir::DialectRegistry &registry);

/// Row-wise patterns for softmax, log_softmax and layer_norm over trailing axes (an
/// scf.forall over rows of 1-D linalg ops); preferred over the shared whole-tensor ones.
void populateTLRowOpsToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// A unit attribute on a 1-D linalg.generic over rows of a matrix (a row op's pass, set by
/// the row loops above): tlc-vectorize-rows prefetches the following row of its row operands
/// while it runs, so that row's cache misses overlap this row's computation.
inline constexpr llvm::StringLiteral kPrefetchNextRowAttr = "tlc.prefetch_next_row";

/// A dictionary attribute on a window op (a depthwise convolution as a linalg.generic on
/// buffers) whose row input is a padded copy of another buffer, set by tlc-read-unpadded-rows:
/// `{source = I, low = [..], map = M, value = V}`. Input I is the unpadded buffer (read by no
/// block argument: it only keeps that buffer live, and unwritten, up to the op in the memory
/// plan), M the row input's indexing map, `low` the padding before each of its dimensions and
/// V the padding value. The op is correct as it stands; tlc-tile-depthwise reads the rows from the source
/// instead, the lanes outside it set to V, and erases the padded copy it no longer needs.
inline constexpr llvm::StringLiteral kPaddedSourceAttr = "tlc.padded_source";

/// Tile sizes (upper bounds) of the flash-attention lowering.
struct AttentionTiling {
  // 48 query rows: a whole number of register tiles on every CPU target (6 rows on AVX2, 8 on
  // AVX-512 and NEON), so the tile contractions have no scalar remainder rows.
  int64_t blockQ = 48;
  int64_t blockK = 64;
};

/// Patterns lowering tl.attention to a tiled online-softmax loop nest of linalg ops on tiles
/// (the mechanism behind tl-lower-attention and tl-lower-to-linalg's tiled-attention).
void populateTLAttentionToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                         AttentionTiling tiling = {});

#define GEN_PASS_REGISTRATION
#include "targets/cpu/CPUPasses.h.inc"

} // namespace tlc

#endif // TLC_TARGETS_CPU_CPUPASSES_H
