// The element type policy of a compile (--precision): which type contraction operands take.
#ifndef TLC_PASSES_PRECISION_H
#define TLC_PASSES_PRECISION_H

namespace tlc {

/// fp32 everywhere, or bf16/fp16 operands of contractions and convolutions (f32 accumulation
/// and results; every other op stays f32). `Auto` is resolved by the driver from the target.
enum class Precision { F32, BF16, F16, Auto };

} // namespace tlc

#endif // TLC_PASSES_PRECISION_H
