// Host-side rearrangement of constant tensor data.
#include "TL/ConstantData.h"

#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace mlir;

namespace {

/// Copies `shape` elements (the result's shape, row-major into `dst`) from `src`, where result
/// axis d advances `strides[d]` elements in `src`. The last two axes go in square tiles, so a
/// transpose of a large matrix reads each source cache line once per tile rather than once
/// per element; whole rows are copied where the last axis is contiguous in the source.
template <typename T>
void permuteCopy(const T *src, T *dst, ArrayRef<int64_t> shape, ArrayRef<int64_t> strides) {
  constexpr int64_t kTile = 32;
  int64_t rank = shape.size();
  int64_t rows = rank >= 2 ? shape[rank - 2] : 1, cols = shape[rank - 1];
  int64_t rowStride = rank >= 2 ? strides[rank - 2] : 0, colStride = strides[rank - 1];
  int64_t outer = 1;
  for (int64_t d = 0; d + 2 < rank; ++d)
    outer *= shape[d];
  // One counter per outer axis; `from` follows the outer axes in the source.
  SmallVector<int64_t> index(std::max<int64_t>(rank - 2, 0), 0);
  int64_t from = 0;
  for (int64_t o = 0; o < outer; ++o, dst += rows * cols) {
    const T *base = src + from;
    if (colStride == 1) {
      for (int64_t r = 0; r < rows; ++r)
        std::memcpy(dst + r * cols, base + r * rowStride, cols * sizeof(T));
    } else {
      for (int64_t r0 = 0; r0 < rows; r0 += kTile)
        for (int64_t c0 = 0; c0 < cols; c0 += kTile)
          for (int64_t r = r0, rEnd = std::min(rows, r0 + kTile); r < rEnd; ++r)
            for (int64_t c = c0, cEnd = std::min(cols, c0 + kTile); c < cEnd; ++c)
              dst[r * cols + c] = base[r * rowStride + c * colStride];
    }
    for (int64_t d = rank - 3; d >= 0; --d) {
      from += strides[d];
      if (++index[d] < shape[d])
        break;
      from -= index[d] * strides[d];
      index[d] = 0;
    }
  }
}

} // namespace

DenseElementsAttr tlc::tl::transposeElements(DenseElementsAttr attr, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto newType = RankedTensorType::get(shape, type.getElementType());
  if (attr.isSplat())
    return attr.reshape(newType);
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return nullptr;
  int64_t rank = type.getRank();
  if (rank == 0)
    return attr.reshape(newType);
  ArrayRef<char> src = attr.getRawData();
  SmallVector<int64_t> srcStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * type.getDimSize(d + 1);
  SmallVector<int64_t> strides; // per result axis, in source elements
  for (int64_t p : perm)
    strides.push_back(srcStrides[p]);
  std::vector<char> dst(src.size());
  // Elements of 1, 2, 4 or 8 bytes move as one integer; other widths as bytes, each element
  // one more (contiguous) axis of `width` bytes.
  auto move = [&](auto element) {
    using T = decltype(element);
    permuteCopy(reinterpret_cast<const T *>(src.data()), reinterpret_cast<T *>(dst.data()), shape,
                strides);
  };
  int64_t width = bits / 8;
  if (width == 1)
    move(uint8_t());
  else if (width == 2)
    move(uint16_t());
  else if (width == 4)
    move(uint32_t());
  else if (width == 8)
    move(uint64_t());
  else {
    for (int64_t &stride : strides)
      stride *= width;
    shape.push_back(width);
    strides.push_back(1);
    move(uint8_t());
  }
  return DenseElementsAttr::getFromRawBuffer(newType, dst);
}

DenseElementsAttr tlc::tl::convertIntegerElements(DenseElementsAttr attr, Type to,
                                                  bool isUnsigned) {
  Type from = attr.getElementType();
  if (!from.isInteger() || from.isInteger(1) || to.isInteger(1))
    return {};
  if (auto toFloat = dyn_cast<FloatType>(to))
    return attr.mapValues(to, [&](const APInt &value) {
      APFloat converted(toFloat.getFloatSemantics());
      converted.convertFromAPInt(value, /*IsSigned=*/!isUnsigned, APFloat::rmNearestTiesToEven);
      return converted.bitcastToAPInt();
    });
  if (!to.isInteger())
    return {};
  unsigned width = to.getIntOrFloatBitWidth();
  return attr.mapValues(to, [&](const APInt &value) {
    return isUnsigned ? value.zextOrTrunc(width) : value.sextOrTrunc(width);
  });
}

DenseElementsAttr tlc::tl::convertFloatElements(DenseElementsAttr attr, FloatType to) {
  const llvm::fltSemantics &semantics = to.getFloatSemantics();
  return attr.mapValues(to, [&](const APFloat &value) {
    APFloat converted = value;
    bool lost;
    converted.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
    return converted.bitcastToAPInt();
  });
}
