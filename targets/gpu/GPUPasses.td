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

    Contractions (one reduction loop, operands read through projected permutations, static
    sizes of at least 32 x 32 x 16) and convolutions (as implicit GEMMs) instead become
    workgroup tiles: each workgroup computes a 128 x 128, 64 x 128, 128 x 64, 64 x 64 or
    32 x 64 tile of the output for one point of the other parallel loops (on the grid's z
    dimension), stepping over k through two slices in workgroup memory (the launch's
    workgroup attributions) that all threads load one step ahead; each thread accumulates an
    8 x 8, 4 x 4 or 2 x 4 tile in registers through the contraction's own body. The tile is the
    one with the least padding, the most multiply-adds per workgroup-memory read and enough
    threads for a large GPU; when even the best makes too few threads and k is long, k is
    split over several workgroups (`split-k`).

    Other reductions of at least 128 elements into each output element (one output carried
    through one combiner with a neutral element: a row's sum, maximum, sum of squares) get one
    workgroup of 128 or 256 threads per output element: each thread folds a strided share
    through the op's body from the neutral element, and the partial results meet in a tree in
    workgroup memory.

    `tl.fused_attention` becomes one flash-attention kernel (targets/gpu/FlashAttention.cpp):
    a workgroup of 128 threads per block of 64, 32 or 16 query rows (the largest whose Q, K,
    V and probability tiles fit `workgroup-memory` and that still makes 128 workgroups, else
    the smallest that fits) steps over the keys with an online softmax, never forming the
    scores.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "threads per workgroup for the one-thread-per-output mapping">,
    Option<"tileContractions", "tile-contractions", "bool", /*default=*/"true",
           "run contractions of at least 32 x 32 x 16 as workgroup tiles staged through "
           "workgroup memory (targets/gpu/TiledContraction.cpp)">,
    Option<"splitK", "split-k", "bool", /*default=*/"true",
           "split the k loop of a tiled contraction that makes too few workgroups to fill a "
           "large GPU over several workgroups, each writing partial sums (the first into the "
           "output, the others into scratch past the workspace's planned arena), summed in a "
           "fixed order by a second kernel that also runs the epilogue">,
    Option<"workgroupReductions", "workgroup-reductions", "bool", /*default=*/"true",
           "run reductions of at least 128 elements per output element with one workgroup "
           "per output element (targets/gpu/WorkgroupReduction.cpp)">,
    Option<"workgroupMemory", "workgroup-memory", "int64_t", /*default=*/"32768",
           "bytes of workgroup memory a kernel may use (the flash-attention kernel picks its "
           "tile by it; 32 KiB is what Vulkan drivers and Metal commonly offer)">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
                           "mlir::math::MathDialect"];
}

def TLCGPUWinograd : Pass<"tlc-gpu-winograd", "mlir::func::FuncOp"> {
  let summary = "Compute 3x3 stride-1 convolutions by Winograd's F(2x2, 3x3) on the GPU";
  let description = [{
    Each `linalg.conv_2d_nchw_fchw` with a 3x3 constant filter at stride and dilation 1 over
    an already padded f32 input, a zero-filled output, at least `min-channels` input and
    output channels and `min-tiles` 2x2 output tiles becomes data-parallel steps the GPU
    mapping runs well: the input transform `V = B^T d B` of every 4x4 input tile (one element
    of V [4, 4, C, N, TH, TW] per point, reading the 16 points of its tile through stride-2
    views of the input), one contraction batched over the 16 products with the filter transformed at
    compile time (`U = G g G^T`; the tiled GEMM kernel, the batch on the grid's z dimension),
    and the output transform `A^T m A` (one output element per point, reading the 16
    products of its tile) with the convolution's elementwise consumer (bias, BatchNorm,
    activation, residual add) fused into it. 2.25x fewer multiply-adds than the implicit
    GEMM, for passes over the transformed input and products. An odd output height or width
    pads the input by one more zero row or column (the last tiles' second row or column is
    computed and not written).
  }];
  let options = [
    Option<"minChannels", "min-channels", "int64_t", /*default=*/"128",
           "the fewest input and output channels a convolution needs to take Winograd's form "
           "(on an H100, resnet18's 64-channel convolutions at batch 32 ran 0.367 ms in it "
           "against 0.325 as implicit GEMMs; those of 128 to 512 channels 0.238-0.175 against "
           "0.31-0.32)">,
    Option<"minTiles", "min-tiles", "int64_t", /*default=*/"128",
           "the fewest 2x2 output tiles (images x tile rows x tile columns) a convolution needs "
           "to take Winograd's form: its batched product then has enough columns for the tiled "
           "GEMM kernel, and small images keep the one-kernel implicit GEMM">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
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

def TLCSPIRVWorkgroupMemory : Pass<"tlc-spirv-workgroup-memory", "mlir::gpu::GPUModuleOp"> {
  let summary = "Turn kernels' workgroup attributions into Workgroup-class allocations";
  let description = [{
    `convert-gpu-to-spirv` lowers neither a `gpu.func`'s workgroup attributions nor memrefs in
    `#gpu.address_space<workgroup>`; it lowers a `memref.alloc` in the SPIR-V `Workgroup`
    storage class to a module-scope variable. This pass replaces each workgroup attribution of
    a kernel by such an allocation at the kernel's entry. Only loads and stores may use an
    attribution (what tlc's kernels do); anything else is an error at its location.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::spirv::SPIRVDialect"];
}

def TLCSPIRVShareWorkgroupMemory
    : Pass<"tlc-spirv-share-workgroup-memory", "mlir::spirv::ModuleOp"> {
  let summary = "Let all kernels of a SPIR-V module share their workgroup variables";
  let description = [{
    Before SPIR-V 1.4 an entry point does not list the Workgroup variables it uses, so Vulkan
    counts every Workgroup variable of the module against each kernel's limit (32 KiB at
    least): a model with many tiled contractions would exceed it. This pass gives the kernels
    shared variables instead: a kernel's n-th Workgroup variable of element type T becomes the
    module's n-th variable of T, as large as the largest it replaces. Variables reached other
    than through `spirv.mlir.addressof` feeding access chains are left alone.
  }];
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

def TLCSPIRVNarrowCompares : Pass<"tlc-spirv-narrow-compares", "mlir::gpu::GPUModuleOp"> {
  let summary = "Compare sign-extended integers with constants in their original width";
  let description = [{
    `arith.cmpi %p, (arith.extsi %a : iN to iM), C` with a constant `C` that iN represents
    becomes `arith.cmpi %p, %a, trunc(C)` (and likewise with the operands swapped, or both
    operands sign-extended from iN): sign extension preserves both the signed and the unsigned
    order and equality, so the result is the same, and the compare is narrower. On the SPIR-V
    targets it is also a workaround: Mesa 22.3's lavapipe (Debian 12) evaluates
    `OpSLessThan (OpSConvert i32 -> i64) C` wrongly for negative values although the SPIR-V
    is valid (`spirv-val`), which made int32 indices (GatherND, OneHot) wrong on Vulkan.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}
