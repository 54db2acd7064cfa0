// The shared GPU code generator's pipeline: bufferized linalg to outlined gpu.func kernels.
#include "targets/gpu/GPUPipeline.h"

#include "passes/Passes.h"
#include "targets/gpu/GPUPasses.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

tlc::LoweringStrategy tlc::gpuLoweringStrategy() {
  LoweringStrategy strategy;
  strategy.tiledAttention = false;
  strategy.fusedAttention = true;
  strategy.cpuContractionTiles = false;
  strategy.rowLoops = false;
  strategy.interchangeLoops = false;
  strategy.hostEntryPoint = false;
  strategy.workspaceAlignment = 256; // TLC_GPU_BINDING_ALIGNMENT
  strategy.epiloguesFusedOnBuffers = true;
  return strategy;
}

void tlc::addGPUKernelPasses(OpPassManager &pm, bool exactRounding,
                             int64_t workgroupMemoryBytes) {
  // Whole-buffer copies (outputs, concatenations) become linalg.copy, mapped like any op.
  pm.addNestedPass<func::FuncOp>(createTLCLowerMemRefCopy());
  TLCMapToGPUOptions map;
  map.workgroupMemory = workgroupMemoryBytes;
  pm.addPass(createTLCMapToGPU(map));
  pm.addPass(createCanonicalizerPass());
  // Constants (hoisted out of the launches by canonicalization) go back in, so kernels take
  // buffers only.
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addNestedPass<gpu::GPUFuncOp>(createConvertLinalgToLoopsPass());
  // Loads and stores through views index the whole binding.
  kernels.addPass(memref::createFoldMemRefAliasOpsPass());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  // floordivsi/ceildivsi (from affine maps) and the like have no SPIR-V or NVVM lowering.
  kernels.addPass(arith::createArithExpandOpsPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  // Reductions accumulate in a register, not in global memory on every step.
  kernels.addPass(createTLCPromoteAccumulators());
  kernels.addPass(createCanonicalizerPass());
  // exp, log, tanh, erf, ... as polynomials: no libdevice for CUDA, no missing SPIR-V
  // extended instructions (erf, exp2) for Vulkan and Metal.
  TLCApproximateMathOptions approximate;
  approximate.exactRounding = exactRounding;
  pm.addPass(createTLCApproximateMath(approximate));
}
