// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="batch-columns-max-pixels=0" -mlir-print-local-scope | FileCheck %s --check-prefix=PERIMAGE

// A batch of 8 images of 2x2 output pixels (resnet18's layer 4 at 64x64 inputs): the im2col
// matrix takes the batch among its columns, [C*KH*KW, N*OH*OW] = [72, 32], one contraction
// [F, K] x [K, N*P] -> [16, 32], then the result goes back to [N, F, P].
// CHECK-LABEL: func.func @small_images
// CHECK: %[[COL:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0, d1 + d4, d2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>]
// CHECK-SAME: outs(%{{.+}} : tensor<8x3x3x8x2x2xf32>)
// CHECK: tensor.collapse_shape %[[COL]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<8x3x3x8x2x2xf32> into tensor<72x32xf32>
// CHECK: linalg.transpose ins(%{{.+}} : tensor<8x16x4xf32>) outs(%{{.+}} : tensor<16x8x4xf32>) permutation = [1, 0, 2]
// CHECK: %[[MM:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<16x72xf32>, tensor<72x32xf32>) outs(%{{.+}} : tensor<16x32xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape %[[MM]] {{\[\[}}0], [1, 2]] output_shape [16, 8, 4]
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<16x8x4xf32>) outs(%{{.+}} : tensor<8x16x4xf32>) permutation = [1, 0, 2]
// CHECK: tensor.expand_shape %[[T]] {{\[\[}}0], [1], [2, 3]] output_shape [8, 16, 2, 2]
// PERIMAGE-LABEL: func.func @small_images
// PERIMAGE-NOT: linalg.transpose
// PERIMAGE: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @small_images(%x: tensor<8x8x4x4xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<8x16x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x2x2xf32>) -> tensor<8x16x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x8x4x4xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<8x16x2x2xf32>) -> tensor<8x16x2x2xf32>
  return %y : tensor<8x16x2x2xf32>
}

// -----

// One image: its pixels are all the columns there are (the per-image form).
// CHECK-LABEL: func.func @one_image
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @one_image(%x: tensor<1x8x4x4xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x4x4xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  return %y : tensor<1x16x2x2xf32>
}
