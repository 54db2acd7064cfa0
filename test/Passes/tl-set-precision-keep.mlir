// RUN: tlc-opt %s -tl-set-precision="precision=bf16 keep-f32=fc2" | FileCheck %s --check-prefix=KEEP
// RUN: tlc-opt %s -tl-set-precision=precision=bf16 -canonicalize -cse | FileCheck %s --check-prefix=FOLD

// --keep-fp32 by name: the op whose location names "fc2" stays f32 (recorded as such); the
// other is demoted. A value cast to bf16 and back to bf16 folds (exact round trip); the
// order f32 -> bf16 -> f32 rounds and stays (both casts remain).
// KEEP-LABEL: func.func @keep
// KEEP: tl.einsum {{.*}} {tl.precision = "bf16"} : (tensor<2x3xbf16>, tensor<3x3xbf16>) -> tensor<2x3xf32>
// KEEP: tl.einsum {{.*}} {tl.precision = "f32"} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
// FOLD-LABEL: func.func @keep
// FOLD-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[W:.+]]: tensor<3x3xf32>, %[[H:.+]]: tensor<2x3xbf16>)
// FOLD: %[[R:.+]] = tl.cast %[[X]] : tensor<2x3xf32> to tensor<2x3xbf16>
// FOLD: %[[B:.+]] = tl.cast %[[R]] : tensor<2x3xbf16> to tensor<2x3xf32>
// FOLD: return %{{.+}}, %[[B]], %[[H]]
func.func @keep(%x: tensor<2x3xf32>, %w: tensor<3x3xf32>, %h: tensor<2x3xbf16>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xbf16>) {
  %a = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32> loc("fc1")
  %b = tl.einsum "ij,jk->ik" %a, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32> loc("fc2")
  %r = tl.cast %x : tensor<2x3xf32> to tensor<2x3xbf16>
  %rb = tl.cast %r : tensor<2x3xbf16> to tensor<2x3xf32>
  %hw = tl.cast %h : tensor<2x3xbf16> to tensor<2x3xf32>
  %hb = tl.cast %hw : tensor<2x3xf32> to tensor<2x3xbf16>
  return %b, %rb, %hb : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xbf16>
}

// --keep-fp32 names an embedding gather too: its table stays f32.
// KEEP-LABEL: func.func @keep_table
// KEEP: tl.gather {{.*}} {tl.precision = "f32"} : tensor<4x2xf32>, tensor<2xi64> -> tensor<2x2xf32>
// KEEP-NOT: tl.cast
// KEEP: return
func.func @keep_table(%ids: tensor<2xi64>) -> tensor<2x2xf32> {
  %table = tl.constant dense<1.5> : tensor<4x2xf32>
  %e = tl.gather %table[%ids] axis = 0 : tensor<4x2xf32>, tensor<2xi64> -> tensor<2x2xf32> loc("fc2")
  return %e : tensor<2x2xf32>
}
