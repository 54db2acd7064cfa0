// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-im2col=false" -mlir-print-local-scope | FileCheck %s

// Mixed precision: a convolution of bf16 input and filter into f32 has both operands extended
// to f32 first (exact), then takes the same strategy as an f32 convolution (here im2col and a
// contraction of f32 operands).
// CHECK-LABEL: func.func @conv_bf16
// CHECK-SAME: (%[[IN:.+]]: tensor<1x4x9x9xbf16>, %[[W:.+]]: tensor<8x4x3x3xbf16>, %[[INIT:.+]]: tensor<1x8x4x4xf32>)
// CHECK: %[[INF:.+]] = linalg.generic {{.+}} ins(%[[IN]] : tensor<1x4x9x9xbf16>) outs(%{{.+}} : tensor<1x4x9x9xf32>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: %[[WF:.+]] = linalg.generic {{.+}} ins(%[[W]] : tensor<8x4x3x3xbf16>) outs(%{{.+}} : tensor<8x4x3x3xf32>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: linalg.generic {{.+}} ins(%[[INF]] : tensor<1x4x9x9xf32>) outs(%{{.+}} : tensor<1x4x3x3x4x4xf32>)
// CHECK: tensor.collapse_shape %[[WF]] {{.+}} : tensor<8x4x3x3xf32> into tensor<8x36xf32>
// CHECK-NOT: linalg.conv_2d
func.func @conv_bf16(%in: tensor<1x4x9x9xbf16>, %w: tensor<8x4x3x3xbf16>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x9x9xbf16>, tensor<8x4x3x3xbf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Negative: an f32 convolution gets no extension.
// CHECK-LABEL: func.func @conv_f32
// CHECK-NOT: arith.extf
// CHECK: return
func.func @conv_f32(%in: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}
