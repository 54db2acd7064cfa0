// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0 phases=false direct-align=6" -mlir-print-local-scope | FileCheck %s --check-prefix=DIRECT
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-pixels=16 min-tiles=2 min-tile-pixels=0 min-im2col-bytes=0 direct=false" -mlir-print-local-scope | FileCheck %s --check-prefix=TILED
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-im2col=false direct=false" -mlir-print-local-scope | FileCheck %s --check-prefix=WHOLE

// Four groups of four filters over two channels each, stride 1, the input already padded and
// viewed with its group axis (the expand_shape the ONNX Conv lowering makes).
//
// Direct tiles (as in tlc-lower-convolutions-direct.mlir, 2 output rows per tile, 18 pixels
// over the row pitch 10): the tile contracts group by group, one linalg.generic over
// (g, m, q, c, y, x) reading the filter [G, F/G, C/G, KH, KW] and its window [G, C/G, 40]
// in place into a filled [G, F/G, q] accumulator. The loop runs over the ungrouped input
// (the expand_shape's source) and output; the grouped view of the result is an expand_shape.
// DIRECT-LABEL: func.func @grouped
// DIRECT-SAME: (%[[IN:.+]]: tensor<1x8x10x10xf32>, %[[W:.+]]: tensor<4x4x2x3x3xf32>)
// DIRECT-NOT: linalg.fill {{.+}} -> tensor<1x4x4x8x8xf32>
// DIRECT: %[[WF:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1], [2], [3], [4]] : tensor<4x4x2x3x3xf32> into tensor<16x2x3x3xf32>
// DIRECT: %[[FLAT:.+]] = tensor.collapse_shape %[[IN]] {{\[}}[0], [1], [2, 3]] : tensor<1x8x10x10xf32> into tensor<1x8x100xf32>
// DIRECT: %[[LOOP:.+]] = scf.forall (%{{.+}}) in (4) shared_outs(%{{.+}} = %{{.+}}) -> (tensor<1x16x8x8xf32>)
// DIRECT: %[[WIN:.+]] = tensor.extract_slice %[[FLAT]]{{.+}} [1, 8, 40] [1, 1, 1] : tensor<1x8x100xf32> to tensor<8x40xf32>
// DIRECT: %[[ACC:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2]] output_shape [4, 4, 18] : tensor<16x18xf32> into tensor<4x4x18xf32>
// DIRECT: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[ACC]] : tensor<4x4x18xf32>)
// DIRECT: %[[W5:.+]] = tensor.expand_shape %[[WF]] {{.+}} into tensor<4x4x2x3x3xf32>
// DIRECT: %[[WIN3:.+]] = tensor.expand_shape %[[WIN]] {{\[}}[0, 1], [2]] output_shape [4, 2, 40] : tensor<8x40xf32> into tensor<4x2x40xf32>
// DIRECT: linalg.generic
// DIRECT-SAME: affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d2 + d4 * 10 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
// DIRECT-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// DIRECT-SAME: ins(%[[W5]], %[[WIN3]] : tensor<4x4x2x3x3xf32>, tensor<4x2x40xf32>) outs(%[[ZERO]] : tensor<4x4x18xf32>)
// DIRECT: tensor.parallel_insert_slice %{{.+}} [1, 16, 2, 8] [1, 1, 1, 1] : tensor<16x2x8xf32> into tensor<1x16x8x8xf32>
// DIRECT: %[[OUT:.+]] = tensor.expand_shape %[[LOOP]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 4, 4, 8, 8]
// DIRECT: return %[[OUT]]
//
// Im2col tiles (4 output rows, 32 pixels): each tile copies the [C, KH, KW, rows, OW] block of
// all channels, views it as [G, C/G * KH * KW, pixels] and contracts it group by group with
// the filter [G, F/G, C/G * KH * KW] into its filled output slice viewed as [G, F/G, pixels].
// TILED-LABEL: func.func @grouped
// TILED-SAME: (%[[IN:.+]]: tensor<1x8x10x10xf32>, %[[W:.+]]: tensor<4x4x2x3x3xf32>)
// TILED-NOT: tensor.expand_shape %[[IN]]
// TILED: %[[W3:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2]] output_shape [4, 4, 18] : tensor<16x18xf32> into tensor<4x4x18xf32>
// TILED: scf.forall (%{{.+}}) in (2)
// TILED: tensor.extract_slice %[[IN]]{{.+}} [1, 8, 4, 8] [1, 1, 1, 1] : tensor<1x8x10x10xf32> to tensor<8x4x8xf32>
// TILED: %[[COL6:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2], [3], [4], [5]] output_shape [4, 2, 3, 3, 4, 8] : tensor<8x3x3x4x8xf32> into tensor<4x2x3x3x4x8xf32>
// TILED: %[[COL:.+]] = tensor.collapse_shape %[[COL6]] {{\[}}[0], [1, 2, 3], [4, 5]] : tensor<4x2x3x3x4x8xf32> into tensor<4x18x32xf32>
// TILED: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<4x4x32xf32>)
// TILED: linalg.generic
// TILED-SAME: affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// TILED-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// TILED-SAME: ins(%[[W3]], %[[COL]] : tensor<4x4x18xf32>, tensor<4x18x32xf32>) outs(%[[ZERO]] : tensor<4x4x32xf32>)
//
// Whole: one im2col matrix [N, G, C/G, KH, KW, OH, OW] and one contraction batched over the
// groups, (n, g, m, p, k): out[n, g, m, p] += w[g, m, k] * col[n, g, k, p].
// WHOLE-LABEL: func.func @grouped
// WHOLE-NOT: scf.forall
// WHOLE: linalg.generic
// WHOLE-SAME: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3 + d5, d4 + d6)>
// WHOLE-SAME: outs(%{{.+}} : tensor<1x4x2x3x3x8x8xf32>)
// WHOLE: %[[COL:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3, 4], [5, 6]] : tensor<1x4x2x3x3x8x8xf32> into tensor<1x4x18x64xf32>
// WHOLE: %[[W3:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3, 4]] : tensor<4x4x2x3x3xf32> into tensor<4x4x18xf32>
// WHOLE: %[[OUT4:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : tensor<1x4x4x8x8xf32> into tensor<1x4x4x64xf32>
// WHOLE: %[[MM:.+]] = linalg.generic
// WHOLE-SAME: affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// WHOLE-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// WHOLE-SAME: ins(%[[W3]], %[[COL]] : tensor<4x4x18xf32>, tensor<1x4x18x64xf32>) outs(%[[OUT4]] : tensor<1x4x4x64xf32>)
// WHOLE: tensor.expand_shape %[[MM]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 4, 4, 8, 8]
func.func @grouped(%in: tensor<1x8x10x10xf32>, %w: tensor<4x4x2x3x3xf32>) -> tensor<1x4x4x8x8xf32> {
  %g = tensor.expand_shape %in [[0], [1, 2], [3], [4]] output_shape [1, 4, 2, 10, 10] : tensor<1x8x10x10xf32> into tensor<1x4x2x10x10xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x4x4x8x8xf32>) -> tensor<1x4x4x8x8xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%g, %w : tensor<1x4x2x10x10xf32>, tensor<4x4x2x3x3xf32>) outs(%z : tensor<1x4x4x8x8xf32>) -> tensor<1x4x4x8x8xf32>
  return %r : tensor<1x4x4x8x8xf32>
}

// -----

// Strided (2): not direct; im2col tiles read the input's stride phases. Lowered whole, the
// im2col map has the strides.
// DIRECT-LABEL: func.func @grouped_strided
// DIRECT: linalg.transpose
// DIRECT: scf.forall (%{{.+}}) in (2)
// DIRECT: ins(%{{.+}}, %{{.+}} : tensor<2x3x18xf32>, tensor<2x18x32xf32>) outs(%{{.+}} : tensor<2x3x32xf32>)
// WHOLE-LABEL: func.func @grouped_strided
// WHOLE: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d5 * 2 + d3, d6 * 2 + d4)>
// WHOLE: ins(%{{.+}}, %{{.+}} : tensor<2x3x18xf32>, tensor<1x2x18x64xf32>) outs(%{{.+}} : tensor<1x2x3x64xf32>)
func.func @grouped_strided(%in: tensor<1x4x17x17xf32>, %w: tensor<2x3x2x3x3xf32>) -> tensor<1x2x3x8x8xf32> {
  %g = tensor.expand_shape %in [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 17, 17] : tensor<1x4x17x17xf32> into tensor<1x2x2x17x17xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%g, %w : tensor<1x2x2x17x17xf32>, tensor<2x3x2x3x3xf32>) outs(%z : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  return %r : tensor<1x2x3x8x8xf32>
}

// -----

// 1x1, stride 1: the input viewed as [N, G, C/G, pixels] is the im2col matrix.
// WHOLE-LABEL: func.func @grouped_pointwise
// WHOLE-NOT: outs(%{{.+}} : tensor<1x2x2x1x1
// WHOLE: %[[COL:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2], [3, 4]] : tensor<1x2x2x5x5xf32> into tensor<1x2x2x25xf32>
// WHOLE: ins(%{{.+}}, %[[COL]] : tensor<2x3x2xf32>, tensor<1x2x2x25xf32>) outs(%{{.+}} : tensor<1x2x3x25xf32>)
func.func @grouped_pointwise(%in: tensor<1x2x2x5x5xf32>, %w: tensor<2x3x2x1x1xf32>) -> tensor<1x2x3x5x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x5x5xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<1x2x3x5x5xf32>) -> tensor<1x2x3x5x5xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %w : tensor<1x2x2x5x5xf32>, tensor<2x3x2x1x1xf32>) outs(%z : tensor<1x2x3x5x5xf32>) -> tensor<1x2x3x5x5xf32>
  return %r : tensor<1x2x3x5x5xf32>
}
