// Host-side rearrangement of constant tensor data (weights laid out at compile time).
#ifndef TLC_DIALECTS_TL_CONSTANTDATA_H
#define TLC_DIALECTS_TL_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tlc::tl {

/// `attr` with its axes permuted: result axis i is `attr`'s axis perm[i]. Moves raw bytes, so
/// any element type of whole bytes; nullptr for bit-packed (i1) data.
mlir::DenseElementsAttr transposeElements(mlir::DenseElementsAttr attr,
                                          llvm::ArrayRef<int64_t> perm);

/// `attr` (float elements) converted to the float type `to`, each value rounded to nearest
/// even (exact where `to` is wider): weights cast to bf16/f16 at compile time, or back.
mlir::DenseElementsAttr convertFloatElements(mlir::DenseElementsAttr attr, mlir::FloatType to);

/// `attr` (integer elements of 8 to 64 bits, read as unsigned if `isUnsigned`) converted to the
/// integer or float type `to` as tl.cast converts them (extended or truncated; floats rounded
/// to nearest even); null for other types (i1 and float sources: not folded).
mlir::DenseElementsAttr convertIntegerElements(mlir::DenseElementsAttr attr, mlir::Type to,
                                               bool isUnsigned);

} // namespace tlc::tl

#endif
