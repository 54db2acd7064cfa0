// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0 phases=false batch-columns-max-pixels=0" -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions | FileCheck %s --check-prefix=DEFAULT

// With the default thresholds none of these small convolutions is tiled: their whole im2col
// matrices are far below min-im2col-bytes (4 MB).
// DEFAULT-NOT: scf.forall

// Stride 1, one image of 8x8 outputs: tiles of 4 rows (32 pixels fill the 32-wide register
// tiles), so 2 tiles in one loop. Each tile copies its [C, KH, KW, rows, OW] im2col block,
// one [C, rows, OW] copy per filter tap (an scf.for nest), and contracts the filter with it
// into its output slice, accumulating onto the output's init (not a fill here).
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[IN:.+]]: tensor<1x8x10x10xf32>, %[[W:.+]]: tensor<32x8x3x3xf32>, %[[INIT:.+]]: tensor<1x32x8x8xf32>)
// CHECK: %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1, 2, 3]] : tensor<32x8x3x3xf32> into tensor<32x72xf32>
// CHECK: scf.forall (%[[T:.+]]) in (2) shared_outs(%[[OUT:.+]] = %[[INIT]])
// CHECK-DAG: %[[IMG:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[T]])
// CHECK-DAG: %[[R0:.+]] = affine.apply affine_map<(d0) -> (d0 * 4 - (d0 floordiv 2) * 8)>(%[[T]])
// CHECK: %[[COL0:.+]] = tensor.empty() : tensor<8x3x3x4x8xf32>
// CHECK: %[[COL:.+]] = scf.for %[[Y:.+]] = {{.+}} iter_args(%[[A:.+]] = %[[COL0]])
// CHECK: scf.for %[[X:.+]] = {{.+}} iter_args(%[[D:.+]] = %[[A]])
// CHECK: %[[ROW:.+]] = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4 - (d1 floordiv 2) * 8)>(%[[Y]], %[[T]])
// CHECK: %[[WIN:.+]] = tensor.extract_slice %[[IN]][%[[IMG]], 0, %[[ROW]], %[[X]]] [1, 8, 4, 8] [1, 1, 1, 1] : tensor<1x8x10x10xf32> to tensor<8x4x8xf32>
// CHECK: %[[SLOT:.+]] = tensor.extract_slice %[[D]][0, %[[Y]], %[[X]], 0, 0] [8, 1, 1, 4, 8] [1, 1, 1, 1, 1]
// CHECK: %[[COPY:.+]] = linalg.generic {{.+}} ins(%[[WIN]] : tensor<8x4x8xf32>) outs(%[[SLOT]] : tensor<8x4x8xf32>)
// CHECK: tensor.insert_slice %[[COPY]] into %[[D]][0, %[[Y]], %[[X]], 0, 0] [8, 1, 1, 4, 8] [1, 1, 1, 1, 1]
// CHECK: %[[COL2:.+]] = tensor.collapse_shape %[[COL]] {{\[}}[0, 1, 2], [3, 4]] : tensor<8x3x3x4x8xf32> into tensor<72x32xf32>
// CHECK: %[[OT:.+]] = tensor.extract_slice %[[OUT]][%[[IMG]], 0, %[[R0]], 0] [1, 32, 4, 8] [1, 1, 1, 1] : tensor<1x32x8x8xf32> to tensor<32x4x8xf32>
// CHECK: %[[OT2:.+]] = tensor.collapse_shape %[[OT]] {{\[}}[0], [1, 2]] : tensor<32x4x8xf32> into tensor<32x32xf32>
// CHECK: %[[MM:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[W2]], %[[COL2]] : tensor<32x72xf32>, tensor<72x32xf32>) outs(%[[OT2]] : tensor<32x32xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[R:.+]] = tensor.expand_shape %[[MM]] {{\[}}[0], [1, 2]] output_shape [32, 4, 8]
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[IMG]], 0, %[[R0]], 0] [1, 32, 4, 8] [1, 1, 1, 1]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @rows(%in: tensor<1x8x10x10xf32>, %w: tensor<32x8x3x3xf32>, %init: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x8x10x10xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %0 : tensor<1x32x8x8xf32>
}

// -----

// Stride 2, two images of 4x4 outputs (one tile each): the 9x9 input, zero-padded to 10x10,
// is split into its 2x2 stride phases once, so tap (y, x) reads phase (y % 2, x % 2) from row
// y / 2 and column x / 2 on, with unit stride. The zero-filled output is not filled as a
// whole (the fill is erased): each tile fills its own output slice, viewed as [F, rows * OW],
// and accumulates into it (tlc-tile-contractions then moves that fill into the register tiles).
// CHECK-LABEL: func.func @stride2
// CHECK-SAME: (%[[IN:.+]]: tensor<2x4x9x9xf32>, %[[W:.+]]: tensor<16x4x3x3xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x16x4x4xf32>
// CHECK-NOT: linalg.fill {{.+}} -> tensor<2x16x4x4xf32>
// CHECK: %[[Z:.+]] = linalg.fill {{.+}} -> tensor<2x4x10x10xf32>
// CHECK: %[[PAD:.+]] = tensor.insert_slice %{{.+}} into %[[Z]][0, 0, 0, 0] [2, 4, 9, 9] [1, 1, 1, 1]
// CHECK: %[[X6:.+]] = tensor.expand_shape %[[PAD]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [2, 4, 5, 2, 5, 2]
// CHECK: %[[PH:.+]] = linalg.transpose ins(%[[X6]] : tensor<2x4x5x2x5x2xf32>) outs(%{{.+}} : tensor<2x4x2x2x5x5xf32>) permutation = [0, 1, 3, 5, 2, 4]
// CHECK: scf.forall (%[[T:.+]]) in (2) shared_outs(%[[OUT:.+]] = %[[E]])
// CHECK: scf.for %[[Y:[^ ]+]] =
// CHECK: scf.for %[[X:[^ ]+]] =
// CHECK-DAG: %[[A:.+]] = affine.apply affine_map<(d0) -> (d0 mod 2)>(%[[Y]])
// CHECK-DAG: %[[B:.+]] = affine.apply affine_map<(d0) -> (d0 mod 2)>(%[[X]])
// CHECK-DAG: %[[QY:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[Y]])
// CHECK-DAG: %[[QX:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[X]])
// CHECK: tensor.extract_slice %[[PH]][%[[T]], 0, %[[A]], %[[B]], %[[QY]], %[[QX]]] [1, 4, 1, 1, 4, 4] [1, 1, 1, 1, 1, 1] : tensor<2x4x2x2x5x5xf32> to tensor<4x4x4xf32>
// CHECK: %[[SLICE:.+]] = tensor.extract_slice %[[OUT]][%[[T]], 0, 0, 0] [1, 16, 4, 4] [1, 1, 1, 1] : tensor<2x16x4x4xf32> to tensor<16x4x4xf32>
// CHECK: %[[ACC:.+]] = tensor.collapse_shape %[[SLICE]] {{\[}}[0], [1, 2]] : tensor<16x4x4xf32> into tensor<16x16xf32>
// CHECK: %[[ACC0:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[ACC]] : tensor<16x16xf32>)
// CHECK: %[[MM:.+]] = linalg.generic
// CHECK-SAME: outs(%[[ACC0]] : tensor<16x16xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[MM]] {{\[}}[0], [1, 2]] output_shape [16, 4, 4]
// CHECK: tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[T]], 0, 0, 0] [1, 16, 4, 4] [1, 1, 1, 1]
func.func @stride2(%in: tensor<2x4x9x9xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<2x16x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x4x4xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<2x4x9x9xf32>, tensor<16x4x3x3xf32>) outs(%init : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  return %0 : tensor<2x16x4x4xf32>
}

// -----

// Dilation 2 with stride 2, two images: window offset y * 2 is always phase 0, row y. The
// phases span 2 + 2 * 2 / 2 = 4 rows of 2, one more than the 7x7 input has, so it is
// zero-padded to 8x8.
// CHECK-LABEL: func.func @dilated_strided
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [2, 2, 7, 7] [1, 1, 1, 1] : tensor<2x2x7x7xf32> into tensor<2x2x8x8xf32>
// CHECK: %[[PH:.+]] = linalg.transpose
// CHECK: scf.forall (%[[T:.+]]) in (2)
// CHECK: scf.for %[[Y:[^ ]+]] =
// CHECK: scf.for %[[X:[^ ]+]] =
// CHECK: tensor.extract_slice %[[PH]][%[[T]], 0, 0, 0, %[[Y]], %[[X]]] [1, 2, 1, 1, 2, 2]
func.func @dilated_strided(%in: tensor<2x2x7x7xf32>, %w: tensor<8x2x3x3xf32>, %init: tensor<2x8x2x2xf32>) -> tensor<2x8x2x2xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<2x2x7x7xf32>, tensor<8x2x3x3xf32>) outs(%init : tensor<2x8x2x2xf32>) -> tensor<2x8x2x2xf32>
  return %0 : tensor<2x8x2x2xf32>
}

// -----

// Too few row tiles (one image of 2 output rows makes 1 tile, under min-tiles=2): the whole
// im2col matrix is built once, as without tile-im2col.
// CHECK-LABEL: func.func @one_tile
// CHECK-NOT: scf.forall
// CHECK: tensor.empty() : tensor<1x4x3x3x2x2xf32>
func.func @one_tile(%in: tensor<1x4x4x4xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x4x4xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  return %0 : tensor<1x8x2x2xf32>
}

// -----

// A 1x1 convolution is not tiled, strided or not: with stride 1 its input already is its
// im2col matrix; with stride 2 it reads a quarter of the input.
// CHECK-LABEL: func.func @pointwise
// CHECK-NOT: scf.forall
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<2x4x6x6xf32> into tensor<2x4x36xf32>
// CHECK-LABEL: func.func @pointwise_s2
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
func.func @pointwise(%in: tensor<2x4x6x6xf32>, %w: tensor<8x4x1x1xf32>, %init: tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x4x6x6xf32>, tensor<8x4x1x1xf32>) outs(%init : tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32>
  return %0 : tensor<2x8x6x6xf32>
}
func.func @pointwise_s2(%in: tensor<2x4x12x12xf32>, %w: tensor<8x4x1x1xf32>, %init: tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<2x4x12x12xf32>, tensor<8x4x1x1xf32>) outs(%init : tensor<2x8x6x6xf32>) -> tensor<2x8x6x6xf32>
  return %0 : tensor<2x8x6x6xf32>
}
