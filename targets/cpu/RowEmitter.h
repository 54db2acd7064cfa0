// The vector loops of tlc-vectorize-rows: how one op's rows are vectorized (RowPlan, decided
// by the pass) and the emitter that builds them.
#ifndef TLC_TARGETS_CPU_ROWEMITTER_H
#define TLC_TARGETS_CPU_ROWEMITTER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace tlc {

/// How the rewrite treats one op: which operands are read as vectors along the innermost loop
/// (the others once per row), and for a reduction each output's combining kind and identity.
struct RowPlan {
  unsigned inner = 0;
  int64_t extent = 0;
  bool reduction = false;
  llvm::SmallVector<bool> isVector; // per operand
  // Per output (placeholders for the per-column outputs of a reduction, which are only written).
  llvm::SmallVector<mlir::vector::CombiningKind> kinds;
  llvm::SmallVector<mlir::TypedAttr> identities;
  // Per output: a maxnumf/minnumf reduction combined by compare-and-select (see
  // RowEmitter::numCombine).
  llvm::SmallVector<bool> selectCombine;
  // The op asks for the next row of its row operands to be prefetched (kPrefetchNextRowAttr).
  bool prefetchNextRow = false;
};

/// Emits the vector loops replacing `op` at `b`'s insertion point: outer loops as scf.for,
/// the row `lanes` wide, a reduction with `accumulators` independent vector accumulators.
void emitVectorRows(mlir::OpBuilder &b, mlir::linalg::GenericOp op, const RowPlan &plan,
                    int64_t lanes, int64_t accumulators);

} // namespace tlc

#endif // TLC_TARGETS_CPU_ROWEMITTER_H
