// Building blocks shared by tlc's f32 math expansions (ExpApproximation.cpp,
// Exp2Approximation.cpp, ErfApproximation.cpp).
#ifndef TLC_PASSES_MATHEXPANSION_H
#define TLC_PASSES_MATHEXPANSION_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
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

/// `v` clamped to [lo, hi] by two clampBySelect (lower bound first): a NaN flows through.
inline mlir::Value clampToRange(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, float lo,
                                float hi) {
  mlir::Type type = v.getType();
  v = clampBySelect(b, loc, v, mlir::arith::CmpFPredicate::OLT,
                    splatConstant(b, loc, type, b.getF32FloatAttr(lo)));
  return clampBySelect(b, loc, v, mlir::arith::CmpFPredicate::OGT,
                       splatConstant(b, loc, type, b.getF32FloatAttr(hi)));
}

/// The polynomial with f32 `coefficients` (lowest degree first) at `x`, by Horner's rule with
/// one FMA per degree.
inline mlir::Value hornerFma(mlir::OpBuilder &b, mlir::Location loc,
                             llvm::ArrayRef<float> coefficients, mlir::Value x) {
  mlir::Type type = x.getType();
  auto c = [&](float v) { return splatConstant(b, loc, type, b.getF32FloatAttr(v)); };
  mlir::Value acc = c(coefficients.back());
  for (float coefficient : llvm::reverse(coefficients.drop_back()))
    acc = mlir::math::FmaOp::create(b, loc, acc, x, c(coefficient));
  return acc;
}

/// `poly * 2^(k-1)` where the i32 (or i32 vector) `biased` holds k + 126: moved into the
/// exponent field of an f32 scale.
inline mlir::Value timesBiasedExponent(mlir::OpBuilder &b, mlir::Location loc, mlir::Value poly,
                                       mlir::Value biased) {
  mlir::Type intType = biased.getType();
  mlir::Value bits = mlir::arith::ShLIOp::create(
      b, loc, biased, splatConstant(b, loc, intType, b.getI32IntegerAttr(23)));
  mlir::Value scale = mlir::arith::BitcastOp::create(b, loc, poly.getType(), bits);
  return mlir::arith::MulFOp::create(b, loc, poly, scale);
}

/// The i32 counterpart (scalar or vector) of the f32 type `type`.
inline mlir::Type i32Like(mlir::OpBuilder &b, mlir::Type type) {
  auto vectorType = mlir::dyn_cast<mlir::VectorType>(type);
  return vectorType ? mlir::Type(vectorType.clone(b.getI32Type())) : b.getI32Type();
}

/// `poly * 2^(k-1)`, where the low mantissa bits of the f32 `shifted` hold k + 126 (shifted =
/// t + 1.5 * 2^23 + 126 for an integral t = k): those bits moved into the exponent field.
inline mlir::Value timesExponentBits(mlir::OpBuilder &b, mlir::Location loc, mlir::Value poly,
                                     mlir::Value shifted) {
  mlir::Value biased =
      mlir::arith::BitcastOp::create(b, loc, i32Like(b, poly.getType()), shifted);
  return timesBiasedExponent(b, loc, poly, biased);
}

/// `poly * 2^(k - 1)` for integral f32 `k` in [-126, 128], the exponent field built from k
/// converted to an integer: the form for compilers that may fold the shifter's (t + C) - C
/// (GPU drivers treat float adds as reassociable unless marked exact).
inline mlir::Value timesPowerOfTwoBelow(mlir::OpBuilder &b, mlir::Location loc, mlir::Value poly,
                                        mlir::Value k) {
  mlir::Type intType = i32Like(b, poly.getType());
  mlir::Value biased = mlir::arith::AddIOp::create(
      b, loc, mlir::arith::FPToSIOp::create(b, loc, intType, k),
      splatConstant(b, loc, intType, b.getI32IntegerAttr(126)));
  return timesBiasedExponent(b, loc, poly, biased);
}

/// Whether `type` is what the AVX-512 forms (scaledByPowerOfTwo) take: the x86vector ops work
/// on exactly 16 f32 lanes, one zmm register.
inline bool isZmmF32(mlir::Type type) {
  auto vectorType = mlir::dyn_cast<mlir::VectorType>(type);
  return vectorType && vectorType.getShape() == llvm::ArrayRef<int64_t>{16} &&
         vectorType.getElementType().isF32();
}

/// `poly * 2^k` for 16 f32 lanes with vscalefps (AVX-512; k integral, held as f32): it
/// saturates to 0 and infinity and passes NaN through itself. All lanes (mask -1: the
/// pass-through is never read), in the current rounding mode (4, _MM_FROUND_CUR_DIRECTION).
/// The op's lowering hands its operands to llvm.x86.avx512.mask.scalef.ps.512(a, b,
/// passthrough, mask, rounding) in the op's own order (src, a, b), whatever their names: the
/// first is the value scaled, the second the exponent (test/tlc/gelu-avx512.tl and
/// test/tlc/exp-avx512.tl pin the intrinsic's operands).
inline mlir::Value scaledByPowerOfTwo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value poly,
                                      mlir::Value k) {
  mlir::Value allLanes = mlir::arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(-1));
  mlir::Value currentRounding = mlir::arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(4));
  return mlir::x86vector::MaskScaleFOp::create(b, loc, /*scaled=*/poly, /*exponent=*/k,
                                               /*passthrough=*/poly, allLanes, currentRounding);
}

} // namespace tlc

#endif // TLC_PASSES_MATHEXPANSION_H
