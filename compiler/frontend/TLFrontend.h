// The .tl einsum-graph frontend: parses a program into a tl-dialect module.
#ifndef TLC_COMPILER_FRONTEND_TLFRONTEND_H
#define TLC_COMPILER_FRONTEND_TLFRONTEND_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tlc {
/// Parses the .tl program in `sourceMgr`'s main buffer into a new module holding one public
/// func.func named `funcName`. Errors are emitted as MLIR diagnostics at FileLineColLoc locations
/// (file:line:col of the offending token); returns null after the first error.
mlir::OwningOpRef<mlir::ModuleOp> parseTLProgram(llvm::SourceMgr &sourceMgr,
                                                 mlir::MLIRContext *context,
                                                 llvm::StringRef funcName);
} // namespace tlc

#endif // TLC_COMPILER_FRONTEND_TLFRONTEND_H
