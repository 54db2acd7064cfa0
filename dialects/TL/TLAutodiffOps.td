// The gradient op of the tl dialect (reverse-mode autodiff; see tl-autodiff).
#ifndef TL_AUTODIFF_OPS_TD
#define TL_AUTODIFF_OPS_TD

def TL_GradOp : TL_Op<"grad", [AllTypesMatch<["wrt", "result"]>]> {
  let summary = "the gradient of a scalar with respect to a tensor";
  let description = [{
    The derivative of the rank-0 float `loss` with respect to every element of `wrt` (of
    `wrt`'s type; zeros where `loss` does not depend on `wrt`). It only states what is wanted:
    `tl-autodiff` replaces it with the reverse-mode backward graph, built from the
    vector-Jacobian products the ops on the way give through `DifferentiableOpInterface`, and
    shares one backward sweep among all gradients of one loss.

    ```mlir
    %dw = tl.grad %loss wrt %w : tensor<f32>, tensor<784x256xf32>
    ```
  }];
  let arguments = (ins TL_FloatTensor:$loss, TL_FloatTensor:$wrt);
  let results = (outs TL_FloatTensor:$result);
  let assemblyFormat = "$loss `wrt` $wrt attr-dict `:` type($loss) `,` type($wrt)";
  let hasVerifier = 1;
}

def TL_RematBarrierOp : TL_Op<"remat_barrier", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "a value read by rematerialized (recomputed) ops";
  let description = [{
    The identity. `tl-autodiff` with a rematerialization policy recomputes forward values for
    the backward pass from the kept ones; the recomputed ops read the kept values through this
    op, so CSE cannot merge a recomputation back into the forward op it copies (which would
    keep the forward value alive again). It has no folder; `tlc-drop-remat-barriers` removes it
    after the last tensor-level CSE, before bufferization.

    ```mlir
    %k = tl.remat_barrier %x : tensor<8x128x256xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

#endif // TL_AUTODIFF_OPS_TD
