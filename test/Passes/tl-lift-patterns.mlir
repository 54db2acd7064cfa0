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

// Multiplied by rsqrt(var + eps) (rsqrt first) instead of divided by the square root, with
// the affine tail.
// CHECK-LABEL: func.func @layer_norm_rsqrt
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[G:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK: %[[LN:.+]] = tl.layer_norm %[[X]], %[[G]], %[[B]] axis = 1
// CHECK-NEXT: return %[[LN]]
func.func @layer_norm_rsqrt(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %eps = tl.constant dense<1.0e-05> : tensor<f32>
  %m = tl.reduce_mean %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = tl.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %sq = tl.mul %d, %d : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v = tl.reduce_mean %sq axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %ve = tl.add %v, %eps : tensor<4x1xf32>, tensor<f32> -> tensor<4x1xf32>
  %r = tl.rsqrt %ve : tensor<4x1xf32>
  %n = tl.mul %r, %d : tensor<4x1xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %y = tl.mul %n, %g : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %z = tl.add %y, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %z : tensor<4x8xf32>
}

// -----

// Not a LayerNorm: rsqrt of something else than the variance plus a constant.
// CHECK-LABEL: func.func @not_layer_norm_rsqrt
// CHECK-NOT: tl.layer_norm
func.func @not_layer_norm_rsqrt(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = tl.reduce_mean %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = tl.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %r = tl.rsqrt %m : tensor<4x1xf32>
  %n = tl.mul %d, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
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

// -----

// Attention as nn.MultiheadAttention exports it (PyTorch 1.13): Q divided by sqrt(d) before
// MatMul(Q, K^T), softmax over the last axis, MatMul with V.
// CHECK-LABEL: func.func @attention_mha
// CHECK-SAME: (%[[Q:.+]]: tensor<8x16x32xf32>, %[[K:.+]]: tensor<8x16x32xf32>, %[[V:.+]]: tensor<8x16x32xf32>)
// CHECK: %[[A:.+]] = tl.attention %[[Q]], %[[K]], %[[V]] scale = 0.17677669{{[0-9]*}} : tensor<8x16x32xf32>, tensor<8x16x32xf32>, tensor<8x16x32xf32> -> tensor<8x16x32xf32>
// CHECK-NEXT: return %[[A]]
func.func @attention_mha(%q: tensor<8x16x32xf32>, %k: tensor<8x16x32xf32>, %v: tensor<8x16x32xf32>) -> tensor<8x16x32xf32> {
  %c = tl.constant dense<5.65685415> : tensor<f32>
  %qs = tl.div %q, %c : tensor<8x16x32xf32>, tensor<f32> -> tensor<8x16x32xf32>
  %kt = tl.transpose %k perm = [0, 2, 1] : tensor<8x16x32xf32> -> tensor<8x32x16xf32>
  %s = tl.einsum "...ij,...jk->...ik" %qs, %kt : (tensor<8x16x32xf32>, tensor<8x32x16xf32>) -> tensor<8x16x16xf32>
  %p = tl.softmax %s axis = 2 : tensor<8x16x16xf32>
  %o = tl.einsum "...ij,...jk->...ik" %p, %v : (tensor<8x16x16xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  return %o : tensor<8x16x32xf32>
}

// -----

// Scale on the scores, an additive mask, K^T given as an einsum operand.
// CHECK-LABEL: func.func @attention_mask
// CHECK-SAME: (%[[Q:.+]]: tensor<2x4x16x8xf32>, %[[KT:.+]]: tensor<2x4x8x16xf32>, %[[V:.+]]: tensor<2x4x16x8xf32>, %[[M:.+]]: tensor<16x16xf32>)
// CHECK: %[[K:.+]] = tl.transpose %[[KT]] perm = [0, 1, 3, 2]
// CHECK: tl.attention %[[Q]], %[[K]], %[[V]] mask %[[M]] scale = 2.500000e-01
// CHECK-NOT: tl.softmax
func.func @attention_mask(%q: tensor<2x4x16x8xf32>, %kt: tensor<2x4x8x16xf32>, %v: tensor<2x4x16x8xf32>, %m: tensor<16x16xf32>) -> tensor<2x4x16x8xf32> {
  %c = tl.constant dense<0.25> : tensor<f32>
  %s = tl.einsum "bhid,bhdj->bhij" %q, %kt : (tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32>
  %ss = tl.mul %c, %s : tensor<f32>, tensor<2x4x16x16xf32> -> tensor<2x4x16x16xf32>
  %sm = tl.add %ss, %m : tensor<2x4x16x16xf32>, tensor<16x16xf32> -> tensor<2x4x16x16xf32>
  %p = tl.softmax %sm axis = 3 : tensor<2x4x16x16xf32>
  %o = tl.einsum "bhij,bhjd->bhid" %p, %v : (tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}

// -----

// GPT-2's masked_fill with the causal triangle (a constant condition) becomes `causal`.
// CHECK-LABEL: func.func @attention_causal
// CHECK: tl.attention %{{.+}}, %{{.+}}, %{{.+}} causal scale = 5.000000e-01
// CHECK-NOT: tl.select
func.func @attention_causal(%q: tensor<1x3x4xf32>, %k: tensor<1x3x4xf32>, %v: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %c = tl.constant dense<0.5> : tensor<f32>
  %ninf = tl.constant dense<0xFF800000> : tensor<f32>
  %masked = tl.constant dense<[[[false, true, true], [false, false, true], [false, false, false]]]> : tensor<1x3x3xi1>
  %s = tl.einsum "bid,bjd->bij" %q, %k : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x3xf32>
  %ss = tl.mul %s, %c : tensor<1x3x3xf32>, tensor<f32> -> tensor<1x3x3xf32>
  %sm = tl.select %masked, %ninf, %ss : tensor<1x3x3xi1>, tensor<f32>, tensor<1x3x3xf32> -> tensor<1x3x3xf32>
  %p = tl.softmax %sm axis = 2 : tensor<1x3x3xf32>
  %o = tl.einsum "bij,bjd->bid" %p, %v : (tensor<1x3x3xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  return %o : tensor<1x3x4xf32>
}

// -----

// A masked_fill that is not the causal triangle stays a mask (folded to an additive constant).
// CHECK-LABEL: func.func @attention_fill_mask
// CHECK: %[[M:.+]] = tl.constant dense<{{\[}}[-1.000000e+04, 0.000000e+00], [0.000000e+00, 0.000000e+00]]> : tensor<2x2xf32>
// CHECK: tl.attention %{{.+}}, %{{.+}}, %{{.+}} mask %[[M]] scale = 1.000000e+00
func.func @attention_fill_mask(%q: tensor<2x4xf32>, %k: tensor<2x4xf32>, %v: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %fill = tl.constant dense<-1.0e4> : tensor<f32>
  %keep = tl.constant dense<[[false, true], [true, true]]> : tensor<2x2xi1>
  %s = tl.einsum "id,jd->ij" %q, %k : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x2xf32>
  %sm = tl.select %keep, %s, %fill : tensor<2x2xi1>, tensor<2x2xf32>, tensor<f32> -> tensor<2x2xf32>
  %p = tl.softmax %sm axis = 1 : tensor<2x2xf32>
  %o = tl.einsum "ij,jd->id" %p, %v : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}

// -----

// Not attention: the softmax runs over the query axis, not the keys.
// CHECK-LABEL: func.func @not_attention_axis
// CHECK-NOT: tl.attention
func.func @not_attention_axis(%q: tensor<8x16x32xf32>, %k: tensor<8x16x32xf32>, %v: tensor<8x16x32xf32>) -> tensor<8x16x32xf32> {
  %s = tl.einsum "bid,bjd->bij" %q, %k : (tensor<8x16x32xf32>, tensor<8x16x32xf32>) -> tensor<8x16x16xf32>
  %p = tl.softmax %s axis = 1 : tensor<8x16x16xf32>
  %o = tl.einsum "bij,bjd->bid" %p, %v : (tensor<8x16x16xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  return %o : tensor<8x16x32xf32>
}

// -----

// Not lifted: the attention probabilities are also returned (the scores would be computed twice).
// CHECK-LABEL: func.func @not_attention_shared
// CHECK-NOT: tl.attention
func.func @not_attention_shared(%q: tensor<8x16x32xf32>, %k: tensor<8x16x32xf32>, %v: tensor<8x16x32xf32>) -> (tensor<8x16x32xf32>, tensor<8x16x16xf32>) {
  %s = tl.einsum "bid,bjd->bij" %q, %k : (tensor<8x16x32xf32>, tensor<8x16x32xf32>) -> tensor<8x16x16xf32>
  %p = tl.softmax %s axis = 2 : tensor<8x16x16xf32>
  %o = tl.einsum "bij,bjd->bid" %p, %v : (tensor<8x16x16xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  return %o, %p : tensor<8x16x32xf32>, tensor<8x16x16xf32>
}
