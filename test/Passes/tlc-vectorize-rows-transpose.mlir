// RUN: tlc-opt %s -split-input-file -tlc-vectorize-rows="vector-bits=256" -canonicalize | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-vectorize-rows="vector-bits=512" -canonicalize | FileCheck %s --check-prefix=AVX512

// A 20x19 -> 19x20 transpose with 8 lanes: tiles of 8x8 over the 16x16 the tiles cover (8
// row loads, one shuffle of the flattened tile, 8 row stores), then the remaining 3 output
// rows (all columns) and 4 columns of the first 16 rows as transposes of subviews (loops).
// CHECK-LABEL: func.func @matrix
// CHECK: scf.for %[[I:.+]] = %c0 to %c16 step %c8
// CHECK: scf.for %[[J:.+]] = %c0 to %c16 step %c8
// CHECK: vector.load %arg0[%[[J]], %[[I]]] : memref<20x19xf32>, vector<8xf32>
// CHECK-COUNT-7: vector.load %arg0
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 8, 16, 24, 32, 40, 48, 56, 1, 9,
// CHECK-SAME: : vector<64xf32>, vector<64xf32>
// CHECK: vector.store %{{.+}}, %arg1[%[[I]], %[[J]]] : memref<19x20xf32>, vector<8xf32>
// CHECK-COUNT-7: vector.store
// CHECK: %[[IN1:.+]] = memref.subview %arg0[0, 16] [20, 3] [1, 1]
// CHECK: %[[OUT1:.+]] = memref.subview %arg1[16, 0] [3, 20] [1, 1]
// CHECK: linalg.transpose ins(%[[IN1]] : {{.+}}) outs(%[[OUT1]] : {{.+}}) permutation = [1, 0]
// CHECK: memref.subview %{{.+}}[16, 0] [4, 16] [1, 1]
// CHECK: memref.subview %{{.+}}[0, 16] [16, 4] [1, 1]
// CHECK: linalg.transpose
// With 16 lanes one 16x16 tile (its loops fold away), transposed by the unpack/shuffle
// network of 16-lane shuffles (Shuffle16x16).
// AVX512-LABEL: func.func @matrix
// AVX512-COUNT-16: vector.load %arg0
// AVX512: vector.shuffle {{.+}} : vector<16xf32>, vector<16xf32>
// AVX512-COUNT-16: vector.store
func.func @matrix(%in: memref<20x19xf32>, %out: memref<19x20xf32>) {
  linalg.transpose ins(%in : memref<20x19xf32>) outs(%out : memref<19x20xf32>) permutation = [1, 0]
  return
}

// -----

// A linalg.generic that only copies through a permutation is the transpose it is (here of
// int32, [4, 16, 8] -> [4, 8, 16], a loop over the outer dimension, whole tiles only).
// CHECK-LABEL: func.func @copy
// CHECK: scf.for %[[B:.+]] = %c0 to %c4 step %c1
// CHECK: vector.load %arg0[%[[B]], {{.+}}] : memref<4x16x8xi32>, vector<8xi32>
// CHECK: vector.shuffle
// CHECK: vector.store %{{.+}}, %arg1[%[[B]], {{.+}}] : memref<4x8x16xi32>, vector<8xi32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.transpose
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#perm = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @copy(%in: memref<4x16x8xi32>, %out: memref<4x8x16xi32>) {
  linalg.generic {indexing_maps = [#perm, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%in : memref<4x16x8xi32>) outs(%out : memref<4x8x16xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg.yield %a : i32
  }
  return
}

// -----

// Not taken: the inner dimension stays inner (rows copied as rows), and extents below a
// vector.
// CHECK-LABEL: func.func @inner_kept
// CHECK: linalg.transpose
// CHECK-NOT: vector.shuffle
func.func @inner_kept(%in: memref<4x6x16xf32>, %out: memref<6x4x16xf32>) {
  linalg.transpose ins(%in : memref<4x6x16xf32>) outs(%out : memref<6x4x16xf32>) permutation = [1, 0, 2]
  return
}

// -----

// CHECK-LABEL: func.func @narrow
// CHECK: linalg.transpose
// CHECK-NOT: vector.shuffle
func.func @narrow(%in: memref<40x5xf32>, %out: memref<5x40xf32>) {
  linalg.transpose ins(%in : memref<40x5xf32>) outs(%out : memref<5x40xf32>) permutation = [1, 0]
  return
}
