// The probe behind `tlc --report=precision`: one function computing a model in f32 and in low
// precision side by side and returning, per demoted op and per output, how far they differ.
#ifndef TLC_PASSES_PRECISIONPROBE_H
#define TLC_PASSES_PRECISIONPROBE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace tlc {

/// The probe's result: tensor<R x 3 x f32>, one row per demoted op then per f32 output, with
/// columns (local, accumulated, reference):
/// - local: max |op in low precision on the f32 run's operands - op in f32|, the error the op
///   alone adds (0 for an output);
/// - accumulated: max |value in the low-precision run - value in the f32 run|;
/// - reference: max |value in the f32 run|.
/// The rows are described by the function attribute `tl.precision_probe`: an array of
/// dictionaries {name, op, kind = "layer" | "output"}.
inline constexpr llvm::StringLiteral kPrecisionProbeAttr = "tl.precision_probe";
inline constexpr llvm::StringLiteral kPrecisionProbeResult = "precision_errors";

class PrecisionProbe {
public:
  /// Clones the body of each public function of `module` before its return: the f32
  /// reference run, which the precision policy must leave alone (isReference).
  explicit PrecisionProbe(mlir::ModuleOp module);

  /// Whether `op` belongs to the f32 reference copy.
  bool isReference(mlir::Operation *op) const;

  /// After the policy demoted `demoted` (ops of the original bodies, now the low-precision
  /// run): adds each one's local copy (low precision on the reference operands), the error
  /// rows, and makes them the functions' only result.
  mlir::LogicalResult finish(llvm::ArrayRef<mlir::Operation *> demoted, mlir::Type low);

private:
  struct Model {
    mlir::func::FuncOp func;
    mlir::IRMapping reference; // original value -> its f32 reference value
  };
  std::vector<Model> models;
  llvm::DenseSet<mlir::Operation *> referenceOps;
};

} // namespace tlc

#endif // TLC_PASSES_PRECISIONPROBE_H
