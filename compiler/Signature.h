// The model's C-visible signature: named, typed inputs and outputs, and the workspace size.
#ifndef TLC_COMPILER_SIGNATURE_H
#define TLC_COMPILER_SIGNATURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>
#include <vector>

namespace tlc {

struct TensorSpec {
  std::string name; // a C identifier
  mlir::RankedTensorType type;
};

struct ModelSignature {
  std::string name; // the model's C name (prefix of NAME_run)
  std::vector<TensorSpec> inputs, outputs;
  int64_t workspaceSize = 0;
  bool profiled = false; // compiled with --profile: the NAME_profile_* table exists
};

/// Reads the signature of the model function `func` (arguments and results with their
/// `tl.name` attributes; unnamed ones become inN/outN). Emits located errors for types the C
/// ABI cannot carry (dynamic shapes, unsupported element types) and for bad or clashing names.
mlir::FailureOr<ModelSignature> extractSignature(mlir::func::FuncOp func, llvm::StringRef name);

/// Whether `name` is a valid C identifier that is not a C keyword.
bool isValidCIdentifier(llvm::StringRef name);

/// The C element type and tlc_dtype macro of an element type ("float", "TLC_DTYPE_F32").
std::pair<llvm::StringRef, llvm::StringRef> cTypeOf(mlir::Type elementType);

} // namespace tlc

#endif // TLC_COMPILER_SIGNATURE_H
