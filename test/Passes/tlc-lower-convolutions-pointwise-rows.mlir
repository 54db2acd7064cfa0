// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="pointwise-rows-min-width=8" -mlir-print-local-scope | FileCheck %s

// A 1x1 stride-1 convolution whose result (through its epilogue) only fills the interior of the
// next convolution's padded input keeps its output rows: one contraction over (b, m, h, w, k)
// on the uncollapsed input and output, which bufferization can then write into the padded
// buffer in place.
// CHECK-LABEL: func.func @pointwise_into_padding
// CHECK-SAME: (%[[IN:.+]]: tensor<1x4x8x8xf32>
// CHECK: %[[W:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : tensor<6x4x1x1xf32> into tensor<6x4xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[W]], %[[IN]] : tensor<6x4xf32>, tensor<1x4x8x8xf32>)
// CHECK-NOT: tensor.collapse_shape %[[IN]]
// CHECK: tensor.insert_slice
func.func @pointwise_into_padding(%in: tensor<1x4x8x8xf32>, %w: tensor<6x4x1x1xf32>) -> tensor<1x6x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%init : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %e2 = tensor.empty() : tensor<1x6x8x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%0 : tensor<1x6x8x8xf32>) outs(%e2 : tensor<1x6x8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x6x8x8xf32>
  %e3 = tensor.empty() : tensor<1x6x10x10xf32>
  %pad = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x6x10x10xf32>) -> tensor<1x6x10x10xf32>
  %2 = tensor.insert_slice %1 into %pad[0, 0, 1, 1] [1, 6, 8, 8] [1, 1, 1, 1] : tensor<1x6x8x8xf32> into tensor<1x6x10x10xf32>
  return %2 : tensor<1x6x10x10xf32>
}

// -----

// Rows narrower than pointwise-rows-min-width, or a result used otherwise: the [F, C] x
// [N, C, H * W] contraction over collapsed pixels.
// CHECK-LABEL: func.func @pointwise_narrow
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<1x4x4x4xf32> into tensor<1x4x16xf32>
// CHECK-LABEL: func.func @pointwise_returned
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<1x4x8x8xf32> into tensor<1x4x64xf32>
func.func @pointwise_narrow(%in: tensor<1x4x4x4xf32>, %w: tensor<6x4x1x1xf32>) -> tensor<1x6x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x4x4xf32>, tensor<6x4x1x1xf32>) outs(%init : tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  %e3 = tensor.empty() : tensor<1x6x6x6xf32>
  %pad = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  %1 = tensor.insert_slice %0 into %pad[0, 0, 1, 1] [1, 6, 4, 4] [1, 1, 1, 1] : tensor<1x6x4x4xf32> into tensor<1x6x6x6xf32>
  return %1 : tensor<1x6x6x6xf32>
}
func.func @pointwise_returned(%in: tensor<1x4x8x8xf32>, %w: tensor<6x4x1x1xf32>) -> tensor<1x6x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%init : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  return %0 : tensor<1x6x8x8xf32>
}
