// The Vulkan target: the shared GPU kernels as one SPIR-V module, embedded in a host object.
#include "targets/vulkan/VulkanTarget.h"
#include "targets/gpu/GPUTarget.h"
#include "targets/gpu/SPIRVKernels.h"

#include "tlc/gpu.h"

using namespace mlir;
using namespace tlc;

namespace {

class VulkanTarget final : public GPUTarget {
public:
  VulkanTarget() : GPUTarget(TLC_GPU_BACKEND_VULKAN) {}
  llvm::StringRef getName() const override { return "vulkan"; }
  llvm::StringRef getDescription() const override {
    return "Vulkan compute (SPIR-V 1.3, Vulkan 1.1) on the host's Vulkan loader";
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
    const char *bytes = reinterpret_cast<const char *>(words->data());
    return writeProgram(module, std::vector<char>(bytes, bytes + words->size() * sizeof(uint32_t)),
                        "vulkan 1.1 (SPIR-V 1.3)", kind, os, timing);
  }
};

} // namespace

std::unique_ptr<Target> tlc::createVulkanTarget() { return std::make_unique<VulkanTarget>(); }
