// A workaround for LLVM 22's AArch64 code generation of masked bf16 loads and stores.
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace tlc {

/// Rewrites each `llvm.masked.load` and `llvm.masked.store` of a bf16 vector in `module` as the
/// same intrinsic on the i16 vector of the same bits, with bitcasts (free: the same register):
/// the same memory effect.
///
/// Why: LLVM 22's AArch64 back end (22.1.8 checked) declares fixed-length masked loads legal
/// on CPUs with SVE (neoverse-n2, neoverse-v1 = Graviton 3, cortex-a710, ...) and then finds no
/// instruction for a bf16 one ("Cannot select: v8bf16 = masked_load"): tlc aborted on every
/// --precision=bf16 model whose bf16 rows end in a masked tail. i16 elements select (SVE's
/// ld1h/st1h, or the scalarized form without SVE). Returns the number rewritten.
unsigned bf16MaskedMemoryAsI16(llvm::Module &module);

} // namespace tlc
