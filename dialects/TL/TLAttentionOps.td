// Attention operations of the tl dialect (included at the end of TLOps.td).
#ifndef TL_ATTENTION_OPS_TD
#define TL_ATTENTION_OPS_TD

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

def TL_AttentionOp : TL_Op<"attention", [
    DeclareOpInterfaceMethods<TL_CostOpInterface>,
    DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "scaled dot-product attention, optionally causal and/or with an additive mask";
  let description = [{
    Computes `softmax(scale * Q K^T + mask) V` over the last two axes:

    - `query` is `[B..., Sq, D]`, `key` is `[B..., Sk, D]`, `value` is `[B..., Sk, Dv]`, and the
      result is `[B..., Sq, Dv]`. The leading (batch) axes `B...` are identical for all three
      (e.g. `[batch, heads]`: the layout is batch, heads, sequence, head dim). Rank is at least 2.
    - `mask`, when present, is added to the scaled scores; its shape broadcasts (numpy rules,
      right-aligned) to `[B..., Sq, Sk]`, e.g. `[Sq, Sk]` for one mask shared by all heads, or
      `[B, 1, 1, Sk]` for key padding. Use a large negative value (or `-inf`) to mask out.
    - `causal` masks key `j` out of query row `i` when `j > i` (top-left aligned, as
      PyTorch's `is_causal`).
    - `scale` multiplies the scores before the mask is added; frontends default it to
      `1 / sqrt(D)`.

    A row whose every key is masked out has no defined result. All operands share one
    floating-point element type. The op carries the meaning only; the CPU lowering tiles it
    into an online-softmax (flash attention) loop nest that never forms the `Sq x Sk` scores.

    ```mlir
    %o = tl.attention %q, %k, %v causal scale = 1.250000e-01
        : tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32>
        -> tensor<2x4x128x64xf32>
    %p = tl.attention %q, %k, %v mask %m scale = 1.250000e-01
        : tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32>,
          tensor<128x128xf32> -> tensor<2x4x128x64xf32>
    ```
  }];
  let arguments = (ins TL_FloatTensor:$query, TL_FloatTensor:$key, TL_FloatTensor:$value,
                       Optional<TL_FloatTensor>:$mask, F64Attr:$scale, UnitAttr:$causal);
  let results = (outs TL_FloatTensor:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` $mask^)? (`causal` $causal^)? `scale` `=` $scale attr-dict
    `:` type($query) `,` type($key) `,` type($value) (`,` type($mask)^)? `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of leading batch axes (rank - 2).
    int64_t getNumBatchDims() { return getQuery().getType().getRank() - 2; }
  }];
}

def TL_TensorOrBuffer : AnyTypeOf<[AnyRankedTensor, AnyMemRef], "ranked tensor or memref">;

def TL_FusedAttentionOp : Op<TL_Dialect, "fused_attention", [
    DestinationStyleOpInterface, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "tl.attention as one kernel writing into a destination (tensors or buffers)";
  let description = [{
    The meaning of `tl.attention` (same operands, `scale` and `causal`), written into `init` in
    destination-passing style, so it bufferizes like a linalg op and reaches the GPU mapping
    as one op on buffers: the GPU targets run it as one flash-attention kernel that never forms
    the `Sq x Sk` scores. On tensors it returns the written `init`; on buffers it has no result
    and reads its inputs and writes `init`. `init`'s contents are not read.

    ```mlir
    %o = tl.fused_attention %q, %k, %v causal scale = 1.250000e-01 outs(%e)
        : tensor<2x128x64xf32>, tensor<2x128x64xf32>, tensor<2x128x64xf32>
        into tensor<2x128x64xf32> -> tensor<2x128x64xf32>
    tl.fused_attention %qb, %kb, %vb scale = 1.250000e-01 outs(%ob)
        : memref<2x128x64xf32>, memref<2x128x64xf32>, memref<2x128x64xf32>
        into memref<2x128x64xf32>
    ```
  }];
  let arguments = (ins TL_TensorOrBuffer:$query, TL_TensorOrBuffer:$key,
                       TL_TensorOrBuffer:$value, Optional<TL_TensorOrBuffer>:$mask,
                       TL_TensorOrBuffer:$init, F64Attr:$scale, UnitAttr:$causal);
  let results = (outs Variadic<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` $mask^)? (`causal` $causal^)? `scale` `=` $scale
    `outs` `(` $init `)` attr-dict `:` type($query) `,` type($key) `,` type($value)
    (`,` type($mask)^)? `into` type($init) (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getInitMutable(); }
    /// The number of leading batch axes (rank - 2).
    int64_t getNumBatchDims() {
      return ::mlir::cast<::mlir::ShapedType>(getQuery().getType()).getRank() - 2;
    }
  }];
}

#endif // TL_ATTENTION_OPS_TD
