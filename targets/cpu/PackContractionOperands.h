// Packing a contraction's operands into contiguous stack buffers (used by tlc-tile-contractions).
#ifndef TLC_TARGETS_CPU_PACKCONTRACTIONOPERANDS_H
#define TLC_TARGETS_CPU_PACKCONTRACTIONOPERANDS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {

/// Where and how one right-operand panel is packed.
struct RhsPanel {
  /// The register tile (after cache and register tiling) whose operand `operand` is a
  /// memref.subview of the cache block's slice of the right operand.
  mlir::linalg::LinalgOp registerTile;
  unsigned operand;
  /// The cache-level m loop: the panel is packed once before it and read by all its blocks.
  mlir::scf::ForOp mBlockLoop;
  /// The buffer is allocated at the start of this op's body: once per thread, not per block
  /// (an scf.for is no stack scope when lowered: an alloca inside one grows the stack at every
  /// iteration). The loop that runs on the thread pool (tlc-outline-parallel-loops moves the
  /// alloca to the entry of the function it outlines), else the function.
  mlir::Operation *bufferHome;
  /// When set, the contraction's whole right operand (not one cache block's slice of it) is
  /// packed, once before this loop (an enclosing loop in which the operand is invariant, e.g.
  /// the row tiles of an epilogue-fused contraction), and every block reads its part of it.
  mlir::scf::ForOp wholeOperandBefore;
  /// The operand's map results (dimension positions) of the k and n loops; n must be the last
  /// result (the contiguous axis), every other result a unit slice of the block.
  unsigned kResult, nResult;
  /// Static upper bounds of the block's k and n extents, and the register tile's n width.
  int64_t panelK, panelN, stripN;
  /// k groups: 2 for bf16 k pairs (AVX-512 BF16 dot products), 4 for int8 k quads (AVX-512
  /// VNNI): the panel keeps its type, each strip's rows g p ... g p + g - 1 interleaved into
  /// one row of g x `stripN` elements (column j's group at g j ... g j + g - 1; rows missing
  /// from the last group and the columns past the block are zeros), and the register tile
  /// reads its k group's row as a 1-D view indexed g n + k (its k extent must be g). 1: none.
  int64_t kGroup = 1;
};

/// The operand of `op` that is the right operand of a contraction over loops m, n, k: it is
/// read with n as its last (contiguous) map result, with k, without m, and every other result
/// a plain loop dimension. Returns its operand number and the results of k and n.
std::optional<std::tuple<unsigned, unsigned, unsigned>>
matchRhsOperand(mlir::linalg::LinalgOp op, unsigned m, unsigned n, unsigned k);

/// The type `op` extends its operand `operand` to before any use (f32 for a bf16/f16 operand
/// under mixed precision: every use of its payload argument is an arith.extf to it), or null.
/// Packing such an operand converts it (packRhsPanel, packLhsBlock).
mlir::Type extendedOperandType(mlir::linalg::LinalgOp op, unsigned operand);

/// Whether `op` zero-extends (true) or sign-extends (false) the integer payload argument of
/// its operand `operand` at every use (arith.extui / arith.extsi); nullopt when a use is
/// anything else, or there is none.
std::optional<bool> extendedIntegerSignedness(mlir::linalg::LinalgOp op, unsigned operand);
/// The outermost scf.for around `op` and inside `home` in which `value` is invariant (computed
/// by pure ops from values defined outside it), or null.
mlir::scf::ForOp outermostInvariantLoop(mlir::Value value, mlir::Operation *op,
                                        mlir::Operation *home);

/// Mechanism: copies the cache block's k x n slice of the right operand into a stack buffer
/// laid out strip by strip (`stripN` columns of all k rows contiguous: the order the register
/// tile reads it), once before the m block loop, and makes the register tile read its strip
/// from there; with `wholeOperandBefore`, the whole operand once before that loop. Fails
/// without changing the IR when the slice is not invariant in the loop it is copied before.
mlir::LogicalResult packRhsPanel(mlir::RewriterBase &rewriter, const RhsPanel &panel);

/// Where and how one left-operand cache block is packed.
struct LhsBlock {
  /// The register tile whose operand `operand` is a memref.subview of the cache block's slice
  /// of the left operand.
  mlir::linalg::LinalgOp registerTile;
  unsigned operand;
  /// The block is copied right before this op (the outermost register-level loop), once per
  /// cache block, and every register tile of the block reads its rows from the copy.
  mlir::Operation *copyBefore;
  /// As RhsPanel::bufferHome.
  mlir::Operation *bufferHome;
  /// The operand's map results of the m and k loops; one of them must be the last result (the
  /// contiguous axis), every other result a unit slice of the block.
  unsigned mResult, kResult;
  /// Static upper bounds of the block's m and k extents, and the copy's vector width.
  int64_t blockM, blockK, copyWidth;
  /// Keep the operand's element type (a bf16 block for AVX-512 BF16 dot products) instead of
  /// converting it to the type the register tile extends it to.
  bool keepType = false;
};

/// The operand of `op` that is the left operand of a contraction over loops m, n, k: it is
/// read with m and k, without n, every result a plain loop dimension. Returns its operand
/// number and the results of m and k.
std::optional<std::tuple<unsigned, unsigned, unsigned>>
matchLhsOperand(mlir::linalg::LinalgOp op, unsigned m, unsigned n, unsigned k);

/// Mechanism: copies the cache block's m x k slice of the left operand into a stack buffer of
/// the block's shape (its rows contiguous, blockK or blockM elements apart instead of the
/// operand's full row length), once per block before the register loops, and makes the
/// register tile read its rows from there. Fails without changing the IR when the operand's
/// slice is not laid out as required.
mlir::LogicalResult packLhsBlock(mlir::RewriterBase &rewriter, const LhsBlock &block);

} // namespace tlc

#endif // TLC_TARGETS_CPU_PACKCONTRACTIONOPERANDS_H
