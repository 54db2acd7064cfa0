// tlc-set-spirv-entry-points: SPIR-V entry point ABI and target environment for GPU kernels.
#include "targets/gpu/GPUPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSETSPIRVENTRYPOINTS
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

struct TLCSetSPIRVEntryPointsPass
    : tlc::impl::TLCSetSPIRVEntryPointsBase<TLCSetSPIRVEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (!module->hasAttr(spirv::getTargetEnvAttrName())) {
      // SPIR-V 1.3 (Vulkan 1.1): at 1.4 and later spirv-update-vce writes version 1.0 and
      // spirv-val rejects the entry point interface (TOOLCHAIN.md 5b).
      // What the code may use; spirv-update-vce then declares only what it does use, and the
      // runtime enables shaderFloat64 / shaderInt64 where the device has them (f64 and i64
      // tensors need them).
      auto vce = spirv::VerCapExtAttr::get(
          spirv::Version::V_1_3,
          {spirv::Capability::Shader, spirv::Capability::Float64, spirv::Capability::Int64},
          {spirv::Extension::SPV_KHR_storage_buffer_storage_class}, ctx);
      module->setAttr(spirv::getTargetEnvAttrName(),
                      spirv::TargetEnvAttr::get(vce, spirv::getDefaultResourceLimits(ctx),
                                                spirv::ClientAPI::Vulkan));
    }
    bool failedAny = false;
    module.walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      std::optional<ArrayRef<int32_t>> size = func.getKnownBlockSize();
      if (!size) {
        func.emitError() << "kernel '" << func.getName()
                         << "' has no constant workgroup size, which SPIR-V needs";
        failedAny = true;
        return;
      }
      func->setAttr(spirv::getEntryPointABIAttrName(), spirv::getEntryPointABIAttr(ctx, *size));
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
