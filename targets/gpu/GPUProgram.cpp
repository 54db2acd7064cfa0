// Reads the kernel table of an outlined GPU module from its host function's launches.
#include "targets/gpu/GPUProgram.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

#include "tlc/gpu.h"

using namespace mlir;
using namespace tlc;

namespace {

uint64_t byteSize(MemRefType type) {
  return type.getNumElements() * llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// Classifies one kernel operand; `globals` collects the constants in order of first use.
FailureOr<GPUBinding> classify(Value value, func::FuncOp host, unsigned numInputs,
                               llvm::StringMap<unsigned> &globalIndex, GPUProgram &program,
                               Operation *user) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return user->emitError() << "kernel argument of type " << value.getType()
                             << " is not a whole static buffer (the GPU ABI binds buffers only)";
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    unsigned n = host.getNumArguments(), i = arg.getArgNumber();
    if (i + 1 == n)
      return GPUBinding{TLC_GPU_ARG_WORKSPACE, 0, 0, byteSize(type)};
    if (i < numInputs)
      return GPUBinding{TLC_GPU_ARG_INPUT, i, 0, byteSize(type)};
    return GPUBinding{TLC_GPU_ARG_OUTPUT, i - numInputs, 0, byteSize(type)};
  }
  if (auto view = value.getDefiningOp<memref::ViewOp>()) {
    std::optional<int64_t> offset = getConstantIntValue(view.getByteShift());
    auto arg = dyn_cast<BlockArgument>(view.getSource());
    if (!offset || !arg || arg.getArgNumber() + 1 != host.getNumArguments())
      return view.emitError() << "a GPU binding must be a constant offset into the workspace";
    if (*offset % TLC_GPU_BINDING_ALIGNMENT != 0)
      return view.emitError() << "workspace offset " << *offset << " is not a multiple of "
                              << TLC_GPU_BINDING_ALIGNMENT;
    return GPUBinding{TLC_GPU_ARG_WORKSPACE, 0, uint64_t(*offset), byteSize(type)};
  }
  if (auto get = value.getDefiningOp<memref::GetGlobalOp>()) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(get, get.getNameAttr());
    auto init = global ? dyn_cast_or_null<DenseElementsAttr>(global.getConstantInitValue())
                       : DenseElementsAttr();
    if (!init)
      return get.emitError() << "the GPU targets need constant globals with dense values";
    auto [it, inserted] = globalIndex.try_emplace(get.getName(), program.constants.size());
    if (inserted)
      program.constants.push_back(init);
    return GPUBinding{TLC_GPU_ARG_CONSTANT, it->second, 0, byteSize(type)};
  }
  // A reshape of a whole contiguous buffer (a Reshape/Flatten of a model input, as GatherND and
  // GatherElements make) is the same bytes: bind its source, the kernel indexes its own shape.
  if (auto collapse = value.getDefiningOp<memref::CollapseShapeOp>())
    return classify(collapse.getSrc(), host, numInputs, globalIndex, program, user);
  if (auto expand = value.getDefiningOp<memref::ExpandShapeOp>())
    return classify(expand.getSrc(), host, numInputs, globalIndex, program, user);
  return user->emitError() << "kernel argument is not a model input, output, workspace buffer "
                              "or constant";
}

FailureOr<std::array<uint32_t, 3>> constantDims(gpu::KernelDim3 dims, Operation *op) {
  std::array<uint32_t, 3> result;
  Value values[] = {dims.x, dims.y, dims.z};
  for (int i = 0; i < 3; ++i) {
    std::optional<int64_t> v = getConstantIntValue(values[i]);
    if (!v || *v <= 0 || *v > UINT32_MAX)
      return op->emitError() << "GPU launch sizes must be positive constants";
    result[i] = uint32_t(*v);
  }
  return result;
}

} // namespace

FailureOr<GPUProgram> tlc::describeGPUProgram(ModuleOp module) {
  func::FuncOp host;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isPrivate() && !func.isExternal())
      host = func;
  auto numInputs = module->getAttrOfType<IntegerAttr>(kNumInputsAttr);
  if (!host || !numInputs)
    return module.emitError() << "no GPU host function to describe";
  GPUProgram program;
  program.name = host.getName().str();
  if (auto info = module->getAttrOfType<StringAttr>(kModelInfoAttr))
    program.info = info.str();
  if (auto manifest = module->getAttrOfType<StringAttr>(kManifestAttr))
    program.manifest = manifest.str();
  FunctionType type = host.getFunctionType();
  for (auto [i, input] : llvm::enumerate(type.getInputs())) {
    uint64_t size = byteSize(cast<MemRefType>(input));
    if (i + 1 == type.getNumInputs())
      program.workspaceSize = size;
    else if (int64_t(i) < numInputs.getInt())
      program.inputSizes.push_back(size);
    else
      program.outputSizes.push_back(size);
  }
  llvm::StringMap<unsigned> globalIndex;
  bool failedAny = false;
  host.walk([&](gpu::LaunchFuncOp launch) {
    GPUKernelLaunch kernel;
    kernel.name = launch.getKernelName().str();
    auto grid = constantDims(launch.getGridSizeOperandValues(), launch);
    auto block = constantDims(launch.getBlockSizeOperandValues(), launch);
    if (failed(grid) || failed(block)) {
      failedAny = true;
      return;
    }
    kernel.grid = *grid;
    kernel.block = *block;
    for (Value operand : launch.getKernelOperands()) {
      FailureOr<GPUBinding> binding =
          classify(operand, host, numInputs.getInt(), globalIndex, program, launch);
      if (failed(binding)) {
        failedAny = true;
        return;
      }
      kernel.args.push_back(*binding);
    }
    program.kernels.push_back(std::move(kernel));
  });
  if (failedAny)
    return failure();
  return program;
}

llvm::StringRef tlc::gpuBackendMacro(int backend) {
  switch (backend) {
  case TLC_GPU_BACKEND_CUDA:
    return "TLC_GPU_BACKEND_CUDA";
  case TLC_GPU_BACKEND_VULKAN:
    return "TLC_GPU_BACKEND_VULKAN";
  case TLC_GPU_BACKEND_METAL:
    return "TLC_GPU_BACKEND_METAL";
  }
  llvm_unreachable("not a tlc_gpu_backend");
}
