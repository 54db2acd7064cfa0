// The passes of the shared GPU code generator (targets/gpu), used by every GPU target.
#ifndef TLC_TARGETS_GPU_PASSES_TD
#define TLC_TARGETS_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLCMapToGPU : Pass<"tlc-map-to-gpu", "mlir::ModuleOp"> {
  let summary = "Run each linalg op of the bufferized model function as a gpu.launch";
  let description = [{
    For every public function (bufferized, one block, as tlc-plan-workspace leaves it), each
    top-level linalg op becomes one `gpu.launch`: one thread per point of the op's parallel
    iteration space (linearized, `block-size` threads per workgroup, the workgroups on a 2-D
    grid of at most 65535 x 65535), each running the op's reduction loops over its point (the
    op tiled to that point through TilingInterface). The view ops an operand is reached
    through (subview, expand_shape, collapse_shape, ...) are cloned into the launch, so after
    outlining every kernel argument is a whole binding: a function argument, a planned
    workspace buffer (`memref.view`) or a constant (`memref.get_global`). Any other op left
    in the function body is an error at its location.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "threads per workgroup for the one-thread-per-output mapping">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect"];
}

def TLCSetSPIRVEntryPoints : Pass<"tlc-set-spirv-entry-points", "mlir::ModuleOp"> {
  let summary = "Give every gpu.func kernel its SPIR-V entry point ABI from its known block size";
  let description = [{
    `convert-gpu-to-spirv` needs `spirv.entry_point_abi` on each kernel and ignores
    `known_block_size`; this pass sets the workgroup size from the latter (set by
    gpu-kernel-outlining from the launch's constant block sizes) and adds the module's
    `spirv.target_env` (SPIR-V 1.3, Shader, Float64, Int64, Vulkan storage buffers) when it has
    none.
  }];
  let dependentDialects = ["mlir::spirv::SPIRVDialect"];
}

def TLCPromoteAccumulators : Pass<"tlc-promote-accumulators"> {
  let summary = "Carry a loop's read-modify-write of one memory element in a register";
  let description = [{
    For each `scf.for` whose body loads `M[i...]` and later stores to `M[i...]` with the same
    loop-invariant indices, and touches `M` nowhere else, the element is loaded once before the
    loop, carried as an iteration argument and stored once after it. A GPU thread's reduction
    (a contraction's k loop, a row sum) then keeps its accumulator in a register instead of
    reading and writing global memory on every step. Other buffers cannot alias the accumulator
    in tlc's kernels: the memory planner shares storage in place only between an all-parallel
    op's input and output.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::memref::MemRefDialect"];
}

#endif // TLC_TARGETS_GPU_PASSES_TD
