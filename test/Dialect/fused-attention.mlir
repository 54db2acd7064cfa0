// RUN: tlc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// tl.fused_attention round-trips on tensors (one result, init's type) and on buffers (none).
// CHECK-LABEL: func.func @tensors
// CHECK: %{{.+}} = tl.fused_attention %{{.+}}, %{{.+}}, %{{.+}} mask %{{.+}} causal scale = 1.250000e-01 outs(%{{.+}}) : tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x4xf32>, tensor<16x24xf32> into tensor<2x16x4xf32> -> tensor<2x16x4xf32>
func.func @tensors(%q: tensor<2x16x8xf32>, %k: tensor<2x24x8xf32>, %v: tensor<2x24x4xf32>,
                   %m: tensor<16x24xf32>, %e: tensor<2x16x4xf32>) -> tensor<2x16x4xf32> {
  %0 = tl.fused_attention %q, %k, %v mask %m causal scale = 0.125 outs(%e)
      : tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x4xf32>, tensor<16x24xf32>
        into tensor<2x16x4xf32> -> tensor<2x16x4xf32>
  return %0 : tensor<2x16x4xf32>
}

// CHECK-LABEL: func.func @buffers
// CHECK: tl.fused_attention %{{.+}}, %{{.+}}, %{{.+}} scale = 5.000000e-01 outs(%{{.+}}) : memref<16x8xf32>, memref<16x8xf32>, memref<16x8xf32> into memref<16x8xf32>
func.func @buffers(%q: memref<16x8xf32>, %o: memref<16x8xf32>) {
  tl.fused_attention %q, %q, %q scale = 0.5 outs(%o)
      : memref<16x8xf32>, memref<16x8xf32>, memref<16x8xf32> into memref<16x8xf32>
  return
}

// -----

func.func @init_shape(%q: tensor<16x8xf32>, %e: tensor<16x4xf32>) {
  // expected-error @+1 {{'tl.fused_attention' op init shape 16x4 differs from the result's 16x8}}
  %0 = tl.fused_attention %q, %q, %q scale = 0.5 outs(%e)
      : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32> into tensor<16x4xf32> -> tensor<16x4xf32>
  return
}

// -----

func.func @mixed(%q: tensor<16x8xf32>, %o: memref<16x8xf32>) {
  // expected-error @+1 {{'tl.fused_attention' op operands must be all tensors or all buffers}}
  tl.fused_attention %q, %q, %q scale = 0.5 outs(%o)
      : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32> into memref<16x8xf32>
  return
}

// -----

func.func @result_on_buffers(%q: memref<16x8xf32>, %o: memref<16x8xf32>) {
  // expected-error @+1 {{'tl.fused_attention' op has one result, of init's type, on tensors and none on buffers}}
  %0 = tl.fused_attention %q, %q, %q scale = 0.5 outs(%o)
      : memref<16x8xf32>, memref<16x8xf32>, memref<16x8xf32> into memref<16x8xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @key_shape(%q: tensor<16x8xf32>, %k: tensor<16x4xf32>, %e: tensor<16x8xf32>) {
  // expected-error @+1 {{'tl.fused_attention' op key head dimension 4 differs from query head dimension 8}}
  %0 = tl.fused_attention %q, %k, %q scale = 0.5 outs(%e)
      : tensor<16x8xf32>, tensor<16x4xf32>, tensor<16x8xf32> into tensor<16x8xf32> -> tensor<16x8xf32>
  return
}
