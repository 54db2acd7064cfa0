// RUN: tlc-opt %s -split-input-file -tlc-vectorize-rows="vector-bits=256" -canonicalize | FileCheck %s

// A stride-2 phase split, [C, H, 2, W, 2] -> [C, 2, 2, H, W] (W = 11, 8 lanes): each input row
// of 11 pairs (merged into 22 elements) is one whole step of 16 elements, deinterleaved into the
// two phase rows, then a masked step of the last 3 pairs.
// CHECK-LABEL: func.func @deinterleave
// CHECK: %[[M:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : memref<3x5x2x11x2xf32> into memref<3x5x2x22xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[V:.+]] = vector.load %[[M]][{{.+}}] : memref<3x5x2x22xf32>, vector<16xf32>
// CHECK: %[[E:.+]], %[[O:.+]] = vector.deinterleave %[[V]] : vector<16xf32> -> vector<8xf32>
// CHECK: vector.store %[[E]], %{{.+}}[{{.+}}] : memref<3x2x2x5x11xf32>, vector<8xf32>
// CHECK: vector.store %[[O]], %{{.+}}[{{.+}}] : memref<3x2x2x5x11xf32>, vector<8xf32>
// CHECK-DAG: %[[RM:.+]] = vector.constant_mask [3] : vector<8xi1>
// CHECK-DAG: %[[PM:.+]] = vector.constant_mask [6] : vector<16xi1>
// CHECK: vector.maskedload %[[M]][{{.+}}], %[[PM]]
// CHECK: vector.deinterleave
// CHECK: vector.maskedstore %{{.+}}[{{.+}}], %[[RM]]
// CHECK: vector.maskedstore %{{.+}}[{{.+}}], %[[RM]]
// CHECK-NOT: linalg.transpose
func.func @deinterleave(%in: memref<3x5x2x11x2xf32>, %out: memref<3x2x2x5x11xf32>) {
  linalg.transpose ins(%in : memref<3x5x2x11x2xf32>) outs(%out : memref<3x2x2x5x11xf32>) permutation = [0, 2, 4, 1, 3]
  return
}

// -----

// The inverse, [C, 2, 2, H, W] -> [C, H, 2, W, 2] (W = 8): two phase rows interleaved into one
// row of pairs per whole step, no tail.
// CHECK-LABEL: func.func @interleave
// CHECK: %[[M:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : memref<3x5x2x8x2xf32> into memref<3x5x2x16xf32>
// CHECK: %[[A:.+]] = vector.load %{{.+}}[{{.+}}] : memref<3x2x2x5x8xf32>, vector<8xf32>
// CHECK: %[[B:.+]] = vector.load %{{.+}}[{{.+}}] : memref<3x2x2x5x8xf32>, vector<8xf32>
// CHECK: %[[V:.+]] = vector.interleave %[[A]], %[[B]] : vector<8xf32> -> vector<16xf32>
// CHECK: vector.store %[[V]], %[[M]][{{.+}}] : memref<3x5x2x16xf32>, vector<16xf32>
// CHECK-NOT: vector.mask
// CHECK-NOT: linalg.transpose
func.func @interleave(%in: memref<3x2x2x5x8xf32>, %out: memref<3x5x2x8x2xf32>) {
  linalg.transpose ins(%in : memref<3x2x2x5x8xf32>) outs(%out : memref<3x5x2x8x2xf32>) permutation = [0, 3, 1, 4, 2]
  return
}

// -----

// Not pairs: an ordinary 2-D transpose, and 64-bit elements, stay linalg.transpose.
// CHECK-LABEL: func.func @other_transposes
// CHECK-COUNT-2: linalg.transpose
func.func @other_transposes(%a: memref<4x6xf32>, %b: memref<6x4xf32>, %c: memref<5x8x2xf64>, %d: memref<5x2x8xf64>) {
  linalg.transpose ins(%a : memref<4x6xf32>) outs(%b : memref<6x4xf32>) permutation = [1, 0]
  linalg.transpose ins(%c : memref<5x8x2xf64>) outs(%d : memref<5x2x8xf64>) permutation = [0, 2, 1]
  return
}
