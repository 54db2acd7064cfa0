// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 max-joined-k=16" -canonicalize | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 fuse-fill=false" -canonicalize | FileCheck %s --check-prefix=OFF

// A matmul onto a zero-filled output with k = 32 (one cache block): the whole-output fill is
// gone; each register tile fills its own 4x16 output slice right before its k loop.
// CHECK-LABEL: func.func @fill_fused
// CHECK-SAME: %[[C:[^ ]+]]: memref<32x128xf32>)
// CHECK-NOT: linalg.fill ins(%{{.+}} : f32) outs(%[[C]] : memref<32x128xf32>)
// CHECK: scf.parallel
// CHECK: %[[TILE:.+]] = memref.subview {{.+}} to memref<4x16xf32, {{.+}}>
// CHECK-NEXT: linalg.fill {tlc.register_tile} ins(%{{.+}} : f32) outs(%[[TILE]] : memref<4x16xf32, {{.+}}>)
// CHECK-NEXT: scf.for
// CHECK: linalg.matmul {tlc.register_tile}
// CHECK-SAME: outs(%[[TILE]] : memref<4x16xf32, {{.+}}>)
// OFF-LABEL: func.func @fill_fused
// OFF: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<32x128xf32>)
// OFF-NOT: linalg.fill {tlc.register_tile}
func.func @fill_fused(%a: memref<32x32xf32>, %b: memref<32x128xf32>, %c: memref<32x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<32x128xf32>)
  linalg.matmul ins(%a, %b : memref<32x32xf32>, memref<32x128xf32>) outs(%c : memref<32x128xf32>)
  return
}

// -----

// k = 80 > cache-k: split into k in [0, 32), which starts from the fill in its register
// tiles, and k in [32, 80), which accumulates onto it (its own loop nest, no fill).
// CHECK-LABEL: func.func @fill_split
// CHECK-NOT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<32x64xf32>)
// CHECK: memref.subview %{{.+}}[0, 0] [32, 32] [1, 1] : memref<32x80xf32>
// CHECK: linalg.fill {tlc.register_tile}
// CHECK: linalg.matmul {tlc.register_tile}
// CHECK: memref.subview %{{.+}}[0, 32] [32, 48] [1, 1] : memref<32x80xf32>
// CHECK-NOT: linalg.fill
// CHECK: linalg.matmul {tlc.register_tile}
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @fill_split(%a: memref<32x80xf32>, %b: memref<80x64xf32>, %c: memref<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<32x64xf32>)
  linalg.matmul ins(%a, %b : memref<32x80xf32>, memref<80x64xf32>) outs(%c : memref<32x64xf32>)
  return
}

// -----

// Two reduction dimensions of 32 iterations in all, more than max-joined-k (the outer one is
// tiled by 1 around the register tiles, where a fill would run once per iteration; see
// tlc-tile-contractions-joined-k.mlir for joined ones), and a write between the fill and the contraction: the
// fills stay whole, before the loops.
// CHECK-LABEL: func.func @not_fused
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<16x32xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<16x32xf32>)
// CHECK-NEXT: memref.store
// CHECK-NOT: linalg.fill {tlc.register_tile}
func.func @not_fused(%a: memref<16x4x8xf32>, %b: memref<4x8x32xf32>, %c: memref<16x32xf32>,
                     %a2: memref<16x8xf32>, %b2: memref<8x32xf32>, %d: memref<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %i = arith.constant 0 : index
  linalg.fill ins(%zero : f32) outs(%c : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, h, k) -> (m, h, k)>, affine_map<(m, n, h, k) -> (h, k, n)>, affine_map<(m, n, h, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<16x4x8xf32>, memref<4x8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%d : memref<16x32xf32>)
  memref.store %one, %d[%i, %i] : memref<16x32xf32>
  linalg.matmul ins(%a2, %b2 : memref<16x8xf32>, memref<8x32xf32>) outs(%d : memref<16x32xf32>)
  return
}

// -----

// A convolution's contraction accumulates into a collapsed view of its filled NCHW output
// (after bufferization), and a fill of another allocation sits between: the fill of the
// whole output is still recognized (a reshape keeps every element) and fused.
// CHECK-LABEL: func.func @fill_reshaped
// CHECK: %[[OTHER:.+]] = memref.alloc() : memref<8xf32>
// CHECK-NOT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<1x32x8x8xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[OTHER]] : memref<8xf32>)
// CHECK: linalg.fill {tlc.register_tile}
// CHECK: linalg.generic
// CHECK-SAME: {tlc.register_tile}
func.func @fill_reshaped(%w: memref<32x16xf32>, %col: memref<1x16x64xf32>) -> memref<8xf32> {
  %zero = arith.constant 0.0 : f32
  %out = memref.alloc() : memref<1x32x8x8xf32>
  %other = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x32x8x8xf32>)
  linalg.fill ins(%zero : f32) outs(%other : memref<8xf32>)
  %c = memref.collapse_shape %out [[0], [1], [2, 3]] : memref<1x32x8x8xf32> into memref<1x32x64xf32>
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : memref<32x16xf32>, memref<1x16x64xf32>) outs(%c : memref<1x32x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %other : memref<8xf32>
}

// -----

// The fill writes only part of the output (a subview) and a fill of the whole output comes
// before it: neither is the output's last full initialization, so nothing is fused.
// CHECK-LABEL: func.func @fill_partial
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<32x64xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<16x64xf32, {{.+}}>)
// CHECK-NOT: linalg.fill {tlc.register_tile}
func.func @fill_partial(%a: memref<32x16xf32>, %b: memref<16x64xf32>, %c: memref<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<32x64xf32>)
  %half = memref.subview %c[0, 0] [16, 64] [1, 1] : memref<32x64xf32> to memref<16x64xf32, strided<[64, 1]>>
  linalg.fill ins(%one : f32) outs(%half : memref<16x64xf32, strided<[64, 1]>>)
  linalg.matmul ins(%a, %b : memref<32x16xf32>, memref<16x64xf32>) outs(%c : memref<32x64xf32>)
  return
}
