// The one size limit on tensors, shared by the .tl and ONNX frontends.
#ifndef TLC_DIALECTS_TL_SIZELIMIT_H
#define TLC_DIALECTS_TL_SIZELIMIT_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace tlc::tl {

/// The most elements a tensor may have (2^40): element counts, byte sizes, strides and offsets
/// computed from accepted shapes then stay far from int64 overflow.
constexpr int64_t kMaxElements = int64_t(1) << 40;

/// The element count of `shape`, computed without overflow; std::nullopt if a dimension is
/// negative or dynamic, or exceeds kMaxElements, or the count does.
inline std::optional<int64_t> checkedNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    // Every dimension on its own too: after a zero the count stays 0, but strides do not.
    if (d < 0 || d > kMaxElements)
      return std::nullopt;
    if (d != 0 && n > kMaxElements / d)
      return std::nullopt;
    n *= d;
  }
  return n;
}

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_SIZELIMIT_H
