// The Vulkan target: the shared GPU kernels as one SPIR-V module, embedded in a host object.
#include "targets/Target.h"
#include "targets/gpu/GPUPasses.h"
#include "targets/gpu/GPUPipeline.h"
#include "targets/gpu/GPUProgram.h"
#include "targets/vulkan/VulkanTarget.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/Passes.h"

#include "tlc/gpu.h"

using namespace mlir;
using namespace tlc;

namespace {

/// The one spirv.module convert-gpu-to-spirv made, or an error.
FailureOr<spirv::ModuleOp> findSPIRVModule(ModuleOp module) {
  auto modules = llvm::to_vector(module.getOps<spirv::ModuleOp>());
  if (modules.size() != 1)
    return module.emitError() << "expected one SPIR-V module after GPU code generation, found "
                              << modules.size();
  return modules.front();
}

class VulkanTarget final : public Target {
public:
  llvm::StringRef getName() const override { return "vulkan"; }
  llvm::StringRef getDescription() const override {
    return "Vulkan compute (SPIR-V 1.3, Vulkan 1.1) on the host's Vulkan loader";
  }
  llvm::StringRef getLinkerDriver() const override { return "cc"; }
  bool isHost() const override { return true; }
  int getGPUBackend() const override { return TLC_GPU_BACKEND_VULKAN; }
  LoweringStrategy getLoweringStrategy() const override { return gpuLoweringStrategy(); }
  bool knowsCPU(llvm::StringRef) const override { return false; }

  LogicalResult verifyOptions(const TargetOptions &options, Location loc) const override {
    if (!options.cpu.empty())
      return emitError(loc) << "--cpu does not apply to --target=vulkan";
    return success();
  }

  void addCodegenPasses(OpPassManager &pm, const TargetOptions &) const override {
    // Mesa (and other drivers) treat SPIR-V float adds as reassociable: round exactly.
    addGPUKernelPasses(pm, /*exactRounding=*/true);
    pm.addPass(createTLCSetSPIRVEntryPoints());
    // convert-gpu-to-spirv does not lower math ops itself (TOOLCHAIN.md 5).
    pm.nest<gpu::GPUModuleOp>().addPass(createConvertMathToSPIRVPass());
    pm.addPass(createConvertGPUToSPIRVPass());
    OpPassManager &spirvModule = pm.nest<spirv::ModuleOp>();
    spirvModule.addPass(spirv::createSPIRVLowerABIAttributesPass());
    spirvModule.addPass(spirv::createSPIRVUpdateVCEPass());
    spirvModule.addPass(createCanonicalizerPass());
  }

  LogicalResult serialize(ModuleOp module, const TargetOptions &, OutputKind kind,
                          llvm::raw_pwrite_stream &os, TimingScope &timing) const override {
    FailureOr<spirv::ModuleOp> spirvModule = findSPIRVModule(module);
    if (failed(spirvModule))
      return failure();
    if (kind == OutputKind::Assembly) {
      // The kernels are this target's assembly; the host object has none worth reading.
      spirvModule->print(os);
      os << "\n";
      return success();
    }
    TimingScope serializeTiming = timing.nest("serialize SPIR-V");
    SmallVector<uint32_t, 0> words;
    if (failed(spirv::serialize(*spirvModule, words)))
      return failure();
    serializeTiming.stop();
    FailureOr<GPUProgram> program = describeGPUProgram(module);
    if (failed(program))
      return failure();
    program->backend = TLC_GPU_BACKEND_VULKAN;
    program->target = "vulkan 1.1 (SPIR-V 1.3)";
    const char *bytes = reinterpret_cast<const char *>(words.data());
    program->code.assign(bytes, bytes + words.size() * sizeof(uint32_t));
    TimingScope hostTiming = timing.nest("host object");
    return writeHostObject(*program, kind, os, module.getLoc());
  }
};

} // namespace

std::unique_ptr<Target> tlc::createVulkanTarget() { return std::make_unique<VulkanTarget>(); }
