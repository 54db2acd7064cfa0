// Parameter initializers: the spec's splitmix64/Box-Muller streams, written once over the dtype.
#include "Initializers.h"

#include "Source.h"

#include "mlir/IR/Threading.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tlc::frontend;

/// Initializers (splats included) above this many bytes are refused: the object embeds every
/// element. setMaxInitializerBytes lowers it for the fuzz harness.
static int64_t maxInitializerBytes = int64_t(1) << 31;

void tlc::frontend::setMaxInitializerBytes(int64_t bytes) { maxInitializerBytes = bytes; }

static constexpr double kPi = 3.141592653589793238462643383279502884;

static constexpr uint64_t kSplitMixIncrement = 0x9E3779B97F4A7C15ULL;

SplitMix64 SplitMix64::atDraw(uint64_t seed, uint64_t draws) {
  // The state advances by a constant per draw (arithmetic mod 2^64).
  return SplitMix64(seed + draws * kSplitMixIncrement);
}

uint64_t SplitMix64::nextBits() {
  state += kSplitMixIncrement;
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
  ElementEncoder(Type elementType, int64_t count)
      : elementType(elementType), width(std::max(1u, elementType.getIntOrFloatBitWidth() / 8)),
        form(elementType.isF32()           ? Form::F32
             : elementType.isF64()         ? Form::F64
             : isa<FloatType>(elementType) ? Form::OtherFloat
             : elementType.isInteger(1)    ? Form::Bool
                                           : Form::Integer) {
    if (form == Form::Bool)
      bools.resize(count);
    else
      bytes.resize(count * width);
  }

  /// Stores `v` as element `i`; fails (without a message) when it does not fit an integer type.
  /// Distinct elements may be set from different threads.
  LogicalResult set(int64_t i, double v) {
    switch (form) {
    // f32/f64: the C++ conversion rounds to nearest-even like APFloat, at a fraction of the cost.
    case Form::F32: {
      float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      setBits(i, bits);
      return success();
    }
    case Form::F64: {
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      setBits(i, bits);
      return success();
    }
    case Form::OtherFloat: {
      llvm::APFloat f(v);
      bool losesInfo;
      f.convert(cast<FloatType>(elementType).getFloatSemantics(),
                llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      setBits(i, f.bitcastToAPInt().getZExtValue());
      return success();
    }
    case Form::Bool:
    case Form::Integer:
      break;
    }
    if (!std::isfinite(v))
      return failure();
    double t = std::trunc(v);
    if (form == Form::Bool) {
      bools[i] = t != 0;
      return success();
    }
    // Exact bounds: 2^(bits-1) is representable in double for every integer width.
    double bound = std::ldexp(1.0, elementType.getIntOrFloatBitWidth() - 1);
    if (t < -bound || t >= bound)
      return failure();
    setBits(i, static_cast<uint64_t>(static_cast<int64_t>(t)));
    return success();
  }

  DenseElementsAttr finish(RankedTensorType type) {
    if (form == Form::Bool)
      return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bools));
    return DenseElementsAttr::getFromRawBuffer(type, bytes);
  }

private:
  /// Stores the low `width` bytes of `bits` as element `i`, little-endian (DenseElementsAttr's
  /// raw layout on the little-endian hosts tlc runs on).
  void setBits(int64_t i, uint64_t bits) {
    size_t at = i * width;
    if (llvm::sys::IsLittleEndianHost) {
      std::memcpy(bytes.data() + at, &bits, width);
      return;
    }
    for (unsigned b = 0; b < width; ++b)
      bytes[at + b] = static_cast<char>((bits >> (8 * b)) & 0xff);
  }

  /// The element type's encoding, decided once: the type queries behind it (interface lookups)
  /// cost more than encoding an element.
  enum class Form { F32, F64, OtherFloat, Bool, Integer };

  Type elementType;
  unsigned width;
  Form form;
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
  // A splat is one value here, but the object file holds every element: the same cap applies.
  int64_t total = type.getNumElements();
  if (total > maxInitializerBytes / width) {
    InFlightDiagnostic diag = emitError();
    diag << "initializer would produce " << total * width << " bytes of data; at most ";
    if (maxInitializerBytes % (int64_t(1) << 30) == 0)
      diag << maxInitializerBytes / (int64_t(1) << 30) << " GiB";
    else
      diag << maxInitializerBytes << " bytes";
    diag << " are supported";
    return failure();
  }

  // Element i reads draws [i * drawsPerElement, (i + 1) * drawsPerElement) of the stream, and
  // splitmix64 can start at any draw, so chunks of elements are generated in parallel.
  int64_t drawsPerElement = spec.kind == InitSpec::Randn     ? 2
                            : spec.kind == InitSpec::Uniform ? 1
                                                             : 0;
  auto valueAt = [&](int64_t i, SplitMix64 &rng) -> double {
    switch (spec.kind) {
    case InitSpec::Zeros:
      return 0.0;
    case InitSpec::Ones:
      return 1.0;
    case InitSpec::Full:
      return spec.value;
    case InitSpec::Uniform:
      return spec.low + (spec.high - spec.low) * rng.nextUnit();
    case InitSpec::Randn: {
      double u1 = rng.nextUnit();
      double u2 = rng.nextUnit();
      return spec.mean + spec.std * std::sqrt(-2.0 * std::log(1.0 - u1)) *
                             std::cos(2.0 * kPi * u2);
    }
    case InitSpec::Arange:
      return spec.start + static_cast<double>(i) * spec.step;
    }
    return 0.0;
  };

  ElementEncoder encoder(elementType, count);
  constexpr int64_t kChunk = 1 << 14;
  int64_t chunks = llvm::divideCeil(count, kChunk);
  // The first element of each chunk that does not fit the type (-1: none).
  std::vector<int64_t> firstUnfit(chunks, -1);
  parallelFor(type.getContext(), 0, chunks, [&](size_t chunk) {
    int64_t begin = chunk * kChunk, end = std::min(count, begin + kChunk);
    SplitMix64 rng = SplitMix64::atDraw(spec.seed, begin * drawsPerElement);
    for (int64_t i = begin; i < end; ++i) {
      if (failed(encoder.set(i, valueAt(i, rng)))) {
        firstUnfit[chunk] = i;
        return;
      }
    }
  });
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    int64_t i = firstUnfit[chunk];
    if (i < 0)
      continue;
    SplitMix64 rng = SplitMix64::atDraw(spec.seed, i * drawsPerElement);
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%g", valueAt(i, rng));
    emitError() << "initializer value " << text
                << (splat ? "" : " (element " + std::to_string(i) + ")") << " does not fit in "
                << typeName(elementType);
    return failure();
  }
  return encoder.finish(type);
}
