// The one einsum engine: parses an equation against operand shapes into loop dimensions.
#ifndef TLC_DIALECTS_TL_EINSUM_H
#define TLC_DIALECTS_TL_EINSUM_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace tlc::tl {

/// An einsum equation resolved against concrete operand shapes. Loop dimensions are numbered
/// output dimensions first (in output order), then summed-out dimensions in order of first
/// appearance. An operand axis maps to a loop dimension, or to kBroadcast when it is a size-1
/// `...` axis broadcast against a larger extent.
struct EinsumSpec {
  static constexpr int64_t kBroadcast = -1;
  llvm::SmallVector<llvm::SmallVector<int64_t>> operandDims;
  llvm::SmallVector<int64_t> resultDims;
  llvm::SmallVector<int64_t> dimSizes;
  int64_t numResultDims = 0;

  int64_t numDims() const { return dimSizes.size(); }
  bool isReductionDim(int64_t d) const { return d >= numResultDims; }
  llvm::SmallVector<int64_t> resultShape() const;
  /// Indexing maps (operands..., result) over the loop dimensions, for linalg.generic.
  llvm::SmallVector<mlir::AffineMap> indexingMaps(mlir::MLIRContext *ctx) const;
  /// Multiply-adds executed (product of all loop extents).
  int64_t iterationCount() const;
};

/// Parses `equation` for operands of the given shapes. On error, calls `emitError` and returns
/// failure; messages are lowercase and name the offending label, operand or extent.
llvm::FailureOr<EinsumSpec>
parseEinsum(llvm::StringRef equation, llvm::ArrayRef<llvm::ArrayRef<int64_t>> shapes,
            llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_EINSUM_H
