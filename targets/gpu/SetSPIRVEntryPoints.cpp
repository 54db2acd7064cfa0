// tlc-set-spirv-entry-points: SPIR-V entry point ABI and target environment for GPU kernels.
#include "targets/gpu/GPUPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

#include "llvm/ADT/StringSet.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSETSPIRVENTRYPOINTS
#include "targets/gpu/GPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// Math ops whose GLSL.std.450 instruction takes 16- and 32-bit floats only (tlc-approximate-math
/// expands the f32 ones; no polynomial exists here for f64).
bool lacksF64Instruction(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op, math::Log10Op,
             math::Log1pOp, math::SinOp, math::CosOp, math::TanOp, math::AsinOp, math::AcosOp,
             math::AtanOp, math::Atan2Op, math::SinhOp, math::CoshOp, math::TanhOp, math::AsinhOp,
             math::AcoshOp, math::AtanhOp, math::PowFOp, math::ErfOp>(op) &&
         llvm::any_of(op->getOperandTypes(),
                      [](Type t) { return getElementTypeOrSelf(t).isF64(); });
}

} // namespace

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
    // One error per op name, at its first use (a model's f64 softmax has many exps).
    llvm::StringSet<> reported;
    module.walk([&](Operation *op) {
      if (!lacksF64Instruction(op) || !op->getParentOfType<gpu::GPUModuleOp>() ||
          !reported.insert(op->getName().getStringRef()).second)
        return;
      op->emitError() << op->getName() << " on f64 is not supported on the SPIR-V targets "
                      << "(Vulkan, Metal: GLSL.std.450 has it for 16- and 32-bit floats only); "
                      << "compute it in f32";
      failedAny = true;
    });
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
