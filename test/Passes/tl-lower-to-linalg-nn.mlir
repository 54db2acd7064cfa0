// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg | FileCheck %s

// tl NN ops lower to upstream linalg named ops where they exist.

// CHECK-LABEL: func.func @conv_dense
// CHECK: linalg.fill
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<1x3x8x8xf32> into tensor<1x3x10x10xf32>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK: linalg.generic
func.func @conv_dense(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = tl.conv2d %x, %w, %b strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @conv_depthwise
// CHECK: linalg.depthwise_conv_2d_nchw_chw
// CHECK-NOT: linalg.generic
func.func @conv_depthwise(%x: tensor<1x4x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 4 : tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// CHECK-LABEL: func.func @conv_grouped
// CHECK: linalg.conv_2d_ngchw_gfchw
// CHECK-SAME: tensor<1x2x2x8x8xf32>, tensor<2x3x2x3x3xf32>
func.func @conv_grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32> -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

// ceil_mode pads the bottom/right by what the last partial window needs.
// CHECK-LABEL: func.func @pools
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [1, 4, 7, 7] [1, 1, 1, 1] : tensor<1x4x7x7xf32> into tensor<1x4x8x8xf32>
// CHECK: linalg.pooling_nchw_max
// CHECK: linalg.pooling_nchw_sum
// CHECK: arith.constant dense<{{.+}}> : tensor<4x4xf32>
func.func @pools(%x: tensor<1x4x7x7xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %0 = tl.max_pool2d %x kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode : tensor<1x4x7x7xf32> -> tensor<1x4x4x4xf32>
  %1 = tl.avg_pool2d %x kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode : tensor<1x4x7x7xf32> -> tensor<1x4x4x4xf32>
  return %0, %1 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic
// CHECK: linalg.index 2
// CHECK: tensor.extract
func.func @gather(%t: tensor<100x16xf32>, %i: tensor<2x5xi64>) -> tensor<2x5x16xf32> {
  %0 = tl.gather %t[%i] axis = 0 : tensor<100x16xf32>, tensor<2x5xi64> -> tensor<2x5x16xf32>
  return %0 : tensor<2x5x16xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm_arg_max
// CHECK: math.rsqrt
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.cmpf ogt
// CHECK: arith.select
func.func @layer_norm_arg_max(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4xi64>) {
  %0 = tl.layer_norm %x, %g, %g axis = 1 epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = tl.arg_max %x axis = 1 : tensor<4x8xf32> -> tensor<4xi64>
  return %0, %1 : tensor<4x8xf32>, tensor<4xi64>
}
