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

} // namespace tlc

#endif // TLC_PASSES_PRECISION_H
