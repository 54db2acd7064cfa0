// Writes the C header that declares a compiled model's entry point and shape/dtype macros.
#ifndef TLC_COMPILER_HEADERWRITER_H
#define TLC_COMPILER_HEADERWRITER_H

#include "compiler/Signature.h"
#include "targets/Target.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tlc {

/// Writes the header for `sig`; `provenance` goes into the opening comment (source, target).
/// The C header of a CPU object holding `models` (one; a training step's object: NAME, the
/// inference from the state, then NAME_train, the step, with the training ABI).
void writeHeader(llvm::ArrayRef<ModelSignature> models, llvm::StringRef provenance,
                 llvm::raw_ostream &os);

/// What a GPU model's header states about its code.
struct GPUHeaderInfo {
  llvm::StringRef target;       // "cuda", "vulkan", "metal"
  llvm::StringRef backendMacro; // "TLC_GPU_BACKEND_CUDA"
  std::vector<Target::HeaderMacro> macros; // the target's own (Target::getHeaderMacros)
};

/// Writes the header of a GPU model: the same macros, and NAME_init / NAME_run over device
/// buffers / NAME_release (tlc/gpu.h).
void writeGPUHeader(const ModelSignature &sig, llvm::StringRef provenance,
                    const GPUHeaderInfo &gpu, llvm::raw_ostream &os);

} // namespace tlc

#endif // TLC_COMPILER_HEADERWRITER_H
