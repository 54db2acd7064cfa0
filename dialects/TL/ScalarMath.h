// Scalar arithmetic written once over the element type (float, integer, i1), for op bodies.
#ifndef TLC_DIALECTS_TL_SCALARMATH_H
#define TLC_DIALECTS_TL_SCALARMATH_H

#include "mlir/IR/Builders.h"

namespace tlc::tl::scalar {

bool isFloat(mlir::Type t);
/// A constant of type `t` holding `v` (rounded for floats, truncated for integers).
mlir::Value constant(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t, double v);

mlir::Value add(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value sub(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value mul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value div(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value max(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value min(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Value y);
mlir::Value exp(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
mlir::Value log(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
/// Converts `x` to `to` with tl.cast semantics (`fromUnsigned`: an integer `x` is unsigned).
mlir::Value convert(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, mlir::Type to,
                    bool fromUnsigned = false);

} // namespace tlc::tl::scalar

#endif // TLC_DIALECTS_TL_SCALARMATH_H
