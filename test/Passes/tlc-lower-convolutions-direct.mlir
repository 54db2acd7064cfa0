// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0 phases=false direct-align=6" -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0 phases=false" -mlir-print-local-scope | FileCheck %s --check-prefix=ALIGN
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0 direct=false" | FileCheck %s --check-prefix=OFF

// Stride 1 onto a zero-filled output, the input already padded (10x10 for 8x8 outputs of a
// 3x3 window), pixel ranges aligned to 6 (so 18 pixels need no rounding): tiles of 2 rows
// (16 of 18 lanes useful) contract the input in place. Each channel's image is one row
// of 100 pixels; a tile's output pixels run over the row pitch 10 (q = r * 10 + w, 18 of
// them: row 0 whole, row 1 up to its 8 outputs), tap (y, x) reads pixel q + y * 10 + x of
// its window (from pixel row0 * 10 on, 18 + 2 * 10 + 2 = 40 pixels). The [F, 2 * 10]
// accumulator is filled, accumulated over (c, y, x) and its [F, 2, 8] part copied out; no
// im2col copy, no whole-output fill.
// CHECK-LABEL: func.func @direct
// CHECK-SAME: (%[[IN:.+]]: tensor<1x8x10x10xf32>, %[[W:.+]]: tensor<32x8x3x3xf32>)
// CHECK-NOT: linalg.fill {{.+}} -> tensor<1x32x8x8xf32>
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[IN]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x10x10xf32> into tensor<1x8x100xf32>
// CHECK: scf.forall (%[[T:.+]]) in (4) shared_outs(%[[OUT:.+]] = %{{.+}})
// CHECK-DAG: %[[IMG:.+]] = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%[[T]])
// CHECK-DAG: %[[R0:.+]] = affine.apply affine_map<(d0) -> (d0 * 2 - (d0 floordiv 4) * 8)>(%[[T]])
// CHECK-DAG: %[[P0:.+]] = affine.apply affine_map<(d0) -> (d0 * 20 - (d0 floordiv 4) * 80)>(%[[T]])
// CHECK: %[[WIN:.+]] = tensor.extract_slice %[[FLAT]][%[[IMG]], 0, %[[P0]]] [1, 8, 40] [1, 1, 1] : tensor<1x8x100xf32> to tensor<8x40xf32>
// CHECK: %[[ACC:.+]] = tensor.empty() : tensor<32x20xf32>
// CHECK: %[[ACCQ:.+]] = tensor.extract_slice %[[ACC]][0, 0] [32, 18] [1, 1]
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[ACCQ]] : tensor<32x18xf32>)
// CHECK: %[[MM:.+]] = linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d1 + d3 * 10 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK-SAME: ins(%[[W]], %[[WIN]] : tensor<32x8x3x3xf32>, tensor<8x40xf32>) outs(%[[ZERO]] : tensor<32x18xf32>)
// CHECK: %[[BACK:.+]] = tensor.insert_slice %[[MM]] into %[[ACC]][0, 0] [32, 18] [1, 1]
// CHECK: %[[ROWS:.+]] = tensor.expand_shape %[[BACK]] {{\[}}[0], [1, 2]] output_shape [32, 2, 10]
// CHECK: %[[TILE:.+]] = tensor.extract_slice %[[ROWS]][0, 0, 0] [32, 2, 8] [1, 1, 1]
// CHECK: tensor.parallel_insert_slice %[[TILE]] into %[[OUT]][%[[IMG]], 0, %[[R0]], 0] [1, 32, 2, 8] [1, 1, 1, 1]
// With the default direct-align=32 the 18 pixels round up to 32 (one whole register tile):
// the input gets 2 more (zero) rows per image so the rounded range reads stay in it, the
// window is 32 + 2 * 10 + 2 = 54 pixels, the accumulator 4 rows of 10.
// ALIGN-LABEL: func.func @direct
// ALIGN-SAME: (%[[IN:.+]]: tensor<1x8x10x10xf32>,
// ALIGN: %[[E:.+]] = tensor.empty() : tensor<1x8x12x10xf32>
// ALIGN: %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<1x8x12x10xf32>)
// ALIGN: %[[TALL:.+]] = tensor.insert_slice %[[IN]] into %[[Z]][0, 0, 0, 0] [1, 8, 10, 10] [1, 1, 1, 1]
// ALIGN: tensor.collapse_shape %[[TALL]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x12x10xf32> into tensor<1x8x120xf32>
// ALIGN: scf.forall
// ALIGN: tensor.extract_slice %{{.+}} [1, 8, 54] [1, 1, 1] : tensor<1x8x120xf32> to tensor<8x54xf32>
// ALIGN: tensor.empty() : tensor<32x40xf32>
// ALIGN: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<32x32xf32>)
// ALIGN: tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2]] output_shape [32, 4, 10]
// ALIGN: tensor.extract_slice %{{.+}}[0, 0, 0] [32, 2, 8] [1, 1, 1]
// OFF-LABEL: func.func @direct
// OFF: scf.for
// OFF-NOT: d3 * 10
func.func @direct(%in: tensor<1x8x10x10xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<1x32x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%in, %w : tensor<1x8x10x10xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}

// -----

// Dilation 2 (a 5x5 span for a 3x3 window over a 12x12 input): tap (y, x) reads pixel
// q + y * 24 + x * 2.
// CHECK-LABEL: func.func @dilated
// CHECK: scf.forall
// CHECK: linalg.generic
// CHECK-SAME: affine_map<(d0, d1, d2, d3, d4) -> (d2, d1 + d3 * 24 + d4 * 2)>
func.func @dilated(%in: tensor<1x8x12x12xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<1x32x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%in, %w : tensor<1x8x12x12xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}

// -----

// Not direct: an init that is not a fill (accumulating onto it), a stride of 2 (with phases=false;
// tlc-lower-convolutions-phases.mlir has the strided path), and an input
// wider than the window sweep needs (its last column is never read): the per-tile im2col
// copy (an scf.for over the taps) as before.
// CHECK-LABEL: func.func @not_fill
// CHECK: scf.forall
// CHECK: scf.for
// CHECK-LABEL: func.func @strided
// CHECK: scf.forall
// CHECK: scf.for
// CHECK-LABEL: func.func @wide_input
// CHECK: scf.forall
// CHECK: scf.for
func.func @not_fill(%in: tensor<1x8x10x10xf32>, %w: tensor<32x8x3x3xf32>, %init: tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%in, %w : tensor<1x8x10x10xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}
func.func @strided(%in: tensor<1x8x17x17xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<1x32x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%in, %w : tensor<1x8x17x17xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}
func.func @wide_input(%in: tensor<1x8x10x11xf32>, %w: tensor<32x8x3x3xf32>) -> tensor<1x32x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%in, %w : tensor<1x8x10x11xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  return %r : tensor<1x32x8x8xf32>
}
