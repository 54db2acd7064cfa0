// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 parallel-min-flops=100000" -canonicalize | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 parallel-min-flops=200000" -canonicalize | FileCheck %s --check-prefix=SMALL
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 parallel-min-flops=100000 pack-rhs=true pack-min-rows=16" -canonicalize | FileCheck %s --check-prefix=PACK
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 parallel-min-flops=40000" -canonicalize | FileCheck %s --check-prefix=SPLIT

// A convolution's contraction [F, K] x [1, K, P] over few pixels (P = 48: one n block) and a
// deep reduction (K = 128: four k blocks). No batch or n loop splits, so the m block loop
// (F = 64: four blocks) runs on threads, one launch per k block: 2 * 64 * 48 * 32 = 196608
// flops per launch, above parallel-min-flops in the first run, below it in the second.
// CHECK-LABEL: func.func @few_pixels
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[C32]]
// CHECK-NEXT: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%[[C16]])
// CHECK: linalg.generic
// CHECK-SAME: tlc.register_tile
// With right-operand packing, each k block's panel is packed by the launching thread before
// the parallel m loop, into one buffer outside both loops that every thread reads.
// PACK-LABEL: func.func @few_pixels
// PACK: %[[BUF:.+]] = memref.alloca() {alignment = 64 : i64} : memref<3x1x32x16xf32>
// PACK: scf.for
// PACK: vector.transfer_write %{{.+}}, %[[BUF]]
// PACK: scf.parallel
// PACK: memref.subview %[[BUF]]
// PACK: tlc.register_tile
// SMALL-LABEL: func.func @few_pixels
// SMALL-NOT: scf.parallel
// SMALL: return
func.func @few_pixels(%w: memref<64x128xf32>, %col: memref<1x128x48xf32>, %out: memref<1x64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : memref<64x128xf32>, memref<1x128x48xf32>) outs(%out : memref<1x64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// One m block (F = 16 = cache-m) and one n block: the m loop would have one iteration and the
// contraction would run on one thread. With 2 * 16 * 48 * 32 = 49152 flops per k block
// (parallel-min-flops 40000 in the fourth run) the m block is halved to 8 rows (two register
// tiles of 4) and the two blocks run on threads; below it (the first run, 100000) one block of
// 16 rows, no parallel loop.
// SPLIT-LABEL: func.func @one_m_block
// SPLIT-DAG: %[[C8:.+]] = arith.constant 8 : index
// SPLIT: scf.for
// SPLIT-NEXT: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%[[C8]])
// SPLIT: tlc.register_tile
// CHECK-LABEL: func.func @one_m_block
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @one_m_block(%w: memref<16x128xf32>, %col: memref<1x128x48xf32>, %out: memref<1x16x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : memref<16x128xf32>, memref<1x128x48xf32>) outs(%out : memref<1x16x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
