// The base of the GPU targets: the host object around each target's serialized kernels.
#include "targets/gpu/GPUTarget.h"
#include "targets/gpu/GPUProgram.h"

using namespace mlir;
using namespace tlc;

LogicalResult GPUTarget::verifyOptions(const TargetOptions &options, Location loc) const {
  if (!options.cpu.empty())
    return emitError(loc) << "--cpu does not apply to --target=" << getName();
  if (!options.gpu.empty())
    return emitError(loc) << "--gpu does not apply to --target=" << getName();
  return success();
}

LogicalResult GPUTarget::writeProgram(ModuleOp module, std::vector<char> code,
                                      std::string description, OutputKind kind,
                                      llvm::raw_pwrite_stream &os, TimingScope &timing) const {
  FailureOr<GPUProgram> program = describeGPUProgram(module);
  if (failed(program))
    return failure();
  program->backend = backend;
  program->target = std::move(description);
  program->code = std::move(code);
  TimingScope hostTiming = timing.nest("host object");
  return writeHostObject(*program, kind, os, module.getLoc());
}
