// Declarations of tlc's graph-level passes and the shared lowering (tl to linalg, fusion,
// bufferization, memory planning, math approximations); each target declares its own code
// generation passes (targets/cpu/CPUPasses.td, targets/gpu/GPUPasses.td).
#ifndef TLC_PASSES_TD
#define TLC_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLLowerToLinalg : Pass<"tl-lower-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lower tl ops to linalg, tensor, arith and math";
  let description = [{
    Every elementwise tl op becomes a `linalg.generic` built from its scalar body (the
    ElementwiseOpInterface) with numpy-broadcast indexing maps; einsums become `linalg.generic`
    contractions whose maps come from the one einsum engine; reductions use the
    ReductionOpInterface (a reduction over every axis of at least 2^16 elements in two levels:
    up to 16 equal partial rows, then those, so threads can share it); softmax, log_softmax
    and layer_norm over the trailing axes (static shapes) become an `scf.forall` over rows,
    each row a few 1-D linalg ops (row maximum / sums into per-row scalars, then one write;
    f16/bf16 statistics in f32), so the op reads its input once; over another axis softmax
    becomes whole-tensor max/exp/sum/divide ops and layer_norm whole-tensor reductions; shape
    ops become tensor ops (a concat of more than `max-in-place-concat` inputs one
    `tensor.concat`). Without `row-loops` (GPU targets, whose kernels map rows
    themselves) softmax, log_softmax and layer_norm always take the whole-tensor form; without
    `tiled-attention` attention is lowered by its definition (forming the scores), or with
    `fused-attention` (GPU targets) becomes `tl.fused_attention` into a `tensor.empty` where
    it is f32 with static shapes and heads of at most 128.
    Fails, naming the op, if any tl op remains.
  }];
  let options = [
    Option<"rowLoops", "row-loops", "bool", /*default=*/"true",
           "softmax/log_softmax/layer_norm over trailing axes as an scf.forall over rows">,
    Option<"tiledAttention", "tiled-attention", "bool", /*default=*/"true",
           "attention as the flash-attention loop nest (else by its definition: the scores "
           "einsum, scale and masks, softmax, einsum with V)">,
    Option<"fusedAttention", "fused-attention", "bool", /*default=*/"false",
           "without tiled-attention: f32 attention with static shapes and heads of at most "
           "128 as one tl.fused_attention op (the GPU targets' flash-attention kernel)">,
    Option<"maxInPlaceConcat", "max-in-place-concat", "unsigned", /*default=*/"32",
           "a concat of at most this many inputs becomes a chain of tensor.insert_slice "
           "(bufferized in place: each input computed into its slice); a longer one becomes "
           "one tensor.concat (each input copied once), since one-shot bufferization's "
           "analysis of an insert_slice chain grows with about the cube of its length">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect"];
}

def TLLiftPatterns : Pass<"tl-lift-patterns", "mlir::func::FuncOp"> {
  let summary = "Replace spelled-out LayerNorm, GELU and attention with tl.layer_norm/tl.gelu/tl.attention";
  let description = [{
    Exporters write known computations op by op. This pass recognizes
    `(x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) [* gamma + beta]` over trailing axes
    (the square as `d * d` or `pow(d, 2)`) and replaces it with `tl.layer_norm`, and
    `0.5 * x * (1 + erf(x / sqrt 2))` and `0.5 * x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`
    (products in any order) with `tl.gelu`, and attention
    `softmax(c * (Q K^T) + mask, last axis) V` with `tl.attention`: the contractions are
    batched-matmul `tl.einsum`s (K as K or as K^T), the scale any splat multiplies/divides on
    the scores, Q or K (none: 1), the mask optional, an add or a `masked_fill` select with a
    constant condition (folded into an additive mask; the causal triangle becomes `causal`).
    Every intermediate must have one use, so nothing is computed twice.
  }];
}

def TLAutodiff : Pass<"tl-autodiff", "mlir::func::FuncOp"> {
  let summary = "Replace tl.grad ops with reverse-mode backward graphs";
  let description = [{
    Every `tl.grad %loss wrt %x` becomes the gradient of `%loss` with respect to `%x`, built
    by one reverse sweep per loss (shared by all its `tl.grad`s): from the loss back to the
    requested values, each op between them gives the gradients of its operands from that of
    its result (`DifferentiableOpInterface`), and the gradients of a value read by several ops
    are summed. Only float values downstream of a requested one carry gradients; integer and
    boolean values, masks and constants get none. The backward graph is plain tl ops, placed
    before the first `tl.grad` of the loss, so it is fused, compiled and memory-planned like the
    forward graph. An op on the way without a gradient is an error at that op.

    ```mlir
    %y = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %l = tl.reduce_sum %y axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
    %g = tl.grad %l wrt %w : tensor<f32>, tensor<3x4xf32>
    // becomes (the seed 1.0 broadcast back over the sum, then contracted with x)
    %one = tl.constant dense<1.0> : tensor<f32>
    %r = tl.reshape %one : tensor<f32> -> tensor<1x1xf32>
    %gy = tl.broadcast_to %r : tensor<1x1xf32> -> tensor<2x4xf32>
    %g = tl.einsum "ab,ac->cb" %gy, %x : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<3x4xf32>
    ```

    With `remat` set, the forward values the backward ops read are kept or recomputed by that
    policy (passes/Rematerialize.h): `none` keeps them all; `cheap` recomputes the results of
    cheap ops (elementwise math, broadcasts, shape ops) from kept values; `segments=N` keeps
    N - 1 checkpoints (values that alone cross a cut of the forward graph, chosen to split the
    saved bytes evenly) and recomputes each segment before its backward ops. Recomputed ops are
    copies of the forward ops (so the results are bitwise the same), placed before their first
    backward reader; they read kept values and arguments through `tl.remat_barrier`, so CSE
    cannot merge them back. What was kept and recomputed, and the FLOPs, are recorded on the
    function (`tl.remat`) for the driver's memory report and its search over policies.
  }];
  let options = [
    Option<"remat", "remat", "std::string", /*default=*/"\"\"",
           "Rematerialization policy: none, cheap or segments=N (empty: none, unrecorded)">,
  ];
}

def TLPlanEinsumPaths : Pass<"tl-plan-einsum-paths", "mlir::func::FuncOp"> {
  let summary = "Split n-ary einsums into a tree of pairwise contractions chosen by cost";
  let description = [{
    A `tl.einsum` of three or more operands is one loop nest over every label: `ij,jk,kl->il`
    at n = 1024 is 2^40 multiply-adds where two matrix products take 2^31. This pass rewrites
    it into pairwise `tl.einsum`s (each a GEMM or batched GEMM for the contraction code
    generator) in the order of least FLOPs, ties broken by the smallest largest intermediate:
    exact dynamic programming over operand subsets up to `exact-limit` operands, greedy beyond
    (or always, with `path=greedy`). Diagonals (`iij`) are taken and labels summed out that
    appear in one operand only are reduced first, each in a one-operand einsum (unless folding
    the sum into that operand's first contraction costs fewer FLOPs); size-1 `...` axes that
    broadcast are reshaped away. Each pairwise result is laid out batch, left-only, right-only
    labels, with the right operand's innermost label innermost, so the contraction reads both
    operands along their contiguous axes. Equations are relabeled canonically (`a`, `b`, ... in
    order of appearance), so CSE merges the same pairwise contraction needed by several
    einsums.

    First (with `path=optimal` and `merge-chains`), an einsum whose result only one einsum of
    the same block reads is folded into it, as long as the merged einsum has at most
    `exact-limit` operands: `(x W1) W2` written as two einsums is planned as `x,W1,W2`, and the
    exact search, which sees the order as written among its candidates, never picks a costlier
    one.

    ```mlir
    %r = tl.einsum "ij,jk,kl->il" %a, %b, %c : (...) -> tensor<8x4xf32>
    // becomes
    %0 = tl.einsum "ab,bc->ac" %a, %b : (...) -> tensor<8x16xf32>
    %r = tl.einsum "ab,bc->ac" %0, %c : (...) -> tensor<8x4xf32>
    ```
  }];
  let options = [
    Option<"path", "path", "tlc::EinsumPathMode", /*default=*/"tlc::EinsumPathMode::Optimal",
           "how to choose the contraction order",
           [{::llvm::cl::values(
             clEnumValN(tlc::EinsumPathMode::Optimal, "optimal",
                        "exact search up to exact-limit operands, greedy beyond"),
             clEnumValN(tlc::EinsumPathMode::Greedy, "greedy", "greedy pairwise choice"),
             clEnumValN(tlc::EinsumPathMode::None, "none", "leave n-ary einsums as they are"))}]>,
    Option<"exactLimit", "exact-limit", "int64_t", /*default=*/"10",
           "largest operand count searched exactly (3^n subset pairs)">,
    Option<"mergeChains", "merge-chains", "bool", /*default=*/"true",
           "with path=optimal: fold an einsum whose result one einsum reads into it first, "
           "so the chain's order is chosen as a whole">,
  ];
}

def TLSetPrecision : Pass<"tl-set-precision", "mlir::ModuleOp"> {
  let summary = "Mixed precision: contraction and convolution operands in bf16 or f16";
  let description = [{
    The precision policy. Every op implementing `PrecisionOpInterface` (two-or-more-operand
    einsums, conv2d) whose low-precision operands are f32 gets them through a `tl.cast` to
    `precision`'s type and keeps its f32 result: it multiplies low-precision values and
    accumulates in f32. Every other op (softmax, normalizations, reductions, exp/log/erf,
    elementwise math, the model's inputs and outputs) keeps its type. Each decision is
    recorded on the op as `tl.precision` ("bf16", "f16", or "f32" where the op was kept).
    A `tl.gather` from a constant f32 table (an embedding) gathers from the table cast to the
    low type and extends its result back to f32 (a `tl.cast` after it): the table is stored
    low, nothing is computed low. Ops whose location names one of `keep-f32` (an ONNX node name, a `.tl` binding) stay f32;
    a name that matches no such op is an error. Casts of constants fold (weights are stored
    in the low type); a cast back to the type a value came from folds (bf16 -> f32 -> bf16),
    the other order (f32 -> bf16 -> f32 rounds) never does.

    ```mlir
    %y = tl.einsum "ij,jk->ik" %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    // becomes
    %xb = tl.cast %x : tensor<8x16xf32> to tensor<8x16xbf16>
    %wb = tl.cast %w : tensor<16x4xf32> to tensor<16x4xbf16>
    %y = tl.einsum "ij,jk->ik" %xb, %wb {tl.precision = "bf16"}
        : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xf32>
    ```
  }];
  let options = [
    Option<"precision", "precision", "tlc::Precision", /*default=*/"tlc::Precision::BF16",
           "the type of contraction operands",
           [{::llvm::cl::values(
             clEnumValN(tlc::Precision::F32, "f32", "leave every op in f32"),
             clEnumValN(tlc::Precision::BF16, "bf16", "bfloat16 operands"),
             clEnumValN(tlc::Precision::F16, "f16", "IEEE half operands"))}]>,
    ListOption<"keepF32", "keep-f32", "std::string",
               "names (ONNX nodes, .tl bindings) of ops that stay f32">,
    Option<"probe", "probe", "bool", /*default=*/"false",
           "build the --report=precision probe instead (PrecisionProbe.h): an f32 copy of "
           "each public function's body beside the demoted one, each demoted op also run in "
           "low precision on the f32 copy's operands, and one result tensor<R x 3 x f32> of "
           "max |low - f32| (local, accumulated) and max |f32| per demoted op and f32 output, "
           "its rows named by the function attribute tl.precision_probe">,
  ];
}

def TLLayoutConstantOperands : Pass<"tl-layout-constant-operands", "mlir::func::FuncOp"> {
  let summary = "Lay contraction operands out with the output's contiguous axis innermost";
  let description = [{
    For each two-operand `tl.einsum` with plain labels, if the operand that carries the
    output's last label is a `tl.constant` without that label innermost (ONNX Gemm with
    transB=1, a MatMul by a transposed weight: `y = x W^T`), the constant is transposed at
    compile time so that axis is last (the other axes keep their order) and the equation is
    relabeled, e.g. `ik,jk->ij` becomes `ik,kj->ij`. The contraction's vectors then load
    contiguous rows of the weight instead of gathering columns.

    A run-time operand each of whose elements the contraction uses at least 32 times gets a
    copy in that layout instead (backward graphs are full of them), one step at a time:
    contracted labels adjacent and in one order in both operands merge into one (`tl.reshape`:
    `abc,abd->dc` becomes `kc,kd->dc`, X^T g over batch x sequence rows); the operand with the
    output's last label gets it innermost (`tl.transpose`: `g W^T` as `abc,dc->abd` becomes
    `abc,cd->abd`); the other operand, if its innermost label is not contracted, gets its
    contracted labels innermost. On a 1024x1024x256 product these ran 3x (g W^T) and 1.5x
    (X^T g) faster, the copy included.
  }];
}

def TLCFuseElementwise : Pass<"tlc-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "Fuse chains of elementwise linalg ops into one loop nest, recording the groups";
  let description = [{
    Fuses each elementwise `linalg.generic` producer into its consumer (upstream
    `linalg::fuseElementwiseOps`) when the policy allows it: the consumer is the producer's
    only use and reads each producer element once (a permutation indexing map: reductions
    over it qualify; contractions and broadcasts, which would recompute the producer per
    reuse, do not). The fused op's location becomes a `FusedLoc` of every source op, and it
    carries a `tlc.fusion_group` dictionary (kind, reason, the source locations) that
    `tlc --report=fusion` lists. A fused body holds at most `max-ops` ops (so a chain of
    thousands of ops becomes a few loop nests). Fusion runs in rounds, each fusing disjoint
    producer/consumer pairs, so a chain of n ops takes log n rounds of linear work where
    fusing one op at a time into the growing body would be quadratic. Then upstream's
    reshape propagation and cleanups (the patterns of `linalg-fuse-elementwise-ops`) run
    under the same policy.
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"256",
           "most ops (the terminator included) in a fused op's body">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::affine::AffineDialect"];
}

def TLCSetFastMath : Pass<"tlc-set-fast-math", "mlir::func::FuncOp"> {
  let summary = "Mark floating-point arithmetic with the fast-math flags codegen may use";
  let description = [{
    Adds `contract` to floating-point add, subtract, multiply and negate, so multiply-adds become
    FMAs (not to casts, where it would license dropping a rounding). With
    `reassociate-reductions`, also adds `reassoc` to the combiner of reductions in
    `linalg.generic` ops, so LLVM may vectorize them with partial sums.
  }];
  let options = [
    Option<"contract", "contract", "bool", /*default=*/"true", "allow FMA contraction">,
    Option<"reassociateReductions", "reassociate-reductions", "bool", /*default=*/"true",
           "allow reassociating reduction combiners">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def TLCInstrumentProfile : Pass<"tlc-instrument-profile", "mlir::ModuleOp"> {
  let summary = "Time each kernel of the model function (tlc --profile)";
  let description = [{
    In the bufferized model function `NAME_impl` (as tlc-add-entry-point leaves it), each op
    that forms a loop nest, with the fills right before it, is one kernel: it is bracketed by
    calls of libtlcrt's `tlc_profile_clock()` (monotonic nanoseconds) and its elapsed time is
    added to element k of the public global `NAME_profile_ns`. Public constants describe the
    kernels: `NAME_profile_count`, `NAME_profile_names` (per kernel its source, as the reports
    name it, and its kind, each NUL-terminated), `NAME_profile_flops` (floating-point ops of
    the loop bodies times the iterations; 0 where not static) and `NAME_profile_bytes` (the
    sizes of the buffers it reads and writes). `tlc-run --profile` reads them.
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", /*default=*/"\"\"", "the model's C name">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def TLCPlanWorkspace : Pass<"tlc-plan-workspace", "mlir::ModuleOp"> {
  let summary = "Place every intermediate buffer of the entry function in one workspace arena";
  let description = [{
    Plans the statically shaped `memref.alloc`s of each public function (bufferized, one
    block) into a new trailing `memref<Nxi8>` workspace argument and replaces each by a
    `memref.view` at its 64-byte aligned offset; deallocs disappear. Buffers whose live ranges
    (over the block's op order, views and region uses included) do not overlap share bytes:
    placement is greedy by size with best fit. With `in-place`, the output of an all-parallel
    linalg op may take the storage of an input that dies there when both are accessed through
    the same permutation map. With `forward-outputs`, an intermediate that is copied (through
    reshapes) into an out-param where it dies, the out-param being unused before, is computed in
    the out-param directly (zero-copy outputs). Records `tlc.workspace_size` (the largest arena) and
    `tlc.memory_plan` (per function: arena, naive sum, lower bound = peak live bytes, and each
    buffer's offset, size, live range and location) on the module. Fails on allocations that
    cannot live in a byte arena (dynamic shape, non-identity layout, other memory space).
  }];
  let options = [
    Option<"reuse", "reuse", "bool", /*default=*/"true",
           "share bytes between buffers with disjoint live ranges (false: one after another)">,
    Option<"inPlace", "in-place", "bool", /*default=*/"true",
           "let an elementwise op write its result over an input that dies there">,
    Option<"forwardOutputs", "forward-outputs", "bool", /*default=*/"true",
           "compute an intermediate copied (maybe reshaped) into an out-param in that buffer">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "alignment of every buffer's offset in bytes (GPU targets: TLC_GPU_BINDING_ALIGNMENT)">,
    Option<"inputsThroughEpilogues", "inputs-through-epilogues", "bool", /*default=*/"false",
           "keep the inputs of an op with a reduction loop live through the all-parallel op "
           "after it (past views and fills), so a code generator may run the two as one kernel "
           "(the GPU targets' tiled contractions with their epilogue)">,
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def TLCLowerMemRefCopy : Pass<"tlc-lower-memref-copy", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy so it lowers to loops, not a runtime call";
  let description = [{
    Every ranked memref.copy becomes a linalg.copy. A linalg.copy, or any linalg op that
    writes every element of its one output without reading it (all loops parallel, the output
    through a permutation: an elementwise op), into a static, unit-stride subview of a
    statically shaped buffer (reading nothing of that buffer) right after a linalg.fill of
    that whole buffer (only ops without memory effects between: a padded input, filled with
    the pad value and then given the image, or a convolution's BatchNorm and ReLU, in its
    interior) makes the fill cover only the rest: one fill per side of the interior along
    each dimension, instead of writing the interior twice. So does an `scf.forall` over the
    interior's rows along one dimension whose body first overwrites its row (a 1x1
    convolution's pointwise rows writing the next convolution's padded input, each row filled
    before the accumulation: mnasnet1_0's 16 -> 48 layer at 112x112 zeroed its 2.5 MB
    padded output whole, 0.118 -> 0.106 ms).

    With `slab-loops` (CPU targets), a side whose rows (all but its innermost dimension) number
    more than 16 is filled by an `scf.for` over its outermost dimension longer than one, marked
    for LLVM not to unroll it (`loop_annotation`), one fill of a slice per iteration. Left to
    LLVM, the 128 channels' top rows of a padded 58x58 input became 128 memsets in one basic
    block after full unrolling, over which LLVM's machine scheduler took 1.6 s of resnet18's
    compile.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect", "mlir::arith::ArithDialect",
                           "mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"slabLoops", "slab-loops", "bool", "false",
           "Fill a side of more than 16 rows in a loop LLVM does not unroll">,
  ];
}

def TLCDropRematBarriers : Pass<"tlc-drop-remat-barriers", "mlir::func::FuncOp"> {
  let summary = "Remove tl.remat_barrier ops (identities) after the last tensor-level CSE";
  let description = [{
    `tl.remat_barrier` keeps CSE from merging recomputed ops back into the forward ops they
    copy (tl-autodiff's `remat`). After lowering to linalg and its CSE the recomputation is
    fixed, so the barriers go before bufferization: their results become their inputs.
  }];
}

def TLCFillSplatConstants : Pass<"tlc-fill-splat-constants", "mlir::func::FuncOp"> {
  let summary = "Turn large splat tensor constants into fills before bufferization";
  let description = [{
    A splat constant that survives fusion (returned, carried by a loop, read by a
    contraction) was bufferized into a global of its full size, copied where it is written:
    an ONNX ConstantOfShape output of 2^32 elements, or an RNN's state history over 2^32 steps,
    sent LLVM out of memory expanding the initializer. From `min-elements` elements on, such a
    constant becomes a `linalg.fill` of a `tensor.empty`: nothing in the object, a fill at run
    time (no more work than the copy it replaces where the value is written).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
  let options = [
    Option<"minElements", "min-elements", "int64_t", "1024",
           "Splats of at least this many elements become fills">,
  ];
}

def TLCUnshareFills : Pass<"tlc-unshare-fills", "mlir::func::FuncOp"> {
  let summary = "Give every op that writes into a filled tensor its own fill";
  let description = [{
    CSE merges identical `linalg.fill`s on tensors: the zeros every padded convolution input
    starts from, the zeros every contraction accumulates into. When several ops then write
    into that one filled tensor (a `tensor.insert_slice` into it, a DPS init), one-shot
    bufferization keeps the fill's buffer for one of them and copies it whole for each other
    one, every run. Run after the last tensor-level CSE, this gives each such writer but the
    first a fill of its own (of a fresh `tensor.empty`) right before it: a fill writes what a
    copy would and reads nothing, and a padded input's fill then shrinks to its border
    (tlc-lower-memref-copy). Reads of the filled tensor keep sharing it. A fill that is
    only written into moves right before its first writer, so every writer finds its fill
    right before it (tlc-tile-contractions' fuse-fill).
  }];
}

def TLCSliceReshapedEmpties : Pass<"tlc-slice-reshaped-empties", "mlir::func::FuncOp"> {
  let summary = "Write a reshaped result inserted into a slice in place";
  let description = [{
    Upstream's empty-tensor elimination makes a `tensor.empty` that is only written and then
    inserted into a slice that slice, but not through a reshape: a Winograd convolution's
    output (a transpose into [n, f, th, 2, tw, 2], collapsed to [n, f, 2 th, 2 tw]) inserted
    into a concat was computed into a buffer of its own and copied. This gives such a writer
    (a destination-style op whose init is a `tensor.empty` of one use, whose result only goes
    through a `tensor.collapse_shape` into a `tensor.insert_slice`) the slice of the insert's
    destination, expanded to the init's shape, as its init. The values are the same (the
    writer overwrites its init); one-shot bufferization then writes the slice in place. Runs
    right before empty-tensor elimination, after the last canonicalization (which would fold
    the expand_shape of the slice back into an empty tensor).
  }];
}

def TLCBoundForallReplicas : Pass<"tlc-bound-forall-replicas", "mlir::func::FuncOp"> {
  let summary = "Run buffer-allocating scf.forall loops as a bounded number of slots";
  let description = [{
    `tlc-plan-workspace` gives every iteration of an `scf.forall` its own copy of the buffers
    allocated in the loop body (iterations may run at once). For a one-dimensional forall on
    buffers from 0 with step 1 and more than `max-slots` static iterations whose body
    allocates, this pass bounds the copies: the loop becomes a forall over `max-slots` slots,
    each running an `scf.for` over a contiguous chunk of the iterations, `slot * n / max-slots`
    to `(slot + 1) * n / max-slots` (chunk sizes differ by at most one, so two threads, each
    taking half the slots, get half the iterations each within one). Each
    iteration still runs once with the same index (results do not change); at most
    `max-slots` iterations run at once. E.g. attention with batch 4 x 8 heads at sequence
    8192 keeps 8 instead of 32 copies of its per-head key panel.
  }];
  let options = [
    Option<"maxSlots", "max-slots", "int64_t", /*default=*/"8",
           "iterations that may run at once (copies of the per-iteration buffers)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect"];
}

def TLCApproximateMath : Pass<"tlc-approximate-math", "mlir::ModuleOp"> {
  let summary = "Replace transcendental math ops with vectorizable polynomial approximations";
  let description = [{
    Applies MLIR's math polynomial approximations (tanh, erf, log, ...), so the functions
    inline and vectorize instead of calling libm one element at a time. f32 exp uses tlc's
    shorter expansion (populateFastExpPattern: 13 vector instructions on x86, at most ~2 ulp,
    results below ~1.7e-38 flushed to zero; 12 without the overflow clamp where the exp
    carries `tlc.nonpositive_arg`, as softmax's exp(x - max) does) instead of MLIR's, and f32 erf one rational
    function on [-4, 4] (populateFastErfPattern: ~17 operations and one division, at most
    ~4.3e-7 absolute error) instead of MLIR's three intervals with per-coefficient selects;
    erf(c x) with a constant 1/16 <= |c| <= 16 (GELU's erf(x / sqrt 2)) folds c into the
    coefficients. f32 exp2 (which MLIR does not approximate) uses populateFastExp2Patterns:
    exponent-bits range reduction and a degree-5 polynomial of 2^f, 12 vector instructions, at
    most ~2 ulp; with `x86-avx512`, 16-lane vectors build 2^k with `x86vector.avx512.mask.scalef`
    (vscalefps) and round with `math.roundeven` (vrndscaleps) instead: 10 instructions. The f32
    exp does the same on 16-lane vectors with `x86-avx512` (11 instructions, 10 for
    `tlc.nonpositive_arg`; results below 2^-126 then underflow gradually instead of flushing).
    With `exact-rounding` (GPU targets) exp and exp2 round with `math.roundeven` and build the
    power of two from the rounded value converted to an integer: Mesa's SPIR-V compiler folds
    the shifter's (t + C) - C to t (float adds are reassociable there unless marked exact).
    sin, cos and tan reduce by pi/2 in three FMAs (accurate to ~1e-7 up to |x| = 1e6); with
    `exact-rounding` by exact products instead (SPIR-V's Fma may round twice), accurate up to
    |x| = 1e4. atan and atan2 replace MLIR's (2.4e-6 error) with a reduction to
    [0, tan(pi/8)] and a short polynomial (2e-7 relative).
  }];
  let options = [
    Option<"x86Avx512", "x86-avx512", "bool", /*default=*/"false",
           "The target has AVX-512F: use vscalefps/vrndscaleps in the exp and exp2 expansions (the "
           "x86vector ops then need convert-vector-to-llvm's enable-x86vector)">,
    Option<"exactRounding", "exact-rounding", "bool", /*default=*/"false",
           "exp and exp2 round with math.roundeven instead of the float-add shifter, which GPU "
           "drivers may fold away ((t + C) - C to t: they treat float adds as reassociable); "
           "sin/cos/tan reduce without relying on a fused FMA">
  ];
  let dependentDialects = ["mlir::math::MathDialect", "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect", "mlir::x86vector::X86VectorDialect"];
}

def TLCAddEntryPoint : Pass<"tlc-add-entry-point", "mlir::ModuleOp"> {
  let summary = "Wrap the model function in its C entry point `NAME_run` returning a status";
  let description = [{
    Renames the public function `NAME` to a private `NAME_impl` and adds `NAME_run`, which
    checks that no buffer pointer is null (the workspace only when it is non-empty), calls the
    implementation, and returns TLC_STATUS_OK (0) or TLC_STATUS_INVALID_ARGUMENT (1).

    With at most `max-inline-checks` buffers to check, the NULL tests are one chain of
    `arith.ori`. With more (a model with hundreds of inputs), LLVM's optimizer would take
    superlinear time on that chain (about 20 s for 1,000 buffers), so the pointers are stored
    into a stack array (`memref.alloca`, in argument order) and one `scf.for` ORs their tests:
    O(1) IR per buffer. For example, with `max-inline-checks=2` and three buffers:

    ```mlir
    %ptrs = memref.alloca() : memref<3xindex>
    %p0 = memref.extract_aligned_pointer_as_index %x : memref<4xf32> -> index
    memref.store %p0, %ptrs[%c0] : memref<3xindex>
    ...
    %any = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %false) -> (i1) {
      %p = memref.load %ptrs[%i] : memref<3xindex>
      %null = arith.cmpi eq, %p, %c0 : index
      %or = arith.ori %acc, %null : i1
      scf.yield %or : i1
    }
    ```
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", /*default=*/"\"\"", "the model's C name">,
    Option<"maxInlineChecks", "max-inline-checks", "unsigned", /*default=*/"32",
           "buffers NULL-checked inline (one arith.ori chain); more are checked in one loop">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

#endif // TLC_PASSES_TD

def TLCStateBuffer : Pass<"tlc-state-buffer", "mlir::func::FuncOp"> {
  let summary = "Read a model's marked inputs from one state buffer passed first";
  let description = [{
    On buffers, a function marked `tl.state_size = S` gets a first argument
    `memref<S x i8>` named `state`, and each argument marked `tl.state_offset = K` becomes a
    `memref.view` of it at byte K (the argument goes). This is NAME_run of a training step's
    object: the inference with the trained params read from the state buffer NAME_train_step
    updates. The attributes are removed. An offset or size that does not fit the buffer, or a
    marked argument that is not a statically shaped identity-layout memref, is an error.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def TLCAliasStateOutputs : Pass<"tlc-alias-state-outputs", "mlir::func::FuncOp"> {
  let summary = "Let a training step's next-state outputs share memory with its state inputs";
  let description = [{
    On buffers (after bufferization and results as out-params), an argument marked
    `tl.updates = N` is an output that the caller may pass as the same buffer as argument `N`
    (a training step's next param or optimizer state over the current one: NAME_train_step
    updates its state buffer in place). The pass makes the function correct both ways: it
    keeps the output written directly when one elementwise loop nest writes it while reading
    argument `N` element for element, after every other reader of argument `N` and before any
    reader of the output (the usual fused optimizer update); otherwise the value is computed
    into a buffer of its own and copied over the output at the end. A copy of argument `N`
    into the output (a state the step leaves as it is) runs only when the two differ. The
    attribute is removed.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}
