// RUN: tlc-opt %s -split-input-file -verify-diagnostics

// Every verifier message of the tl neural-network ops (TLNNOps.td).

func.func @conv_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{groups 2 must be positive and divide the 3 input channels and 4 filters}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{filter has 3 channels per group, expected 4 (4 input channels / 1 groups)}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected rank-4 input and filter, got 3x8x8 and 4x3x3x3}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{result type 'tensor<1x4x8x8xf32>' differs from the expected 'tensor<1x4x6x6xf32>'}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{kernel sizes, strides and dilations must be positive, got kernel [3, 3] strides [0, 1] dilations [1, 1]}}
  %0 = tl.conv2d %x, %w strides = [0, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_attr_sizes(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected 2 kernel sizes, strides and dilations and 4 pads, got 2, 2, 2 and 2}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{pads must be non-negative, got -1}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [-1, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_too_small(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{window of 3 (dilation 1) does not fit spatial extent 2 padded by 0 and 0}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @conv_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{input element type 'f32' differs from filter's 'f16'}}
  %0 = tl.conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{bias must be a vector of 4 'f32', got 'tensor<3xf32>'}}
  %0 = tl.conv2d %x, %w, %b strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<4x8x8xf32>) {
  // expected-error @+1 {{expected a rank-4 (NCHW) input, got 4x8x8}}
  %0 = tl.max_pool2d %x kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] : tensor<4x8x8xf32> -> tensor<4x4x4xf32>
  return
}

// -----

func.func @pool_pads(%x: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{pads must be smaller than the kernel, got pads [2, 0, 0, 0] for kernel [2, 2]}}
  %0 = tl.max_pool2d %x kernel = [2, 2] strides = [2, 2] pads = [2, 0, 0, 0] dilations = [1, 1] : tensor<1x4x8x8xf32> -> tensor<1x4x5x4xf32>
  return
}

// -----

func.func @pool_result(%x: tensor<1x4x7x7xf32>) {
  // expected-error @+1 {{result type 'tensor<1x4x3x3xf32>' differs from the expected 'tensor<1x4x4x4xf32>'}}
  %0 = tl.avg_pool2d %x kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode : tensor<1x4x7x7xf32> -> tensor<1x4x3x3xf32>
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = tl.layer_norm %x, %g, %g axis = 2 epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_norm_scale(%x: tensor<4x8xf32>, %g: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{scale must have shape 8 and element type 'f32', got 'tensor<4xf32>'}}
  %0 = tl.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @layer_norm_result(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{result type 'tensor<8x4xf32>' differs from input type 'tensor<4x8xf32>'}}
  %0 = tl.layer_norm %x, %g, %g axis = 1 epsilon = 1.0e-05 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @layer_norm_epsilon(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{epsilon must be non-negative, got -1.000000e+00}}
  %0 = tl.layer_norm %x, %g, %g axis = 1 epsilon = -1.0 : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @gather_axis(%t: tensor<100x16xf32>, %i: tensor<5xi64>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = tl.gather %t[%i] axis = 2 : tensor<100x16xf32>, tensor<5xi64> -> tensor<5x16xf32>
  return
}

// -----

func.func @gather_indices(%t: tensor<100x16xf32>, %i: tensor<5xf32>) {
  // expected-error @+1 {{indices must be i32 or i64, got 'f32'}}
  %0 = tl.gather %t[%i] axis = 0 : tensor<100x16xf32>, tensor<5xf32> -> tensor<5x16xf32>
  return
}

// -----

func.func @gather_scalar(%t: tensor<f32>, %i: tensor<5xi64>) {
  // expected-error @+1 {{cannot gather from a rank-0 tensor}}
  %0 = tl.gather %t[%i] axis = 0 : tensor<f32>, tensor<5xi64> -> tensor<5xf32>
  return
}

// -----

func.func @pad_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{expected 4 pads for rank 2, got 2}}
  %0 = tl.pad %x pads = [1, 1] mode = constant value = 0.0 : tensor<4x8xf32> -> tensor<5x9xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{pads must be non-negative, got -1 and 0 for axis 0}}
  %0 = tl.pad %x pads = [-1, 0, 0, 0] mode = constant value = 0.0 : tensor<4x8xf32> -> tensor<3x8xf32>
  return
}

// -----

func.func @pad_reflect(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{reflect pads must be smaller than the dimension, got 4 and 0 for axis 0 of size 4}}
  %0 = tl.pad %x pads = [4, 0, 0, 0] mode = reflect value = 0.0 : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @arg_max_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = tl.arg_max %x axis = -3 : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @arg_max_bool(%x: tensor<4x8xi1>) {
  // expected-error @+1 {{input must not be i1}}
  %0 = tl.arg_max %x axis = 1 : tensor<4x8xi1> -> tensor<4xi64>
  return
}

// -----

func.func @arg_max_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result type 'tensor<4xi32>' differs from the expected 'tensor<4xi64>'}}
  %0 = tl.arg_max %x axis = 1 : tensor<4x8xf32> -> tensor<4xi32>
  return
}

// -----

func.func @quantized_conv_result(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) {
  // expected-error @+1 {{result type 'tensor<1x4x5x5xi32>' differs from the expected 'tensor<1x4x6x6xi32>'}}
  %0 = tl.quantized_conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] input_zero_point = 0 : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8> -> tensor<1x4x5x5xi32>
  return
}

// -----

func.func @quantized_conv_zero_point(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) {
  // expected-error @+1 {{input_zero_point 128 is outside the input's range [-128, 127]}}
  %0 = tl.quantized_conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] input_zero_point = 128 : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8> -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @quantized_conv_taps(%x: tensor<1x8192x3x3xi8>, %w: tensor<1x8192x3x3xi8>) {
  // expected-error @+1 {{a window of 73728 taps may overflow the i32 sum (at most 65793)}}
  %0 = tl.quantized_conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] input_zero_point = 0 : tensor<1x8192x3x3xi8>, tensor<1x8192x3x3xi8> -> tensor<1x1x1x1xi32>
  return
}

// -----

func.func @quantized_conv_channels(%x: tensor<1x3x8x8xi8>, %w: tensor<4x2x3x3xi8>) {
  // expected-error @+1 {{filter has 2 channels per group, expected 3 (3 input channels / 1 groups)}}
  %0 = tl.quantized_conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] input_zero_point = 0 : tensor<1x3x8x8xi8>, tensor<4x2x3x3xi8> -> tensor<1x4x6x6xi32>
  return
}
