// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-im2col=false channel-vector-width=4" -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="tile-im2col=false channel-vector-width=4" -tlc-fuse-epilogues | FileCheck %s --check-prefix=FUSED

// A 1x1 convolution over 3x3 pixels (9 of 16 lanes) with a constant filter takes channel
// vectors: the filter [8, 2, 1, 1] is packed at compile time as Wp[o, k, i] = W[4 * o + i, k]
// (strips of 4 channels), the product T[1, o, p, i] (channels innermost) starts from a fill of
// its own shape, and its transpose is the NCHW result.
// CHECK-LABEL: func.func @pointwise_3x3_pixels
// CHECK-SAME: (%[[IN:.+]]: tensor<1x2x3x3xf32>)
// CHECK: %[[COL:.+]] = tensor.collapse_shape %[[IN]] {{\[}}[0], [1], [2, 3]] : tensor<1x2x3x3xf32> into tensor<1x2x9xf32>
// CHECK: %[[WP:.+]] = arith.constant dense<{{\[}}[
// CHECK-SAME: [0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00]],
// CHECK-SAME: [8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01], [9.000000e+00, 1.100000e+01, 1.300000e+01, 1.500000e+01]]]> : tensor<2x2x4xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x2x9x4xf32>
// CHECK: %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<1x2x9x4xf32>)
// CHECK: %[[T:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[COL]], %[[WP]] : tensor<1x2x9xf32>, tensor<2x2x4xf32>) outs(%[[FILL]] : tensor<1x2x9x4xf32>)
// CHECK: %[[TT:.+]] = linalg.transpose ins(%[[T]] : tensor<1x2x9x4xf32>) outs(%{{.+}} : tensor<1x2x4x9xf32>) permutation = [0, 1, 3, 2]
// CHECK: %[[Y3:.+]] = tensor.collapse_shape %[[TT]] {{\[}}[0], [1, 2], [3]] : tensor<1x2x4x9xf32> into tensor<1x8x9xf32>
// CHECK: %[[Y:.+]] = tensor.expand_shape %[[Y3]] {{\[}}[0], [1], [2, 3]] output_shape [1, 8, 3, 3]
// CHECK: return %[[Y]]
func.func @pointwise_3x3_pixels(%in: tensor<1x2x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %w = arith.constant dense<[[[[0.0]], [[1.0]]], [[[2.0]], [[3.0]]], [[[4.0]], [[5.0]]], [[[6.0]], [[7.0]]],
                             [[[8.0]], [[9.0]]], [[[10.0]], [[11.0]]], [[[12.0]], [[13.0]]], [[[14.0]], [[15.0]]]]> : tensor<8x2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x3x3xf32>, tensor<8x2x1x1xf32>) outs(%init : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %0 : tensor<1x8x3x3xf32>
}

// -----

// A 3x3 window over 2x2 output pixels accumulating onto a bias: the im2col matrix as usual,
// the initial value transposed into the product's layout.
// CHECK-LABEL: func.func @window_bias_init
// CHECK-SAME: (%{{.+}}: tensor<1x2x4x4xf32>, %[[BIAS:.+]]: tensor<1x8x2x2xf32>)
// CHECK: %[[COL:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3], [4, 5]] : tensor<1x2x3x3x2x2xf32> into tensor<1x18x4xf32>
// CHECK: %[[WP:.+]] = arith.constant dense<1.000000e+00> : tensor<2x18x4xf32>
// CHECK: %[[B3:.+]] = tensor.collapse_shape %[[BIAS]] {{\[}}[0], [1], [2, 3]]
// CHECK: %[[B4:.+]] = tensor.expand_shape %[[B3]] {{\[}}[0], [1, 2], [3]] output_shape [1, 2, 4, 4] : tensor<1x8x4xf32> into tensor<1x2x4x4xf32>
// CHECK: %[[BT:.+]] = linalg.transpose ins(%[[B4]] : tensor<1x2x4x4xf32>) outs(%{{.+}} : tensor<1x2x4x4xf32>) permutation = [0, 1, 3, 2]
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[COL]], %[[WP]] : tensor<1x18x4xf32>, tensor<2x18x4xf32>) outs(%[[BT]] : tensor<1x2x4x4xf32>)
// CHECK: linalg.transpose
func.func @window_bias_init(%in: tensor<1x2x4x4xf32>, %bias: tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32> {
  %w = arith.constant dense<1.0> : tensor<8x2x3x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x4x4xf32>, tensor<8x2x3x3xf32>) outs(%bias : tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  return %0 : tensor<1x8x2x2xf32>
}

// -----

// 16 pixels fill their vectors: the usual [F, K] x [K, P] product.
// CHECK-LABEL: func.func @filled_pixels
// CHECK-NOT: linalg.transpose
// CHECK: ins(%{{.+}}, %{{.+}} : tensor<8x2xf32>, tensor<1x2x16xf32>) outs(%{{.+}} : tensor<1x8x16xf32>)
func.func @filled_pixels(%in: tensor<1x2x4x4xf32>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %w = arith.constant dense<1.0> : tensor<8x2x1x1xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x4x4xf32>, tensor<8x2x1x1xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// The filter is not a constant (it could not be packed at compile time).
// CHECK-LABEL: func.func @filter_argument
// CHECK-NOT: linalg.transpose
// CHECK: ins(%{{.+}}, %{{.+}} : tensor<8x2xf32>, tensor<1x2x9xf32>) outs(%{{.+}} : tensor<1x8x9xf32>)
func.func @filter_argument(%in: tensor<1x2x3x3xf32>, %w: tensor<8x2x1x1xf32>, %init: tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x3x3xf32>, tensor<8x2x1x1xf32>) outs(%init : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %0 : tensor<1x8x3x3xf32>
}

// -----

// 6 output channels are not whole strips of 4.
// CHECK-LABEL: func.func @partial_strip
// CHECK-NOT: linalg.transpose
// CHECK: ins(%{{.+}}, %{{.+}} : tensor<6x2xf32>, tensor<1x2x9xf32>) outs(%{{.+}} : tensor<1x6x9xf32>)
func.func @partial_strip(%in: tensor<1x2x3x3xf32>, %init: tensor<1x6x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<6x2x1x1xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x3x3xf32>, tensor<6x2x1x1xf32>) outs(%init : tensor<1x6x3x3xf32>) -> tensor<1x6x3x3xf32>
  return %0 : tensor<1x6x3x3xf32>
}

// -----

// The convolution's elementwise epilogue (bias, residual, ReLU) moves onto the product: its
// other operands reshaped (channels split into [2, 4], pixels joined) and read through the
// permuted maps, so tlc-fuse-epilogues runs it on the register tiles; the transpose follows it.
// tlc-fuse-epilogues then runs it on each output tile of the product, before the transpose.
// FUSED-LABEL: func.func @epilogue_moves
// FUSED: %[[TILES:.+]] = scf.forall
// FUSED: linalg.fill
// FUSED: linalg.generic
// FUSED: arith.mulf
// FUSED: linalg.generic
// FUSED: arith.maximumf
// FUSED: tlc.fusion_group = {kind = "contraction+epilogue"
// FUSED: linalg.transpose ins(%[[TILES]] : tensor<1x2x9x4xf32>)
// CHECK-LABEL: func.func @epilogue_moves
// CHECK-SAME: (%{{.+}}: tensor<1x2x3x3xf32>, %[[BIAS:.+]]: tensor<8xf32>, %[[RES:.+]]: tensor<1x8x3x3xf32>)
// CHECK: %[[T:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<1x2x9x4xf32>)
// CHECK: %[[B2:.+]] = tensor.expand_shape %[[BIAS]] {{\[}}[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK: %[[R1:.+]] = tensor.collapse_shape %[[RES]]
// CHECK: %[[R4:.+]] = tensor.expand_shape %[[R1]] {{\[}}[0, 1, 2, 3]] output_shape [1, 2, 4, 9] : tensor<72xf32> into tensor<1x2x4x9xf32>
// CHECK: %[[EP:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME: ins(%[[T]], %[[B2]], %[[R4]] : tensor<1x2x9x4xf32>, tensor<2x4xf32>, tensor<1x2x4x9xf32>) outs(%{{.+}} : tensor<1x2x9x4xf32>)
// CHECK: arith.maximumf
// CHECK: %[[TT:.+]] = linalg.transpose ins(%[[EP]] : tensor<1x2x9x4xf32>) outs(%{{.+}} : tensor<1x2x4x9xf32>) permutation = [0, 1, 3, 2]
// CHECK: %[[Y3:.+]] = tensor.collapse_shape %[[TT]]
// CHECK: %[[Y:.+]] = tensor.expand_shape %[[Y3]] {{\[}}[0], [1], [2, 3]] output_shape [1, 8, 3, 3]
// CHECK: return %[[Y]]
func.func @epilogue_moves(%in: tensor<1x2x3x3xf32>, %bias: tensor<8xf32>, %res: tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<8x2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x3x3xf32>, tensor<8x2x1x1xf32>) outs(%init : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(b, f, h, w) -> (b, f, h, w)>, affine_map<(b, f, h, w) -> (f)>,
                                        affine_map<(b, f, h, w) -> (b, f, h, w)>, affine_map<(b, f, h, w) -> (b, f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0, %bias, %res : tensor<1x8x3x3xf32>, tensor<8xf32>, tensor<1x8x3x3xf32>) outs(%e : tensor<1x8x3x3xf32>) {
  ^bb0(%x: f32, %b: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %t = arith.addf %s, %r : f32
    %m = arith.maximumf %t, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x3x3xf32>
  return %1 : tensor<1x8x3x3xf32>
}

// -----

// An epilogue operand read by rows alone (no whole pixel index) stays where it was: after the
// transpose.
// CHECK-LABEL: func.func @epilogue_reads_rows
// CHECK: %[[TT:.+]] = linalg.transpose
// CHECK: %[[Y3:.+]] = tensor.collapse_shape %[[TT]]
// CHECK: %[[Y:.+]] = tensor.expand_shape %[[Y3]]
// CHECK: linalg.generic {{.+}} ins(%[[Y]], %{{.+}} : tensor<1x8x3x3xf32>, tensor<1x8x3xf32>)
func.func @epilogue_reads_rows(%in: tensor<1x2x3x3xf32>, %rows: tensor<1x8x3xf32>) -> tensor<1x8x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<8x2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x3x3xf32>, tensor<8x2x1x1xf32>) outs(%init : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(b, f, h, w) -> (b, f, h, w)>, affine_map<(b, f, h, w) -> (b, f, h)>,
                                        affine_map<(b, f, h, w) -> (b, f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0, %rows : tensor<1x8x3x3xf32>, tensor<1x8x3xf32>) outs(%e : tensor<1x8x3x3xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  } -> tensor<1x8x3x3xf32>
  return %1 : tensor<1x8x3x3xf32>
}

// -----

// An operand of another element type (an i1 mask) keeps its type through the reshape.
// CHECK-LABEL: func.func @epilogue_mask
// CHECK-SAME: (%{{.+}}: tensor<1x2x3x3xf32>, %[[MASK:.+]]: tensor<1x8x3x3xi1>)
// CHECK: %[[M1:.+]] = tensor.collapse_shape %[[MASK]] {{\[}}[0, 1, 2, 3]] : tensor<1x8x3x3xi1> into tensor<72xi1>
// CHECK: %[[M4:.+]] = tensor.expand_shape %[[M1]] {{\[}}[0, 1, 2, 3]] output_shape [1, 2, 4, 9] : tensor<72xi1> into tensor<1x2x4x9xi1>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[M4]] : tensor<1x2x9x4xf32>, tensor<1x2x4x9xi1>)
// CHECK: arith.select
// CHECK: linalg.transpose
func.func @epilogue_mask(%in: tensor<1x2x3x3xf32>, %mask: tensor<1x8x3x3xi1>) -> tensor<1x8x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<8x2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x2x3x3xf32>, tensor<8x2x1x1xf32>) outs(%init : tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(b, f, h, w) -> (b, f, h, w)>, affine_map<(b, f, h, w) -> (b, f, h, w)>,
                                        affine_map<(b, f, h, w) -> (b, f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%0, %mask : tensor<1x8x3x3xf32>, tensor<1x8x3x3xi1>) outs(%e : tensor<1x8x3x3xf32>) {
  ^bb0(%x: f32, %m: i1, %o: f32):
    %s = arith.select %m, %x, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x8x3x3xf32>
  return %1 : tensor<1x8x3x3xf32>
}
