// RUN: tlc-opt %s -tl-plan-einsum-paths -tl-layout-constant-operands | FileCheck %s

// A constant weight stored [out, in] (y = x W^T) inside a bilinear form: the path contracts x
// with W first (4*6*2 points, then 4*2; W with y first would be 4*6*2, then 4*6), as
// "ab,cb->ac"; the pass after it (as in tlc's graph pipeline) transposes the constant at
// compile time so the step reads it [in, out], a plain GEMM.
// CHECK-LABEL: func.func @transposed_weight
// CHECK: %[[W:.+]] = tl.constant dense<{{\[}}[1.000000e+00, 7.000000e+00], [2.000000e+00, 8.000000e+00], [3.000000e+00, 9.000000e+00], [4.000000e+00, 1.000000e+01], [5.000000e+00, 1.100000e+01], [6.000000e+00, 1.200000e+01]]> : tensor<6x2xf32>
// CHECK: %[[XW:.+]] = tl.einsum "ab,bc->ac" %arg0, %[[W]] : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
// CHECK: tl.einsum "ab,ab->a" %[[XW]], %arg1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4xf32>
func.func @transposed_weight(%x: tensor<4x6xf32>, %y: tensor<4x2xf32>) -> tensor<4xf32> {
  %w = tl.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0]]> : tensor<2x6xf32>
  %r = tl.einsum "bi,ji,bj->b" %x, %w, %y : (tensor<4x6xf32>, tensor<2x6xf32>, tensor<4x2xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
