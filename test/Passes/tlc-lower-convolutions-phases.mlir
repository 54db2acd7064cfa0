// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0" -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0 phases=false" -mlir-print-local-scope | FileCheck %s --check-prefix=OFF

// Stride 2, a 3x3 window over a 17x17 input (8x8 outputs), 4 channels, a filter computed at
// run time. The input is split once into its 2x2 stride phases (9x9 each; the 18th row and
// column are zeros no tap reads). Row phase 0 has row taps 0 and 2 (a = 0, 1), row phase 1
// row tap 1: two groups, whose sub-filters [F, C, a, x] are copied out of the filter (rows
// 2a and 2a + 1). Each tile of 4 output rows copies, per row phase py and column tap x, the
// 5 (4 + 2 - 1) rows of phase (py, x % 2) from column x / 2 on into X[4, 2, 3, 5, 8]
// (plane 5 * 8 = 40 pixels, KW * plane = 120 per row phase), then accumulates straight into
// its output rows [16, 4 * 8]: group 0 reads X[c, 0, x, p + a * 8] (p + a * 8 + x * 40),
// group 1 the same from pixel 120 on, both into a 32-pixel block after one fill.
// CHECK-LABEL: func.func @row_phases
// CHECK-SAME: (%[[IN:.+]]: tensor<1x4x17x17xf32>, %[[W:.+]]: tensor<16x4x3x3xf32>)
// CHECK-NOT: linalg.fill {{.+}} -> tensor<1x16x8x8xf32>
// CHECK: %[[PH:.+]] = linalg.transpose ins(%{{.+}} : tensor<1x4x9x2x9x2xf32>) outs(%{{.+}} : tensor<1x4x2x2x9x9xf32>) permutation = [0, 1, 3, 5, 2, 4]
// CHECK: %[[W0:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%[[W]] : tensor<16x4x3x3xf32>) outs(%{{.+}} : tensor<16x4x2x3xf32>)
// CHECK: %[[W1:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 * 2 + 1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%[[W]] : tensor<16x4x3x3xf32>) outs(%{{.+}} : tensor<16x4x1x3xf32>)
// CHECK: scf.forall (%[[T:.+]]) in (2) shared_outs(%[[OUT:.+]] = %{{.+}})
// CHECK-DAG: %[[IMG:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[T]])
// CHECK-DAG: %[[R0:.+]] = affine.apply affine_map<(d0) -> (d0 * 4 - (d0 floordiv 2) * 8)>(%[[T]])
// CHECK: %[[X0:.+]] = tensor.empty() : tensor<4x2x3x5x8xf32>
// CHECK: scf.for %[[PY:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[X0]]) -> (tensor<4x2x3x5x8xf32>)
// CHECK: scf.for %[[TX:.+]] = %{{.+}} to %{{.+}} step
// CHECK-DAG: %[[PX:.+]] = affine.apply affine_map<(d0) -> (d0 mod 2)>(%[[TX]])
// CHECK-DAG: %[[COL:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[TX]])
// CHECK: tensor.extract_slice %[[PH]][%[[IMG]], 0, %[[PY]], %[[PX]], %[[R0]], %[[COL]]] [1, 4, 1, 1, 5, 8] [1, 1, 1, 1, 1, 1] : tensor<1x4x2x2x9x9xf32> to tensor<4x5x8xf32>
// CHECK: linalg.generic
// CHECK: %[[XF:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3, 4]] : tensor<4x2x3x5x8xf32> into tensor<4x240xf32>
// CHECK: %[[TILE:.+]] = tensor.extract_slice %[[OUT]][%[[IMG]], 0, %[[R0]], 0] [1, 16, 4, 8] [1, 1, 1, 1]
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[TILE]] {{\[}}[0], [1, 2]] : tensor<16x4x8xf32> into tensor<16x32xf32>
// CHECK: scf.for %[[P0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[FLAT]]) -> (tensor<16x32xf32>)
// CHECK: %[[BLOCK:.+]] = tensor.extract_slice %[[ACC]][0, %[[P0]]] [16, 32] [1, 1]
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[BLOCK]] : tensor<16x32xf32>)
// CHECK: %[[WIN0:.+]] = tensor.extract_slice %[[XF]][0, %[[P0]]] [4, 120] [1, 1] : tensor<4x240xf32> to tensor<4x120xf32>
// CHECK: %[[G0:.+]] = linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d1 + d3 * 8 + d4 * 40)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME: ins(%[[W0]], %[[WIN0]] : tensor<16x4x2x3xf32>, tensor<4x120xf32>) outs(%[[ZERO]] : tensor<16x32xf32>)
// CHECK: %[[O1:.+]] = affine.apply affine_map<(d0) -> (d0 + 120)>(%[[P0]])
// CHECK: %[[WIN1:.+]] = tensor.extract_slice %[[XF]][0, %[[O1]]] [4, 112] [1, 1] : tensor<4x240xf32> to tensor<4x112xf32>
// CHECK: %[[G1:.+]] = linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3, d4) -> (d2, d1 + d3 * 8 + d4 * 40)>
// CHECK-SAME: ins(%[[W1]], %[[WIN1]] : tensor<16x4x1x3xf32>, tensor<4x112xf32>) outs(%[[G0]] : tensor<16x32xf32>)
// CHECK: tensor.insert_slice %[[G1]] into %[[ACC]][0, %[[P0]]] [16, 32] [1, 1]
// CHECK: tensor.parallel_insert_slice %{{.+}} into %[[OUT]][%[[IMG]], 0, %[[R0]], 0] [1, 16, 4, 8] [1, 1, 1, 1]
// With phases=false: the per-tile im2col copy, one [C, rows, OW] copy per filter tap.
// OFF-LABEL: func.func @row_phases
// OFF: scf.forall
// OFF: tensor.empty() : tensor<4x3x3x4x8xf32>
// OFF-NOT: d3 * 8 + d4 * 40
func.func @row_phases(%in: tensor<1x4x17x17xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%in, %w : tensor<1x4x17x17xf32>, tensor<16x4x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// -----

// A 4x4 window at stride 2: both row phases have two row taps, so they form one group whose
// contraction runs over (c, phase row i, a, x): X[c, i, x, p + a * 8] at p + i * 160 + a * 8 +
// x * 40. The constant filter is packed at compile time: sub-filter i holds rows i and i + 2.
// CHECK-LABEL: func.func @even_const
// CHECK: %[[W:.+]] = arith.constant dense<{{\[\[\[\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00], [8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01]], {{\[\[}}4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00], [1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01]]]]]> : tensor<1x1x2x2x4xf32>
// CHECK: scf.forall
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3, 4]] : tensor<1x2x4x5x8xf32> into tensor<1x320xf32>
// CHECK: linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d1 + d3 * 160 + d4 * 8 + d5 * 40)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>
// CHECK-SAME: ins(%[[W]], %{{.+}} : tensor<1x1x2x2x4xf32>, tensor<1x320xf32>)
// CHECK-NOT: linalg.generic {{.+}}reduction
// CHECK: scf.forall.in_parallel
func.func @even_const(%in: tensor<1x1x18x18xf32>) -> tensor<1x1x8x8xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]]]> : tensor<1x1x4x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%in, %w : tensor<1x1x18x18xf32>, tensor<1x1x4x4xf32>) outs(%init : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  return %r : tensor<1x1x8x8xf32>
}

// -----

// A constant 3x3 filter: row phase 0's sub-filter holds rows 0 and 2, row phase 1's row 1,
// folded at compile time (the original constant is gone).
// CHECK-LABEL: func.func @odd_const
// CHECK-NOT: tensor<1x1x3x3xf32>
// CHECK-DAG: %[[W0:.+]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00], [6.000000e+00, 7.000000e+00, 8.000000e+00]]]]> : tensor<1x1x2x3xf32>
// CHECK-DAG: %[[W1:.+]] = arith.constant dense<{{\[\[\[\[}}3.000000e+00, 4.000000e+00, 5.000000e+00]]]]> : tensor<1x1x1x3xf32>
// CHECK: scf.forall
// CHECK: linalg.generic {{.+}} ins(%[[W0]], %{{.+}} : tensor<1x1x2x3xf32>, tensor<1x120xf32>)
// CHECK: linalg.generic {{.+}} ins(%[[W1]], %{{.+}} : tensor<1x1x1x3xf32>, tensor<1x112xf32>)
func.func @odd_const(%in: tensor<1x1x17x17xf32>) -> tensor<1x1x8x8xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]]> : tensor<1x1x3x3xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%in, %w : tensor<1x1x17x17xf32>, tensor<1x1x3x3xf32>) outs(%init : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  return %r : tensor<1x1x8x8xf32>
}

// -----

// Not row phases: a dilated strided convolution and one accumulating onto its init (not a
// fill) keep the per-tile im2col copy ([C, KH, KW, rows, OW] blocks).
// CHECK-LABEL: func.func @dilated
// CHECK: scf.forall
// CHECK: tensor.empty() : tensor<4x3x3x{{[0-9]+}}x8xf32>
// CHECK-LABEL: func.func @not_fill
// CHECK: scf.forall
// CHECK: tensor.empty() : tensor<4x3x3x{{[0-9]+}}x8xf32>
func.func @dilated(%in: tensor<1x4x19x19xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%in, %w : tensor<1x4x19x19xf32>, tensor<16x4x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}
func.func @not_fill(%in: tensor<1x4x17x17xf32>, %w: tensor<16x4x3x3xf32>, %init: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%in, %w : tensor<1x4x17x17xf32>, tensor<16x4x3x3xf32>) outs(%init : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}
