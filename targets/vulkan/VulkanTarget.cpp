// The Vulkan target: the shared GPU kernels as one SPIR-V module, embedded in a host object.
#include "targets/vulkan/VulkanTarget.h"
#include "targets/gpu/GPUPipeline.h"
#include "targets/gpu/GPUProgram.h"
#include "targets/gpu/SPIRVKernels.h"

#include "tlc/gpu.h"

using namespace mlir;
using namespace tlc;

namespace {

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
    addSPIRVKernelPasses(pm);
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
    FailureOr<SmallVector<uint32_t, 0>> words = serializeSPIRVKernels(module, timing);
    if (failed(words))
      return failure();
    FailureOr<GPUProgram> program = describeGPUProgram(module);
    if (failed(program))
      return failure();
    program->backend = TLC_GPU_BACKEND_VULKAN;
    program->target = "vulkan 1.1 (SPIR-V 1.3)";
    const char *bytes = reinterpret_cast<const char *>(words->data());
    program->code.assign(bytes, bytes + words->size() * sizeof(uint32_t));
    TimingScope hostTiming = timing.nest("host object");
    return writeHostObject(*program, kind, os, module.getLoc());
  }
};

} // namespace

std::unique_ptr<Target> tlc::createVulkanTarget() { return std::make_unique<VulkanTarget>(); }
