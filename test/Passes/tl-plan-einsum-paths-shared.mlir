// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths=path=none | FileCheck %s --check-prefix=NONE

// Two chains that both start with a b: that step is computed once (the paths spell their steps
// with canonical letters, so the second one is the same op as the first).
// CHECK-LABEL: func.func @two_chains
// CHECK: %[[AB:.+]] = tl.einsum "ab,bc->ac" %arg0, %arg1
// CHECK-NOT: tl.einsum "ab,bc->ac" %arg0, %arg1
// CHECK: %[[R1:.+]] = tl.einsum "ab,bc->ac" %[[AB]], %arg2
// CHECK: %[[R2:.+]] = tl.einsum "ab,bc->ac" %[[AB]], %arg3
// CHECK: return %[[R1]], %[[R2]]
// NONE-LABEL: func.func @two_chains
// NONE: tl.einsum "ij,jk,kl->il"
// NONE: tl.einsum "ij,jk,km->im"
func.func @two_chains(%a: tensor<8x64xf32>, %b: tensor<64x4xf32>, %c: tensor<4x32xf32>, %d: tensor<4x16xf32>) -> (tensor<8x32xf32>, tensor<8x16xf32>) {
  %r1 = tl.einsum "ij,jk,kl->il" %a, %b, %c : (tensor<8x64xf32>, tensor<64x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
  %r2 = tl.einsum "ij,jk,km->im" %a, %b, %d : (tensor<8x64xf32>, tensor<64x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return %r1, %r2 : tensor<8x32xf32>, tensor<8x16xf32>
}

// -----

// A path step that the program also computes by hand, with other letters ("pj,jq->pq"): the
// hand-written einsum is the first of the two, so the step reuses it.
// CHECK-LABEL: func.func @written_out
// CHECK: %[[AB:.+]] = tl.einsum "pj,jq->pq" %arg0, %arg1
// CHECK-NOT: tl.einsum "ab,bc->ac" %arg0, %arg1
// CHECK: %[[R:.+]] = tl.einsum "ab,bc->ac" %[[AB]], %arg2
// CHECK: return %[[AB]], %[[R]]
func.func @written_out(%a: tensor<8x64xf32>, %b: tensor<64x4xf32>, %c: tensor<4x32xf32>) -> (tensor<8x4xf32>, tensor<8x32xf32>) {
  %ab = tl.einsum "pj,jq->pq" %a, %b : (tensor<8x64xf32>, tensor<64x4xf32>) -> tensor<8x4xf32>
  %r = tl.einsum "ij,jk,kl->il" %a, %b, %c : (tensor<8x64xf32>, tensor<64x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
  return %ab, %r : tensor<8x4xf32>, tensor<8x32xf32>
}

// -----

// Not the same contraction: another result layout (ki), other operands (b a), an implicit
// output (whose sorted labels are part of its meaning: "ji" is a transpose, "ij" is not).
// CHECK-LABEL: func.func @different
// CHECK: tl.einsum "ij,jk->ik" %arg0, %arg1
// CHECK: tl.einsum "ij,jk->ki" %arg0, %arg1
// CHECK: tl.einsum "ij,jk->ik" %arg1, %arg2
// CHECK: tl.einsum "ji" %arg3
// CHECK: tl.einsum "ij" %arg3
func.func @different(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>, %m: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = tl.einsum "ij,jk->ik" %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tl.einsum "ij,jk->ki" %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = tl.einsum "ij,jk->ik" %b, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = tl.einsum "ji" %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = tl.einsum "ij" %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
