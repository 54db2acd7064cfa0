// Constant data as bytes, so the object writer copies it instead of printing each element.
#pragma once

#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace tlc {

/// Replaces the initializer of every constant global whose value is an array of elements
/// wider than a byte (model weights: f32, f16, i64 ...) with the same bytes as an i8 array, and
/// gives it at least 64-byte alignment. The AsmPrinter emits a byte array with one copy, but
/// every float element one at a time through APFloat, which was a measurable share of
/// compiling a model with large weights. Loads are unaffected (opaque pointers; the GEPs keep
/// their element types). Only for little-endian targets on a little-endian host (the raw data
/// is in host order). Runs after optimization, so the optimizer still sees typed constants.
void emitConstantDataAsBytes(llvm::Module &module);

/// x86-64's small code model reaches code and data with 32-bit offsets, so everything an object
/// holds must lie within 2 GiB: a model with more weights (vit_h_14: 2.5 GB) would not link.
/// When the constant globals of `module` (an x86-64 one) hold more than `threshold` bytes in
/// all, each of 64 KiB or more gets the large code model (LLVM: `code_model "large"`): it goes
/// to the large data section .lrodata, which linkers place after the rest, and is addressed
/// with 64-bit offsets (one instruction more per address, taken once per kernel). Returns the
/// number of globals marked. Run before partitioning, so every partition addresses them so.
unsigned placeLargeConstantData(llvm::Module &module, uint64_t threshold);

} // namespace tlc
