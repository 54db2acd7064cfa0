// RUN: tlc-opt %s -split-input-file -canonicalize | FileCheck %s

// Narrowing an integer back to the type it was widened from returns the original (the ONNX
// importer's wrap of a uint8 result folds into the output's narrowing); the other order, a
// truncation then a widening, changes values and stays.
// CHECK-LABEL: func.func @narrow_after_widen
// CHECK-SAME: (%[[A:.+]]: tensor<4xi8>, %[[W:.+]]: tensor<4xi32>)
// CHECK: %[[T:.+]] = tl.cast %[[W]] : tensor<4xi32> to tensor<4xi8>
// CHECK: %[[E:.+]] = tl.cast %[[T]] {from_unsigned} : tensor<4xi8> to tensor<4xi32>
// CHECK: return %[[A]], %[[E]]
func.func @narrow_after_widen(%a: tensor<4xi8>, %w: tensor<4xi32>) -> (tensor<4xi8>, tensor<4xi32>) {
  %0 = tl.cast %a {from_unsigned} : tensor<4xi8> to tensor<4xi32>
  %1 = tl.cast %0 : tensor<4xi32> to tensor<4xi8>
  %2 = tl.cast %w : tensor<4xi32> to tensor<4xi8>
  %3 = tl.cast %2 {from_unsigned} : tensor<4xi8> to tensor<4xi32>
  return %1, %3 : tensor<4xi8>, tensor<4xi32>
}

// -----

// Integer constants convert at compile time: signed or unsigned extension, truncation, and
// conversion to float (quantized weights and zero points).
// CHECK-LABEL: func.func @integer_constants
// CHECK-DAG: tl.constant dense<[255, 1]> : tensor<2xi32>
// CHECK-DAG: tl.constant dense<[-1, 1]> : tensor<2xi32>
// CHECK-DAG: tl.constant dense<[44, -56]> : tensor<2xi8>
// CHECK-DAG: tl.constant dense<[2.550000e+02, 1.000000e+00]> : tensor<2xf64>
// CHECK-NOT: tl.cast
func.func @integer_constants() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<2xf64>) {
  %b = tl.constant dense<[-1, 1]> : tensor<2xi8>
  %0 = tl.cast %b {from_unsigned} : tensor<2xi8> to tensor<2xi32>
  %1 = tl.cast %b : tensor<2xi8> to tensor<2xi32>
  %w = tl.constant dense<[300, 200]> : tensor<2xi32>
  %2 = tl.cast %w : tensor<2xi32> to tensor<2xi8>
  %3 = tl.cast %b {from_unsigned} : tensor<2xi8> to tensor<2xf64>
  return %0, %1, %2, %3 : tensor<2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<2xf64>
}
