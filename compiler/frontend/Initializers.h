// Parameter initializers (zeros/ones/full/randn/uniform/arange) as dense constants of any dtype.
#ifndef TLC_COMPILER_FRONTEND_INITIALIZERS_H
#define TLC_COMPILER_FRONTEND_INITIALIZERS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

namespace tlc::frontend {

using EmitErrorFn = llvm::function_ref<mlir::InFlightDiagnostic()>;

struct InitSpec {
  enum Kind { Zeros, Ones, Full, Randn, Uniform, Arange };
  Kind kind = Zeros;
  double value = 0;  // Full
  uint64_t seed = 0; // Randn, Uniform
  double mean = 0, std = 1;    // Randn
  double low = -1, high = 1;   // Uniform
  double start = 0, step = 1;  // Arange
};

/// The splitmix64 stream of the .tl spec: each draw is a double in [0, 1).
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  /// The stream of `seed` after `draws` draws (the state is a counter, so this is O(1)).
  static SplitMix64 atDraw(uint64_t seed, uint64_t draws);
  uint64_t nextBits();
  double nextUnit() { return static_cast<double>(nextBits() >> 11) * 0x1.0p-53; }

private:
  uint64_t state;
};

/// The largest initializer makeInitializer builds, in bytes: 2 GiB unless lowered. The .tl fuzz
/// harness lowers it, so that a large but valid parameter (hundreds of MB of randn) does not
/// cost the campaign seconds per input.
void setMaxInitializerBytes(int64_t bytes);

/// Builds the constant for `type`. Values are computed in double, then rounded to the element
/// type (floats to nearest, integers truncated toward zero, i1 as `v != 0`); a value that does
/// not fit an integer type is an error. zeros/ones/full give splats.
llvm::FailureOr<mlir::DenseElementsAttr> makeInitializer(mlir::RankedTensorType type,
                                                         const InitSpec &spec,
                                                         EmitErrorFn emitError);

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_INITIALIZERS_H
