// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=32 pack-rhs=true pack-lhs=true pack-lhs-min-cols=32 bf16-pairs=true pairs-cache-k=32" -canonicalize -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=8 pack-rhs=true bf16-pairs=true" -canonicalize | FileCheck %s --check-prefix=NARROW
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=8 pack-rhs=true bf16-pairs=true dot-lanes=4" -canonicalize | FileCheck %s --check-prefix=NEON

// bf16 operands into an f32 accumulator with bf16-pairs (AVX-512 BF16 targets): register
// tiles of 4 x 32 x 2 over a right-operand panel packed as interleaved k pairs (rows 2p and
// 2p + 1 of each 32-column strip as one 64-element bf16 row; the second row of an odd k
// block masked off to zeros, as are the columns past n = 40), the left operand's block packed
// as bf16 (not converted). The tile reads its pair row through the map 2 n + k and is marked
// with its m, n and k loop positions. k = 65 leaves a last block of one row.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK-DAG: %[[LHS:.+]] = memref.alloca() {alignment = 64 : i64} : memref<16x32xbf16>
// CHECK-DAG: %[[RHS:.+]] = memref.alloca() {alignment = 64 : i64} : memref<2x16x64xbf16>
// CHECK: %[[ROWS:.+]] = affine.min affine_map<(d0) -> (-d0 + 65, 32)>
// CHECK: %[[PAIRS:.+]] = arith.ceildivui %[[ROWS]], %{{.+}} : index
// CHECK: scf.for %[[P:.+]] = %{{.+}} to %[[PAIRS]]
// CHECK: %[[ODD:.+]] = arith.addi
// CHECK: %[[HAS:.+]] = arith.cmpi ult, %[[ODD]], %[[ROWS]] : index
// CHECK: %[[ROW1:.+]] = arith.select %[[HAS]], %[[ODD]], %{{.+}} : index
// CHECK: %[[VALID1:.+]] = arith.select %[[HAS]], %{{.+}}, %{{.+}} : index
// CHECK: %[[E:.+]] = vector.transfer_read {{.+}} : memref<?x40xbf16, {{.+}}>, vector<32xbf16>
// CHECK: %[[MASK1:.+]] = vector.create_mask %[[VALID1]] : vector<32xi1>
// CHECK: %[[O:.+]] = vector.transfer_read %{{.+}}[%[[ROW1]], %{{.+}}], %{{.+}}, %[[MASK1]] {{.+}} : memref<?x40xbf16, {{.+}}>, vector<32xbf16>
// CHECK: %[[I:.+]] = vector.interleave %[[E]], %[[O]] : vector<32xbf16> -> vector<64xbf16>
// CHECK: vector.store %[[I]], %[[RHS]][%{{.+}}, %[[P]], %{{.+}}] : memref<2x16x64xbf16>, vector<64xbf16>
// CHECK: vector.transfer_write %{{.+}}, %[[LHS]]{{.+}} : vector<32xbf16>, memref<16x32xbf16>
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %[[ROWS]] step %{{.+}} {
// CHECK: %[[PAIR:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[K]])
// CHECK: %[[ROW:.+]] = memref.subview %[[RHS]][0, %[[PAIR]], 0] [1, 1, 64] [1, 1, 1] : memref<2x16x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
// CHECK: %[[A:.+]] = memref.subview %[[LHS]]
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 * 2 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME: ins(%[[A]], %[[ROW]] : memref<4x?xbf16, {{.+}}>, memref<64xbf16, {{.+}}>)
// CHECK-SAME: tlc.bf16_pairs = array<i64: 0, 1, 2>, tlc.register_tile
// CHECK: arith.extf
// CHECK: arith.extf
// The second strip (columns 32..39).
// CHECK: memref.subview %[[RHS]][1, %{{.+}}, 0] [1, 1, 64]
// Register tiles narrower than one dot-product vector (8 columns, 16 AVX-512 lanes) keep the
// f32 tiles. With AArch64's 4-lane BFDOT (dot-lanes=4) the 8-column NEON tile takes k pairs:
// each 8-column strip is packed as 16-element rows of interleaved pairs.
// NARROW-LABEL: func.func @matmul_bf16
// NARROW-NOT: tlc.bf16_pairs
// NEON-LABEL: func.func @matmul_bf16
// NEON: memref.alloca() {alignment = 64 : i64} : memref<5x33x16xbf16>
// NEON: vector.interleave %{{.+}}, %{{.+}} : vector<8xbf16> -> vector<16xbf16>
// NEON: linalg.generic
// NEON-SAME: outs(%{{.+}} : memref<4x8xf32, {{.+}}>) attrs = {tlc.bf16_pairs = array<i64: 0, 1, 2>, tlc.register_tile}
func.func @matmul_bf16(%a: memref<40x65xbf16>, %b: memref<65x40xbf16>, %c: memref<40x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x65xbf16>, memref<65x40xbf16>) outs(%c : memref<40x40xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Negative: a left operand read with m as its contiguous axis (a row's k pair is not one
// 32-bit word) keeps the f32 register tiles (k steps of 1, operands converted while packing).
// CHECK-LABEL: func.func @lhs_transposed
// CHECK-NOT: tlc.bf16_pairs
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x32x32xf32>
// CHECK-NOT: tlc.bf16_pairs
func.func @lhs_transposed(%a: memref<65x40xbf16>, %b: memref<65x40xbf16>, %c: memref<40x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<65x40xbf16>, memref<65x40xbf16>) outs(%c : memref<40x40xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Negative: f16 operands (no f16 dot product on these targets) keep the f32 register tiles.
// CHECK-LABEL: func.func @matmul_f16
// CHECK-NOT: tlc.bf16_pairs
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x32x32xf32>
// CHECK-NOT: tlc.bf16_pairs
func.func @matmul_f16(%a: memref<40x65xf16>, %b: memref<65x40xf16>, %c: memref<40x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x65xf16>, memref<65x40xf16>) outs(%c : memref<40x40xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Negative: fewer rows than pairs-min-rows (8) read each packed panel (a matrix-vector-like
// product: packing the pairs would cost more than converting in the register tiles).
// CHECK-LABEL: func.func @few_rows
// CHECK-NOT: tlc.bf16_pairs
// CHECK: return
func.func @few_rows(%a: memref<4x65xbf16>, %b: memref<65x40xbf16>, %c: memref<4x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x65xbf16>, memref<65x40xbf16>) outs(%c : memref<4x40xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
