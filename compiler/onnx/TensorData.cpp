// ONNX tensor data: element types, TensorProto decoding, and host-side value access.
#include "TensorData.h"

#include "ExternalData.h"

#include "mlir/IR/Builders.h"

#include <cstring>

using namespace mlir;
using namespace tlc::onnx_import;
using onnx::TensorProto;

Type tlc::onnx_import::elementTypeOf(MLIRContext *ctx, int onnxType) {
  Builder b(ctx);
  switch (onnxType) {
  case TensorProto::FLOAT: return b.getF32Type();
  case TensorProto::DOUBLE: return b.getF64Type();
  case TensorProto::FLOAT16: return b.getF16Type();
  case TensorProto::BFLOAT16: return b.getBF16Type();
  case TensorProto::INT32: return b.getI32Type();
  case TensorProto::INT64: return b.getI64Type();
  case TensorProto::BOOL: return b.getI1Type();
  // Narrow and unsigned integers compute in a wider signed type (NarrowIntegers.h).
  case TensorProto::UINT8: case TensorProto::INT8:
  case TensorProto::UINT16: case TensorProto::INT16: return b.getI32Type();
  case TensorProto::UINT32: return b.getI64Type();
  default: return nullptr;
  }
}

Type tlc::onnx_import::storageTypeOf(MLIRContext *ctx, int onnxType) {
  switch (onnxType) {
  case TensorProto::UINT8: case TensorProto::INT8: return IntegerType::get(ctx, 8);
  case TensorProto::UINT16: case TensorProto::INT16: return IntegerType::get(ctx, 16);
  case TensorProto::UINT32: return IntegerType::get(ctx, 32);
  default: return elementTypeOf(ctx, onnxType);
  }
}

bool tlc::onnx_import::isNarrowType(int onnxType) {
  return llvm::is_contained({TensorProto::UINT8, TensorProto::INT8, TensorProto::UINT16,
                             TensorProto::INT16, TensorProto::UINT32},
                            onnxType);
}

bool tlc::onnx_import::isUnsignedType(int onnxType) {
  return llvm::is_contained({TensorProto::UINT8, TensorProto::UINT16, TensorProto::UINT32,
                             TensorProto::UINT64},
                            onnxType);
}

int tlc::onnx_import::naturalOnnxType(Type t) {
  if (t.isF32()) return TensorProto::FLOAT;
  if (t.isF64()) return TensorProto::DOUBLE;
  if (t.isF16()) return TensorProto::FLOAT16;
  if (t.isBF16()) return TensorProto::BFLOAT16;
  if (t.isInteger(32)) return TensorProto::INT32;
  if (t.isInteger(64)) return TensorProto::INT64;
  if (t.isInteger(1)) return TensorProto::BOOL;
  return 0;
}

llvm::StringRef tlc::onnx_import::onnxTypeName(int onnxType) {
  switch (onnxType) {
  case TensorProto::FLOAT: return "float";
  case TensorProto::UINT8: return "uint8";
  case TensorProto::INT8: return "int8";
  case TensorProto::UINT16: return "uint16";
  case TensorProto::INT16: return "int16";
  case TensorProto::INT32: return "int32";
  case TensorProto::INT64: return "int64";
  case TensorProto::STRING: return "string";
  case TensorProto::BOOL: return "bool";
  case TensorProto::FLOAT16: return "float16";
  case TensorProto::DOUBLE: return "double";
  case TensorProto::UINT32: return "uint32";
  case TensorProto::UINT64: return "uint64";
  case TensorProto::COMPLEX64: return "complex64";
  case TensorProto::COMPLEX128: return "complex128";
  case TensorProto::BFLOAT16: return "bfloat16";
  default: return "undefined";
  }
}

namespace {
template <typename T> T readLE(const char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v; // x86-64 and aarch64 hosts are little-endian, as ONNX raw data is
}

size_t byteWidth(int onnxType) {
  switch (onnxType) {
  case TensorProto::FLOAT: case TensorProto::INT32: return 4;
  case TensorProto::DOUBLE: case TensorProto::INT64: return 8;
  case TensorProto::FLOAT16: case TensorProto::BFLOAT16: return 2;
  case TensorProto::BOOL: case TensorProto::UINT8: case TensorProto::INT8: return 1;
  case TensorProto::UINT16: case TensorProto::INT16: return 2;
  case TensorProto::UINT32: return 4;
  default: return 0;
  }
}

/// `x`, an element of ONNX type `onnxType`, extended to its compute type `et`.
APInt widen(const APInt &x, Type et, int onnxType) {
  unsigned bits = et.getIntOrFloatBitWidth();
  return isUnsignedType(onnxType) ? x.zext(bits) : x.sext(bits);
}
} // namespace

FailureOr<DenseElementsAttr> tlc::onnx_import::decodeTensor(MLIRContext *ctx,
                                                            const TensorProto &tensor,
                                                            std::string &error) {
  Type et = elementTypeOf(ctx, tensor.data_type());
  if (!et) {
    error = ("element type " + onnxTypeName(tensor.data_type()) + " is not supported").str();
    return failure();
  }
  std::optional<llvm::StringRef> external = ExternalBytes::lookup(tensor);
  if (tensor.data_location() == TensorProto::EXTERNAL && !external) {
    error = "external tensor data is not supported (save the model with the data embedded)";
    return failure();
  }
  SmallVector<int64_t> shape;
  int64_t numel = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0 || (d > 0 && numel > (int64_t(1) << 40) / d)) {
      error = "invalid dimension " + std::to_string(d);
      return failure();
    }
    shape.push_back(d);
    numel *= d;
  }
  auto type = RankedTensorType::get(shape, et);
  size_t width = byteWidth(tensor.data_type());
  int dt = tensor.data_type();
  if (external || tensor.has_raw_data()) {
    llvm::StringRef raw = external ? *external : llvm::StringRef(tensor.raw_data());
    if (raw.size() != static_cast<size_t>(numel) * width) {
      error = "raw data has " + std::to_string(raw.size()) + " bytes, expected " +
              std::to_string(numel * width);
      return failure();
    }
    if (isNarrowType(dt)) {
      SmallVector<APInt> v;
      unsigned bits = static_cast<unsigned>(width * 8);
      for (int64_t i = 0; i < numel; ++i) {
        uint64_t x = 0;
        std::memcpy(&x, raw.data() + i * width, width); // little-endian hosts
        v.push_back(widen(APInt(bits, x), et, dt));
      }
      return DenseElementsAttr::get(type, v);
    }
    if (dt == TensorProto::BOOL) {
      SmallVector<bool> v;
      for (char c : raw)
        v.push_back(c != 0);
      return DenseElementsAttr::get(type, ArrayRef<bool>(v));
    }
    if (numel == 0)
      return DenseElementsAttr::get(type, ArrayRef<Attribute>{});
    return DenseElementsAttr::getFromRawBuffer(type, ArrayRef<char>(raw.data(), raw.size()));
  }
  auto sizeError = [&](int64_t have) {
    error = "has " + std::to_string(have) + " values, expected " + std::to_string(numel);
    return failure();
  };
  switch (dt) {
  case TensorProto::FLOAT: {
    if (tensor.float_data_size() != numel) return sizeError(tensor.float_data_size());
    return DenseElementsAttr::get(type, ArrayRef<float>(tensor.float_data().data(), numel));
  }
  case TensorProto::DOUBLE: {
    if (tensor.double_data_size() != numel) return sizeError(tensor.double_data_size());
    return DenseElementsAttr::get(type, ArrayRef<double>(tensor.double_data().data(), numel));
  }
  case TensorProto::INT64: {
    if (tensor.int64_data_size() != numel) return sizeError(tensor.int64_data_size());
    return DenseElementsAttr::get(type, ArrayRef<int64_t>(tensor.int64_data().data(), numel));
  }
  case TensorProto::INT32: {
    if (tensor.int32_data_size() != numel) return sizeError(tensor.int32_data_size());
    return DenseElementsAttr::get(type, ArrayRef<int32_t>(tensor.int32_data().data(), numel));
  }
  case TensorProto::BOOL: {
    if (tensor.int32_data_size() != numel) return sizeError(tensor.int32_data_size());
    SmallVector<bool> v;
    for (int32_t x : tensor.int32_data())
      v.push_back(x != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(v));
  }
  case TensorProto::UINT8: case TensorProto::INT8:
  case TensorProto::UINT16: case TensorProto::INT16: {
    // One value per int32_data entry; only its low bits count.
    if (tensor.int32_data_size() != numel) return sizeError(tensor.int32_data_size());
    SmallVector<APInt> v;
    for (int32_t x : tensor.int32_data())
      v.push_back(widen(APInt(static_cast<unsigned>(width * 8), static_cast<uint64_t>(x),
                              /*isSigned=*/false, /*implicitTrunc=*/true),
                        et, dt));
    return DenseElementsAttr::get(type, v);
  }
  case TensorProto::UINT32: {
    if (tensor.uint64_data_size() != numel) return sizeError(tensor.uint64_data_size());
    SmallVector<APInt> v;
    for (uint64_t x : tensor.uint64_data())
      v.push_back(APInt(64, x & 0xffffffffu));
    return DenseElementsAttr::get(type, v);
  }
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16: {
    // Bit patterns are stored in int32_data, one per element.
    if (tensor.int32_data_size() != numel) return sizeError(tensor.int32_data_size());
    SmallVector<APFloat> v;
    const llvm::fltSemantics &sem = cast<FloatType>(et).getFloatSemantics();
    for (int32_t x : tensor.int32_data())
      v.push_back(APFloat(sem, APInt(16, static_cast<uint16_t>(x))));
    return DenseElementsAttr::get(type, v);
  }
  default:
    break;
  }
  error = "unsupported data layout";
  return failure();
}

SmallVector<int64_t> tlc::onnx_import::toInts(DenseElementsAttr attr) {
  SmallVector<int64_t> out;
  Type et = attr.getElementType();
  if (et.isInteger(1)) {
    for (bool v : attr.getValues<bool>())
      out.push_back(v);
  } else if (isa<IntegerType>(et)) {
    for (const APInt &v : attr.getValues<APInt>())
      out.push_back(v.getSExtValue());
  } else {
    for (const APFloat &v : attr.getValues<APFloat>()) {
      double d = v.convertToDouble(); // exact for every float type tl has
      // Out-of-range values saturate (a cast would be undefined), so that range checks reject
      // them.
      constexpr double limit = 9223372036854775808.0; // 2^63
      out.push_back(!std::isfinite(d) ? 0
                    : d >= limit      ? std::numeric_limits<int64_t>::max()
                    : d < -limit      ? std::numeric_limits<int64_t>::min()
                                      : static_cast<int64_t>(d));
    }
  }
  return out;
}

SmallVector<double> tlc::onnx_import::toDoubles(DenseElementsAttr attr) {
  SmallVector<double> out;
  Type et = attr.getElementType();
  if (isa<IntegerType>(et)) {
    for (int64_t v : toInts(attr))
      out.push_back(static_cast<double>(v));
  } else {
    for (APFloat v : attr.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      out.push_back(v.convertToDouble());
    }
  }
  return out;
}

DenseElementsAttr tlc::onnx_import::fromInts(RankedTensorType type, ArrayRef<int64_t> values) {
  Type et = type.getElementType();
  if (et.isInteger(1)) {
    SmallVector<bool> v;
    for (int64_t x : values)
      v.push_back(x != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(v));
  }
  if (auto it = dyn_cast<IntegerType>(et)) {
    SmallVector<APInt> v;
    for (int64_t x : values)
      v.push_back(APInt(it.getWidth(), static_cast<uint64_t>(x), /*isSigned=*/true,
                        /*implicitTrunc=*/true));
    return DenseElementsAttr::get(type, v);
  }
  SmallVector<double> d(values.begin(), values.end());
  return fromDoubles(type, d);
}

DenseElementsAttr tlc::onnx_import::fromDoubles(RankedTensorType type, ArrayRef<double> values) {
  Type et = type.getElementType();
  if (isa<IntegerType>(et)) {
    SmallVector<int64_t> v;
    for (double x : values)
      v.push_back(std::isfinite(x) ? static_cast<int64_t>(x) : 0);
    return fromInts(type, v);
  }
  const llvm::fltSemantics &sem = cast<FloatType>(et).getFloatSemantics();
  SmallVector<APFloat> v;
  for (double x : values) {
    APFloat f(x);
    bool lost;
    f.convert(sem, APFloat::rmNearestTiesToEven, &lost);
    v.push_back(f);
  }
  return DenseElementsAttr::get(type, v);
}
