// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg="tiled-attention=false fused-attention=true" | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg="tiled-attention=false fused-attention=true" -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// With fused-attention (the GPU targets) f32 attention becomes one tl.fused_attention into a
// tensor.empty, with its mask, causal flag and scale; bufferized, the same op on buffers
// writing a new allocation, which it does not read (no copy into it).
// CHECK-LABEL: func.func @causal_masked
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x16x4xf32>
// CHECK: %[[R:.+]] = tl.fused_attention %arg0, %arg1, %arg2 mask %arg3 causal scale = 2.500000e-01 outs(%[[E]])
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
// BUF-LABEL: func.func @causal_masked
// BUF: %[[A:.+]] = memref.alloc() {{.*}}: memref<2x16x4xf32>
// BUF-NOT: memref.copy
// BUF: tl.fused_attention %arg0, %arg1, %arg2 mask %arg3 causal scale = 2.500000e-01 outs(%[[A]]) : memref<2x16x8xf32>, memref<2x24x8xf32>, memref<2x24x4xf32>, memref<1x24xf32> into memref<2x16x4xf32>
// BUF: return %[[A]]
func.func @causal_masked(%q: tensor<2x16x8xf32>, %k: tensor<2x24x8xf32>, %v: tensor<2x24x4xf32>,
                         %m: tensor<1x24xf32>) -> tensor<2x16x4xf32> {
  %0 = tl.attention %q, %k, %v mask %m causal scale = 0.25
      : tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x4xf32>, tensor<1x24xf32> -> tensor<2x16x4xf32>
  return %0 : tensor<2x16x4xf32>
}

// -----

// Heads wider than 128 and other element types keep the definition.
// CHECK-LABEL: func.func @wide_head
// CHECK-NOT: tl.fused_attention
// CHECK: linalg.generic
func.func @wide_head(%q: tensor<16x160xf32>) -> tensor<16x160xf32> {
  %0 = tl.attention %q, %q, %q scale = 0.25 : tensor<16x160xf32>, tensor<16x160xf32>, tensor<16x160xf32> -> tensor<16x160xf32>
  return %0 : tensor<16x160xf32>
}

// CHECK-LABEL: func.func @f16
// CHECK-NOT: tl.fused_attention
// CHECK: linalg.generic
func.func @f16(%q: tensor<16x8xf16>) -> tensor<16x8xf16> {
  %0 = tl.attention %q, %q, %q scale = 0.25 : tensor<16x8xf16>, tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  return %0 : tensor<16x8xf16>
}
