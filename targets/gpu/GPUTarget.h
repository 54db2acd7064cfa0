// The base of the GPU targets: what they share (lowering strategy, host object) beside the
// kernels each one serializes its own way.
#ifndef TLC_TARGETS_GPU_GPUTARGET_H
#define TLC_TARGETS_GPU_GPUTARGET_H

#include "targets/Target.h"
#include "targets/gpu/GPUPipeline.h"

namespace tlc {

class GPUTarget : public Target {
public:
  explicit GPUTarget(int backend) : backend(backend) {}
  // The host object is for the machine tlc runs on; the kernels run on the GPU.
  llvm::StringRef getLinkerDriver() const override { return "cc"; }
  bool isHost() const override { return true; }
  int getGPUBackend() const override { return backend; }
  LoweringStrategy getLoweringStrategy() const override { return gpuLoweringStrategy(); }
  bool knowsCPU(llvm::StringRef) const override { return false; }
  /// GPU targets take no --cpu, and no --gpu unless they have architectures to choose from.
  mlir::LogicalResult verifyOptions(const TargetOptions &options,
                                    mlir::Location loc) const override;

protected:
  /// Writes the host object of the outlined `module` whose kernels are `code` (SPIR-V words,
  /// or text given NUL-terminated), described as `description` in the runtime's messages.
  mlir::LogicalResult writeProgram(mlir::ModuleOp module, std::vector<char> code,
                                   std::string description, OutputKind kind,
                                   llvm::raw_pwrite_stream &os, mlir::TimingScope &timing) const;

private:
  int backend;
};

} // namespace tlc

#endif // TLC_TARGETS_GPU_GPUTARGET_H
