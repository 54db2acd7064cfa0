// A GPU model as the runtime sees it (tlc_gpu_program in tlc/gpu.h), and the host object.
#ifndef TLC_TARGETS_GPU_GPUPROGRAM_H
#define TLC_TARGETS_GPU_GPUPROGRAM_H

#include "targets/Target.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tlc {

/// One kernel argument: a byte range of an input, output, the workspace or a constant.
struct GPUBinding {
  uint32_t kind; // tlc_gpu_buffer_kind
  uint32_t index;
  uint64_t offset, size;
};

struct GPUKernelLaunch {
  std::string name;
  std::array<uint32_t, 3> grid, block;
  std::vector<GPUBinding> args;
};

struct GPUProgram {
  std::string name;
  int backend = 0; // tlc_gpu_backend
  std::string target; // for the runtime's messages, e.g. "vulkan 1.1 (SPIR-V 1.3)"
  std::vector<char> code; // SPIR-V words or text (the host object adds the NUL)
  std::vector<GPUKernelLaunch> kernels;
  std::vector<uint64_t> inputSizes, outputSizes;
  uint64_t workspaceSize = 0;
  std::vector<mlir::DenseElementsAttr> constants;
  std::string info;     // NAME_info, the model descriptor as text (compiler/ModelInfo.h)
  std::string manifest; // NAME_manifest, the FlatBuffers manifest (compiler/Manifest.h)
};

/// The module attribute the compiler sets (before code generation) to the model's number of
/// inputs: the host function's leading arguments; outputs follow, the workspace is last.
inline constexpr llvm::StringLiteral kNumInputsAttr = "tlc.num_inputs";
/// The module attribute holding the text of NAME_info, which the host object exports.
inline constexpr llvm::StringLiteral kModelInfoAttr = "tlc.model_info";
/// The module attribute holding the bytes of NAME_manifest, which the host object exports.
inline constexpr llvm::StringLiteral kManifestAttr = "tlc.manifest";

/// The C name of a tlc_gpu_backend value ("TLC_GPU_BACKEND_METAL"), for headers.
llvm::StringRef gpuBackendMacro(int backend);

/// Reads the host side of an outlined module: the public function's gpu.launch_func ops in
/// order, each operand classified as a binding, and the constants they read. Errors (a
/// kernel argument that is not a whole binding, a dynamic grid) are emitted at their ops.
mlir::FailureOr<GPUProgram> describeGPUProgram(mlir::ModuleOp module);

/// Writes the host object (or its LLVM IR / assembly): NAME_program with the code, kernel
/// table and constants, and NAME_init / NAME_run / NAME_release calling the runtime.
mlir::LogicalResult writeHostObject(const GPUProgram &program, OutputKind kind,
                                    llvm::raw_pwrite_stream &os, mlir::Location loc);

} // namespace tlc

#endif // TLC_TARGETS_GPU_GPUPROGRAM_H
