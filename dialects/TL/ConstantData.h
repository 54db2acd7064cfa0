// Host-side rearrangement of constant tensor data (weights laid out at compile time).
#ifndef TLC_DIALECTS_TL_CONSTANTDATA_H
#define TLC_DIALECTS_TL_CONSTANTDATA_H

#include "mlir/IR/BuiltinAttributes.h"

namespace tlc::tl {

/// `attr` with its axes permuted: result axis i is `attr`'s axis perm[i]. Moves raw bytes, so
/// any element type of whole bytes; nullptr for bit-packed (i1) data.
mlir::DenseElementsAttr transposeElements(mlir::DenseElementsAttr attr,
                                          llvm::ArrayRef<int64_t> perm);

} // namespace tlc::tl

#endif
