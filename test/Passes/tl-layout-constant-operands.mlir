// RUN: tlc-opt %s -split-input-file -tl-layout-constant-operands | FileCheck %s

// y = x W^T with a constant W [out, in]: W is transposed at compile time (values moved, not
// just the type) and the equation relabeled so the output's last label j is W's last axis.
// CHECK-LABEL: func.func @gemm_trans_b
// CHECK: %[[W:.+]] = tl.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: tl.einsum "ik,kj->ij" %{{.+}}, %[[W]] : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
func.func @gemm_trans_b(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = tl.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = tl.einsum "ik,jk->ij" %x, %w : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// Rank 3, the output label in the middle of the constant: only that axis moves (b, k keep
// their order); the first operand is left alone; a splat only changes its type.
// CHECK-LABEL: func.func @rank3
// CHECK-DAG: %[[W:.+]] = tl.constant dense<{{\[}}{{\[}}[0.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00]], {{\[}}[4.000000e+00, 6.000000e+00], [5.000000e+00, 7.000000e+00]]]> : tensor<2x2x2xf32>
// CHECK-DAG: %[[S:.+]] = tl.constant dense<1.000000e+00> : tensor<3x5xf16>
// CHECK: tl.einsum "bik,bkj->bij" %{{.+}}, %[[W]]
// CHECK: tl.einsum "ik,kj->ij" %{{.+}}, %[[S]]
func.func @rank3(%x: tensor<2x3x2xf32>, %h: tensor<4x3xf16>) -> (tensor<2x3x2xf32>, tensor<4x5xf16>) {
  %w = tl.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]> : tensor<2x2x2xf32>
  %y = tl.einsum "bik,bjk->bij" %x, %w : (tensor<2x3x2xf32>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
  %s = tl.constant dense<1.0> : tensor<5x3xf16>
  %z = tl.einsum "ik,jk->ij" %h, %s : (tensor<4x3xf16>, tensor<5x3xf16>) -> tensor<4x5xf16>
  return %y, %z : tensor<2x3x2xf32>, tensor<4x5xf16>
}

// -----

// Left alone: already contiguous, a run-time operand whose elements are each used fewer than
// 32 times (a copy would cost more than it saves), a transposed constant on the other side
// (m operand), and "..." equations.
// CHECK-LABEL: func.func @untouched
// CHECK: tl.einsum "ik,kj->ij"
// CHECK: tl.einsum "ik,jk->ij" %{{.+}}, %arg1
// CHECK: tl.einsum "ki,kj->ij"
// CHECK: tl.einsum "...k,jk->...j"
func.func @untouched(%x: tensor<4x3xf32>, %v: tensor<2x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %w = tl.constant dense<1.5> : tensor<3x2xf32>
  %a = tl.einsum "ik,kj->ij" %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %b = tl.einsum "ik,jk->ij" %x, %v : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  %c3 = tl.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %c = tl.einsum "ki,kj->ij" %c3, %w : (tensor<3x4xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %d = tl.einsum "...k,jk->...j" %x, %v : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  return %a, %b, %c, %d : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// Run-time operands used at least 32 times per element get a copy in the fast layout: g W^T
// (the weight's output label j outer) transposes W; X^T g for a weight gradient merges the
// summed rows (a, b, adjacent in both operands) into one label by reshapes, then transposes
// X so the summed label is innermost on the m side.
// CHECK-LABEL: func.func @runtime_operands
// CHECK: %[[WT:.+]] = tl.transpose %arg1 perm = [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
// CHECK: %[[Y:.+]] = tl.einsum "abc,cd->abd" %arg0, %[[WT]] : (tensor<8x16x64xf32>, tensor<64x32xf32>) -> tensor<8x16x32xf32>
// CHECK: %[[G:.+]] = tl.reshape %arg2 : tensor<8x16x32xf32> -> tensor<128x32xf32>
// CHECK: %[[X:.+]] = tl.reshape %arg0 : tensor<8x16x64xf32> -> tensor<128x64xf32>
// CHECK: %[[XT:.+]] = tl.transpose %[[X]] perm = [1, 0] : tensor<128x64xf32> -> tensor<64x128xf32>
// CHECK: %[[DW:.+]] = tl.einsum "ac,da->dc" %[[G]], %[[XT]] : (tensor<128x32xf32>, tensor<64x128xf32>) -> tensor<64x32xf32>
// CHECK: return %[[Y]], %[[DW]]
func.func @runtime_operands(%x: tensor<8x16x64xf32>, %w: tensor<32x64xf32>, %g: tensor<8x16x32xf32>)
    -> (tensor<8x16x32xf32>, tensor<64x32xf32>) {
  %y = tl.einsum "abc,dc->abd" %x, %w : (tensor<8x16x64xf32>, tensor<32x64xf32>) -> tensor<8x16x32xf32>
  %dw = tl.einsum "abc,abd->dc" %g, %x : (tensor<8x16x32xf32>, tensor<8x16x64xf32>) -> tensor<64x32xf32>
  return %y, %dw : tensor<8x16x32xf32>, tensor<64x32xf32>
}

// -----

// A transpose over more than one 32x32 tile of moved elements (34 result rows), 2-byte
// elements: every value lands where a transpose puts it.
// CHECK-LABEL: func.func @f16_across_tiles
// CHECK: %[[W:.+]] = tl.constant dense<{{\[}}[0.000000e+00, 3.400000e+01], [1.000000e+00, 3.500000e+01], [2.000000e+00, 3.600000e+01], [3.000000e+00, 3.700000e+01], [4.000000e+00, 3.800000e+01], [5.000000e+00, 3.900000e+01], [6.000000e+00, 4.000000e+01], [7.000000e+00, 4.100000e+01], [8.000000e+00, 4.200000e+01], [9.000000e+00, 4.300000e+01], [1.000000e+01, 4.400000e+01], [1.100000e+01, 4.500000e+01], [1.200000e+01, 4.600000e+01], [1.300000e+01, 4.700000e+01], [1.400000e+01, 4.800000e+01], [1.500000e+01, 4.900000e+01], [1.600000e+01, 5.000000e+01], [1.700000e+01, 5.100000e+01], [1.800000e+01, 5.200000e+01], [1.900000e+01, 5.300000e+01], [2.000000e+01, 5.400000e+01], [2.100000e+01, 5.500000e+01], [2.200000e+01, 5.600000e+01], [2.300000e+01, 5.700000e+01], [2.400000e+01, 5.800000e+01], [2.500000e+01, 5.900000e+01], [2.600000e+01, 6.000000e+01], [2.700000e+01, 6.100000e+01], [2.800000e+01, 6.200000e+01], [2.900000e+01, 6.300000e+01], [3.000000e+01, 6.400000e+01], [3.100000e+01, 6.500000e+01], [3.200000e+01, 6.600000e+01], [3.300000e+01, 6.700000e+01]]> : tensor<34x2xf16>
// CHECK: tl.einsum "ik,kj->ij" %{{.+}}, %[[W]]
func.func @f16_across_tiles(%x: tensor<3x34xf16>) -> tensor<3x2xf16> {
  %w = tl.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0], [34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0]]> : tensor<2x34xf16>
  %y = tl.einsum "ik,jk->ij" %x, %w : (tensor<3x34xf16>, tensor<2x34xf16>) -> tensor<3x2xf16>
  return %y : tensor<3x2xf16>
}
