// Lowering of .tl function calls and operators to tl ops, with argument binding and checks.
#ifndef TLC_COMPILER_FRONTEND_CALLS_H
#define TLC_COMPILER_FRONTEND_CALLS_H

#include "Emitter.h"

namespace tlc::frontend {

enum class BinaryKind { Add, Sub, Mul, Div, Pow, Max, Min };

/// Builds an elementwise binary op after checking dtypes and broadcasting; `what` names the
/// operator in messages (`'+'`, `maximum`).
llvm::FailureOr<mlir::Value> buildBinary(Emitter &emitter, BinaryKind kind, llvm::SMLoc loc,
                                         mlir::Value lhs, mlir::Value rhs, llvm::StringRef what);

/// Operator calls (everything but initializers): binds arguments and builds the op.
llvm::FailureOr<mlir::Value> emitOperatorCall(Emitter &emitter, const Expr &call,
                                              mlir::Type hint);

/// The initializer call of a `param` declaration, evaluated to the dense value of `type`.
llvm::FailureOr<mlir::DenseElementsAttr> evaluateInitializer(Emitter &emitter, const Expr &call,
                                                             mlir::RankedTensorType type,
                                                             llvm::StringRef paramName);

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_CALLS_H
