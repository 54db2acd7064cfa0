// The .tl source being compiled: maps token positions to MLIR locations for diagnostics.
#ifndef TLC_COMPILER_FRONTEND_SOURCE_H
#define TLC_COMPILER_FRONTEND_SOURCE_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/SourceMgr.h"

namespace tlc::frontend {

/// A type as users write it (`f32`, `i1`), unquoted, for messages.
std::string typeName(mlir::Type type);

class Source {
public:
  Source(llvm::SourceMgr &mgr, mlir::MLIRContext *ctx);

  llvm::StringRef buffer() const;
  /// The buffer's name, as FileLineColLoc and SourceMgrDiagnosticHandler know it.
  llvm::StringRef filename() const { return name; }
  /// The directory that relative paths in the program (load("w.npy")) are resolved against.
  std::string directory() const;
  mlir::MLIRContext *context() const { return ctx; }

  mlir::Location loc(llvm::SMLoc at) const;
  mlir::InFlightDiagnostic error(llvm::SMLoc at) const { return mlir::emitError(loc(at)); }

private:
  llvm::SourceMgr &mgr;
  mlir::MLIRContext *ctx;
  unsigned bufferId;
  std::string name;
};

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_SOURCE_H
