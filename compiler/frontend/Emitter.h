// Emits tl ops for parsed .tl statements into one func.func, checking types before each op.
#ifndef TLC_COMPILER_FRONTEND_EMITTER_H
#define TLC_COMPILER_FRONTEND_EMITTER_H

#include "AST.h"
#include "Source.h"

#include "TL/Optimizers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace tlc::frontend {

class Emitter {
public:
  Emitter(const Source &source, llvm::StringRef funcName);

  /// Emits one statement; failure means an error was reported.
  llvm::LogicalResult emit(const Statement &stmt);
  /// Completes the function (signature, names, return) and verifies the module.
  mlir::OwningOpRef<mlir::ModuleOp> finish();

  // Used by the call lowering (Calls.cpp).
  const Source &source;
  mlir::OpBuilder builder;
  mlir::Type dtypeType(DType dtype);
  mlir::RankedTensorType tensorType(const TypeSpec &spec);
  /// Emits `expr`; a number literal in it becomes a scalar of `hint` (f32 when null).
  llvm::FailureOr<mlir::Value> emitExpr(const Expr &expr, mlir::Type hint = {});
  /// emitExpr for the right side of binding `name`, whose ops then carry the name (NameLoc).
  llvm::FailureOr<mlir::Value> emitNamed(llvm::StringRef name, const Expr &expr);
  /// Emits a group of operands that must share a dtype: non-literals first, then literals take
  /// the dtype of the first non-literal (or `hint`).
  llvm::LogicalResult emitGroup(llvm::ArrayRef<const Expr *> exprs,
                                llvm::SmallVectorImpl<mlir::Value> &values, mlir::Type hint = {});
  mlir::InFlightDiagnostic error(llvm::SMLoc at) { return source.error(at); }

private:
  llvm::FailureOr<mlir::Value> emitLiteral(const Expr &expr, mlir::Type elementType);
  llvm::FailureOr<mlir::Value> emitCall(const Expr &call, mlir::Type hint);
  llvm::FailureOr<mlir::Value> emitParam(const Statement &stmt);
  llvm::LogicalResult define(llvm::StringRef name, llvm::SMLoc loc, mlir::Value value);
  /// `train LOSS with OPTIMIZER(...)` (Training.cpp).
  llvm::LogicalResult emitTrain(const Statement &stmt);
  /// A function argument named `name` of `type` (an input of the compiled signature).
  mlir::Value addInput(llvm::StringRef name, mlir::Type type, mlir::Location loc);

  struct Symbol {
    mlir::Value value;
    llvm::SMLoc loc;
  };
  struct Output {
    llvm::StringRef name;
    llvm::SMLoc loc;
    mlir::Value value;
  };

  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  llvm::StringMap<Symbol> symbols;
  llvm::SmallVector<std::string> inputNames;
  llvm::SmallVector<Output> outputs;
  /// The params in declaration order (their constants, until `train` makes them inputs).
  llvm::SmallVector<Output> params;
  /// The `train` statement, applied by finish() (TrainStep.h) once the signature is complete.
  llvm::SMLoc trainLoc;
  mlir::Value trainLoss;
  tl::OptimizerConfig trainConfig;
};

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_EMITTER_H
