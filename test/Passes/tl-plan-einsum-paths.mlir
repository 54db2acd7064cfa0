// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths=path=none | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths=path=greedy | FileCheck %s --check-prefix=GREEDY
// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths=exact-limit=2 | FileCheck %s --check-prefix=LIMIT

// A chain: (a b) c costs 8*64*4 + 8*4*32 multiply-adds, a (b c) 64*4*32 + 8*64*32. Each step
// is a plain GEMM "ab,bc->ac" (k innermost in the left operand, n in the right one and the
// result). path=none leaves the one loop nest; greedy finds the same order here.
// CHECK-LABEL: func.func @chain_left_first
// CHECK: %[[AB:.+]] = tl.einsum "ab,bc->ac" %arg0, %arg1 : (tensor<8x64xf32>, tensor<64x4xf32>) -> tensor<8x4xf32>
// CHECK: %[[R:.+]] = tl.einsum "ab,bc->ac" %[[AB]], %arg2 : (tensor<8x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
// CHECK: return %[[R]]
// NONE-LABEL: func.func @chain_left_first
// NONE: tl.einsum "ij,jk,kl->il" %arg0, %arg1, %arg2
// GREEDY-LABEL: func.func @chain_left_first
// GREEDY: tl.einsum "ab,bc->ac" %arg0, %arg1
func.func @chain_left_first(%a: tensor<8x64xf32>, %b: tensor<64x4xf32>, %c: tensor<4x32xf32>) -> tensor<8x32xf32> {
  %r = tl.einsum "ij,jk,kl->il" %a, %b, %c : (tensor<8x64xf32>, tensor<64x4xf32>, tensor<4x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// The other way round: b c first (4*64*8 + 32*4*8 against 32*4*64 + 32*64*8).
// CHECK-LABEL: func.func @chain_right_first
// CHECK: %[[BC:.+]] = tl.einsum "ab,bc->ac" %arg1, %arg2 : (tensor<4x64xf32>, tensor<64x8xf32>) -> tensor<4x8xf32>
// CHECK: tl.einsum "ab,bc->ac" %arg0, %[[BC]] : (tensor<32x4xf32>, tensor<4x8xf32>) -> tensor<32x8xf32>
func.func @chain_right_first(%a: tensor<32x4xf32>, %b: tensor<4x64xf32>, %c: tensor<64x8xf32>) -> tensor<32x8xf32> {
  %r = tl.einsum "ij,jk,kl->il" %a, %b, %c : (tensor<32x4xf32>, tensor<4x64xf32>, tensor<64x8xf32>) -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}

// -----

// A star: the center absorbs the leaves, smallest first (2, then 3, then 4 rows), so every
// intermediate shrinks; the operands swap where the other one carries the result's innermost
// label (the center's k) last.
// CHECK-LABEL: func.func @star
// CHECK: %[[X:.+]] = tl.einsum "ab,bcd->acd" %arg1, %arg0 : (tensor<2x8xf32>, tensor<8x8x8xf32>) -> tensor<2x8x8xf32>
// CHECK: %[[Y:.+]] = tl.einsum "ab,cbd->acd" %arg2, %[[X]] : (tensor<3x8xf32>, tensor<2x8x8xf32>) -> tensor<3x2x8xf32>
// CHECK: tl.einsum "abc,dc->bad" %[[Y]], %arg3 : (tensor<3x2x8xf32>, tensor<4x8xf32>) -> tensor<2x3x4xf32>
func.func @star(%t: tensor<8x8x8xf32>, %x: tensor<2x8xf32>, %y: tensor<3x8xf32>, %z: tensor<4x8xf32>) -> tensor<2x3x4xf32> {
  %r = tl.einsum "ijk,ai,bj,ck->abc" %t, %x, %y, %z : (tensor<8x8x8xf32>, tensor<2x8xf32>, tensor<3x8xf32>, tensor<4x8xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// -----

// A ring (the trace of a product): the two halves, then the trace of their product.
// CHECK-LABEL: func.func @ring
// CHECK: %[[AB:.+]] = tl.einsum "ab,bc->ac" %arg0, %arg1 : (tensor<2x16xf32>, tensor<16x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[CD:.+]] = tl.einsum "ab,bc->ac" %arg2, %arg3 : (tensor<2x16xf32>, tensor<16x2xf32>) -> tensor<2x2xf32>
// CHECK: tl.einsum "ab,ba->" %[[AB]], %[[CD]] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<f32>
func.func @ring(%a: tensor<2x16xf32>, %b: tensor<16x2xf32>, %c: tensor<2x16xf32>, %d: tensor<16x2xf32>) -> tensor<f32> {
  %r = tl.einsum "ab,bc,cd,da->" %a, %b, %c, %d : (tensor<2x16xf32>, tensor<16x2xf32>, tensor<2x16xf32>, tensor<16x2xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// The MPS of examples/tensor_network.tl: contracted from both ends towards the middle; the
// summed boundary labels go first, into the end sites.
// CHECK-LABEL: func.func @tensor_network
// CHECK: %[[L:.+]] = tl.einsum "a,abc->bc" %arg0, %arg1 : (tensor<5xf32>, tensor<5x3x6xf32>) -> tensor<3x6xf32>
// CHECK: %[[L2:.+]] = tl.einsum "ab,bcd->acd" %[[L]], %arg2 : (tensor<3x6xf32>, tensor<6x3x6xf32>) -> tensor<3x3x6xf32>
// CHECK: %[[R:.+]] = tl.einsum "abc,c->ab" %arg4, %arg5 : (tensor<6x3x5xf32>, tensor<5xf32>) -> tensor<6x3xf32>
// CHECK: %[[R2:.+]] = tl.einsum "abc,cd->abd" %arg3, %[[R]] : (tensor<6x3x6xf32>, tensor<6x3xf32>) -> tensor<6x3x3xf32>
// CHECK: tl.einsum "abc,cde->abde" %[[L2]], %[[R2]] : (tensor<3x3x6xf32>, tensor<6x3x3xf32>) -> tensor<3x3x3x3xf32>
func.func @tensor_network(%l: tensor<5xf32>, %a1: tensor<5x3x6xf32>, %a2: tensor<6x3x6xf32>, %a3: tensor<6x3x6xf32>, %a4: tensor<6x3x5xf32>, %r: tensor<5xf32>) -> tensor<3x3x3x3xf32> {
  %psi = tl.einsum "a,apb,bqc,crd,dse,e->pqrs" %l, %a1, %a2, %a3, %a4, %r : (tensor<5xf32>, tensor<5x3x6xf32>, tensor<6x3x6xf32>, tensor<6x3x6xf32>, tensor<6x3x5xf32>, tensor<5xf32>) -> tensor<3x3x3x3xf32>
  return %psi : tensor<3x3x3x3xf32>
}

// -----

// `...` broadcasting: the size-1 batch axis of the second operand is reshaped away (it
// broadcasts), b c is contracted first, and the batch axes of the first operand stay m axes.
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[B:.+]] = tl.reshape %arg1 : tensor<1x5x6xf32> -> tensor<5x6xf32>
// CHECK: %[[BC:.+]] = tl.einsum "ab,bc->ac" %[[B]], %arg2 : (tensor<5x6xf32>, tensor<6x7xf32>) -> tensor<5x7xf32>
// CHECK: tl.einsum "abc,cd->abd" %arg0, %[[BC]] : (tensor<3x4x5xf32>, tensor<5x7xf32>) -> tensor<3x4x7xf32>
func.func @broadcast(%a: tensor<3x4x5xf32>, %b: tensor<1x5x6xf32>, %c: tensor<6x7xf32>) -> tensor<3x4x7xf32> {
  %r = tl.einsum "...ij,...jk,kl->...il" %a, %b, %c : (tensor<3x4x5xf32>, tensor<1x5x6xf32>, tensor<6x7xf32>) -> tensor<3x4x7xf32>
  return %r : tensor<3x4x7xf32>
}

// -----

// A diagonal is taken and a label summed out of one operand only (x) is reduced before the
// contractions. With exact-limit=2 the greedy order applies (a worse one here: 4*8*6 + 4*6*3
// multiply-adds against 8*6*3 + 4*8*3).
// CHECK-LABEL: func.func @diagonal_and_unique
// CHECK: %[[D:.+]] = tl.einsum "aab->ab" %arg0 : (tensor<4x4x8xf32>) -> tensor<4x8xf32>
// CHECK: %[[S:.+]] = tl.einsum "abc->ab" %arg1 : (tensor<8x6x5xf32>) -> tensor<8x6xf32>
// CHECK: %[[SC:.+]] = tl.einsum "ab,bc->ac" %[[S]], %arg2 : (tensor<8x6xf32>, tensor<6x3xf32>) -> tensor<8x3xf32>
// CHECK: tl.einsum "ab,bc->ac" %[[D]], %[[SC]] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// LIMIT-LABEL: func.func @diagonal_and_unique
// LIMIT: %[[D:.+]] = tl.einsum "aab->ab" %arg0
// LIMIT: %[[S:.+]] = tl.einsum "abc->ab" %arg1
// LIMIT: %[[DS:.+]] = tl.einsum "ab,bc->ac" %[[D]], %[[S]] : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
// LIMIT: tl.einsum "ab,bc->ac" %[[DS]], %arg2
func.func @diagonal_and_unique(%a: tensor<4x4x8xf32>, %b: tensor<8x6x5xf32>, %c: tensor<6x3xf32>) -> tensor<4x3xf32> {
  %r = tl.einsum "iij,jkx,kl->il" %a, %b, %c : (tensor<4x4x8xf32>, tensor<8x6x5xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Summing b inside the first contraction (4*8 points) is cheaper than a reduction of its own
// followed by one more product, so b is not reduced first here.
// CHECK-LABEL: func.func @fold_into_contraction
// CHECK: %[[P:.+]] = tl.einsum "ab,a->a" %arg0, %arg2 : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: tl.einsum "a,a->a" %[[P]], %arg1
// GREEDY-LABEL: func.func @fold_into_contraction
// GREEDY: %[[P:.+]] = tl.einsum "a,a->a" %arg1, %arg2
// GREEDY: tl.einsum "ab,a->a" %arg0, %[[P]]
func.func @fold_into_contraction(%a: tensor<4x8xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r = tl.einsum "ab,a,a->a" %a, %b, %c : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Left alone: two operands (already pairwise, labels kept as written), one operand.
// CHECK-LABEL: func.func @untouched
// CHECK: tl.einsum "ij,jk->ik" %arg0, %arg1
// CHECK: tl.einsum "ii" %arg2
func.func @untouched(%a: tensor<8x64xf32>, %b: tensor<64x4xf32>, %m: tensor<3x3xf32>) -> (tensor<8x4xf32>, tensor<f32>) {
  %r = tl.einsum "ij,jk->ik" %a, %b : (tensor<8x64xf32>, tensor<64x4xf32>) -> tensor<8x4xf32>
  %t = tl.einsum "ii" %m : (tensor<3x3xf32>) -> tensor<f32>
  return %r, %t : tensor<8x4xf32>, tensor<f32>
}
