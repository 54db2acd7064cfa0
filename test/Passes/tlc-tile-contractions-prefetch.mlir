// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=32 prefetch-epilogue-max-bytes=16384" -canonicalize -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=32 prefetch-epilogue-max-bytes=1024" | FileCheck %s --check-prefix=SMALL

// An epilogue-fused output tile (as tlc-fuse-epilogues leaves it: the contraction, then an
// elementwise op writing its output in place): each register tile prefetches, before its k
// loop, the lines of the residual `r` the epilogue will read at its place: one per row of the
// tile (a loop over its rows) and 64 bytes (16 f32) of its 32 columns, into L2 (locality 2).
// The bias, broadcast along the rows, is not prefetched. Above prefetch-epilogue-max-bytes,
// nothing is (SMALL).
// CHECK-LABEL: func.func @residual
// CHECK-SAME: %[[R:[^:]+]]: memref<16x64xf32
// CHECK: scf.for %[[N:.+]] = %{{.+}} to %{{.+}} step %c32
// CHECK: scf.for %[[M:.+]] = %{{.+}} to %{{.+}} step %c4
// CHECK: %[[RT:.+]] = memref.subview %[[R]][%[[M]], %[[N]]] [4, 32] [1, 1]
// CHECK: scf.for %[[ROW:.+]] = %c0 to %c4 step %c1
// CHECK-NEXT: memref.prefetch %[[RT]][%[[ROW]], %c0], read, locality<2>, data
// CHECK-NEXT: memref.prefetch %[[RT]][%[[ROW]], %c16], read, locality<2>, data
// CHECK-NEXT: }
// CHECK: scf.for %{{.+}} = %c0 to %c32 step %c1
// CHECK: linalg.matmul {tlc.register_tile}
// CHECK-NOT: memref.prefetch
// CHECK: linalg.generic
// SMALL-LABEL: func.func @residual
// SMALL-NOT: memref.prefetch
func.func @residual(%a: memref<16x32xf32>, %b: memref<32x64xf32>, %r: memref<16x64xf32>,
                   %bias: memref<64xf32>, %c: memref<16x64xf32>) {
  linalg.matmul ins(%a, %b : memref<16x32xf32>, memref<32x64xf32>) outs(%c : memref<16x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : memref<16x64xf32>, memref<64xf32>) outs(%c : memref<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    %t = arith.addf %s, %y : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Negative: the elementwise op after the contraction writes another buffer (not an epilogue
// of its output tile): nothing is prefetched.
// CHECK-LABEL: func.func @other_output
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @other_output(%a: memref<16x32xf32>, %b: memref<32x64xf32>, %r: memref<16x64xf32>,
                        %c: memref<16x64xf32>, %d: memref<16x64xf32>) {
  linalg.matmul ins(%a, %b : memref<16x32xf32>, memref<32x64xf32>) outs(%c : memref<16x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<16x64xf32>) outs(%d : memref<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  }
  return
}
