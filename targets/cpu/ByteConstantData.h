// Constant data as bytes, so the object writer copies it instead of printing each element.
#pragma once

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

} // namespace tlc
