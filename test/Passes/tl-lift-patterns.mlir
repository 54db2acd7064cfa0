// RUN: tlc-opt %s -split-input-file -tl-lift-patterns | FileCheck %s

// LayerNorm as exporters before opset 17 write it, with the affine tail.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x4x8xf32>, %[[G:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK: %[[LN:.+]] = tl.layer_norm %[[X]], %[[G]], %[[B]] axis = 2 epsilon = 9.9999997{{[0-9]+}}E-6
// CHECK-NEXT: return %[[LN]]
func.func @layer_norm(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %eps = tl.constant dense<1.0e-05> : tensor<f32>
  %m = tl.reduce_mean %x axes = [-1] keepdims : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
  %d = tl.sub %x, %m : tensor<2x4x8xf32>, tensor<2x4x1xf32> -> tensor<2x4x8xf32>
  %sq = tl.mul %d, %d : tensor<2x4x8xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %v = tl.reduce_mean %sq axes = [-1] keepdims : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
  %ve = tl.add %v, %eps : tensor<2x4x1xf32>, tensor<f32> -> tensor<2x4x1xf32>
  %s = tl.sqrt %ve : tensor<2x4x1xf32>
  %n = tl.div %d, %s : tensor<2x4x8xf32>, tensor<2x4x1xf32> -> tensor<2x4x8xf32>
  %y = tl.mul %n, %g : tensor<2x4x8xf32>, tensor<8xf32> -> tensor<2x4x8xf32>
  %z = tl.add %y, %b : tensor<2x4x8xf32>, tensor<8xf32> -> tensor<2x4x8xf32>
  return %z : tensor<2x4x8xf32>
}

// -----

// Without the affine tail, and the square as pow(d, 2): unit scale and zero bias.
// CHECK-LABEL: func.func @layer_norm_plain
// CHECK: tl.layer_norm %{{.+}}, %{{.+}}, %{{.+}} axis = 1
// CHECK-NOT: tl.sqrt
func.func @layer_norm_plain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %eps = tl.constant dense<1.0e-05> : tensor<f32>
  %two = tl.constant dense<2.0> : tensor<f32>
  %m = tl.reduce_mean %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = tl.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %sq = tl.pow %d, %two : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %v = tl.reduce_mean %sq axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %ve = tl.add %eps, %v : tensor<f32>, tensor<4x1xf32> -> tensor<4x1xf32>
  %s = tl.sqrt %ve : tensor<4x1xf32>
  %n = tl.div %d, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

// Not a LayerNorm: the variance is taken over another axis than the mean.
// CHECK-LABEL: func.func @not_layer_norm
// CHECK-NOT: tl.layer_norm
func.func @not_layer_norm(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %eps = tl.constant dense<1.0e-05> : tensor<f32>
  %m = tl.reduce_mean %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = tl.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %sq = tl.mul %d, %d : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v = tl.reduce_mean %sq axes = [0] keepdims : tensor<4x8xf32> -> tensor<1x8xf32>
  %ve = tl.add %v, %eps : tensor<1x8xf32>, tensor<f32> -> tensor<1x8xf32>
  %s = tl.sqrt %ve : tensor<1x8xf32>
  %n = tl.div %d, %s : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// -----

// GELU, erf form, as PyTorch exports nn.GELU: ((x * (erf(x / sqrt2) + 1)) * 0.5).
// CHECK-LABEL: func.func @gelu_erf
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK: %[[G:.+]] = tl.gelu %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[G]]
func.func @gelu_erf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sqrt2 = tl.constant dense<1.41421354> : tensor<f32>
  %one = tl.constant dense<1.0> : tensor<f32>
  %half = tl.constant dense<0.5> : tensor<f32>
  %a = tl.div %x, %sqrt2 : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %e = tl.erf %a : tensor<4x8xf32>
  %p = tl.add %e, %one : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %m = tl.mul %x, %p : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %y = tl.mul %m, %half : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// GELU, tanh form, as GPT-2 writes it: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).
// CHECK-LABEL: func.func @gelu_tanh
// CHECK: tl.gelu %{{.+}} approximate = tanh
// CHECK-NOT: tl.tanh
func.func @gelu_tanh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %half = tl.constant dense<0.5> : tensor<f32>
  %one = tl.constant dense<1.0> : tensor<f32>
  %k = tl.constant dense<0.797884583> : tensor<f32>
  %c = tl.constant dense<0.044715> : tensor<f32>
  %hx = tl.mul %half, %x : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %x2 = tl.mul %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %x3 = tl.mul %x2, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %cx3 = tl.mul %c, %x3 : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %s = tl.add %x, %cx3 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %ks = tl.mul %k, %s : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %t = tl.tanh %ks : tensor<4x8xf32>
  %p = tl.add %one, %t : tensor<f32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %y = tl.mul %hx, %p : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Not a GELU: the wrong constant inside erf.
// CHECK-LABEL: func.func @not_gelu
// CHECK-NOT: tl.gelu
func.func @not_gelu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %k = tl.constant dense<2.0> : tensor<f32>
  %one = tl.constant dense<1.0> : tensor<f32>
  %half = tl.constant dense<0.5> : tensor<f32>
  %a = tl.div %x, %k : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %e = tl.erf %a : tensor<4x8xf32>
  %p = tl.add %e, %one : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  %m = tl.mul %x, %p : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %y = tl.mul %m, %half : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
