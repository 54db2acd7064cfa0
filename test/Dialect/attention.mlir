// RUN: tlc-opt %s -split-input-file | tlc-opt -split-input-file | FileCheck %s
// RUN: tlc-opt %s -split-input-file -mlir-print-op-generic | tlc-opt -split-input-file | FileCheck %s

// Round trip of tl.attention: plain, causal, with a mask (shared, key padding, scalar), rank 2
// and rank 3, Sq != Sk and Dv != D.

// CHECK-LABEL: func.func @attention
// CHECK: tl.attention %{{.+}}, %{{.+}}, %{{.+}} scale = 1.250000e-01 : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32> -> tensor<2x4x16x64xf32>
// CHECK: tl.attention %{{.+}}, %{{.+}}, %{{.+}} causal scale = 1.250000e-01 :
// CHECK: tl.attention %{{.+}}, %{{.+}}, %{{.+}} mask %{{.+}} scale = 5.000000e-01 : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<16x16xf32> -> tensor<2x4x16x64xf32>
// CHECK: tl.attention %{{.+}}, %{{.+}}, %{{.+}} mask %{{.+}} causal scale = 1.000000e+00 : {{.+}}, tensor<2x1x1x16xf32> ->
// CHECK: tl.attention %{{.+}}, %{{.+}}, %{{.+}} mask %{{.+}} scale = 1.000000e+00 : {{.+}}, tensor<f32> ->
func.func @attention(%q: tensor<2x4x16x64xf32>, %k: tensor<2x4x16x64xf32>, %v: tensor<2x4x16x64xf32>,
                     %m: tensor<16x16xf32>, %pad: tensor<2x1x1x16xf32>, %s: tensor<f32>) {
  %0 = tl.attention %q, %k, %v scale = 0.125 : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32> -> tensor<2x4x16x64xf32>
  %1 = tl.attention %q, %k, %v causal scale = 0.125 : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32> -> tensor<2x4x16x64xf32>
  %2 = tl.attention %q, %k, %v mask %m scale = 0.5 : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<16x16xf32> -> tensor<2x4x16x64xf32>
  %3 = tl.attention %q, %k, %v mask %pad causal scale = 1.0 : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x1x1x16xf32> -> tensor<2x4x16x64xf32>
  %4 = tl.attention %q, %k, %v mask %s scale = 1.0 : tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<2x4x16x64xf32>, tensor<f32> -> tensor<2x4x16x64xf32>
  return
}

// -----

// CHECK-LABEL: func.func @shapes
// CHECK: tl.attention {{.+}} : tensor<8x4xf16>, tensor<5x4xf16>, tensor<5x3xf16> -> tensor<8x3xf16>
// CHECK: tl.attention {{.+}} causal {{.+}} : tensor<2x8x4xbf16>, tensor<2x5x4xbf16>, tensor<2x5x6xbf16> -> tensor<2x8x6xbf16>
func.func @shapes(%q: tensor<8x4xf16>, %k: tensor<5x4xf16>, %v: tensor<5x3xf16>,
                  %q3: tensor<2x8x4xbf16>, %k3: tensor<2x5x4xbf16>, %v3: tensor<2x5x6xbf16>) {
  %0 = tl.attention %q, %k, %v scale = 0.5 : tensor<8x4xf16>, tensor<5x4xf16>, tensor<5x3xf16> -> tensor<8x3xf16>
  %1 = tl.attention %q3, %k3, %v3 causal scale = 0.5 : tensor<2x8x4xbf16>, tensor<2x5x4xbf16>, tensor<2x5x6xbf16> -> tensor<2x8x6xbf16>
  return
}
