// RUN: tlc-opt %s -split-input-file -tlc-view-window-operands -mlir-print-local-scope | FileCheck %s

// A direct convolution's input window, read at c, q + y * 58 + x: a [C, KH, KW, Q] view of
// the same memory with strides [3364, 58, 1, 1] (x and q overlap), read at (c, y, x, q);
// the reduction dimension x comes before the parallel q among the stride-1 ones.
// CHECK-LABEL: func.func @window
// CHECK-SAME: (%[[W:.+]]: memref<8x4x3x3xf32>, %[[IN:.+]]: memref<4x300xf32, strided<[3364, 1], offset: ?>>, %[[OUT:.+]]: memref<8x180xf32>)
// CHECK: %{{.+}}, %[[OFF:.+]], %{{.+}}:2, %{{.+}}:2 = memref.extract_strided_metadata %[[IN]]
// CHECK: %[[VIEW:.+]] = memref.reinterpret_cast %[[IN]] to offset: [%[[OFF]]], sizes: [4, 3, 3, 180], strides: [3364, 58, 1, 1]
// CHECK-SAME: to memref<4x3x3x180xf32, strided<[3364, 58, 1, 1], offset: ?>>
// CHECK: linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4, d1)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
// CHECK-SAME: ins(%[[W]], %[[VIEW]] :
func.func @window(%w: memref<8x4x3x3xf32>, %in: memref<4x300xf32, strided<[3364, 1], offset: ?>>, %out: memref<8x180xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, q, c, y, x) -> (m, c, y, x)>, affine_map<(m, q, c, y, x) -> (c, q + y * 58 + x)>, affine_map<(m, q, c, y, x) -> (m, q)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%w, %in : memref<8x4x3x3xf32>, memref<4x300xf32, strided<[3364, 1], offset: ?>>) outs(%out : memref<8x180xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A static offset and coefficients on both terms (a dilated window, 2 * x): strides scale
// with them; the offset is the operand's own.
// CHECK-LABEL: func.func @static_offset
// CHECK-NOT: memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %{{.+}} to offset: [5], sizes: [4, 16], strides: [20, 2]
// CHECK: linalg.generic
// CHECK-SAME: affine_map<(d0, d1) -> (d1, d0)>
func.func @static_offset(%in: memref<100xf32, strided<[1], offset: 5>>, %w: memref<4xf32>, %out: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, r) -> (i * 2 + r * 20)>, affine_map<(i, r) -> (r)>, affine_map<(i, r) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%in, %w : memref<100xf32, strided<[1], offset: 5>>, memref<4xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: a constant term, a dimension used twice, a dynamic stride, and operands that
// are already read through plain dimensions.
// CHECK-LABEL: func.func @negative
// CHECK-NOT: memref.reinterpret_cast
// CHECK: affine_map<(d0, d1) -> (d0 + d1 + 1)>
// CHECK-NOT: memref.reinterpret_cast
// CHECK: affine_map<(d0, d1) -> (d0, d0 + d1)>
// CHECK-NOT: memref.reinterpret_cast
// CHECK: affine_map<(d0, d1) -> (d0 + d1)>
// CHECK-NOT: memref.reinterpret_cast
// CHECK: return
func.func @negative(%a: memref<40xf32>, %b: memref<8x40xf32>, %c: memref<40xf32, strided<[?]>>,
                    %w: memref<4xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, r) -> (i + r + 1)>, affine_map<(i, r) -> (r)>, affine_map<(i, r) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %w : memref<40xf32>, memref<4xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, r) -> (i, i + r)>, affine_map<(i, r) -> (r)>, affine_map<(i, r) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%b, %w : memref<8x40xf32>, memref<4xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, r) -> (i + r)>, affine_map<(i, r) -> (r)>, affine_map<(i, r) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%c, %w : memref<40xf32, strided<[?]>>, memref<4xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A max pool (3x3 window, stride 2) is generalized first; its input window then becomes a
// [N, C, OH, KH, OW, KW] view (row stride 2 * 17, column stride 2) read through plain loop
// dimensions. The window-shape operand stays (its values unused).
// CHECK-LABEL: func.func @max_pool
// CHECK-NOT: linalg.pooling_nchw_max
// CHECK: %[[VIEW:.+]] = memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [1, 8, 8, 3, 8, 3], strides: [2312, 289, 34, 17, 2, 1]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME: ins(%[[VIEW]], %{{.+}} :
// CHECK: arith.maximumf
func.func @max_pool(%in: memref<1x8x17x17xf32>, %window: memref<3x3xf32>, %out: memref<1x8x8x8xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %window : memref<1x8x17x17xf32>, memref<3x3xf32>) outs(%out : memref<1x8x8x8xf32>)
  return
}
