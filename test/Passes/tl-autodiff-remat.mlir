// RUN: tlc-opt %s -tl-autodiff=remat=none | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt %s -tl-autodiff=remat=cheap | FileCheck %s --check-prefix=CHEAP
// RUN: tlc-opt %s -tl-autodiff=remat=segments=2 | FileCheck %s --check-prefix=SEG2
// RUN: tlc-opt %s -tl-autodiff=remat=segments=3 | FileCheck %s --check-prefix=SEG3
// RUN: tlc-opt %s -tl-autodiff | FileCheck %s --check-prefix=UNSET
// RUN: not tlc-opt %s -tl-autodiff=remat=segments=1 2>&1 | FileCheck %s --check-prefix=BAD

// Two tanh layers. The backward pass reads t = tanh(h) (the second einsum's gradient and the
// first tanh's) and u = tanh(y) (the second tanh's): kept by none; cheap would recompute them
// from the einsums' results, but those are not kept (not read by the backward pass), so it
// keeps them too; segments=2 keeps the one cut value nearest half the saved bytes (t) and
// recomputes u from it (an einsum and a tanh, copied before the first reader and reading t and
// w2 through barriers); segments=3 keeps t and y and recomputes u from y.
// The record (tl.remat) lists kept and recomputed values with their locations and the FLOPs.

// NONE: tl.remat = {cut_points = 4 : i64, extra_flops = 0 : i64, flops = 3360 : i64, kept = [{bytes = 128 : i64, loc = #{{.+}}, type = tensor<4x8xf32>}, {bytes = 128 : i64, loc = #{{.+}}, type = tensor<4x8xf32>}], policy = "none", recomputed = []}
// NONE-NOT: tl.remat_barrier

// CHEAP: policy = "cheap", recomputed = []
// CHEAP-NOT: tl.remat_barrier

// SEG2: extra_flops = 544 : i64
// SEG2-SAME: policy = "segments=2"
// SEG2: %[[T:.+]] = tl.tanh %{{.+}} : tensor<4x8xf32>
// SEG2: %[[Y:.+]] = tl.einsum "ij,jk->ik" %[[T]], %arg2
// SEG2: %[[U:.+]] = tl.tanh %[[Y]] : tensor<4x8xf32>
// SEG2: tl.reduce_sum %[[U]]
// SEG2: %[[BT:.+]] = tl.remat_barrier %[[T]] : tensor<4x8xf32>
// SEG2: %[[BW:.+]] = tl.remat_barrier %arg2 : tensor<8x8xf32>
// SEG2: %[[Y2:.+]] = tl.einsum "ij,jk->ik" %[[BT]], %[[BW]]
// SEG2: %[[U2:.+]] = tl.tanh %[[Y2]] : tensor<4x8xf32>
// SEG2: tl.mul %[[U2]], %[[U2]]
// SEG2-NOT: tl.mul %[[U]], %[[U]]
// SEG2: tl.einsum "ab,ac->cb" %{{.+}}, %[[T]]

// SEG3: extra_flops = 32 : i64
// SEG3: %[[Y:.+]] = tl.einsum "ij,jk->ik" %{{[0-9]+}}, %arg2
// SEG3: %[[BY:.+]] = tl.remat_barrier %[[Y]] : tensor<4x8xf32>
// SEG3-NEXT: %[[U2:.+]] = tl.tanh %[[BY]] : tensor<4x8xf32>
// SEG3-NEXT: tl.mul %[[U2]], %[[U2]]

// UNSET-NOT: tl.remat

// BAD: error: remat='segments=1': expected none, cheap or segments=N with N >= 2
func.func @f(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %h = tl.einsum "ij,jk->ik" %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %t = tl.tanh %h : tensor<4x8xf32>
  %y = tl.einsum "ij,jk->ik" %t, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %u = tl.tanh %y : tensor<4x8xf32>
  %l = tl.reduce_sum %u axes = [0, 1] : tensor<4x8xf32> -> tensor<f32>
  %g = tl.grad %l wrt %w1 : tensor<f32>, tensor<8x8xf32>
  return %g : tensor<8x8xf32>
}
