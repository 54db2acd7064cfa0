// Reading .npy files (format versions 1-3, C order) into dense constants of a declared type.
#ifndef TLC_COMPILER_FRONTEND_NPY_H
#define TLC_COMPILER_FRONTEND_NPY_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

namespace tlc::frontend {

/// The parsed header of a .npy file.
struct NpyHeader {
  std::string descr;                // e.g. "<f4"
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
  size_t dataOffset = 0;            // where the array data starts in the file
};

/// Parses the header of the .npy contents `bytes`; on error returns a message (no location).
llvm::FailureOr<NpyHeader> parseNpyHeader(llvm::StringRef bytes, std::string &error);

/// Loads `path` as a constant of `declared` (dtype and shape must match exactly). Messages
/// call the file `displayPath` (as the user wrote it) and the declaration `what` ("'w'").
llvm::FailureOr<mlir::DenseElementsAttr>
loadNpy(llvm::StringRef path, llvm::StringRef displayPath, mlir::RankedTensorType declared,
        llvm::StringRef what, llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_NPY_H
