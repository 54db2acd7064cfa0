// Builders shared by the vector-Jacobian products of tl ops (Gradients.cpp, NNGradients.cpp).
#ifndef TLC_DIALECTS_TL_GRADIENTBUILDERS_H
#define TLC_DIALECTS_TL_GRADIENTBUILDERS_H

#include "TL/TLDialect.h"

#include "mlir/IR/Builders.h"

namespace tlc::tl::grad {

inline mlir::RankedTensorType tensorOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType());
}
inline bool isFloatTensor(mlir::Value v) {
  auto t = mlir::dyn_cast<mlir::RankedTensorType>(v.getType());
  return t && mlir::isa<mlir::FloatType>(t.getElementType());
}

/// A constant of `type` (float elements) filled with `v`.
mlir::Value filled(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType type, double v);
/// The positions 0 .. n-1 as a constant of integer type `intType` shaped `shape` (n elements,
/// e.g. {n} or {n, 1}); `descending` gives n-1 .. 0.
mlir::Value positions(mlir::OpBuilder &b, mlir::Location loc, int64_t n, mlir::Type intType,
                      llvm::ArrayRef<int64_t> shape, bool descending = false);
/// Whether `value` is computed (transitively, through its defining ops) from `from`.
bool dependsOn(mlir::Value value, mlir::Value from);
/// A rank-0 constant `v` of `like`'s element type (broadcasts against anything).
mlir::Value scalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value like, double v);
/// A zero constant of `type`.
mlir::Value zerosOf(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType type);

mlir::Value add(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value sub(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value mul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value div(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
template <typename OpTy> mlir::Value unary(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x) {
  return OpTy::create(b, loc, x.getType(), x);
}
mlir::Value compare(mlir::OpBuilder &b, mlir::Location loc, ComparePredicate p, mlir::Value x,
                    mlir::Value y);
/// `cond ? g : 0`, broadcast to the common shape.
mlir::Value where(mlir::OpBuilder &b, mlir::Location loc, mlir::Value cond, mlir::Value g);
/// Sum over `axes` (kept as size-1 dimensions).
mlir::Value sumKeep(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                    llvm::ArrayRef<int64_t> axes);

/// `g` summed over the axes along which `target`'s shape was broadcast to `g`'s (numpy rules),
/// then reshaped to `target`.
mlir::Value sumToShape(mlir::OpBuilder &b, mlir::Location loc, mlir::Value g,
                       mlir::RankedTensorType target);

/// `g`, a reduction's result gradient, with the reduced axes restored as size-1 dimensions
/// (`keepShape`) and broadcast to `inputType`.
mlir::Value expandReduced(mlir::OpBuilder &b, mlir::Location loc, mlir::Value g,
                          mlir::RankedTensorType inputType, llvm::ArrayRef<int64_t> keepShape);

/// `input`'s shape with `axes` set to 1.
llvm::SmallVector<int64_t> keepDimsShape(mlir::RankedTensorType input,
                                         llvm::ArrayRef<int64_t> axes);

} // namespace tlc::tl::grad

#endif // TLC_DIALECTS_TL_GRADIENTBUILDERS_H
