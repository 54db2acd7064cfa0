// RUN: tlc-opt %s -split-input-file -tl-autodiff -verify-diagnostics | FileCheck %s

// A layer: the bias gradient sums the broadcast rows, relu masks by the pre-activation, each
// einsum operand's gradient is an einsum of the result gradient with the other operand. One
// seed (1.0) serves all three gradients of the loss.
// CHECK-LABEL: func.func @layer
// CHECK-COUNT-1: tl.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NOT: tl.constant dense<1.000000e+00>
// CHECK: %[[GY:.+]] = tl.broadcast_to %{{.+}} : tensor<1x1xf32> -> tensor<2x4xf32>
// CHECK: %[[POS:.+]] = tl.compare gt %{{[0-9]+}}, %{{[0-9]+}} : tensor<2x4xf32>, tensor<f32> -> tensor<2x4xi1>
// CHECK: %[[GZ:.+]] = tl.select %[[POS]], %[[GY]], %{{.+}} : tensor<2x4xi1>, tensor<2x4xf32>, tensor<f32> -> tensor<2x4xf32>
// CHECK: %[[GB1:.+]] = tl.reduce_sum %[[GZ]] axes = [0] keepdims : tensor<2x4xf32> -> tensor<1x4xf32>
// CHECK: %[[GB:.+]] = tl.reshape %[[GB1]] : tensor<1x4xf32> -> tensor<4xf32>
// CHECK: %[[GX:.+]] = tl.einsum "ab,cb->ac" %[[GZ]], %arg1 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK: %[[GW:.+]] = tl.einsum "ab,ac->cb" %[[GZ]], %arg0 : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<3x4xf32>
// CHECK: return %{{.+}}, %[[GW]], %[[GB]], %[[GX]]
func.func @layer(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>)
    -> (tensor<f32>, tensor<3x4xf32>, tensor<4xf32>, tensor<2x3xf32>) {
  %y = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %z = tl.add %y, %b : tensor<2x4xf32>, tensor<4xf32> -> tensor<2x4xf32>
  %r = tl.relu %z : tensor<2x4xf32>
  %l = tl.reduce_sum %r axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  %gw = tl.grad %l wrt %w : tensor<f32>, tensor<3x4xf32>
  %gb = tl.grad %l wrt %b : tensor<f32>, tensor<4xf32>
  %gx = tl.grad %l wrt %x : tensor<f32>, tensor<2x3xf32>
  return %l, %gw, %gb, %gx : tensor<f32>, tensor<3x4xf32>, tensor<4xf32>, tensor<2x3xf32>
}

// -----

// A value read twice gets the sum of both contributions; d(x*x)/dx = x*g + x*g.
// CHECK-LABEL: func.func @fan_out
// CHECK: %[[A:.+]] = tl.mul %[[G:[0-9]+]], %arg0
// CHECK: %[[B:.+]] = tl.mul %[[G]], %arg0
// CHECK: %[[S:.+]] = tl.add %[[A]], %[[B]] : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
// CHECK: return %[[S]]
func.func @fan_out(%x: tensor<3xf32>) -> tensor<3xf32> {
  %sq = tl.mul %x, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %l = tl.reduce_sum %sq axes = [0] : tensor<3xf32> -> tensor<f32>
  %g = tl.grad %l wrt %x : tensor<f32>, tensor<3xf32>
  return %g : tensor<3xf32>
}

// -----

// A value the loss does not depend on has a zero gradient; the loss's own gradient is 1.
// CHECK-LABEL: func.func @unused_and_self
// CHECK-DAG: %[[ZERO:.+]] = tl.constant dense<0.000000e+00> : tensor<5xf32>
// CHECK-DAG: %[[ONE:.+]] = tl.constant dense<1.000000e+00> : tensor<f32>
// CHECK: return %[[ZERO]], %[[ONE]]
func.func @unused_and_self(%x: tensor<3xf32>, %u: tensor<5xf32>) -> (tensor<5xf32>, tensor<f32>) {
  %l = tl.reduce_sum %x axes = [0] : tensor<3xf32> -> tensor<f32>
  %gu = tl.grad %l wrt %u : tensor<f32>, tensor<5xf32>
  %gl = tl.grad %l wrt %l : tensor<f32>, tensor<f32>
  return %gu, %gl : tensor<5xf32>, tensor<f32>
}

// -----

// Integer operands get no gradient: a gather's indices and a select's condition.
// Slicing pads the gradient back with zeros; concat slices it; transpose inverts its perm.
// CHECK-LABEL: func.func @shapes
// CHECK: tl.slice %{{.+}} offsets = [0, 0] sizes = [2, 3] strides = [1, 1] : tensor<2x5xf32> -> tensor<2x3xf32>
// CHECK: tl.slice %{{.+}} offsets = [0, 3] sizes = [2, 2] strides = [1, 1] : tensor<2x5xf32> -> tensor<2x2xf32>
// CHECK: tl.transpose %{{.+}} perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK: tl.pad %{{.+}} pads = [1, 0, 0, 0] mode = constant value = 0.000000e+00 : tensor<3x2xf32> -> tensor<4x2xf32>
func.func @shapes(%x: tensor<4x2xf32>, %y: tensor<2x2xf32>) -> tensor<4x2xf32> {
  %s = tl.slice %x offsets = [1, 0] sizes = [3, 2] strides = [1, 1] : tensor<4x2xf32> -> tensor<3x2xf32>
  %t = tl.transpose %s perm = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %c = tl.concat %t, %y axis = 1 : tensor<2x3xf32>, tensor<2x2xf32> -> tensor<2x5xf32>
  %l = tl.reduce_mean %c axes = [0, 1] : tensor<2x5xf32> -> tensor<f32>
  %g = tl.grad %l wrt %x : tensor<f32>, tensor<4x2xf32>
  return %g : tensor<4x2xf32>
}

// -----

func.func @no_gradient(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32> {tl.name = "keys"}, %e: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'tl.fused_attention' has no gradient, and it lies between the loss and a value whose gradient is requested}}
  %y = tl.fused_attention %q, %k, %k scale = 0.5 outs(%e) : tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32> into tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %l = tl.reduce_sum %y axes = [0, 1, 2] : tensor<2x4x8xf32> -> tensor<f32>
  // expected-note @+1 {{the gradient with respect to 'keys' is requested here}}
  %g = tl.grad %l wrt %k : tensor<f32>, tensor<2x4x8xf32>
  return %g : tensor<2x4x8xf32>
}

// -----

func.func @strided(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{the gradient of a strided slice is not implemented}}
  %s = tl.slice %x offsets = [0] sizes = [4] strides = [2] : tensor<8xf32> -> tensor<4xf32>
  %l = tl.reduce_sum %s axes = [0] : tensor<4xf32> -> tensor<f32>
  // expected-note @+1 {{the gradient with respect to this value is requested here}}
  %g = tl.grad %l wrt %x : tensor<f32>, tensor<8xf32>
  return %g : tensor<8xf32>
}

// -----

func.func @diagonal(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{the gradient of an einsum with a label repeated within one operand (a diagonal) is not implemented}}
  %t = tl.einsum "ii" %x : (tensor<3x3xf32>) -> tensor<f32>
  // expected-note @+1 {{the gradient with respect to this value is requested here}}
  %g = tl.grad %t wrt %x : tensor<f32>, tensor<3x3xf32>
  return %g : tensor<3x3xf32>
}

// -----

func.func @second_order(%x: tensor<3xf32>) -> tensor<3xf32> {
  %sq = tl.mul %x, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %l = tl.reduce_sum %sq axes = [0] : tensor<3xf32> -> tensor<f32>
  // expected-note @+1 {{the loss depends on this gradient}}
  %g = tl.grad %l wrt %x : tensor<f32>, tensor<3xf32>
  %l2 = tl.reduce_sum %g axes = [0] : tensor<3xf32> -> tensor<f32>
  // expected-error @+1 {{the gradient of a gradient is not supported}}
  %g2 = tl.grad %l2 wrt %x : tensor<f32>, tensor<3xf32>
  return %g2 : tensor<3xf32>
}

// -----

// A convolution's input gradient convolves the zero-interleaved result gradient (stride 2:
// one zero between neighbours) with the flipped, transposed filters at stride 1, padded so
// that it yields exactly the input's rows (the filters' taps reversed as one flattened axis). Its filter gradient is one GEMM in the filter's layout: the gradient (F x pixels)
// times the patches of the padded input (pixels x C*KH*KW), one strided slice per tap.
// CHECK-LABEL: func.func @conv
// CHECK: tl.gather %{{.+}}[%{{.+}}] axis = 2 : tensor<4x2x9xf32>
// CHECK-NOT: tl.gather
// CHECK: tl.transpose %{{.+}} perm = [0, 2, 1, 3, 4] : tensor<1x4x2x3x3xf32> -> tensor<1x2x4x3x3xf32>
// CHECK: tl.pad %{{.+}} pads = [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1] mode = constant value = 0.000000e+00 : tensor<1x4x4x1x4x1xf32> -> tensor<1x4x4x2x4x2xf32>
// CHECK: tl.conv2d %{{.+}}, %{{.+}} strides = [1, 1] pads = [1, 1, 2, 2] dilations = [1, 1] groups = 1 : tensor<1x4x7x7xf32>, tensor<2x4x3x3xf32> -> tensor<1x2x8x8xf32>
// CHECK-NOT: sizes = [1, 2, 8, 8]
// CHECK: %[[P:.+]] = tl.pad %arg0 pads = [0, 0, 1, 1, 0, 0, 1, 1] mode = constant value = 0.000000e+00 : tensor<1x2x8x8xf32> -> tensor<1x2x10x10xf32>
// CHECK: tl.slice %[[P]] offsets = [0, 0, 0, 0] sizes = [1, 2, 4, 4] strides = [1, 1, 2, 2]
// CHECK: tl.transpose %{{.+}} perm = [0, 2, 3, 1] : tensor<1x2x4x4xf32> -> tensor<1x4x4x2xf32>
// CHECK: tl.slice %[[P]] offsets = [0, 0, 2, 2] sizes = [1, 2, 4, 4] strides = [1, 1, 2, 2]
// CHECK: tl.concat {{.+}} axis = 4 : {{.+}} -> tensor<1x4x4x2x9xf32>
// CHECK: tl.einsum "ij,jk->ik" %{{.+}}, %{{.+}} : (tensor<4x16xf32>, tensor<16x18xf32>) -> tensor<4x18xf32>
// CHECK: tl.reshape %{{.+}} : tensor<4x18xf32> -> tensor<4x2x3x3xf32>
func.func @conv(%x: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) {
  %y = tl.conv2d %x, %w strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32> -> tensor<1x4x4x4xf32>
  %l = tl.reduce_sum %y axes = [0, 1, 2, 3] : tensor<1x4x4x4xf32> -> tensor<f32>
  %gx = tl.grad %l wrt %x : tensor<f32>, tensor<1x2x8x8xf32>
  %gw = tl.grad %l wrt %w : tensor<f32>, tensor<4x2x3x3xf32>
  return %gx, %gw : tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>
}

// -----

// Padding wider than the kernel reaches (a 1x1 convolution padded by 1): the input gradient
// would need a negative padding, so the full convolution is cropped instead.
// CHECK-LABEL: func.func @conv_wide_pad
// CHECK: tl.conv2d %{{.+}}, %{{.+}} strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x3x6x6xf32>, tensor<2x3x1x1xf32> -> tensor<1x2x6x6xf32>
// CHECK: tl.slice %{{.+}} offsets = [0, 0, 1, 0] sizes = [1, 2, 4, 6]
// CHECK: tl.slice %{{.+}} offsets = [0, 0, 0, 1] sizes = [1, 2, 4, 4]
func.func @conv_wide_pad(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %y = tl.conv2d %x, %w strides = [1, 1] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32> -> tensor<1x3x6x6xf32>
  %l = tl.reduce_sum %y axes = [0, 1, 2, 3] : tensor<1x3x6x6xf32> -> tensor<f32>
  %gx = tl.grad %l wrt %x : tensor<f32>, tensor<1x2x4x4xf32>
  return %gx : tensor<1x2x4x4xf32>
}

// -----

// A grouped convolution's filter gradient convolves the input (channels of a group as the
// batch) with the gradient, strides and dilations trading places, cropped to the kernel.
// CHECK-LABEL: func.func @conv_grouped
// CHECK: tl.conv2d %{{.+}}, %{{.+}} strides = [1, 1] pads = [1, 1, 1, 1] dilations = [2, 2] groups = 2 : tensor<1x2x8x8xf32>, tensor<4x1x4x4xf32> -> tensor<1x4x4x4xf32>
// CHECK: tl.slice %{{.+}} offsets = [0, 0, 0, 0] sizes = [1, 4, 3, 3]
// CHECK: tl.transpose %{{.+}} perm = [1, 0, 2, 3] : tensor<1x4x3x3xf32> -> tensor<4x1x3x3xf32>
func.func @conv_grouped(%x: tensor<1x2x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<4x1x3x3xf32> {
  %y = tl.conv2d %x, %w strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 2 : tensor<1x2x8x8xf32>, tensor<4x1x3x3xf32> -> tensor<1x4x4x4xf32>
  %l = tl.reduce_sum %y axes = [0, 1, 2, 3] : tensor<1x4x4x4xf32> -> tensor<f32>
  %gw = tl.grad %l wrt %w : tensor<f32>, tensor<4x1x3x3xf32>
  return %gw : tensor<4x1x3x3xf32>
}

// -----

// Ops after the backward graph that read gradients (here an SGD update per weight) move up to
// right after their operands: the update of w2, whose gradient the reverse sweep computes
// first, runs before w1's gradient is computed, so the gradients are not all live at once.
// Its constant (the learning rate) moves to the top.
// CHECK-LABEL: func.func @updates_early
// CHECK: %[[LR:.+]] = tl.constant dense<1.000000e-01> : tensor<f32>
// CHECK: %[[G2:.+]] = tl.einsum "ab,ac->cb" %{{.+}}, %{{.+}} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[S2:.+]] = tl.mul %[[LR]], %[[G2]]
// CHECK-NEXT: %[[N2:.+]] = tl.sub %arg2, %[[S2]]
// CHECK: %[[G1:.+]] = tl.einsum "ab,ac->cb" %{{.+}}, %arg0 : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[S1:.+]] = tl.mul %[[LR]], %[[G1]]
// CHECK-NEXT: %[[N1:.+]] = tl.sub %arg1, %[[S1]]
// CHECK: return %[[N1]], %[[N2]]
func.func @updates_early(%x: tensor<2x3xf32>, %w1: tensor<3x4xf32>, %w2: tensor<4x4xf32>)
    -> (tensor<3x4xf32>, tensor<4x4xf32>) {
  %h = tl.einsum "ij,jk->ik" %x, %w1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %t = tl.tanh %h : tensor<2x4xf32>
  %y = tl.einsum "ij,jk->ik" %t, %w2 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %l = tl.reduce_sum %y axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  %g1 = tl.grad %l wrt %w1 : tensor<f32>, tensor<3x4xf32>
  %lr = tl.constant dense<0.1> : tensor<f32>
  %s1 = tl.mul %lr, %g1 : tensor<f32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %n1 = tl.sub %w1, %s1 : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  %g2 = tl.grad %l wrt %w2 : tensor<f32>, tensor<4x4xf32>
  %s2 = tl.mul %lr, %g2 : tensor<f32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %n2 = tl.sub %w2, %s2 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %n1, %n2 : tensor<3x4xf32>, tensor<4x4xf32>
}
