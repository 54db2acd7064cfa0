// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="winograd-min-channels=1 winograd-min-gain=0 batch-columns-max-pixels=0" -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="winograd=false tile-im2col=false" -mlir-print-local-scope | FileCheck %s --check-prefix=OFF
// RUN: tlc-opt %s -split-input-file -tlc-lower-convolutions="winograd-min-channels=1 winograd-min-gain=0 bf16-dots=true batch-columns-max-pixels=0" -mlir-print-local-scope | FileCheck %s --check-prefix=DOTS

// Winograd F(2x2, 3x3) of a constant filter over a zero-filled output: the filter is transformed
// at compile time (U = G g G^T, 16 products per filter/channel pair: here g = [1..9]); the padded
// input's 2x2 stride phases give the 16 tile planes [N, C, TH, TW] (element (i, j) of every tile:
// phase (i % 2, j % 2) from row i / 2 and column j / 2); the input transform writes V [16, C, N,
// TH, TW] (a chunk of channels per forall iteration); one contraction batched over the products;
// the output transform writes the four output phases, interleaved into rows by a transpose.
// CHECK-LABEL: func.func @winograd
// CHECK-SAME: (%[[IN:.+]]: tensor<1x1x6x6xf32>)
// CHECK: %[[PH:.+]] = linalg.transpose ins(%{{.+}} : tensor<1x1x3x2x3x2xf32>) outs(%{{.+}} : tensor<1x1x2x2x3x3xf32>) permutation = [0, 1, 3, 5, 2, 4]
// CHECK: %[[V:.+]] = scf.forall (%{{.+}}) in (1) shared_outs(%{{.+}} = %{{.+}}) -> (tensor<16x1x1x2x2xf32>)
// CHECK: tensor.extract_slice %[[PH]][0, %{{.+}}, 0, 0, 0, 0] [1, 1, 1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[PH]][0, %{{.+}}, 0, 1, 0, 0] [1, 1, 1, 1, 2, 2]
// CHECK: tensor.extract_slice %[[PH]][0, %{{.+}}, 0, 0, 0, 1] [1, 1, 1, 1, 2, 2]
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
// CHECK-SAME: affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-COUNT-16: tensor.parallel_insert_slice
// CHECK: %[[U:.+]] = arith.constant dense<{{\[}}{{\[}}[1.000000e+00]], {{\[}}[3.000000e+00]], {{\[}}[1.000000e+00]], {{\[}}[3.000000e+00]], {{\[}}[6.000000e+00]], {{\[}}[1.125000e+01]], {{\[}}[3.750000e+00]], {{\[}}[9.000000e+00]], {{\[}}[2.000000e+00]], {{\[}}[3.750000e+00]], {{\[}}[1.250000e+00]], {{\[}}[3.000000e+00]], {{\[}}[7.000000e+00]], {{\[}}[1.200000e+01]], {{\[}}[4.000000e+00]], {{\[}}[9.000000e+00]]]> : tensor<16x1x1xf32>
// CHECK: %[[VF:.+]] = tensor.collapse_shape %[[V]] {{\[}}[0], [1], [2, 3, 4]] : tensor<16x1x1x2x2xf32> into tensor<16x1x4xf32>
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[U]], %[[VF]] : tensor<16x1x1xf32>, tensor<16x1x4xf32>)
// CHECK: scf.forall (%{{.+}}) in (1) shared_outs(%{{.+}} = %{{.+}}) -> (tensor<1x1x4x2x2xf32>)
// CHECK-COUNT-4: tensor.parallel_insert_slice
// CHECK: linalg.transpose ins(%{{.+}} : tensor<1x1x2x2x2x2xf32>) outs(%{{.+}} : tensor<1x1x2x2x2x2xf32>) permutation = [0, 1, 4, 2, 5, 3]
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<1x1x2x2x2x2xf32> into tensor<1x1x4x4xf32>
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// OFF-LABEL: func.func @winograd
// OFF-NOT: tensor<16x
// OFF: linalg.generic
func.func @winograd(%in: tensor<1x1x6x6xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%init : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Odd outputs: the 2x2 tiles overhang the 5x3 output by a row and a column. The phases of the
// padded 7x5 input are taken from a zero-filled 8x6 copy, and the interleaved rows are cropped.
// CHECK-LABEL: func.func @winograd_odd
// CHECK: linalg.fill
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [2, 8, 7, 5] [1, 1, 1, 1] : tensor<2x8x7x5xf32> into tensor<2x8x8x6xf32>
// CHECK: scf.forall (%{{.+}}) in (8) shared_outs(%{{.+}} = %{{.+}}) -> (tensor<16x8x2x3x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<16x4x8xf32>, tensor<16x8x12xf32>)
// CHECK: scf.forall (%{{.+}}) in (4) shared_outs(%{{.+}} = %{{.+}}) -> (tensor<2x4x4x3x2xf32>)
// CHECK: tensor.extract_slice %{{.+}}[0, 0, 0, 0] [2, 4, 5, 3] [1, 1, 1, 1] : tensor<2x4x6x4xf32> to tensor<2x4x5x3xf32>
func.func @winograd_odd(%in: tensor<2x8x7x5xf32>) -> tensor<2x4x5x3xf32> {
  %w = arith.constant dense<0.5> : tensor<4x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x5x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x3xf32>) -> tensor<2x4x5x3xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x8x7x5xf32>, tensor<4x8x3x3xf32>) outs(%init : tensor<2x4x5x3xf32>) -> tensor<2x4x5x3xf32>
  return %0 : tensor<2x4x5x3xf32>
}

// -----

// Not Winograd: a filter known only at run time (its transform would be run-time work), an
// output that is not zero-filled (an accumulation), a stride of 2.
// CHECK-LABEL: func.func @not_winograd
// CHECK-NOT: tensor<16x
// CHECK: return
func.func @not_winograd(%in: tensor<1x8x10x10xf32>, %w: tensor<8x8x3x3xf32>, %acc: tensor<1x8x8x8xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x4x4xf32>) {
  %c = arith.constant dense<0.5> : tensor<8x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %c : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x4x4xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %c : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%init2 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %0, %1, %2 : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1x8x4x4xf32>
}

// -----

// Mixed precision: a bf16 convolution of a constant bf16 filter whose shape takes Winograd has
// its filter extended at compile time (exact), so the filter transform still happens at compile
// time, and U is stored in bf16 (rounded to nearest even: U[0] = g[0][0] = 1.0078125 is exact,
// U[1] = (g00 + g01 + g02) / 2 = 3.00390625 rounds to 3.0; the rest as above); the batched
// products extend it. Only the input is extended at run time. Without Winograd the filter
// stays bf16 and is extended at run time.
// CHECK-LABEL: func.func @winograd_bf16
// CHECK-SAME: (%[[IN:.+]]: tensor<1x1x6x6xbf16>)
// CHECK: linalg.generic {{.+}} ins(%[[IN]] : tensor<1x1x6x6xbf16>) outs(%{{.+}} : tensor<1x1x6x6xf32>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: %[[U:.+]] = arith.constant dense<{{\[}}{{\[}}[1.007810e+00]], {{\[}}[3.000000e+00]], {{\[}}[1.000000e+00]], {{\[}}[3.000000e+00]], {{.*}} : tensor<16x1x1xbf16>
// CHECK: linalg.generic {{.+}} ins(%[[U]], %{{.+}} : tensor<16x1x1xbf16>, tensor<16x1x4xf32>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// OFF-LABEL: func.func @winograd_bf16
// OFF: arith.constant dense<{{.*}}> : tensor<1x1x3x3xbf16>
// OFF: arith.extf %{{.+}} : bf16 to f32
// OFF: arith.extf %{{.+}} : bf16 to f32
// OFF-NOT: tensor<16x
func.func @winograd_bf16(%in: tensor<1x1x6x6xbf16>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<[[[[1.0078125, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x1x6x6xbf16>, tensor<1x1x3x3xbf16>) outs(%init : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// With bf16-dots (every CPU has bf16 dot products) the transformed input V is rounded to bf16
// too, so the batched products multiply two bf16 operands (the contraction tiler then takes
// the vdpbf16ps tiles).
// DOTS-LABEL: func.func @winograd_bf16_dots
// DOTS: scf.forall (%{{.+}}) in (1) shared_outs(%{{.+}} = %{{.+}}) -> (tensor<16x1x1x2x2xbf16>)
// DOTS: arith.truncf %{{.+}} : f32 to bf16
// DOTS: %[[U:.+]] = arith.constant dense<{{.*}}> : tensor<16x1x1xbf16>
// DOTS: linalg.generic {{.+}} ins(%[[U]], %{{.+}} : tensor<16x1x1xbf16>, tensor<16x1x4xbf16>)
// DOTS-SAME: outs(%{{.+}} : tensor<16x1x4xf32>)
func.func @winograd_bf16_dots(%in: tensor<1x1x6x6xbf16>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<[[[[1.0078125, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x1x6x6xbf16>, tensor<1x1x3x3xbf16>) outs(%init : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}
