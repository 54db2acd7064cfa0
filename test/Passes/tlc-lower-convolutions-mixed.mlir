// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-im2col=false bf16-dots=true" -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-im2col=false" -mlir-print-local-scope | FileCheck %s --check-prefix=EXTEND

// Mixed precision: a windowed convolution of bf16 input and filter into f32 has both operands extended
// to f32 first (exact), then takes the same strategy as an f32 convolution (here im2col and a
// contraction of f32 operands).
// EXTEND-LABEL: func.func @conv_bf16
// EXTEND-SAME: (%[[IN:.+]]: tensor<1x4x9x9xbf16>, %[[W:.+]]: tensor<8x4x3x3xbf16>, %[[INIT:.+]]: tensor<1x8x4x4xf32>)
// EXTEND: %[[INF:.+]] = linalg.generic {{.+}} ins(%[[IN]] : tensor<1x4x9x9xbf16>) outs(%{{.+}} : tensor<1x4x9x9xf32>)
// EXTEND: arith.extf %{{.+}} : bf16 to f32
// EXTEND: %[[WF:.+]] = linalg.generic {{.+}} ins(%[[W]] : tensor<8x4x3x3xbf16>) outs(%{{.+}} : tensor<8x4x3x3xf32>)
// EXTEND: arith.extf %{{.+}} : bf16 to f32
// EXTEND: linalg.generic {{.+}} ins(%[[INF]] : tensor<1x4x9x9xf32>) outs(%{{.+}} : tensor<1x4x3x3x4x4xf32>)
// EXTEND: tensor.collapse_shape %[[WF]] {{.+}} : tensor<8x4x3x3xf32> into tensor<8x36xf32>
// EXTEND-NOT: linalg.conv_2d
// With bf16-dots (every CPU of the object has bf16 dot products), a windowed one that
// would be one im2col matrix and one contraction in f32 too (not Winograd, not tiled) keeps its
// bf16 operands: the im2col copy is bf16, and the contraction's body extends them.
// CHECK-LABEL: func.func @conv_bf16
// CHECK-SAME: (%[[IN:.+]]: tensor<1x4x9x9xbf16>, %[[W:.+]]: tensor<8x4x3x3xbf16>, %[[INIT:.+]]: tensor<1x8x4x4xf32>)
// CHECK-NOT: tensor<1x4x9x9xf32>
// CHECK: %[[COL:.+]] = linalg.generic {{.+}} ins(%[[IN]] : tensor<1x4x9x9xbf16>) outs(%{{.+}} : tensor<1x4x3x3x4x4xbf16>)
// CHECK: %[[COLF:.+]] = tensor.collapse_shape %[[COL]] {{.+}} into tensor<1x36x16xbf16>
// CHECK: %[[WC:.+]] = tensor.collapse_shape %[[W]] {{.+}} : tensor<8x4x3x3xbf16> into tensor<8x36xbf16>
// CHECK: linalg.generic {{.+}} ins(%[[WC]], %[[COLF]] : tensor<8x36xbf16>, tensor<1x36x16xbf16>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK-NOT: linalg.conv_2d
func.func @conv_bf16(%in: tensor<1x4x9x9xbf16>, %w: tensor<8x4x3x3xbf16>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x9x9xbf16>, tensor<8x4x3x3xbf16>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// Negative: an f32 convolution gets no extension.
// CHECK-LABEL: func.func @conv_f32
// CHECK-NOT: arith.extf
// CHECK: return
func.func @conv_f32(%in: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// With bf16-dots, a bf16 1x1 convolution is not extended: it becomes one contraction of its bf16
// operands (the input collapsed, no copy at stride 1; a strided copy in bf16 otherwise) whose
// body extends them, so the contraction tiler takes its AVX-512 BF16 k-pair dot products.
// CHECK-LABEL: func.func @pointwise_bf16
// CHECK-SAME: (%[[IN:.+]]: tensor<1x16x8x8xbf16>, %[[W:.+]]: tensor<32x16x1x1xbf16>, %[[INIT:.+]]: tensor<1x32x8x8xf32>)
// CHECK-NOT: tensor<1x16x8x8xf32>
// CHECK-DAG: %[[COL:.+]] = tensor.collapse_shape %[[IN]] {{.+}} : tensor<1x16x8x8xbf16> into tensor<1x16x64xbf16>
// CHECK-DAG: %[[W2:.+]] = tensor.collapse_shape %[[W]] {{.+}} : tensor<32x16x1x1xbf16> into tensor<32x16xbf16>
// CHECK: linalg.generic {{.+}} ins(%[[W2]], %[[COL]] : tensor<32x16xbf16>, tensor<1x16x64xbf16>) outs(%{{.+}} : tensor<1x32x64xf32>)
// CHECK-NEXT: ^bb0(%[[A:.+]]: bf16, %[[B:.+]]: bf16, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[AE:.+]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT: %[[BE:.+]] = arith.extf %[[B]] : bf16 to f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[AE]], %[[BE]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NOT: linalg.conv_2d
// Without bf16-dots (CPUs without bf16 dot products) it is extended like the others.
// EXTEND-LABEL: func.func @pointwise_bf16
// EXTEND: linalg.generic {{.+}} ins(%{{.+}} : tensor<1x16x8x8xbf16>) outs(%{{.+}} : tensor<1x16x8x8xf32>)
// EXTEND: arith.extf %{{.+}} : bf16 to f32
func.func @pointwise_bf16(%in: tensor<1x16x8x8xbf16>, %w: tensor<32x16x1x1xbf16>, %init: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x16x8x8xbf16>, tensor<32x16x1x1xbf16>) outs(%init : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}
