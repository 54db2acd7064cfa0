// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16" -canonicalize | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 max-joined-k=16" -canonicalize | FileCheck %s --check-prefix=SPLIT

// Two reduction dimensions (h: 4, k: 8; 32 iterations in all, at most max-joined-k): both
// run inside the register tile (loops n, m, h, k), the outer one untiled at the cache level,
// and the zero fill moves in front of the h loop. The register tile is rebuilt without h
// (rank-reducing subviews of its operands), a plain (m, n, k) contraction.
// CHECK-LABEL: func.func @joined
// CHECK-SAME: (%[[A:.+]]: memref<16x4x8xf32>, %[[B:.+]]: memref<4x8x32xf32>, %[[C:.+]]: memref<16x32xf32>)
// CHECK-NOT: linalg.fill ins(%{{.+}} : f32) outs(%[[C]] : memref<16x32xf32>)
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK: scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK: %[[TILE:.+]] = memref.subview %[[C]][%[[M]], %[[N]]] [4, 16] [1, 1]
// CHECK-NEXT: linalg.fill {tlc.register_tile} ins(%{{.+}} : f32) outs(%[[TILE]] : memref<4x16xf32, {{.+}}>)
// CHECK-NEXT: scf.for %[[H:.+]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: scf.for %[[K:.+]] = %c0 to %c8 step %c1 {
// CHECK: %[[A3:.+]] = memref.subview %[[A]][%[[M]], %[[H]], %[[K]]] [4, 1, 1] [1, 1, 1]
// CHECK: %[[B3:.+]] = memref.subview %[[B]][%[[H]], %[[K]], %[[N]]] [1, 1, 16] [1, 1, 1]
// CHECK: %[[AS:.+]] = memref.subview %[[A3]][0, 0, 0] [4, 1, 1] [1, 1, 1] : memref<4x1x1xf32, {{.+}}> to memref<4x1xf32, {{.+}}>
// CHECK: %[[BS:.+]] = memref.subview %[[B3]][0, 0, 0] [1, 1, 16] [1, 1, 1] : memref<1x1x16xf32, {{.+}}> to memref<1x16xf32, {{.+}}>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%[[AS]], %[[BS]] : {{.+}}) outs(%[[TILE]] : {{.+}})
// CHECK-SAME: tlc.register_tile
// SPLIT-LABEL: func.func @joined
// SPLIT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<16x32xf32>)
// SPLIT-NOT: linalg.fill {tlc.register_tile}
func.func @joined(%a: memref<16x4x8xf32>, %b: memref<4x8x32xf32>, %c: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, h, k) -> (m, h, k)>, affine_map<(m, n, h, k) -> (h, k, n)>, affine_map<(m, n, h, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<16x4x8xf32>, memref<4x8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 4 x 300 reduction steps, more than max-joined-k: the outer k dimension is tiled by 1
// outside the register tiles, and the fill stays whole.
// CHECK-LABEL: func.func @too_deep
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<16x32xf32>)
// CHECK-NOT: linalg.fill {tlc.register_tile}
// CHECK: return
func.func @too_deep(%a: memref<16x4x300xf32>, %b: memref<4x300x32xf32>, %c: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, h, k) -> (m, h, k)>, affine_map<(m, n, h, k) -> (h, k, n)>, affine_map<(m, n, h, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<16x4x300xf32>, memref<4x300x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
