// Declarations of the CPU targets' code generation passes: tiled attention, convolution
// strategies, contraction tiling and packing, vectorization, thread-pool outlining,
// multi-versioning.
#ifndef TLC_TARGETS_CPU_CPUPASSES_TD
#define TLC_TARGETS_CPU_CPUPASSES_TD

include "mlir/Pass/PassBase.td"

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

    Before those: a 1x1 stride-1 convolution whose result (through one elementwise op) only
    fills the interior of a padded tensor, with rows of at least `pointwise-rows-min-width`
    pixels, becomes one contraction over (b, m, h, w, k) that keeps the output's rows, so it can
    write the padded buffer in place; and with `winograd`, a 3x3 stride-1 f32 convolution of a
    constant filter over a zero-filled output with at least `winograd-min-channels` input and
    output channels takes Winograd's F(2x2, 3x3) (filter transformed at compile time, input and
    output transforms over the input's 2x2 stride phases, one contraction batched over the 16
    products) where `tlc::winogradGain` is at least `winograd-min-gain`.

    A convolution of one image that would be one im2col contraction, over at most
    `channel-vector-max-pixels` output pixels that leave at least 15% of 16-lane vectors empty
    (7x7: 49 pixels in 64 lanes), with a constant filter of whole strips of
    `channel-vector-width` output channels, computes its product transposed: T[1, F / w, P, w]
    (channels innermost, so the register tiles' vectors run along them) from the filter packed
    at compile time as [F / w, K, w] (each strip's weights one sequential stream), then a
    transpose of T is the NCHW result (resnet50's 7x7 layers 1.1-1.5x faster, Zen 5).
  }];
  let options = [
    Option<"batchColumnsMaxPixels", "batch-columns-max-pixels", "int64_t", /*default=*/"16",
           "a convolution over more than one image with fewer output pixels than this takes "
           "the images as columns of one contraction (im2col [C*KH*KW, N*OH*OW]) instead of "
           "one product of OH*OW columns per image">,
    Option<"channelVectorWidth", "channel-vector-width", "int64_t", /*default=*/"32",
           "a convolution of one image with few output pixels (see channel-vector-max-pixels) "
           "and a constant filter computes its output transposed, pixels x channels, with the "
           "filter packed at compile time in strips of this many channels (the register "
           "tile's columns); 0: never">,
    Option<"channelVectorMaxPixels", "channel-vector-max-pixels", "int64_t", /*default=*/"64",
           "channel vectors only for at most this many output pixels (and only where 16-lane "
           "vectors over the pixels would leave at least 15% of their lanes empty)">,
    Option<"pointwiseRowsMinWidth", "pointwise-rows-min-width", "int64_t", /*default=*/"112",
           "a 1x1 stride-1 convolution that writes a padded tensor's interior keeps its output "
           "rows (and writes them in place) when they are at least this wide">,
    Option<"bf16Dots", "bf16-dots", "bool", /*default=*/"false",
           "every CPU of the object has bf16 dot products: bf16 1x1 convolutions (not "
           "grouped), and windowed ones that would be one im2col contraction, become one "
           "contraction of their bf16 operands instead of extending them to f32 first; "
           "Winograd rounds its transformed input to bf16 as it does the filter, so its "
           "batched products take the dot products">,
    Option<"winograd", "winograd", "bool", /*default=*/"true",
           "lower 3x3 stride-1 convolutions of constant filters by Winograd's F(2x2, 3x3) "
           "where it pays">,
    Option<"winogradMinChannels", "winograd-min-channels", "int64_t", /*default=*/"32",
           "Winograd only with at least this many input and output channels">,
    Option<"winogradMinGain", "winograd-min-gain", "double", /*default=*/"1.5",
           "Winograd only where its estimated speed-up over im2col is at least this">,
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

    With `bf16-pairs` (AVX-512 BF16 and AArch64 +bf16 targets), a contraction whose two
    operands are bf16 extended to an f32 accumulator, whose left operand has k as its
    unit-stride axis and whose right operand is packed, works on k pairs: register tiles of
    `register-m` x `register-n` x 2 (`register-n` a multiple of `dot-lanes`: 32 on AVX-512,
    8 on NEON),
    k blocks of `pairs-cache-k` (a bf16 panel of as many bytes as a `cache-k` f32 one: fewer
    passes over the output), when at least `pairs-min-rows` rows read each packed panel
    (fewer, e.g. a matrix-vector product, convert in the register tiles instead), the right
    operand's panel packed as bf16 rows of interleaved k pairs (`vdpbf16ps`'s and BFDOT's
    operand layout; a missing last row and columns past the block are zeros), the left one's
    block packed as bf16. Its register tiles (generic ops reading the pair row through the
    map 2 n + k) are marked `tlc.bf16_pairs` with their m, n and k loop positions, for
    `tlc-vectorize` to emit as dot products.

    With `int8-quads` (AVX-512 VNNI targets), a contraction of two i8 operands, one
    zero-extended and one sign-extended to an i32 accumulator (tl.quantized_conv2d's filter
    times its byte columns), takes the same path on k quads: register tiles of `register-m` x
    32 x 4, k blocks of `quads-cache-k`, the right operand's panel packed as rows of
    interleaved k quads (`vpdpbusd`'s operand layout), the register tiles marked
    `tlc.int8_quads`.

    With `fuse-fill` (the default), a contraction whose output buffer a `linalg.fill` sets
    right before it (only view ops between) has that fill moved into its register tiles: each
    tile fills its own output slice right before its k loop (the fill is marked
    `tlc.register_tile`), so `tlc-vectorize` starts the accumulators from the fill value in
    registers and the output is written once, not memset, loaded and stored. A contraction
    with more than `cache-k` k iterations is first split into k < `cache-k` (starting from
    the fill) and the rest (accumulating onto it), which adds in the same order.

    With `prefetch-epilogue-max-bytes` > 0, a contraction followed by its fused epilogue (an
    elementwise linalg.generic writing the contraction's output in place, as
    tlc-fuse-epilogues leaves each output tile) whose output has at most that many bytes
    prefetches, in each register tile before its k loop, the lines of the epilogue's other
    operands (identity maps) at the tile's place: one `memref.prefetch` per tile row and 64
    bytes of its columns.
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
    Option<"packConflictMinRows", "pack-conflict-min-rows", "int64_t", /*default=*/"0",
           "pack a right operand whose k-block rows cannot all stay in L1 (their stride "
           "puts them in few cache sets, e.g. 2 KiB apart) when at least this many rows read "
           "each panel (0: pack-min-rows)">,
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
    Option<"bf16Pairs", "bf16-pairs", "bool", /*default=*/"false",
           "contractions of bf16 operands into f32 as bf16 dot products (AVX-512 BF16 "
           "vdpbf16ps, AArch64 BFDOT): k pairs (register-n a multiple of dot-lanes)">,
    Option<"dotLanes", "dot-lanes", "int64_t", /*default=*/"16",
           "f32 lanes of the dot-product instructions' vectors: 16 (AVX-512) or 4 (AArch64 "
           "NEON)">,
    Option<"pairsCacheK", "pairs-cache-k", "int64_t", /*default=*/"512",
           "k block of a bf16 k-pair contraction">,
    Option<"pairsMinRows", "pairs-min-rows", "int64_t", /*default=*/"8",
           "take k pairs (quads) only when at least this many rows of m read each packed "
           "panel">,
    Option<"int8Quads", "int8-quads", "bool", /*default=*/"false",
           "contractions of uint8 x int8 operands into i32 as AVX-512 VNNI dot products: k "
           "quads (register-n a multiple of dot-lanes, 16)">,
    Option<"quadsCacheK", "quads-cache-k", "int64_t", /*default=*/"1024",
           "k block of an int8 k-quad contraction">,
    Option<"prefetchEpilogueMaxBytes", "prefetch-epilogue-max-bytes", "int64_t",
           /*default=*/"0",
           "register tiles prefetch what a fused epilogue of an output tile of up to this "
           "many bytes reads at their place (0: no prefetches)">,
    Option<"prefetchLocality", "prefetch-locality", "int64_t", /*default=*/"2",
           "the prefetches' cache locality, as llvm.prefetch's (3: all levels, 0: none)">,
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
    8x17 as 8x32, since odd-length vectors become scalar shuffles; the contraction of such a
    tile computes every lane when only parallel dimensions are masked and its masked-off
    lanes are only stored through the same mask, so no select keeps them), hoists the
    loop-invariant accumulator transfers out of the enclosing k loops (the register tile
    stays in registers), forwards a fused fill's splat to the accumulators' initial value
    within the fill's block (upstream's store-to-load conditions; its store dead), and lowers
    `vector.contract` to outer products and those to `vector.fma`, transfers with
    permutation maps to broadcasts. A tile with a dynamic extent (an edge tile of a cache
    block whose size depends on the block index) is vectorized with masks at the extent's
    constant upper bound (`ValueBoundsConstraintSet`, e.g. an affine.min of the register tile
    size). Unmarked ops, and tiles with an unbounded dynamic extent, are left to
    `convert-linalg-to-loops`. A tile marked `tlc.bf16_pairs` (tlc-tile-contractions'
    `bf16-pairs`) becomes bf16 dot products instead: AVX-512 BF16 (`x86vector.avx512.dot`, one
    per row and 16 columns of the tile and k pair) or, with `dot-lanes=4`, AArch64 BFDOT
    (`llvm.aarch64.neon.bfdot` through `llvm.call_intrinsic`, one per row and 4 columns); see
    DotProductTiles.h, and one marked
    `tlc.int8_quads` AVX-512 VNNI dot products (`vpdpbusd` through `llvm.call_intrinsic`; see
    DotProductTiles.h).
  }];
  let options = [
    Option<"dotLanes", "dot-lanes", "int64_t", /*default=*/"16",
           "f32 lanes of the dot-product instructions: 16, AVX-512 (vdpbf16ps, vpdpbusd); "
           "4, AArch64 NEON (bfdot)">,
  ];
  let dependentDialects = ["mlir::vector::VectorDialect", "mlir::linalg::LinalgDialect",
                           "mlir::memref::MemRefDialect", "mlir::arith::ArithDialect",
                           "mlir::x86vector::X86VectorDialect", "mlir::LLVM::LLVMDialect"];
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

    First, a `linalg.transpose` (32-bit elements) that splits rows of adjacent element pairs
    `[..., X, 2]` into two unit-stride rows (a stride-2 phase split) or merges two unit-stride
    rows into one row of pairs becomes loops around whole-vector loads, `vector.deinterleave`
    or `vector.interleave`, and stores (the last partial vector masked).
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

def TLCReadUnpaddedRows : Pass<"tlc-read-unpadded-rows", "mlir::func::FuncOp"> {
  let summary = "Depthwise convolutions read their padded input's source (before the memory plan)";
  let description = [{
    A depthwise convolution on buffers (tlc-lower-convolutions' generic over
    (n, c, oh, kh, kw, ow)) whose row input is an alloc filled with a constant and then given
    the interior of one `memref.copy` of another buffer (a bufferized pad) gets that buffer as
    a third input, read at (n, c, 0, 0) by no block argument, and `tlc.padded_source =
    {source = 2, low, map, value}` (the padding before each dimension, the row input's map,
    the fill value). The source then stays live up to the convolution in the memory plan; a
    write into its storage between the copy and the convolution (bufferization gives the
    convolution's output the source's buffer once the copy was its last read) moves, with
    every later use of that buffer, to an alloc of its own. `tlc-tile-depthwise` reads the
    rows from the source, the lanes outside it set to the fill value, and erases the padded
    copy's fill and copy when nothing else reads it. The op stays correct as it is: where the
    row tiles cannot take it, the padded copy is still made and read.
  }];
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
    element is kept. An op with `tlc.padded_source` (tlc-read-unpadded-rows) reads each tap's
    row from the unpadded source instead: a load masked by column (the lanes outside the
    source's row take the padding value) from the row clamped into the source, the padding
    selected for a row outside it; the padded copy's fill and copy are then erased when
    nothing else reads it. An epilogue whose output may overlap the rows' memory stays a pass
    of its own. A tile of at most `straight-line-steps` vector steps (rows x vectors per row x
    taps) is instead straight-line code over all its taps and several output rows (the
    largest divisor of the output's second-to-last dimension whose accumulators take at most
    half of `registers`), with constant indices: one accumulator per row starting from the
    fill's value (the fill erased), a padded source's rows outside it folded to the padding,
    the epilogue on each finished row before its only write.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "the target's vector register width in bits (lanes = bits / 32)">,
    Option<"vectors", "vectors", "int64_t", /*default=*/"4",
           "vector registers per tile row (accumulators)">,
    Option<"registers", "registers", "int64_t", /*default=*/"16",
           "the target's vector registers (a straight-line tile's accumulators take up to half)">,
    Option<"straightLineSteps", "straight-line-steps", "int64_t", /*default=*/"512",
           "most vector steps (rows x vectors per row x taps) of a tile written as straight-line code over all its taps and several rows (0: none)">,
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
    `tlc.parallel_launch = @<func>_par`. Constants are rematerialized, globals (weights)
    passed like other buffers, so that layers of one shape outline to bodies that
    `tlc-merge-parallel-bodies` compiles once; captured memrefs must
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

def TLCMergeParallelBodies : Pass<"tlc-merge-parallel-bodies", "mlir::ModuleOp"> {
  let summary = "Compile outlined parallel bodies that are the same function once";
  let description = [{
    Layers of one shape (a ResNet's repeated blocks, the Winograd transforms of layers with
    one channel count) outline to parallel bodies that differ only in their names: their
    weights and workspace slots arrive as arguments. Bodies whose types and regions are
    equivalent (`OperationEquivalence`, locations ignored) become one: the first is kept, the
    calls of the others' `tlc.parallel_launch` declarations call its launch, and the others
    are erased, so LLVM optimizes and emits each kernel once (resnet50: 125 bodies, 79
    distinct).
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def TLCOutlineMath : Pass<"tlc-outline-math", "mlir::ModuleOp"> {
  let summary = "Calls one copy of each transcendental math op from blocks with very many";
  let description = [{
    tlc-approximate-math expands each exp, log, tanh, erf, sin, ... into a dozen to thirty
    vector instructions. A loop body that holds more than `max-inline` of them (a fused chain
    of hundreds of elementwise ops) would grow to thousands of instructions, and LLVM's time
    grows with that (its register allocator faster than linearly in one block). In such a
    block each of these ops becomes a `func.call` of a private `no_inline` function
    `@tlc_math_<op>` holding the op once (one per op name, attributes and types; expanded
    later like any other). A block with fewer is unchanged, so the usual kernels (softmax's
    exp, GELU's erf, a recurrent cell's five activations) keep their inline expansions.
  }];
  let options = [
    Option<"maxInline", "max-inline", "unsigned", /*default=*/"16",
           "most expanding math ops a block keeps inline">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def TLCSplitLongFunctions : Pass<"tlc-split-long-functions", "mlir::ModuleOp"> {
  let summary = "Move runs of loops of a function with very many into separate functions";
  let description = [{
    LLVM keeps a function's dominator tree up to date as its loop passes rewrite each loop; in a
    function of n loops in sequence that tree is a chain n deep, so LoopRotate alone takes time
    quadratic in n (a model of a thousand unfused ops spent most of its compile there). Its register
    allocator and machine scheduler take time more than linear in a function's size: a fused chain
    of thousands of elementwise ops spent most of its compile allocating registers, a concat of a
    thousand small computed tensors (their loops fully unrolled into one block of thousands of loads
    and stores) scheduling them. In a function whose body holds more than `max-loops` top-level ops
    with regions (loop nests), or more than `max-ops` ops in all (nested ones counted), runs of
    about `max-loops` loop nests or `max-ops` ops, with the ops between, move into private functions
    `@<func>_chunk(captures...)` that neither MLIR nor LLVM inlines, called in their place. Ops free
    of memory effects and regions (constants, views, index arithmetic) that a run uses are cloned
    into it; other captures must be scalars or memrefs of static shape and identity layout (they
    cross as bare pointers); a run is cut only where no value with memory effects crosses the cut. A
    run whose captures cannot cross stays where it is. Functions with fewer loops and ops are left
    unchanged. A run costs one call (the test suite's resnet18 makes two per inference).
  }];
  let options = [
    Option<"maxLoops", "max-loops", "unsigned", /*default=*/"64",
           "split functions with more top-level loop nests than this, into runs of this many">,
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"4096",
           "split functions of more ops than this (nested ones counted), into runs of about "
           "this many">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def TLCLowerParallelLaunch : Pass<"tlc-lower-parallel-launch", "mlir::ModuleOp"> {
  let summary = "Turn calls of outlined parallel loops into tlc_parallel_for runtime calls";
  let description = [{
    In the LLVM dialect, replaces every call of a declaration marked `tlc.parallel_launch =
    @body` with: the captured arguments stored into a context struct (an alloca in the
    caller's entry block), and `tlc_parallel_for(@body_tramp, ctx, n)`, where the internal
    `@body_tramp(ctx, begin, end)` loads them and calls `@body(begin, end, ...)`. The body
    becomes `always_inline`, so LLVM optimizes it once, inside the trampoline. The launch
    declarations are erased. The runtime (libtlcrt) splits [0, n) over its thread pool.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def TLCExpandBF16Truncation : Pass<"tlc-expand-bf16-truncation", "mlir::ModuleOp"> {
  let summary = "Expand f32 -> bf16 truncations to integer arithmetic that vectorizes";
  let description = [{
    Rewrites each `arith.truncf` from f32 (or a vector of f32) to bf16 without a rounding mode
    (round to nearest even) as integer operations on the f32 bits: add 0x7fff plus the lowest
    kept bit, for NaN select the bits with the quiet bit set instead, shift right by 16,
    truncate to i16, bitcast. The same rounding as upstream's arith-expand (PyTorch's
    algorithm); NaNs keep sign and payload as with vcvtneps2bf16 (arith-expand makes them
    0x7fc0). The difference that matters is code: arith-expand selects a constant after
    truncating to i16, LLVM turns that into a select on bf16 lanes, and X86 without
    AVX512_BF16 scalarizes it (a reload, compare and cmov per element). Here the select is on
    the i32 lanes with no constant arm, which LLVM leaves there. For CPUs without a bf16
    conversion instruction; where there is one (AVX512_BF16's vcvtneps2bf16, AArch64's
    bfcvtn), the truncation is left to LLVM.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
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

#endif // TLC_TARGETS_CPU_CPUPASSES_TD

def TLCShareEntryAllocas : Pass<"tlc-share-entry-allocas", "mlir::func::FuncOp"> {
  let summary = "Share one stack buffer among a function's top-level allocas by live range";
  let description = [{
    The static `memref.alloca`s at a function's top level (the packed operand panels of the
    contractions that run on the calling thread, which tlc-tile-contractions allocates at the
    function's entry) all stayed in the function's frame at once: a 12-layer transformer's
    training step needed 12.6 MB of stack and overflowed the 8 MB main thread. Each such
    buffer's live range is the span of top-level ops that use it (or views of it); the pass
    places them in one i8 alloca as tlc-plan-workspace places the workspace's buffers
    (`tlc::placeGreedyBySize`: largest first, best fit among the buffers live at the same
    time, 64-byte aligned) and replaces each by a `memref.view` of it.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

