// The Metal target: the shared GPU kernels' SPIR-V translated to MSL source, embedded.
#include "targets/metal/MetalTarget.h"
#include "targets/gpu/GPUTarget.h"
#include "targets/gpu/SPIRVKernels.h"
#include "targets/metal/SPIRVToMSL.h"

#include "tlc/gpu.h"

using namespace mlir;
using namespace tlc;

namespace {

class MetalTarget final : public GPUTarget {
public:
  MetalTarget() : GPUTarget(TLC_GPU_BACKEND_METAL) {}
  llvm::StringRef getName() const override { return "metal"; }
  llvm::StringRef getDescription() const override {
    return "Apple GPUs through Metal (MSL 2.3 source, translated from SPIR-V by SPIRV-Cross)";
  }

  // The same kernels as Vulkan's: Metal has no SPIR-V consumer, so the SPIR-V is translated.
  void addCodegenPasses(OpPassManager &pm, const TargetOptions &) const override {
    addSPIRVKernelPasses(pm);
  }

  LogicalResult serialize(ModuleOp module, const TargetOptions &, OutputKind kind,
                          llvm::raw_pwrite_stream &os, TimingScope &timing) const override {
    FailureOr<spirv::ModuleOp> spirvModule = findSPIRVModule(module);
    if (failed(spirvModule))
      return failure();
    // In the SPIR-V's order, which is the kernel table's (SPIRV-Cross lists them unordered).
    std::vector<std::string> kernels;
    for (auto entry : spirvModule->getOps<spirv::EntryPointOp>())
      kernels.push_back(entry.getFn().str());
    FailureOr<SmallVector<uint32_t, 0>> words = serializeSPIRVKernels(module, timing);
    if (failed(words))
      return failure();
    TimingScope translateTiming = timing.nest("translate SPIR-V to MSL");
    FailureOr<std::string> msl = translateSPIRVToMSL(*words, kernels, module.getLoc());
    if (failed(msl))
      return failure();
    translateTiming.stop();
    if (kind == OutputKind::Assembly) {
      // The kernels are this target's assembly; the host object has none worth reading.
      os << *msl;
      return success();
    }
    return writeProgram(module, std::vector<char>(msl->begin(), msl->end()),
                        "msl " + std::to_string(kMSLMajor) + "." + std::to_string(kMSLMinor), kind,
                        os, timing);
  }
};

} // namespace

std::unique_ptr<Target> tlc::createMetalTarget() { return std::make_unique<MetalTarget>(); }
