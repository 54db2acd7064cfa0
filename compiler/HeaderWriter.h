// Writes the C header that declares a compiled model's entry point and shape/dtype macros.
#ifndef TLC_COMPILER_HEADERWRITER_H
#define TLC_COMPILER_HEADERWRITER_H

#include "compiler/Signature.h"
#include "llvm/Support/raw_ostream.h"

namespace tlc {

/// Writes the header for `sig`; `provenance` goes into the opening comment (source, target).
void writeHeader(const ModelSignature &sig, llvm::StringRef provenance, llvm::raw_ostream &os);

} // namespace tlc

#endif // TLC_COMPILER_HEADERWRITER_H
