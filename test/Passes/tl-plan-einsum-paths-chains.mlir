// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths=merge-chains=false | FileCheck %s --check-prefix=KEEP
// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths=path=greedy | FileCheck %s --check-prefix=KEEP
// RUN: tlc-opt %s -split-input-file -tl-plan-einsum-paths=exact-limit=2 | FileCheck %s --check-prefix=KEEP

// A chain written as two einsums, (a b) c, where a (b c) costs fewer multiply-adds
// (4*64*8 + 32*4*8 against 32*4*64 + 32*64*8): merged into one einsum of three operands, then
// planned as a whole. Without merging (or with greedy paths, or an exact limit below three
// operands) the order stays as written.
// CHECK-LABEL: func.func @chain_as_written_costs_more
// CHECK: %[[BC:.+]] = tl.einsum "ab,bc->ac" %arg1, %arg2 : (tensor<4x64xf32>, tensor<64x8xf32>) -> tensor<4x8xf32>
// CHECK: %[[R:.+]] = tl.einsum "ab,bc->ac" %arg0, %[[BC]] : (tensor<32x4xf32>, tensor<4x8xf32>) -> tensor<32x8xf32>
// CHECK: return %[[R]]
// KEEP-LABEL: func.func @chain_as_written_costs_more
// KEEP: %[[AB:.+]] = tl.einsum "ij,jk->ik" %arg0, %arg1
// KEEP: tl.einsum "ik,kl->il" %[[AB]], %arg2
func.func @chain_as_written_costs_more(%a: tensor<32x4xf32>, %b: tensor<4x64xf32>, %c: tensor<64x8xf32>) -> tensor<32x8xf32> {
  %ab = tl.einsum "ij,jk->ik" %a, %b : (tensor<32x4xf32>, tensor<4x64xf32>) -> tensor<32x64xf32>
  %r = tl.einsum "ik,kl->il" %ab, %c : (tensor<32x64xf32>, tensor<64x8xf32>) -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}

// -----

// A chain of four matrices in three einsums, the intermediate labels renamed along the way (the
// middle einsum names its operands' axes x, y; the producer's summed j becomes a new label):
// all fold into one einsum of four operands. As written, ((a b) c) d costs 8K + 8K + 256K
// multiply-adds; the cheapest order keeps the rank-2 bottleneck: (a b) and (c d) (8K each),
// then their product (8K).
// CHECK-LABEL: func.func @chain_of_four
// CHECK: %[[AB:.+]] = tl.einsum "ab,bc->ac" %arg0, %arg1 : (tensor<64x64xf32>, tensor<64x2xf32>) -> tensor<64x2xf32>
// CHECK: %[[CD:.+]] = tl.einsum "ab,bc->ac" %arg2, %arg3 : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
// CHECK: %[[R:.+]] = tl.einsum "ab,bc->ac" %[[AB]], %[[CD]] : (tensor<64x2xf32>, tensor<2x64xf32>) -> tensor<64x64xf32>
// CHECK: return %[[R]]
// KEEP-LABEL: func.func @chain_of_four
// KEEP: tl.einsum "ij,jk->ik" %arg0, %arg1
// KEEP: tl.einsum "xy,yz->xz"
// KEEP: tl.einsum "pq,qr->pr"
func.func @chain_of_four(%a: tensor<64x64xf32>, %b: tensor<64x2xf32>, %c: tensor<2x64xf32>, %d: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %ab = tl.einsum "ij,jk->ik" %a, %b : (tensor<64x64xf32>, tensor<64x2xf32>) -> tensor<64x2xf32>
  %abc = tl.einsum "xy,yz->xz" %ab, %c : (tensor<64x2xf32>, tensor<2x64xf32>) -> tensor<64x64xf32>
  %r = tl.einsum "pq,qr->pr" %abc, %d : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// Not merged: the intermediate has a second use (it is also returned), so it is computed anyway.
// CHECK-LABEL: func.func @intermediate_used_twice
// CHECK: %[[AB:.+]] = tl.einsum "ij,jk->ik" %arg0, %arg1
// CHECK: %[[R:.+]] = tl.einsum "ik,kl->il" %[[AB]], %arg2
// CHECK: return %[[AB]], %[[R]]
func.func @intermediate_used_twice(%a: tensor<32x4xf32>, %b: tensor<4x64xf32>, %c: tensor<64x8xf32>) -> (tensor<32x64xf32>, tensor<32x8xf32>) {
  %ab = tl.einsum "ij,jk->ik" %a, %b : (tensor<32x4xf32>, tensor<4x64xf32>) -> tensor<32x64xf32>
  %r = tl.einsum "ik,kl->il" %ab, %c : (tensor<32x64xf32>, tensor<64x8xf32>) -> tensor<32x8xf32>
  return %ab, %r : tensor<32x64xf32>, tensor<32x8xf32>
}

// -----

// Not merged: the consumer reads the intermediate's diagonal (a repeated label), and an
// elementwise op between two einsums breaks the chain.
// CHECK-LABEL: func.func @not_chains
// CHECK: tl.einsum "ij,jk->ik" %arg0, %arg1
// CHECK: tl.einsum "ii,il->l"
// CHECK: tl.einsum "ij,kj->ik" %arg0, %arg0
// CHECK: tl.relu
// CHECK: tl.einsum "ik,kl->il"
func.func @not_chains(%a: tensor<16x4xf32>, %b: tensor<4x16xf32>, %c: tensor<16x8xf32>) -> (tensor<8xf32>, tensor<16x8xf32>) {
  %ab = tl.einsum "ij,jk->ik" %a, %b : (tensor<16x4xf32>, tensor<4x16xf32>) -> tensor<16x16xf32>
  %d = tl.einsum "ii,il->l" %ab, %c : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<8xf32>
  %ab2 = tl.einsum "ij,kj->ik" %a, %a : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x16xf32>
  %h = tl.relu %ab2 : tensor<16x16xf32>
  %r = tl.einsum "ik,kl->il" %h, %c : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %d, %r : tensor<8xf32>, tensor<16x8xf32>
}
