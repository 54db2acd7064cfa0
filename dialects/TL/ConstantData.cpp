// Host-side rearrangement of constant tensor data.
#include "TL/ConstantData.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cstring>
#include <vector>

using namespace mlir;

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
  int64_t width = bits / 8, rank = type.getRank();
  ArrayRef<char> src = attr.getRawData();
  SmallVector<int64_t> srcStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * type.getDimSize(d + 1);
  std::vector<char> dst(src.size());
  // Walk the result in order with a counter per dimension; `from` follows in the source.
  SmallVector<int64_t> index(rank, 0);
  int64_t from = 0;
  for (int64_t linear = 0, n = type.getNumElements(); linear < n; ++linear) {
    std::memcpy(&dst[linear * width], &src[from * width], width);
    for (int64_t d = rank - 1; d >= 0; --d) {
      from += srcStrides[perm[d]];
      if (++index[d] < shape[d])
        break;
      from -= index[d] * srcStrides[perm[d]];
      index[d] = 0;
    }
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
