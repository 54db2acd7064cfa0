// The SPIR-V half shared by the Vulkan and Metal targets: GPU kernels as one serialized module.
#include "targets/gpu/SPIRVKernels.h"

#include "targets/gpu/GPUPasses.h"
#include "targets/gpu/GPUPipeline.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tlc::addSPIRVKernelPasses(OpPassManager &pm) {
  // Mesa (and other drivers; Metal compiles with fast math by default) treat SPIR-V float
  // adds as reassociable: round exactly.
  addGPUKernelPasses(pm, /*exactRounding=*/true);
  pm.addPass(createTLCSetSPIRVEntryPoints());
  // convert-gpu-to-spirv does not lower math ops itself (TOOLCHAIN.md 5), nor workgroup
  // attributions.
  pm.nest<gpu::GPUModuleOp>().addPass(createTLCSPIRVNarrowCompares());
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertMathToSPIRVPass());
  pm.nest<gpu::GPUModuleOp>().addPass(createTLCSPIRVWorkgroupMemory());
  pm.addPass(createConvertGPUToSPIRVPass());
  OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
  spirvModule.addPass(createTLCSPIRVShareWorkgroupMemory());
  spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
  spirvModule.addPass(createCanonicalizerPass());
}

FailureOr<spirv::ModuleOp> tlc::findSPIRVModule(ModuleOp module) {
  auto modules = llvm::to_vector(module.getOps<spirv::ModuleOp>());
  if (modules.size() != 1)
    return module.emitError() << "expected one SPIR-V module after GPU code generation, found "
                              << modules.size();
  return modules.front();
}

FailureOr<SmallVector<uint32_t, 0>> tlc::serializeSPIRVKernels(ModuleOp module,
                                                               TimingScope &timing) {
  FailureOr<spirv::ModuleOp> spirvModule = findSPIRVModule(module);
  if (failed(spirvModule))
    return failure();
  TimingScope serializeTiming = timing.nest("serialize SPIR-V");
  SmallVector<uint32_t, 0> words;
  if (failed(spirv::serialize(*spirvModule, words)))
    return failure();
  return words;
}
