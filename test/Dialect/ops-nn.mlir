// RUN: tlc-opt %s -split-input-file | tlc-opt -split-input-file | FileCheck %s
// RUN: tlc-opt %s -split-input-file -mlir-print-op-generic | tlc-opt -split-input-file | FileCheck %s

// Round trip of the tl neural-network ops (TLNNOps.td) and their optional parts.

// CHECK-LABEL: func.func @conv
// CHECK: tl.conv2d %{{.+}}, %{{.+}}, %{{.+}} strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x4x4xf32>
// CHECK: tl.conv2d %{{.+}}, %{{.+}} strides = [1, 1] pads = [0, 0, 0, 0] dilations = [2, 2] groups = 4 : tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<1x4x4x4xf32>
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                %y: tensor<1x4x8x8xf32>, %dw: tensor<4x1x3x3xf32>) {
  %0 = tl.conv2d %x, %w, %b strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x4x4xf32>
  %1 = tl.conv2d %y, %dw strides = [1, 1] pads = [0, 0, 0, 0] dilations = [2, 2] groups = 4 : tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<1x4x4x4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @quantized_conv
// CHECK: tl.quantized_conv2d %{{.+}}, %{{.+}} strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] input_zero_point = 128 unsigned_input : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8> -> tensor<1x4x4x4xi32>
// CHECK: tl.quantized_conv2d %{{.+}}, %{{.+}} strides = [1, 1] pads = [0, 0, 0, 0] dilations = [2, 2] input_zero_point = -3 : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8> -> tensor<1x4x4x4xi32>
func.func @quantized_conv(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) {
  %0 = tl.quantized_conv2d %x, %w strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] input_zero_point = 128 unsigned_input : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8> -> tensor<1x4x4x4xi32>
  %1 = tl.quantized_conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [2, 2] input_zero_point = -3 : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8> -> tensor<1x4x4x4xi32>
  return
}

// -----

// CHECK-LABEL: func.func @pools
// CHECK: tl.max_pool2d %{{.+}} kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
// CHECK: tl.avg_pool2d %{{.+}} kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode count_include_pad : tensor<1x4x7x7xf32> -> tensor<1x4x4x4xf32>
func.func @pools(%x: tensor<1x4x8x8xf32>, %y: tensor<1x4x7x7xf32>) {
  %0 = tl.max_pool2d %x kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %1 = tl.avg_pool2d %y kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode count_include_pad : tensor<1x4x7x7xf32> -> tensor<1x4x4x4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @norm_gather_pad_argmax
// CHECK: tl.layer_norm %{{.+}}, %{{.+}}, %{{.+}} axis = 1 epsilon = 1.000000e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK: tl.gather %{{.+}}[%{{.+}}] axis = 0 : tensor<100x16xf32>, tensor<2x5xi64> -> tensor<2x5x16xf32>
// CHECK: tl.pad %{{.+}} pads = [0, 1, 0, 2] mode = constant value = 0.000000e+00 : tensor<4x8xf32> -> tensor<4x11xf32>
// CHECK: tl.pad %{{.+}} pads = [1, 1, 1, 1] mode = reflect value = 0.000000e+00 : tensor<4x8xf32> -> tensor<6x10xf32>
// CHECK: tl.arg_max %{{.+}} axis = 1 keepdims select_last_index min : tensor<4x8xf32> -> tensor<4x1xi64>
// CHECK: tl.floor %{{.+}} : tensor<4x8xf32>
// CHECK: tl.ceil %{{.+}} : tensor<4x8xf32>
// CHECK: tl.reduce_prod %{{.+}} axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
func.func @norm_gather_pad_argmax(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>,
                                  %t: tensor<100x16xf32>, %i: tensor<2x5xi64>) {
  %0 = tl.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = tl.gather %t[%i] axis = 0 : tensor<100x16xf32>, tensor<2x5xi64> -> tensor<2x5x16xf32>
  %2 = tl.pad %x pads = [0, 1, 0, 2] mode = constant value = 0.0 : tensor<4x8xf32> -> tensor<4x11xf32>
  %3 = tl.pad %x pads = [1, 1, 1, 1] mode = reflect value = 0.0 : tensor<4x8xf32> -> tensor<6x10xf32>
  %4 = tl.arg_max %x axis = 1 keepdims select_last_index min : tensor<4x8xf32> -> tensor<4x1xi64>
  %5 = tl.floor %x : tensor<4x8xf32>
  %6 = tl.ceil %x : tensor<4x8xf32>
  %7 = tl.reduce_prod %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return
}
