// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=32 pack-rhs=true int8-quads=true quads-cache-k=32" -canonicalize -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=8 pack-rhs=true int8-quads=true" -canonicalize | FileCheck %s --check-prefix=NARROW

// Signed bytes times unsigned bytes into an i32 accumulator with int8-quads (AVX-512 VNNI
// targets; tl.quantized_conv2d's filter x columns): register tiles of 4 x 32 x 4 over a
// right-operand panel packed as interleaved k quads (rows 4p ... 4p + 3 of each 32-column
// strip as one 128-byte row: two levels of vector.interleave; rows past the k block's end
// masked off to zeros, as are the columns past n = 40). The tile reads its quad row through
// the map 4 n + k, keeps its extensions and is marked with its m, n and k loop positions.
// k = 67 leaves a last block of three rows.
// CHECK-LABEL: func.func @matmul_s8_u8
// CHECK-DAG: %[[RHS:.+]] = memref.alloca() {alignment = 64 : i64} : memref<2x8x128xi8>
// CHECK: %[[ROWS:.+]] = affine.min affine_map<(d0) -> (-d0 + 67, 32)>
// CHECK: %[[QUADS:.+]] = arith.ceildivui %[[ROWS]], %{{.+}} : index
// CHECK: scf.for %[[P:.+]] = %{{.+}} to %[[QUADS]]
// CHECK-COUNT-3: arith.cmpi ult, %{{.+}}, %[[ROWS]] : index
// CHECK-COUNT-4: vector.transfer_read {{.+}} : memref<?x40xi8, {{.+}}>, vector<32xi8>
// CHECK: %[[I02:.+]] = vector.interleave %{{.+}}, %{{.+}} : vector<32xi8> -> vector<64xi8>
// CHECK: %[[I13:.+]] = vector.interleave %{{.+}}, %{{.+}} : vector<32xi8> -> vector<64xi8>
// CHECK: %[[I:.+]] = vector.interleave %[[I02]], %[[I13]] : vector<64xi8> -> vector<128xi8>
// CHECK: vector.store %[[I]], %[[RHS]][%{{.+}}, %[[P]], %{{.+}}] : memref<2x8x128xi8>, vector<128xi8>
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %[[ROWS]] step %{{.+}} {
// CHECK: %[[QUAD:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%[[K]])
// CHECK: %[[ROW:.+]] = memref.subview %[[RHS]][0, %[[QUAD]], 0] [1, 1, 128] [1, 1, 1] : memref<2x8x128xi8> to memref<128xi8, strided<[1], offset: ?>>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 * 4 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME: ins(%{{.+}}, %[[ROW]] : memref<4x?xi8, {{.+}}>, memref<128xi8, {{.+}}>)
// CHECK-SAME: tlc.int8_quads = array<i64: 0, 1, 2>, tlc.register_tile
// CHECK: arith.extsi
// CHECK: arith.extui
// The second strip (columns 32..39).
// CHECK: memref.subview %[[RHS]][1, %{{.+}}, 0] [1, 1, 128]
// Register tiles narrower than one 16-lane vector keep the plain tiles.
// NARROW-LABEL: func.func @matmul_s8_u8
// NARROW-NOT: tlc.int8_quads
func.func @matmul_s8_u8(%a: memref<40x67xi8>, %b: memref<67x40xi8>, %c: memref<40x40xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x67xi8>, memref<67x40xi8>) outs(%c : memref<40x40xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extui %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Negative: both operands signed (vpdpbusd multiplies unsigned by signed bytes) keep the
// plain register tiles.
// CHECK-LABEL: func.func @both_signed
// CHECK-NOT: tlc.int8_quads
// CHECK: return
func.func @both_signed(%a: memref<40x67xi8>, %b: memref<67x40xi8>, %c: memref<40x40xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x67xi8>, memref<67x40xi8>) outs(%c : memref<40x40xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Negative: a left operand read with m as its contiguous axis (a row's k quad is not one
// 32-bit word).
// CHECK-LABEL: func.func @lhs_transposed
// CHECK-NOT: tlc.int8_quads
// CHECK: return
func.func @lhs_transposed(%a: memref<67x40xi8>, %b: memref<67x40xi8>, %c: memref<40x40xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<67x40xi8>, memref<67x40xi8>) outs(%c : memref<40x40xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}
