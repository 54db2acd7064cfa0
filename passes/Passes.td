// Declarations of tlc's graph-level and codegen-level passes.
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
    Ops whose location names one of `keep-f32` (an ONNX node name, a `.tl` binding) stay f32;
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

def TLLowerAttention : Pass<"tl-lower-attention", "mlir::func::FuncOp"> {
  let summary = "Lower tl.attention to a tiled online-softmax (flash attention) loop nest";
  let description = [{
    Rewrites each `tl.attention` into an `scf.forall` over the flattened batch axes (independent
    iterations: after bufferization they run on the thread pool), `scf.for` loops over blocks of
    `block-q` query rows and blocks of `block-k` keys (a length that is not a multiple of its
    block gets one smaller block after the loop), on tensors with `tensor.extract_slice`/`insert_slice`, and
    linalg ops on the tiles: the scores tile `Q_blk K_blk^T`, scaling, mask and causal masking,
    a running row maximum and sum (online softmax), and the rescaled accumulation of `P V_blk`
    into the output tile. Extra memory is independent of the sequence length times itself:
    no `Sq x Sk` tensor is formed. Causal attention skips key blocks after the query block.
    `tl-lower-to-linalg` applies the same patterns with the default tiles.
  }];
  let options = [
    Option<"blockQ", "block-q", "int64_t", /*default=*/"48",
           "query rows per tile (at most; 48 = whole register tiles on every CPU target)">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"64", "keys per tile (at most)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect"];
}

def TLCInterchangeLoops : Pass<"tlc-interchange-loops", "mlir::func::FuncOp"> {
  let summary = "Order linalg.generic loops so the innermost one walks memory contiguously";
  let description = [{
    Permutes the iteration space of each `linalg.generic` so that the innermost loop is the one
    that walks the last (contiguous) axis of the most operand bytes; ties go to parallel loops,
    then to the loop that writes the output contiguously. The other loops keep their order.
    After lowering to loops, the innermost loop then touches unit-stride memory and LLVM
    vectorizes it (e.g. matmul runs i-k-j, and needs no reassociation of its sums).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def TLCLowerConvolutions : Pass<"tlc-lower-convolutions", "mlir::func::FuncOp"> {
  let summary = "Rewrite 2-D convolutions on tensors as im2col + contraction or ordered loops";
  let description = [{
    `linalg.conv_2d_nchw_fchw` (static shapes, one float element type) becomes a copy of the
    input's windows into a `[N, C, KH, KW, OH, OW]` tensor (an affine-indexed
    `linalg.generic`, unit stride innermost; skipped for 1x1 stride-1 convolutions, whose input
    already is that matrix), collapsed to `[N, C*KH*KW, OH*OW]`, and a `linalg.generic`
    contraction with the filter collapsed to `[F, C*KH*KW]`: a matmul with the output's pixels
    as its contiguous n dimension, which `tlc-tile-contractions` and `tlc-vectorize` turn into
    register-tiled FMA code. `linalg.depthwise_conv_2d_nchw_chw` becomes a `linalg.generic`
    whose loops run (n, c, oh, kh, kw, ow), so the innermost loop walks output and input rows
    with unit stride (for stride 1) and vectorizes. A grouped convolution
    (`linalg.conv_2d_ngchw_gfchw`) takes the same paths group by group: its whole im2col
    matrix `[N, G, C/G*KH*KW, OH*OW]` and one contraction batched over the groups, or the
    per-tile blocks and direct tiles below, where each tile's contraction gets the group as a
    batch dimension (`[G, F/G, K] x [G, K, pixels]`; direct: over (g, m, q, c, y, x)). Other
    convolutions are left alone.

    With `tile-im2col` (the default), a convolution with a window wider than 1x1 whose whole
    im2col matrix is larger than `min-im2col-bytes` and whose output splits into at least
    `min-tiles` tiles of whole output rows (about `tile-pixels` pixels each, at least
    `min-tile-pixels`, an im2col block of at most `tile-bytes`) instead becomes an
    `scf.forall` over those tiles. Each tile copies its own
    `[C, KH, KW, rows, OW]` im2col block (one unit-stride row copy per channel and filter
    tap; a strided convolution reads the input's stride phases, made once by a
    `linalg.transpose`) and contracts the filter with it into its output slice, so the block
    is consumed from cache right after it is written, and tiles run on different threads. A
    zero-filled output is not filled up front (the whole-output fill is erased): each tile
    fills its own output slice, viewed as `[F, rows * OW]`, right before contracting into it,
    and `tlc-tile-contractions` moves that fill into the register tiles.

    With `direct` (the default), such a tiled convolution of stride 1 over a zero-filled
    output copies nothing: each tile contracts the filter `[F, C, KH, KW]` with its input
    rows in place, one `linalg.generic` over (m, q, c, y, x) whose input map is
    `(c, q + y * DH * W + x * DW)` (each channel's image as one row of pixels, the tile's
    output pixels counted over the input's row pitch W), into a `[F, rows * W]` accumulator
    whose `[F, rows, OW]` part is then copied into the output. The pixel range is rounded
    up to a multiple of `direct-align` (whole register tiles); the rows this reads past an
    image are added below it (the padding rebuilt taller). `tlc-view-window-operands`
    turns that input map into a strided view on buffers.

    With `phases` (the default) and `direct`, such a tiled convolution with a stride other than
    1 (undilated, over a zero-filled output) reads its row taps in place from its stride
    phases: the input is split once into SH x SW phase images, each tile copies, per row
    phase py and column tap x, the rows of phase (py, x % SW) it needs from column x / SW on
    into X[C, SH, KW, rows + ceil(KH / SH) - 1, OW] (SH * KW row copies against im2col's
    KH * KW), and accumulates straight into its output rows one contraction per group of row
    phases with the same number of taps (one when SH divides KH, else two), over
    (c, (phase rows), a, x) reading X[c, py, x, p + a * OW], with the sub-filters (taps
    (SH * a + py, x)) packed at compile time when constant. With two groups, the tile's pixels
    run in blocks whose output part fits in `phase-block-bytes` (both groups accumulate into
    a block before the next).
  }];
  let options = [
    Option<"tileIm2col", "tile-im2col", "bool", /*default=*/"true",
           "build the im2col matrix per output tile inside a parallel loop">,
    Option<"tilePixels", "tile-pixels", "int64_t", /*default=*/"256",
           "output pixels per tile to aim for (whole output rows)">,
    Option<"tileBytes", "tile-bytes", "int64_t", /*default=*/"524288",
           "largest im2col block per tile, in bytes (it should stay in L2)">,
    Option<"tileSlots", "tile-slots", "int64_t", /*default=*/"8",
           "parallel slots the tile loop runs as (tlc-bound-forall-replicas' max-slots): "
           "tile counts that spread evenly over them are preferred">,
    Option<"minTiles", "min-tiles", "int64_t", /*default=*/"4",
           "tile only convolutions with at least this many row tiles">,
    Option<"minTilePixels", "min-tile-pixels", "int64_t", /*default=*/"128",
           "tile only convolutions whose tiles have at least this many pixels">,
    Option<"minIm2colBytes", "min-im2col-bytes", "int64_t", /*default=*/"4194304",
           "tile only convolutions whose whole im2col matrix is larger (bytes)">,
    Option<"direct", "direct", "bool", /*default=*/"true",
           "tile stride-1 convolutions as direct contractions over the input (no im2col)">,
    Option<"phases", "phases", "bool", /*default=*/"true",
           "tile strided convolutions as contractions over their row phases (per-tile copies "
           "of the column taps only)">,
    Option<"phaseBlockBytes", "phase-block-bytes", "int64_t", /*default=*/"32768",
           "largest output block (bytes) a row-phase tile fills and accumulates all its "
           "groups into before the next (it should stay in L1)">,
    Option<"directAlign", "direct-align", "int64_t", /*default=*/"32",
           "round a direct tile's pixel range up to a multiple of this (the register tile "
           "width)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::bufferization::BufferizationDialect"];
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

def TLCFuseEpilogues : Pass<"tlc-fuse-epilogues", "mlir::func::FuncOp"> {
  let summary = "Run elementwise consumers of contractions on each output tile (epilogue fusion)";
  let description = [{
    For each static contraction on tensors (matmul, batch matmul, the im2col contraction of a
    convolution) whose only consumer is an elementwise `linalg.generic` reading it with an
    identity map (bias add, activation, residual add, scale, folded batch norm), possibly
    through the `tensor.expand_shape` back to a convolution's output shape (the consumer is
    then collapsed to the contraction's shape), the consumer is tiled into cache-sized output
    tiles and the contraction with its initial value is fused into the tile loops
    (`scf::tileConsumerAndFuseProducersUsingSCF`): an `scf.forall` over the result dimension
    with the most tiles, an `scf.for` over the others. The consumer first becomes an in-place
    update of the contraction's result, so the contraction and its fill are fused through the
    destination: each tile is filled, contracted over all of k and finished by the epilogue
    in the output's own slice, while it is in cache, with no intermediate buffers. Tile extents divide the shape (static tiles,
    which `tlc-tile-contractions` needs), multiples of the register tile where possible.
    Contractions left alone get a `tlc.fusion_unfused` reason: a result with several uses
    (fusing would compute the contraction again), a reduction or transposing consumer, or an
    output that is a single tile. A consumer collapsed to the contraction's shape may read
    broadcast operands at 0 in size-1 dimensions (a 1xCx1x1 gate of an NxCxHxW output):
    those operands are first rank-reduced to their other dimensions.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"64", "output tile rows (at most)">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"256", "output tile columns (at most)">,
    Option<"alignM", "align-m", "int64_t", /*default=*/"8",
           "preferred multiple for tile rows (register tile rows)">,
    Option<"alignN", "align-n", "int64_t", /*default=*/"32",
           "preferred multiple for tile columns (register tile columns)">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::scf::SCFDialect", "mlir::affine::AffineDialect"];
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

def TLCViewWindowOperands : Pass<"tlc-view-window-operands", "mlir::func::FuncOp"> {
  let summary = "Read sliding-window operands of linalg ops on buffers through strided views";
  let description = [{
    A `linalg.generic` input on buffers (a memref with static strides) read through a map
    whose results are sums of distinct loop dimensions with positive coefficients, e.g. a
    direct convolution's `(c, q + y * 58 + x)`, is replaced by a `memref.reinterpret_cast` of
    the same memory with one dimension per loop dimension (size: the loop's range, stride:
    the coefficient times the stride of its result; dimensions of equal stride may overlap)
    and read through those dimensions, e.g. `(c, y, x, q)` with strides
    `[HW, 58, 1, 1]`. The op then has projected-permutation maps only, so it is a
    contraction for `tlc-tile-contractions` and `tlc-vectorize`. The view's dimensions run by
    decreasing stride, parallel loops after reduction loops among equal strides. Operands
    with a constant term, a repeated dimension, a non-positive coefficient or dynamic
    strides are left alone.

    Example:
    ```mlir
    linalg.generic {indexing_maps = [..., affine_map<(m, q, c, y, x) -> (c, q + y * 58 + x)>, ...]}
      ins(%w, %in : memref<64x64x3x3xf32>, memref<64x520xf32, strided<[3364, 1], offset: ?>>)
    // becomes
    %v = memref.reinterpret_cast %in to offset: [%off], sizes: [64, 3, 3, 404],
         strides: [3364, 58, 1, 1]
    linalg.generic {indexing_maps = [..., affine_map<(m, q, c, y, x) -> (c, y, x, q)>, ...]}
    ```
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def TLCTileContractions : Pass<"tlc-tile-contractions", "mlir::func::FuncOp"> {
  let summary = "Tile linalg contractions on buffers for the caches and the register file";
  let description = [{
    Tiles every statically shaped contraction (`linalg.generic` or named op with m, n and k
    dimensions, e.g. matmul or batched matmul) twice with `scf::tileUsingSCF`: cache blocks
    of `cache-m` x `cache-n` x `cache-k` in n, k, m order (a k x n panel of the right operand
    is reused across the m blocks), then register tiles of `register-m` x `register-n` x 1
    with the k loop innermost. Batch and other extra dimensions are tiled by 1. The register
    tile ops are marked `tlc.register_tile` and the register-level m and n loops are peeled,
    so full tiles get static shapes after canonicalization (for `tlc-vectorize`). With
    `parallel-outer`, the outermost block loop (a batch or n dimension) becomes an
    `scf.parallel` for `tlc-outline-parallel-loops`; when neither has more than one block
    (e.g. a convolution over 14x14 pixels), the m block loop does, one launch per k block,
    if each launch has at least `parallel-min-flops` of work. Tile sizes
    are policy: the CPU target derives them from its vector width and register count.
    Ops with dynamic shapes or tensor semantics are left alone.

    A contraction with several reduction dimensions of more than one iteration whose total
    k extent is at most `max-joined-k` (e.g. a direct convolution's c x kh x kw) keeps all of
    them inside the register tile (loops n, m, then every k, so the accumulators stay in
    registers across the whole reduction) and leaves the outer ones untiled at the cache
    level; larger ones tile their outer k dimensions by 1 outside the register tile.

    With `pack-rhs`, the right operand's k x n slice of each cache block (read with n as its
    contiguous axis) is copied, before the m block loop, into a 64-byte aligned stack buffer
    (a static `memref.alloca` at the top of the thread's loop body or of the function: one per
    thread, no heap) laid out as `register-n`-wide strips of all k rows (a panel of 256 x 256
    f32 takes 256 KiB of stack), and the register tiles read their strip from
    there: each strip is contiguous, so the k loop streams it from L1 without the cache-set
    conflicts of a power-of-two row stride. Contractions with fewer than `pack-min-rows` rows
    of m (too little reuse for the copy) are not packed. A contraction inside a parallel loop
    whose right operand (at most `pack-max-bytes`) is invariant in an enclosing scf.for (e.g.
    the row-tile loop of an epilogue-fused contraction, tlc-fuse-epilogues) has the whole
    operand packed once before that loop, and all its row tiles read it from there.

    With `pack-lhs`, the left operand's m x k slice of each cache block (read with k or m as
    its contiguous axis) is copied, right before the block's register loops, into a 64-byte
    aligned stack buffer of the block's shape (`cache-m` x `cache-k`, one per thread like the
    right operand's), and the register tiles read their rows from there: a register tile's
    rows are then `cache-k` elements apart instead of the operand's row length (8 KiB at
    k = 2048, so all of a tile's rows fall into one L1 set and onto as many pages), and the
    copy reads the block as long contiguous rows. Blocks read by fewer than
    `pack-lhs-min-cols` columns of n, and left operands whose buffer (behind any views) is
    smaller than `pack-lhs-min-bytes`, are not packed. A contraction whose left operand is
    packed takes n blocks of `pack-lhs-cache-n` columns when set (each copy then serves more
    register strips, and the operand is re-read by fewer n blocks).

    With `fuse-fill` (the default), a contraction whose output buffer a `linalg.fill` sets
    right before it (only view ops between) has that fill moved into its register tiles: each
    tile fills its own output slice right before its k loop (the fill is marked
    `tlc.register_tile`), so `tlc-vectorize` starts the accumulators from the fill value in
    registers and the output is written once, not memset, loaded and stored. A contraction
    with more than `cache-k` k iterations is first split into k < `cache-k` (starting from
    the fill) and the rest (accumulating onto it), which adds in the same order.
  }];
  let options = [
    Option<"cacheM", "cache-m", "int64_t", /*default=*/"64", "m block (rows of the output)">,
    Option<"cacheN", "cache-n", "int64_t", /*default=*/"256", "n block (output columns)">,
    Option<"cacheK", "cache-k", "int64_t", /*default=*/"256", "k block (reduction)">,
    Option<"maxJoinedK", "max-joined-k", "int64_t", /*default=*/"1024",
           "most total k iterations for which several k dimensions all run inside the "
           "register tile">,
    Option<"registerM", "register-m", "int64_t", /*default=*/"8", "register tile rows">,
    Option<"registerN", "register-n", "int64_t", /*default=*/"32",
           "register tile columns (a multiple of the vector length)">,
    Option<"parallelOuter", "parallel-outer", "bool", /*default=*/"true",
           "make the outermost block loop (batch or n) an scf.parallel">,
    Option<"parallelMinFlops", "parallel-min-flops", "int64_t", /*default=*/"4000000",
           "without a batch or n loop to split, make the m block loop (inside the k block "
           "loop: one launch per k block) an scf.parallel when a launch has this much work">,
    Option<"packRhs", "pack-rhs", "bool", /*default=*/"false",
           "copy each k x n block of the right operand into register-tile strips">,
    Option<"packMinRows", "pack-min-rows", "int64_t", /*default=*/"32",
           "pack only when at least this many rows of m read each packed panel">,
    Option<"packMaxBytes", "pack-max-bytes", "int64_t", /*default=*/"1048576",
           "pack a right operand whole, before an enclosing loop it is invariant in, up to "
           "this size">,
    Option<"fuseFill", "fuse-fill", "bool", /*default=*/"true",
           "move the fill of a contraction's output into its register tiles">,
    Option<"packLhs", "pack-lhs", "bool", /*default=*/"false",
           "copy each m x k block of the left operand into a compact stack buffer">,
    Option<"packLhsMinCols", "pack-lhs-min-cols", "int64_t", /*default=*/"64",
           "pack only when at least this many columns of n read each packed block">,
    Option<"packLhsMinBytes", "pack-lhs-min-bytes", "int64_t", /*default=*/"0",
           "pack only a left operand whose buffer has at least this many bytes">,
    Option<"packLhsCacheN", "pack-lhs-cache-n", "int64_t", /*default=*/"0",
           "n block of a contraction whose left operand is packed (0: cache-n)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect", "mlir::linalg::LinalgDialect",
                           "mlir::vector::VectorDialect", "mlir::arith::ArithDialect"];
}

def TLCVectorize : Pass<"tlc-vectorize", "mlir::func::FuncOp"> {
  let summary = "Vectorize register tiles and lower their contractions to FMAs";
  let description = [{
    Vectorizes each linalg op marked `tlc.register_tile` with
    `linalg::vectorize` (contractions become `vector.contract`; an edge tile whose n extent is
    not a power of two is vectorized at the next power of two with masked transfers, e.g.
    8x17 as 8x32, since odd-length vectors become scalar shuffles), hoists the loop-invariant
    accumulator transfers out of the enclosing k loops (the register tile stays in registers),
    forwards stores to loads (`vector::transferOpflowOpt`: a fused fill's splat becomes the
    accumulators' initial value, its store dead), and lowers `vector.contract` to outer products and those to `vector.fma`, transfers with
    permutation maps to broadcasts. A tile with a dynamic extent (an edge tile of a cache
    block whose size depends on the block index) is vectorized with masks at the extent's
    constant upper bound (`ValueBoundsConstraintSet`, e.g. an affine.min of the register tile
    size). Unmarked ops, and tiles with an unbounded dynamic extent, are left to
    `convert-linalg-to-loops`.
  }];
  let dependentDialects = ["mlir::vector::VectorDialect", "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def TLCVectorizeRows : Pass<"tlc-vectorize-rows", "mlir::func::FuncOp"> {
  let summary = "Vectorize linalg ops along contiguous rows: multi-accumulator reductions, masked tails";
  let description = [{
    Generalizes each `linalg.copy` on buffers (a convolution's padding copy, a tile's copy-out)
    and then rewrites each `linalg.generic` on buffers with a static innermost extent (outer
    loops may be dynamic, as in the last chunk tlc-parallelize-loops cuts) whose innermost
    loop walks the last, unit-stride dimension of every operand that it indexes (operands it does not index
    are read once per row and broadcast; map results must be loop dimensions or constants)
    and whose body is elementwise-mappable scalar code. Outer loops become `scf.for`; the row
    is strip-mined by `vector-bits`/32 lanes. A reduction along the row (each output one
    combiner recognized by `matchReduction`: add, mul, max/min, and/or/xor) keeps
    `accumulators` independent vector accumulators (the loop is unrolled by that many vector
    steps, emitted op by op so their dependence chains interleave), folds them pairwise and reduces across
    lanes (`vector.reduction`, reassociating float sums) into the output's current value; an
    elementwise row stores whole vectors. The last partial vector is masked. Ops whose
    innermost loop walks a strided dimension (e.g. a reduction over a non-last axis, left
    with a parallel innermost loop by tlc-interchange-loops, qualifies as elementwise instead),
    elementwise rows shorter than one vector, a dynamic row length, index computations
    (`linalg.index`) and i1 buffers are left to `convert-linalg-to-loops`. A 1-D op marked
    `tlc.prefetch_next_row` (a row op's compute-bound pass, set by tl-lower-to-linalg) also
    prefetches, at each whole-vector step, the same columns of the next row of each operand
    that is one row of a 2-D buffer (a rank-reducing `memref.subview`, through further
    subviews to their root buffer; the row index clamped to the root's last row): `read` for
    inputs, `write` for outputs, so the next row's cache misses overlap this row's arithmetic.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "the target's vector register width in bits (lanes = bits / 32)">,
    Option<"accumulators", "accumulators", "int64_t", /*default=*/"4",
           "independent vector accumulators per reduction output">,
    Option<"minRow", "min-row", "int64_t", /*default=*/"0",
           "shortest elementwise row vectorized, in elements (0: one whole vector); a shorter "
           "one is a single masked step">,
  ];
  let dependentDialects = ["mlir::vector::VectorDialect", "mlir::scf::SCFDialect",
                           "mlir::memref::MemRefDialect", "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect"];
}

def TLCTileDepthwise : Pass<"tlc-tile-depthwise", "mlir::func::FuncOp"> {
  let summary = "Register tiles for contractions without an m dimension (depthwise convolutions)";
  let description = [{
    A statically shaped `linalg.generic` on buffers that multiplies and accumulates rows of
    one input by values of the other broadcast along them (a depthwise convolution after
    `tlc-view-window-operands`: out[n, c, oh, ow] += in[n, c, kh, oh, kw, ow] * w[c, kh, kw],
    where no dimension belongs to the weights and the output but not the input) has no
    register tile in `tlc-tile-contractions`. Left alone it becomes loops with the reductions
    outside the contiguous one, which read and write the output row once per tap. Here the
    contiguous output dimension is tiled by a row of `vector-bits` / 32 x `vectors` lanes
    (the largest divisor of its extent up to that, when it is at least one vector; else that
    size, with the last tile peeled), every other parallel dimension by 1, and the reductions
    by 1 inside: the tile op is marked `tlc.register_tile`, so `tlc-vectorize` keeps its row
    of accumulators in registers across all taps. A fill of the whole output right before
    it becomes a fill of each tile before its reduction loops (starting the accumulators from
    the fill value). An elementwise op right after it that reads the output through the
    identity and writes a buffer of its shape (bias, activation, residual: the epilogue)
    runs on each finished row instead, after the reductions, and is removed (only if every
    tile takes it). The outermost parallel loop with more than one iteration becomes an
    `scf.parallel` (`tlc-outline-parallel-loops`). The contiguous dimension must be the last
    of the output, with unit stride; the row operand reads it as its last dimension at unit
    stride, or (a strided convolution's input, whose innermost dimension is then a tap) as any
    dimension at stride 2, read as a contiguous span of twice the length whose every other
    element is kept.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "the target's vector register width in bits (lanes = bits / 32)">,
    Option<"vectors", "vectors", "int64_t", /*default=*/"4",
           "vector registers per tile row (accumulators)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::memref::MemRefDialect",
                           "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def TLCParallelizeLoops : Pass<"tlc-parallelize-loops", "mlir::func::FuncOp"> {
  let summary = "Split large linalg ops on buffers into parallel chunks for the thread pool";
  let description = [{
    Each linalg op directly in the function body (not already inside a loop nest such as the
    contraction tiles) with static loop ranges and at least `min-work` iterations is tiled
    along its outermost parallel dimension into at most `max-chunks` chunks (each of at least
    `min-work`/4 iterations), and the tile loop becomes a one-dimensional `scf.parallel`
    (run on the thread pool by tlc-outline-parallel-loops). Reduction dimensions are never
    split, so every output element is computed in the same order whatever the thread count.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"65536",
           "smallest iteration count worth a parallel launch">,
    Option<"maxChunks", "max-chunks", "int64_t", /*default=*/"64", "most chunks per op">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::affine::AffineDialect",
                           "mlir::memref::MemRefDialect"];
}

def TLCOutlineParallelLoops : Pass<"tlc-outline-parallel-loops", "mlir::ModuleOp"> {
  let summary = "Outline outermost scf.parallel loops into functions the runtime runs on threads";
  let description = [{
    Each one-dimensional `scf.parallel` that is not nested in another one becomes a private
    function `@<func>_par(%begin: index, %end: index, captures...)` (marked
    `tlc.parallel_body`) running iterations [begin, end) of the normalized loop, and the loop
    becomes `func.call @<func>_par_launch(%trip_count, captures...)`, a declaration marked
    `tlc.parallel_launch = @<func>_par`. Constants are rematerialized; captured memrefs must
    have static shapes and identity layouts (they cross as bare pointers), other captures must
    be scalars or views (e.g. `memref.subview`, `memref.expand_shape`, free of memory effects)
    of such captures, which are rebuilt in the body; otherwise the loop stays serial. `tlc-lower-parallel-launch` finishes the job in the
    LLVM dialect. Statically sized `memref.alloca`s at the top level of the loop body (e.g.
    packed contraction panels) are allocated once per call in the outlined function's entry
    block (once before a loop that stays serial) instead of once per iteration.
  }];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
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

def TLCSplitLongFunctions : Pass<"tlc-split-long-functions", "mlir::ModuleOp"> {
  let summary = "Move runs of loops of a function with very many into separate functions";
  let description = [{
    LLVM keeps a function's dominator tree up to date as its loop passes rewrite each loop; in
    a function of n loops in sequence that tree is a chain n deep, so LoopRotate alone takes
    time quadratic in n (a model of a thousand unfused ops spent most of its compile there).
    In a function whose body holds more than `max-loops` top-level ops with regions (loop
    nests), runs of about `max-loops` of them, with the ops between, move into private
    `no_inline` functions `@<func>_chunk(captures...)` called in their place. Ops free of
    memory effects and regions (constants, views, index arithmetic) that a run uses are
    cloned into it; other captures must be scalars or memrefs of static shape and identity
    layout (they cross as bare pointers); a run is cut only where no value with memory effects
    crosses the cut. A run whose captures cannot cross stays where it is. Functions with fewer
    loops are left unchanged.
  }];
  let options = [
    Option<"maxLoops", "max-loops", "unsigned", /*default=*/"256",
           "split functions with more top-level loop nests than this, into runs of this many">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def TLCLowerParallelLaunch : Pass<"tlc-lower-parallel-launch", "mlir::ModuleOp"> {
  let summary = "Turn calls of outlined parallel loops into tlc_parallel_for runtime calls";
  let description = [{
    In the LLVM dialect, replaces every call of a declaration marked `tlc.parallel_launch =
    @body` with: the captured arguments stored into a context struct (an alloca in the
    caller's entry block), and `tlc_parallel_for(@body_tramp, ctx, n)`, where the internal
    `@body_tramp(ctx, begin, end)` loads them and calls `@body(begin, end, ...)`. The launch
    declarations are erased. The runtime (libtlcrt) splits [0, n) over its thread pool.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
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
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def TLCLowerMemRefCopy : Pass<"tlc-lower-memref-copy", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy so it lowers to loops, not a runtime call";
  let description = [{
    Every ranked memref.copy becomes a linalg.copy. A linalg.copy into a static, unit-stride
    subview of a statically shaped buffer (from another buffer) right after a linalg.fill of
    that whole buffer (only ops without memory effects between: a padded input, filled with
    the pad value and then given the image in its interior) makes the fill cover only the
    rest: one fill per side of the interior along each dimension, instead of writing the
    interior twice.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::memref::MemRefDialect"];
}

def TLCDropRematBarriers : Pass<"tlc-drop-remat-barriers", "mlir::func::FuncOp"> {
  let summary = "Remove tl.remat_barrier ops (identities) after the last tensor-level CSE";
  let description = [{
    `tl.remat_barrier` keeps CSE from merging recomputed ops back into the forward ops they
    copy (tl-autodiff's `remat`). After lowering to linalg and its CSE the recomputation is
    fixed, so the barriers go before bufferization: their results become their inputs.
  }];
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
    (tlc-lower-memref-copy). Reads of the filled tensor keep sharing it.
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

def TLCFlattenConstantGlobals : Pass<"tlc-flatten-constant-globals", "mlir::ModuleOp"> {
  let summary = "Make multi-dimensional memref.globals one-dimensional, viewed through expand_shape";
  let description = [{
    Each static, identity-layout `memref.global` of rank > 1 gets the flat type `memref<N x T>`
    (its dense initializer reshaped) and each `memref.get_global` of it becomes a get_global of
    the flat global followed by a `memref.expand_shape` back to the original type. LLVM IR
    translation then emits one constant array per global instead of one per innermost row,
    which is what made compiling models with large weights slow. Globals with a non-dense
    initializer (uninitialized, resource blobs) are left unchanged.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
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
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", /*default=*/"\"\"", "the model's C name">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def TLCAddCPUDispatch : Pass<"tlc-add-cpu-dispatch", "mlir::ModuleOp"> {
  let summary = "Add `NAME_run` choosing among CPU variants of the model at run time";
  let description = [{
    For an LLVM-dialect module holding one entry point `NAME_run.CPU` per CPU variant (each
    tagged `tlc.cpu_features = ["avx2", ...]`, the run-time features its code may use, named
    as in runtime/include/tlc/cpu_features.h for `arch`), adds the public `NAME_run` with the same
    signature. On its first call it asks libtlcrt's `tlc_cpu_select_variant` (host cpuid,
    TLC_CPU_VARIANT) for the variant to run, from a table ordered as `variants` (most capable
    first), caches the answer in an internal global, and forwards the call; it returns
    TLC_STATUS_UNSUPPORTED when no variant runs on the host. Example:

    ```
    tlc-opt --tlc-add-cpu-dispatch="model-name=m variants=x86-64-v4,x86-64-v3"
    ```
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", /*default=*/"\"\"", "the model's C name">,
    ListOption<"variants", "variants", "std::string",
               "the CPU variants, most capable first (functions NAME_run.CPU)">,
    Option<"arch", "arch", "std::string", /*default=*/"\"x86_64\"",
           "whose feature table names the features: x86_64 or aarch64">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // TLC_PASSES_TD
