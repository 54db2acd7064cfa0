// RUN: tlc-opt %s -split-input-file -verify-diagnostics

// Every verifier message of tl.attention.

func.func @element_types(%q: tensor<8x4xf32>, %k: tensor<8x4xf16>, %v: tensor<8x4xf32>) {
  // expected-error @+1 {{'tl.attention' op key element type 'f16' differs from query's 'f32'}}
  %0 = tl.attention %q, %k, %v scale = 0.5 : tensor<8x4xf32>, tensor<8x4xf16>, tensor<8x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @mask_element_type(%q: tensor<8x4xf32>, %m: tensor<8x8xf16>) {
  // expected-error @+1 {{'tl.attention' op mask element type 'f16' differs from query's 'f32'}}
  %0 = tl.attention %q, %q, %q mask %m scale = 0.5 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x8xf16> -> tensor<8x4xf32>
  return
}

// -----

func.func @rank(%q: tensor<8xf32>) {
  // expected-error @+1 {{'tl.attention' op query must have rank >= 2 ([batch..., seq, head_dim]), got shape 8}}
  %0 = tl.attention %q, %q, %q scale = 0.5 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @batch(%q: tensor<2x8x4xf32>, %k: tensor<3x8x4xf32>) {
  // expected-error @+1 {{'tl.attention' op key shape 3x8x4 does not match query shape 2x8x4 (same rank and batch dimensions)}}
  %0 = tl.attention %q, %k, %q scale = 0.5 : tensor<2x8x4xf32>, tensor<3x8x4xf32>, tensor<2x8x4xf32> -> tensor<2x8x4xf32>
  return
}

// -----

func.func @value_rank(%q: tensor<2x8x4xf32>, %v: tensor<8x4xf32>) {
  // expected-error @+1 {{'tl.attention' op value shape 8x4 does not match query shape 2x8x4 (same rank and batch dimensions)}}
  %0 = tl.attention %q, %q, %v scale = 0.5 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<8x4xf32> -> tensor<2x8x4xf32>
  return
}

// -----

func.func @head_dim(%q: tensor<8x4xf32>, %k: tensor<8x5xf32>) {
  // expected-error @+1 {{'tl.attention' op key head dimension 5 differs from query head dimension 4}}
  %0 = tl.attention %q, %k, %q scale = 0.5 : tensor<8x4xf32>, tensor<8x5xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @seq(%q: tensor<8x4xf32>, %v: tensor<7x4xf32>) {
  // expected-error @+1 {{'tl.attention' op value sequence length 7 differs from key sequence length 8}}
  %0 = tl.attention %q, %q, %v scale = 0.5 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<7x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @mask_shape(%q: tensor<2x8x4xf32>, %m: tensor<3x8x8xf32>) {
  // expected-error @+1 {{'tl.attention' op mask does not broadcast to the scores [batch..., Sq, Sk]: cannot broadcast shape 3x8x8 to 2x8x8}}
  %0 = tl.attention %q, %q, %q mask %m scale = 0.5 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<3x8x8xf32> -> tensor<2x8x4xf32>
  return
}

// -----

func.func @result(%q: tensor<8x4xf32>) {
  // expected-error @+1 {{'tl.attention' op result type 'tensor<8x5xf32>' differs from the expected 'tensor<8x4xf32>'}}
  %0 = tl.attention %q, %q, %q scale = 0.5 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x5xf32>
  return
}

// -----

func.func @scale(%q: tensor<8x4xf32>) {
  // expected-error @+1 {{'tl.attention' op scale must be finite, got INF}}
  %0 = tl.attention %q, %q, %q scale = 0x7FF0000000000000 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @not_float(%q: tensor<8x4xi32>) {
  // expected-error @+1 {{'tl.attention' op operand #0 must be statically shaped tensor}}
  %0 = tl.attention %q, %q, %q scale = 0.5 : tensor<8x4xi32>, tensor<8x4xi32>, tensor<8x4xi32> -> tensor<8x4xi32>
  return
}
