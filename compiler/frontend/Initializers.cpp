// Parameter initializers: the spec's splitmix64/Box-Muller streams, written once over the dtype.
#include "Initializers.h"

#include "Source.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tlc::frontend;

/// Non-splat initializers above this many bytes are refused (the object embeds them).
static constexpr int64_t kMaxInitializerBytes = int64_t(1) << 31;
static constexpr double kPi = 3.141592653589793238462643383279502884;

uint64_t SplitMix64::nextBits() {
  state += 0x9E3779B97F4A7C15ULL;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

namespace {
/// Encodes doubles as elements of one dtype into the raw little-endian buffer layout of
/// DenseElementsAttr (i1 is kept as bools, which that layout bit-packs).
class ElementEncoder {
public:
  ElementEncoder(Type elementType, int64_t count) : elementType(elementType) {
    if (elementType.isInteger(1))
      bools.reserve(count);
    else
      bytes.reserve(count * byteWidth());
  }

  int64_t byteWidth() const { return std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8); }

  /// Appends `v`; fails (without a message) when it does not fit an integer type.
  LogicalResult append(double v) {
    // f32/f64: the C++ conversion rounds to nearest-even like APFloat, at a fraction of the cost.
    if (elementType.isF32()) {
      float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      appendBits(bits);
      return success();
    }
    if (elementType.isF64()) {
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      appendBits(bits);
      return success();
    }
    if (auto floatType = dyn_cast<FloatType>(elementType)) {
      llvm::APFloat f(v);
      bool losesInfo;
      f.convert(floatType.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      appendBits(f.bitcastToAPInt().getZExtValue());
      return success();
    }
    if (!std::isfinite(v))
      return failure();
    double t = std::trunc(v);
    unsigned width = elementType.getIntOrFloatBitWidth();
    if (width == 1) {
      bools.push_back(t != 0);
      return success();
    }
    // Exact bounds: 2^(width-1) is representable in double for both widths.
    double bound = std::ldexp(1.0, width - 1);
    if (t < -bound || t >= bound)
      return failure();
    appendBits(static_cast<uint64_t>(static_cast<int64_t>(t)));
    return success();
  }

  DenseElementsAttr finish(RankedTensorType type) {
    if (elementType.isInteger(1))
      return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bools));
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  }

private:
  /// Appends the low byteWidth() bytes of `bits`, little-endian (DenseElementsAttr's raw
  /// layout on the little-endian hosts tlc runs on).
  void appendBits(uint64_t bits) {
    int64_t n = byteWidth();
    size_t at = bytes.size();
    bytes.resize(at + n);
    if (llvm::sys::IsLittleEndianHost) {
      std::memcpy(bytes.data() + at, &bits, n);
      return;
    }
    for (int64_t i = 0; i < n; ++i)
      bytes[at + i] = static_cast<char>((bits >> (8 * i)) & 0xff);
  }

  Type elementType;
  std::vector<char> bytes;
  llvm::SmallVector<bool> bools;
};
} // namespace

FailureOr<DenseElementsAttr> tlc::frontend::makeInitializer(RankedTensorType type,
                                                            const InitSpec &spec,
                                                            EmitErrorFn emitError) {
  Type elementType = type.getElementType();
  bool splat = spec.kind == InitSpec::Zeros || spec.kind == InitSpec::Ones ||
               spec.kind == InitSpec::Full;
  int64_t count = splat ? 1 : type.getNumElements();
  int64_t width = std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  if (count > kMaxInitializerBytes / width) {
    emitError() << "initializer would produce " << count * width
                << " bytes of data; at most 2 GiB are supported";
    return failure();
  }

  SplitMix64 rng(spec.seed);
  auto valueAt = [&](int64_t i) -> double {
    switch (spec.kind) {
    case InitSpec::Zeros: return 0.0;
    case InitSpec::Ones: return 1.0;
    case InitSpec::Full: return spec.value;
    case InitSpec::Uniform: return spec.low + (spec.high - spec.low) * rng.nextUnit();
    case InitSpec::Randn: {
      double u1 = rng.nextUnit();
      double u2 = rng.nextUnit();
      return spec.mean + spec.std * std::sqrt(-2.0 * std::log(1.0 - u1)) *
                             std::cos(2.0 * kPi * u2);
    }
    case InitSpec::Arange: return spec.start + static_cast<double>(i) * spec.step;
    }
    return 0.0;
  };

  ElementEncoder encoder(elementType, count);
  for (int64_t i = 0; i < count; ++i) {
    double v = valueAt(i);
    if (failed(encoder.append(v))) {
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%g", v);
      emitError() << "initializer value " << text
                  << (splat ? "" : " (element " + std::to_string(i) + ")") << " does not fit in "
                  << typeName(elementType);
      return failure();
    }
  }
  return encoder.finish(type);
}
