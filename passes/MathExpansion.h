// Building blocks shared by tlc's f32 math expansions (ExpApproximation.cpp,
// ErfApproximation.cpp).
#ifndef TLC_PASSES_MATHEXPANSION_H
#define TLC_PASSES_MATHEXPANSION_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tlc {

/// Whether `type` is f32 or a vector of f32: the types the expansions rewrite.
inline bool isF32OrF32Vector(mlir::Type type) {
  auto vectorType = mlir::dyn_cast<mlir::VectorType>(type);
  return type.isF32() || (vectorType && vectorType.getElementType().isF32());
}

/// A constant of `type` holding `scalar`: the scalar itself, or its splat for a vector type.
inline mlir::Value splatConstant(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                                 mlir::TypedAttr scalar) {
  mlir::TypedAttr attr = scalar;
  if (auto vectorType = mlir::dyn_cast<mlir::VectorType>(type))
    attr = mlir::DenseElementsAttr::get(vectorType, llvm::ArrayRef<mlir::Attribute>(scalar));
  return mlir::arith::ConstantOp::create(b, loc, attr);
}

/// `v pred bound ? bound : v` (olt for a lower bound, ogt for an upper one): a NaN fails the
/// compare and flows through to the result, and x86 selects each clamp into one vmaxps/vminps
/// (arith.maxnumf/minnumf cost four instructions there, plus a select to restore NaN).
inline mlir::Value clampBySelect(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                                 mlir::arith::CmpFPredicate pred, mlir::Value bound) {
  mlir::Value out = mlir::arith::CmpFOp::create(b, loc, pred, v, bound);
  return mlir::arith::SelectOp::create(b, loc, out, bound, v);
}

} // namespace tlc

#endif // TLC_PASSES_MATHEXPANSION_H
