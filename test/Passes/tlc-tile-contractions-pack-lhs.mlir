// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-lhs=true pack-lhs-min-cols=32 pack-lhs-min-bytes=16000" -canonicalize -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-lhs=true pack-lhs-min-cols=128" -canonicalize | FileCheck %s --check-prefix=NARROW
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-lhs=true pack-lhs-min-cols=32 pack-lhs-min-bytes=16004" -canonicalize | FileCheck %s --check-prefix=NARROW
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-lhs=true pack-lhs-min-cols=32 parallel-min-flops=100000" -canonicalize | FileCheck %s --check-prefix=PAR
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=32 cache-k=32 register-m=4 register-n=16 pack-lhs=true pack-lhs-min-cols=32 pack-lhs-cache-n=64" -canonicalize | FileCheck %s --check-prefix=WIDE

// The left operand's 16 x 32 cache block (here 16 or 8 rows, 32 or 4 columns: 40 = 2 x 16
// + 8, 100 = 3 x 32 + 4) is copied row by row into a 16 x 32 stack buffer, right before the
// block's register loops: full 16-wide vectors unmasked, a row's partial tail masked. The
// register tiles read their 4 x 1 slice of the buffer (rows 32 elements apart, not 100), not
// the operand. The operand's 16000 bytes reach pack-lhs-min-bytes in the first run; in the
// second an n block of 64 columns is below pack-lhs-min-cols, in the third the operand is
// below pack-lhs-min-bytes: nothing is packed.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: %[[A:[^:]+]]: memref<40x100xf32>
// CHECK: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// CHECK: scf.for %[[K0:.+]] =
// CHECK: scf.for %[[M0:.+]] =
// CHECK: %[[BLK:.+]] = memref.subview %[[A]][%[[M0]], %[[K0]]] [%{{.+}}, %{{.+}}] [1, 1] : memref<40x100xf32> to memref<?x?xf32, strided<[100, 1], offset: ?>>
// CHECK: scf.for %[[ROW:.+]] =
// CHECK: scf.for %[[COL:.+]] =
// CHECK: %[[V:.+]] = vector.transfer_read %[[BLK]][%[[ROW]], %[[COL]]], %{{.+}} {in_bounds = [true]} : memref<?x?xf32, strided<[100, 1], offset: ?>>, vector<16xf32>
// CHECK: vector.transfer_write %[[V]], %[[P]][%[[ROW]], %[[COL]]] {in_bounds = [true]} : vector<16xf32>, memref<16x32xf32>
// CHECK: scf.for %[[TAIL:.+]] =
// CHECK: %[[MASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK: %[[W:.+]] = vector.transfer_read %[[BLK]][%[[ROW]], %[[TAIL]]], %{{.+}}, %[[MASK]]
// CHECK: vector.transfer_write %[[W]], %[[P]][%[[ROW]], %[[TAIL]]], %[[MASK]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16
// CHECK: scf.for %[[MR:.+]] =
// CHECK: scf.for %[[K:.+]] =
// CHECK: %[[VIEW:.+]] = memref.subview %[[P]][%[[MR]], %[[K]]] [4, 1] [1, 1] : memref<16x32xf32> to memref<4x1xf32, strided<[32, 1], offset: ?>>
// CHECK: linalg.matmul {tlc.register_tile} ins(%[[VIEW]], %{{.+}} : memref<4x1xf32, strided<[32, 1], offset: ?>>, memref<1x16xf32, {{.+}}>)
// CHECK: memref.subview %[[P]][%{{.+}}, %{{.+}}] [%{{.+}}, 1] [1, 1] : memref<16x32xf32> to memref<?x1xf32, strided<[32, 1], offset: ?>>
// CHECK-NOT: memref.subview %[[BLK]]
// CHECK: return
// NARROW-LABEL: func.func @matmul
// NARROW-NOT: memref.alloca
// NARROW: return
func.func @matmul(%a: memref<40x100xf32>, %b: memref<100x64xf32>, %c: memref<40x64xf32>) {
  linalg.matmul ins(%a, %b : memref<40x100xf32>, memref<100x64xf32>) outs(%c : memref<40x64xf32>)
  return
}

// -----

// A transposed left operand (read as [k, m], m contiguous): the buffer keeps its layout, one
// row per k, and the register tiles read a 1 x 4 slice of it.
// CHECK-LABEL: func.func @trans_a
// CHECK: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<32x16xf32>
// CHECK: vector.transfer_write %{{.+}}, %[[P]][%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<16xf32>, memref<32x16xf32>
// CHECK: memref.subview %[[P]][%{{.+}}, %{{.+}}] [1, 4] [1, 1] : memref<32x16xf32> to memref<1x4xf32, strided<[16, 1], offset: ?>>
// CHECK: tlc.register_tile
func.func @trans_a(%a: memref<100x40xf32>, %b: memref<100x64xf32>, %c: memref<40x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<100x40xf32>, memref<100x64xf32>) outs(%c : memref<40x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch matmul: the buffer keeps the operand's unit batch dimension and lives in the
// parallel batch loop's body (one per thread).
// CHECK-LABEL: func.func @batch
// CHECK: scf.parallel
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1x16x32xf32>
// CHECK: vector.transfer_write %{{.+}}, %[[P]][%{{.+}}, %{{.+}}, %{{.+}}] {in_bounds = [true]}
// CHECK: memref.subview %[[P]][0, %{{.+}}, %{{.+}}] [1, 4, 1] [1, 1, 1] : memref<1x16x32xf32> to memref<1x4x1xf32, strided<[512, 32, 1], offset: ?>>
// CHECK: linalg.batch_matmul {tlc.register_tile}
func.func @batch(%a: memref<2x40x100xf32>, %b: memref<2x100x64xf32>, %c: memref<2x40x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x40x100xf32>, memref<2x100x64xf32>) outs(%c : memref<2x40x64xf32>)
  return
}

// -----

// No batch or n loop to split (one n block of 48 pixels). With the m block loop on threads
// (third run: 2 * 64 * 48 * 32 flops per k block reach parallel-min-flops), each block's copy
// happens on its thread, into a buffer in the parallel loop's body; on one thread the buffer
// is the function's.
// CHECK-LABEL: func.func @parallel_m
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// CHECK-NOT: scf.parallel
// CHECK: return
// PAR-LABEL: func.func @parallel_m
// PAR: scf.parallel
// PAR-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// PAR: vector.transfer_write %{{.+}}, %[[P]]
// PAR: memref.subview %[[P]]
// PAR: tlc.register_tile
func.func @parallel_m(%w: memref<64x128xf32>, %col: memref<1x128x48xf32>, %out: memref<1x64x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : memref<64x128xf32>, memref<1x128x48xf32>) outs(%out : memref<1x64x48xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// With pack-lhs-cache-n (fourth run), a contraction whose left operand is packed takes 64-column
// n blocks instead of cache-n's 32: two parallel n blocks of 128 columns, not four.
// WIDE-LABEL: func.func @wide
// WIDE: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%c64)
// WIDE-NEXT: memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// WIDE: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16
func.func @wide(%a: memref<40x100xf32>, %b: memref<100x128xf32>, %c: memref<40x128xf32>) {
  linalg.matmul ins(%a, %b : memref<40x100xf32>, memref<100x128xf32>) outs(%c : memref<40x128xf32>)
  return
}
