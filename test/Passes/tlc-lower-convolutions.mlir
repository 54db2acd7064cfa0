// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-im2col=false" -mlir-print-local-scope | FileCheck %s

// A 3x3 stride-2 convolution: the input windows are copied into [N, C, KH, KW, OH, OW] (unit
// stride innermost), collapsed to [N, C*KH*KW, OH*OW], and contracted with the filter
// collapsed to [F, C*KH*KW]; the result is expanded back to NCHW.
// CHECK-LABEL: func.func @conv3x3s2
// CHECK-SAME: (%[[IN:.+]]: tensor<1x4x9x9xf32>, %[[W:.+]]: tensor<8x4x3x3xf32>, %[[INIT:.+]]: tensor<1x8x4x4xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x4x3x3x4x4xf32>
// CHECK: %[[COL6:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[IN]] : tensor<1x4x9x9xf32>) outs(%[[E]] : tensor<1x4x3x3x4x4xf32>)
// CHECK: %[[COL:.+]] = tensor.collapse_shape %[[COL6]] {{\[}}[0], [1, 2, 3], [4, 5]] : tensor<1x4x3x3x4x4xf32> into tensor<1x36x16xf32>
// CHECK: %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<8x4x3x3xf32> into tensor<8x36xf32>
// CHECK: %[[O3:.+]] = tensor.collapse_shape %[[INIT]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x4x4xf32> into tensor<1x8x16xf32>
// CHECK: %[[MM:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[W2]], %[[COL]] : tensor<8x36xf32>, tensor<1x36x16xf32>) outs(%[[O3]] : tensor<1x8x16xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[R:.+]] = tensor.expand_shape %[[MM]] {{\[}}[0], [1], [2, 3]] output_shape [1, 8, 4, 4] : tensor<1x8x16xf32> into tensor<1x8x4x4xf32>
// CHECK: return %[[R]]
func.func @conv3x3s2(%in: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// A 1x1 stride-1 convolution needs no window copy: the input collapsed to [N, C, H*W] is the
// right-hand matrix.
// CHECK-LABEL: func.func @conv1x1
// CHECK-SAME: (%[[IN:.+]]: tensor<2x4x5x5xf32>, %[[W:.+]]: tensor<8x4x1x1xf32>, %[[INIT:.+]]: tensor<2x8x5x5xf32>)
// CHECK-NOT: tensor.empty
// CHECK: %[[COL:.+]] = tensor.collapse_shape %[[IN]] {{\[}}[0], [1], [2, 3]] : tensor<2x4x5x5xf32> into tensor<2x4x25xf32>
// CHECK: %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<8x4x1x1xf32> into tensor<8x4xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[W2]], %[[COL]] : tensor<8x4xf32>, tensor<2x4x25xf32>)
func.func @conv1x1(%in: tensor<2x4x5x5xf32>, %w: tensor<8x4x1x1xf32>, %init: tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x4x5x5xf32>, tensor<8x4x1x1xf32>) outs(%init : tensor<2x8x5x5xf32>) -> tensor<2x8x5x5xf32>
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// A depthwise convolution becomes a generic whose loops run (n, c, oh, kh, kw, ow): the output
// row is the innermost, unit-stride loop; dilation scales the window offsets.
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d3 * 2, d5 + d4 * 2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise(%in: tensor<1x4x8x8xf32>, %w: tensor<4x3x3xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Mixed element types (f16 operands, f32 output) are extended to f32 first, then lowered as an
// f32 convolution (details in tlc-lower-convolutions-mixed.mlir).
// CHECK-LABEL: func.func @mixed
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: return
func.func @mixed(%in: tensor<1x4x5x5xf16>, %w: tensor<8x4x1x1xf16>, %init: tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x5x5xf16>, tensor<8x4x1x1xf16>) outs(%init : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  return %0 : tensor<1x8x5x5xf32>
}
