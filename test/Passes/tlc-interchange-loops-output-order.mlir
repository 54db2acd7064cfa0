// RUN: tlc-opt %s -tlc-interchange-loops -mlir-print-local-scope | FileCheck %s

// Ties: a transpose-shaped generic reads as many contiguous bytes along d0 as it writes along
// d1. Strided writes cost more than strided reads, so the loop that writes the output
// contiguously (d1) stays innermost and the generic is left as it is.

// CHECK-LABEL: func.func @transpose_generic
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
func.func @transpose_generic(%a: tensor<4x8xf32>, %init: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%init : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
