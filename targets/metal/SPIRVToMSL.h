// SPIR-V to Metal Shading Language with SPIRV-Cross: every kernel of a module in one MSL source.
#ifndef TLC_TARGETS_METAL_SPIRVTOMSL_H
#define TLC_TARGETS_METAL_SPIRVTOMSL_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace tlc {

/// The MSL version the translation targets (macOS 11 / iOS 14 and later).
inline constexpr unsigned kMSLMajor = 2, kMSLMinor = 3;

/// Translates the GLCompute entry points `kernels` of `words` (tlc's SPIR-V: storage buffers
/// at descriptor set 0, binding = argument position), which must be all of the module's, each
/// to a `kernel` of the same name whose argument i is `[[buffer(i)]]`, in that order in one
/// MSL translation unit. SPIRV-Cross's errors, and what Metal cannot take (more than 31
/// buffers, a renamed entry point), are errors at `loc`.
mlir::FailureOr<std::string> translateSPIRVToMSL(llvm::ArrayRef<uint32_t> words,
                                                 llvm::ArrayRef<std::string> kernels,
                                                 mlir::Location loc);

} // namespace tlc

#endif // TLC_TARGETS_METAL_SPIRVTOMSL_H
