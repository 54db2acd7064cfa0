// The CUDA target: the shared GPU kernels as PTX (LLVM's NVPTX backend, in process), embedded.
#include "targets/cuda/CUDATarget.h"
#include "targets/gpu/GPUTarget.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/Pass.h"

#include "llvm/Support/FileSystem.h"

#include "tlc/gpu.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;
using namespace tlc;

namespace {

/// A GPU architecture tlc compiles for and the oldest PTX ISA that has it: the oldest is the
/// one the most drivers load (a PTX newer than the driver is the most common CUDA error).
struct CUDAChip {
  llvm::StringLiteral name;
  llvm::StringLiteral ptxFeature;
  llvm::StringLiteral ptxVersion;
};
constexpr CUDAChip kChips[] = {
    {"sm_80", "+ptx70", "7.0"},
    {"sm_86", "+ptx71", "7.1"},
    {"sm_89", "+ptx78", "7.8"},
    {"sm_90", "+ptx78", "7.8"},
};
constexpr llvm::StringLiteral kDefaultChip = "sm_80";

/// The CUDA toolkit whose libdevice resolves the kernels' libdevice calls (math.fma lowers to
/// __nv_fmaf): $CUDA_HOME, $CUDA_PATH, else /usr/local/cuda; "" when none has libdevice.
std::string findCUDAToolkit() {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *dir = std::getenv(var); dir && *dir)
      return llvm::sys::fs::exists(llvm::Twine(dir) + "/nvvm/libdevice") ? dir : "";
  return llvm::sys::fs::exists("/usr/local/cuda/nvvm/libdevice") ? "/usr/local/cuda" : "";
}

const CUDAChip *lookupChip(llvm::StringRef name) {
  for (const CUDAChip &chip : kChips)
    if (chip.name == (name.empty() ? llvm::StringRef(kDefaultChip) : name))
      return &chip;
  return nullptr;
}

/// Kernels staging tiles through workgroup memory (contraction tiles, flash attention,
/// workgroup reductions) ask ptxas for at least 512 threads per multiprocessor
/// (`.minnctapersm`): two 256-thread contraction tiles of 8 x 8 accumulators then fit in 128
/// registers each instead of one tile in up to 168, which would halve the warps that hide
/// workgroup-memory and global latency.
struct MinimumOccupancyPass
    : PassWrapper<MinimumOccupancyPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MinimumOccupancyPass)
  StringRef getArgument() const override { return "tlc-cuda-minimum-occupancy"; }
  void runOnOperation() override {
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>()) {
      std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize();
      if (!func.isKernel() || !block || func.getWorkgroupAttributions().empty())
        continue;
      int64_t threads = 1;
      for (int32_t extent : *block)
        threads *= extent;
      func->setAttr("nvvm.minctasm",
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     std::max<int64_t>(1, 512 / std::max<int64_t>(threads, 1))));
    }
  }
};

class CUDATarget final : public GPUTarget {
public:
  CUDATarget() : GPUTarget(TLC_GPU_BACKEND_CUDA) {}
  llvm::StringRef getName() const override { return "cuda"; }
  llvm::StringRef getDescription() const override {
    return "NVIDIA GPUs through the CUDA driver (PTX; --gpu=sm_80 default, sm_86, sm_89, sm_90)";
  }

  LogicalResult verifyOptions(const TargetOptions &options, Location loc) const override {
    if (!options.cpu.empty())
      return emitError(loc) << "--cpu does not apply to --target=cuda (use --gpu)";
    if (!lookupChip(options.gpu)) {
      InFlightDiagnostic diag = emitError(loc);
      diag << "unknown CUDA architecture '" << options.gpu << "' (available:";
      for (const CUDAChip &chip : kChips)
        diag << " " << chip.name;
      return diag << ")";
    }
    return success();
  }

  std::vector<HeaderMacro> getHeaderMacros(const TargetOptions &options) const override {
    return {{"PTX_VERSION", ("\"" + lookupChip(options.gpu)->ptxVersion + "\"").str(),
             "the driver must support this PTX ISA (CUDA driver API)"}};
  }

  void addCodegenPasses(OpPassManager &pm, const TargetOptions &options) const override {
    const CUDAChip *chip = lookupChip(options.gpu);
    // LLVM's NVPTX backend keeps IEEE adds (no reassociation without fast-math flags), so
    // exp keeps its shifter rounding; math.roundeven would become a libdevice call.
    // Kernels may declare 48 KiB of static shared memory on every architecture.
    addGPUKernelPasses(pm, /*exactRounding=*/false, /*workgroupMemoryBytes=*/48 * 1024);
    GpuNVVMAttachTargetOptions attach;
    attach.chip = chip->name.str();
    attach.features = chip->ptxFeature.str();
    attach.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(attach));
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    kernels.addPass(std::make_unique<MinimumOccupancyPass>());
    kernels.addPass(createSCFToControlFlowPass());
    // One pointer per kernel argument: the runtime passes each binding's device address.
    ConvertGpuOpsToNVVMOpsOptions nvvm;
    nvvm.useBarePtrCallConv = true;
    kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
    kernels.addPass(createReconcileUnrealizedCastsPass());
    // PTX text, in process. Transcendental math is expanded (tlc-approximate-math); what is
    // left that convert-gpu-to-nvvm calls libdevice for (fma) links from the toolkit, and
    // serialize() refuses PTX with unresolved calls when there is none.
    GpuModuleToBinaryPassOptions binary;
    binary.compilationTarget = "isa";
    binary.toolkitPath = findCUDAToolkit();
    pm.addPass(createGpuModuleToBinaryPass(binary));
  }

  LogicalResult serialize(ModuleOp module, const TargetOptions &options, OutputKind kind,
                          llvm::raw_pwrite_stream &os, TimingScope &timing) const override {
    auto binaries = llvm::to_vector(module.getOps<gpu::BinaryOp>());
    if (binaries.size() != 1 || binaries.front().getObjects().size() != 1)
      return module.emitError() << "expected one PTX object after GPU code generation";
    auto object = cast<gpu::ObjectAttr>(binaries.front().getObjects()[0]);
    llvm::StringRef ptx = object.getObject().getValue();
    if (size_t at = ptx.find(".extern .func"); at != llvm::StringRef::npos) {
      llvm::StringRef line = ptx.substr(at).take_until([](char c) { return c == '\n'; });
      return module.emitError()
             << "the CUDA kernels call a libdevice function ('" << line.rsplit(' ').second
             << "') and no CUDA toolkit with nvvm/libdevice was found; set CUDA_HOME";
    }
    if (kind == OutputKind::Assembly) {
      os << ptx;
      return success();
    }
    const CUDAChip *chip = lookupChip(options.gpu);
    return writeProgram(module, std::vector<char>(ptx.begin(), ptx.end()), (chip->name + " ptx " + chip->ptxVersion).str(),
                        kind, os, timing);
  }
};

} // namespace

std::unique_ptr<Target> tlc::createCUDATarget() { return std::make_unique<CUDATarget>(); }
