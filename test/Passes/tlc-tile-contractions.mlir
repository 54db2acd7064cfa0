// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16" -canonicalize | FileCheck %s

// A matmul on buffers: cache blocks in n, k, m order (the n loop parallel), register tiles
// 4x16 with the k loop innermost; full register tiles have static shapes and carry
// tlc.register_tile.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: scf.parallel (%[[N:.+]]) = (%{{.+}}) to (%{{.+}}) step (%[[C64]])
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %[[C32]]
// CHECK: scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %[[C16]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C16]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C4]]
// CHECK: scf.for
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : memref<4x1xf32, {{.+}}>, memref<1x16xf32, {{.+}}>) outs(%{{.+}} : memref<4x16xf32, {{.+}}>)
// CHECK-SAME: tlc.register_tile
func.func @matmul(%a: memref<32x64xf32>, %b: memref<64x128xf32>, %c: memref<32x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<32x64xf32>, memref<64x128xf32>) outs(%c : memref<32x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Sizes that the register tile does not divide: the peeled remainder (2 rows) is a separate,
// smaller static tile.
// CHECK-LABEL: func.func @ragged
// CHECK: linalg.matmul {tlc.register_tile}
// CHECK-SAME: outs(%{{.+}} : memref<4x16xf32, {{.+}}>)
// CHECK: linalg.matmul {tlc.register_tile}
// CHECK-SAME: outs(%{{.+}} : memref<2x16xf32, {{.+}}>)
func.func @ragged(%a: memref<10x8xf32>, %b: memref<8x16xf32>, %c: memref<10x16xf32>) {
  linalg.matmul ins(%a, %b : memref<10x8xf32>, memref<8x16xf32>) outs(%c : memref<10x16xf32>)
  return
}

// -----

// Not a contraction (elementwise), and tensors: left alone.
// CHECK-LABEL: func.func @not_contractions
// CHECK-NOT: scf.for
// CHECK: linalg.generic
// CHECK-NOT: tlc.register_tile
// CHECK: linalg.matmul
// CHECK-NOT: scf.for
func.func @not_contractions(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %t: tensor<8x8xf32>) -> tensor<8x8xf32> {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  %r = linalg.matmul ins(%t, %t : tensor<8x8xf32>, tensor<8x8xf32>) outs(%t : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// A convolution's contraction [F, K] x [1, K, P]: the unit batch dimension's block loop has one
// iteration, so the parallel loop is the n (pixel) block loop inside it.
// CHECK-LABEL: func.func @unit_batch
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK-NOT: scf.for
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%[[C64]])
func.func @unit_batch(%w: memref<32x64xf32>, %col: memref<1x64x256xf32>, %out: memref<1x32x256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : memref<32x64xf32>, memref<1x64x256xf32>) outs(%out : memref<1x32x256xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// [S, 1, D] activations times a weight ("sbd,de->sbe"): s and b are both m dimensions; the
// register tile takes the innermost one with more than one iteration (s: 4 rows), not the
// unit b (which would make 1-row tiles, one accumulator chain per vector).
// CHECK-LABEL: func.func @unit_m
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : memref<4x1x1xf32, {{.+}}>, memref<1x16xf32, {{.+}}>) outs(%{{.+}} : memref<4x1x16xf32, {{.+}}>)
// CHECK-SAME: tlc.register_tile
func.func @unit_m(%x: memref<32x1x64xf32>, %w: memref<64x128xf32>, %y: memref<32x1x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(s, b, e, d) -> (s, b, d)>, affine_map<(s, b, e, d) -> (d, e)>, affine_map<(s, b, e, d) -> (s, b, e)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<32x1x64xf32>, memref<64x128xf32>) outs(%y : memref<32x1x128xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
