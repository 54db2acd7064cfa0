// The shared GPU code generator's pipeline: bufferized linalg to outlined gpu.func kernels.
#ifndef TLC_TARGETS_GPU_GPUPIPELINE_H
#define TLC_TARGETS_GPU_GPUPIPELINE_H

#include "targets/Target.h"

#include "mlir/Pass/PassManager.h"

namespace tlc {

/// The lowering strategy every GPU target asks of the shared pipeline.
LoweringStrategy gpuLoweringStrategy();

/// Maps each linalg op of the bufferized model to a kernel, outlines the kernels into a
/// gpu.module and lowers their bodies to loops over loads and stores of whole bindings, with
/// transcendental math expanded to arithmetic (no libdevice or GLSL extended instructions
/// needed beyond sqrt/fma/abs/floor). `exactRounding`: exp and exp2 round with
/// math.roundeven instead of a float-add shifter, for compilers that may reassociate float
/// adds (tlc-approximate-math's exact-rounding). `workgroupMemoryBytes`: what one kernel may
/// use (the flash-attention kernel's tile depends on it).
void addGPUKernelPasses(mlir::OpPassManager &pm, bool exactRounding,
                        int64_t workgroupMemoryBytes = 32 * 1024);

} // namespace tlc

#endif // TLC_TARGETS_GPU_GPUPIPELINE_H
