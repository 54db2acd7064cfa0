// The element type policy of a compile (--precision): which type contraction operands take.
#ifndef TLC_PASSES_PRECISION_H
#define TLC_PASSES_PRECISION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace tlc {

/// fp32 everywhere, or bf16/fp16 operands of contractions and convolutions (f32 accumulation
/// and results; every other op stays f32). `Auto` is resolved by the driver from the target.
enum class Precision { F32, BF16, F16, Auto };

/// The names in `loc` (NameLoc: ONNX node names, .tl bindings), outermost first.
llvm::SmallVector<llvm::StringRef> namesInLocation(mlir::Location loc);

/// The operands `op` would take in a low-precision type: those its PrecisionOpInterface names,
/// or none when `op` lacks the interface or they are not all f32 (an f64 or already
/// low-precision contraction keeps its types).
llvm::SmallVector<unsigned> demotableOperands(mlir::Operation *op);

/// Casts `operands` of `op` to `low` (a `tl.cast` before the op each) and records the
/// decision as `tl.precision`.
void demoteOperands(mlir::Operation *op, llvm::ArrayRef<unsigned> operands, mlir::Type low,
                    mlir::OpBuilder &b);

/// Whether `op` gathers from a constant f32 table (an embedding): the policy stores such a
/// table in the low type and extends the gathered rows to f32, halving its bytes; the rows
/// are rounded once (what any use of a bf16 weight costs), and nothing is computed in the
/// low type.
bool isDemotableTableGather(mlir::Operation *op);

/// Makes the gather `op` read its table through a `tl.cast` to `low` and gather in `low`,
/// then extends the result back with a `tl.cast` (its uses read that); records `tl.precision`.
void demoteTableGather(mlir::Operation *op, mlir::Type low, mlir::OpBuilder &b);

} // namespace tlc

#endif // TLC_PASSES_PRECISION_H
