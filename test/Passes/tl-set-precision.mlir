// RUN: tlc-opt %s -split-input-file -tl-set-precision=precision=bf16 | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-set-precision=precision=f16 | FileCheck %s --check-prefix=F16
// RUN: tlc-opt %s -split-input-file -tl-set-precision=precision=bf16 -canonicalize -cse | FileCheck %s --check-prefix=FOLD

// A matmul: both operands cast to bf16, the result stays f32 (accumulated in f32); the
// activation that follows keeps f32. With canonicalization the weight's cast folds into a
// bf16 constant (rounded to nearest even: 1.00390625 is halfway between 1 and 1.0078125
// and goes to the even 1.0; 3.0 is exact).
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK: %[[W:.+]] = tl.constant
// CHECK-DAG: %[[XB:.+]] = tl.cast %[[X]] : tensor<2x3xf32> to tensor<2x3xbf16>
// CHECK-DAG: %[[WB:.+]] = tl.cast %[[W]] : tensor<3x2xf32> to tensor<3x2xbf16>
// CHECK: %[[Y:.+]] = tl.einsum "ij,jk->ik" %[[XB]], %[[WB]] {tl.precision = "bf16"} : (tensor<2x3xbf16>, tensor<3x2xbf16>) -> tensor<2x2xf32>
// CHECK: tl.relu %[[Y]] : tensor<2x2xf32>
// F16-LABEL: func.func @linear
// F16: tl.einsum "ij,jk->ik" {{.*}} {tl.precision = "f16"} : (tensor<2x3xf16>, tensor<3x2xf16>) -> tensor<2x2xf32>
// FOLD-LABEL: func.func @linear
// FOLD: tl.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], {{.*}}]]> : tensor<3x2xbf16>
// FOLD-NOT: tl.cast {{.*}} tensor<3x2xf32>
func.func @linear(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = tl.constant dense<[[1.00390625, 3.0], [0.5, -2.0], [0.25, 1.0]]> : tensor<3x2xf32>
  %y = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %r = tl.relu %y : tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// Negative: a one-operand einsum (a transpose, a sum) gains nothing and keeps f32; softmax,
// layer_norm, reductions and elementwise ops have no PrecisionOpInterface and keep f32.
// CHECK-LABEL: func.func @no_contraction
// CHECK-NOT: tl.cast
// CHECK-NOT: tl.precision
// CHECK: return
func.func @no_contraction(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %t = tl.einsum "ij->j" %x : (tensor<4x8xf32>) -> tensor<8xf32>
  %e = tl.exp %t : tensor<8xf32>
  %s = tl.softmax %e axis = 0 : tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// Negative: an f64 contraction keeps its type (the policy demotes f32 only).
// CHECK-LABEL: func.func @f64
// CHECK-NOT: tl.cast
// CHECK: tl.einsum "ij,jk->ik" %{{.+}}, %{{.+}} : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
func.func @f64(%x: tensor<2x3xf64>, %w: tensor<3x2xf64>) -> tensor<2x2xf64> {
  %y = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  return %y : tensor<2x2xf64>
}

// -----

// A convolution: input and filter demoted, the bias stays f32 like the result.
// CHECK-LABEL: func.func @conv
// CHECK: tl.conv2d %{{.+}}, %{{.+}}, %{{.+}} {{.*}} {tl.precision = "bf16"} : tensor<1x3x8x8xbf16>, tensor<4x3x3x3xbf16>, tensor<4xf32> -> tensor<1x4x4x4xf32>
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %y = tl.conv2d %x, %w, %b strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 1
      : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}


// -----

// An embedding: a gather from a constant f32 table gathers from the table in bf16 (the
// constant folds to bf16, half its bytes) and extends the rows to f32 for their uses.
// A gather from a run-time table keeps f32.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[IDS:.+]]: tensor<2xi64>, %[[T:.+]]: tensor<4x2xf32>)
// CHECK: %[[TABLE:.+]] = tl.constant
// CHECK: %[[TB:.+]] = tl.cast %[[TABLE]] : tensor<4x2xf32> to tensor<4x2xbf16>
// CHECK: %[[G:.+]] = tl.gather %[[TB]][%[[IDS]]] axis = 0 {tl.precision = "bf16"} : tensor<4x2xbf16>, tensor<2xi64> -> tensor<2x2xbf16>
// CHECK: %[[E:.+]] = tl.cast %[[G]] : tensor<2x2xbf16> to tensor<2x2xf32>
// CHECK: %[[R:.+]] = tl.gather %[[T]][%[[IDS]]] axis = 0 : tensor<4x2xf32>
// CHECK: tl.add %[[E]], %[[R]] : tensor<2x2xf32>, tensor<2x2xf32>
// F16-LABEL: func.func @embedding
// F16: tl.gather {{.*}} {tl.precision = "f16"} : tensor<4x2xf16>, tensor<2xi64> -> tensor<2x2xf16>
// FOLD-LABEL: func.func @embedding
// FOLD: tl.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], {{.*}}]]> : tensor<4x2xbf16>
// FOLD: tl.gather {{.*}} : tensor<4x2xbf16>, tensor<2xi64> -> tensor<2x2xbf16>
func.func @embedding(%ids: tensor<2xi64>, %t: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %table = tl.constant dense<[[1.00390625, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %e = tl.gather %table[%ids] axis = 0 : tensor<4x2xf32>, tensor<2xi64> -> tensor<2x2xf32>
  %r = tl.gather %t[%ids] axis = 0 : tensor<4x2xf32>, tensor<2xi64> -> tensor<2x2xf32>
  %s = tl.add %e, %r : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}
