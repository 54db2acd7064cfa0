// The SPIR-V half shared by the Vulkan and Metal targets: GPU kernels as one serialized module.
#ifndef TLC_TARGETS_GPU_SPIRVKERNELS_H
#define TLC_TARGETS_GPU_SPIRVKERNELS_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include <cstdint>

namespace tlc {

/// The shared kernel pipeline (exact rounding: SPIR-V consumers may reassociate float adds),
/// then the kernels converted to one spirv.module (Shader capability, SPIR-V 1.3) beside the
/// host function.
void addSPIRVKernelPasses(mlir::OpPassManager &pm);

/// The one spirv.module that addSPIRVKernelPasses made, or an error at the module.
mlir::FailureOr<mlir::spirv::ModuleOp> findSPIRVModule(mlir::ModuleOp module);

/// The kernels' SPIR-V words, serialized in process (timed as a scope nested in `timing`).
mlir::FailureOr<llvm::SmallVector<uint32_t, 0>> serializeSPIRVKernels(mlir::ModuleOp module,
                                                                      mlir::TimingScope &timing);

} // namespace tlc

#endif // TLC_TARGETS_GPU_SPIRVKERNELS_H
