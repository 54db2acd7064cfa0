// A workaround for LLVM 22's x86 code generation of masked stores with one active lane.
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace tlc {

/// Rewrites each `llvm.masked.store` of `module` whose mask is a constant with exactly one
/// true lane into an extractelement and a plain store of that lane (and drops those whose
/// constant mask is all false): the same memory effect.
///
/// Why: LLVM 22's x86 back end (22.1.8 checked) folds a vector truncation into an AVX-512
/// masked store (`vpmovdb`/`vpmovdw`/`vpmovqd` with a mask) and then turns a truncating
/// masked store with one active lane into a scalar store of the *untruncated* element: the
/// last byte of a uint8 row is written with `vmovss`, 4 bytes, 3 of them past the row
/// (llvm/llvm-project#179489). tlc's vectorized rows end in exactly such a store wherever a
/// row of 8- or 16-bit (or i64 -> i32) results has one element past a multiple of the vector
/// width: the bytes after it are overwritten, a race with the thread writing the next row,
/// and past the end of the last row a write out of the caller's buffer. A scalar store of the
/// extracted lane is what the back end would have emitted without the bug.
/// Returns the number of stores rewritten.
unsigned scalarizeOneLaneMaskedStores(llvm::Module &module);

} // namespace tlc
