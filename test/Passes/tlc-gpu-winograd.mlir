// RUN: %tlc_opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tlc-gpu-winograd{min-channels=1 min-tiles=1}))' | FileCheck %s
// RUN: %tlc_opt %s --split-input-file --pass-pipeline='builtin.module(func.func(tlc-gpu-winograd))' | FileCheck %s --check-prefix=POLICY

// A 3x3 stride-1 convolution of a constant filter over a padded input (6x6 -> 4x4, 2x2 tiles
// of 2x2 outputs), its bias and ReLU after it. The input transform reads the 16 points of
// every 4x4 tile as stride-2 views and writes V [4, 4, C, N, TH, TW] over loops (c, n, y, a,
// b, x), picking its element's row of B^T by the indices a (3) and b (4); the filter is
// transformed at compile time (G g G^T of 1..9, in double); one contraction batched over the
// 16 products; the output transform reads the 16 planes at (f, n, h / 2, w / 2), picks its
// row of A^T by h % 2 and w % 2, and has the bias and ReLU fused in.
// CHECK-DAG: #[[POINT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0, d2, d5)>
// CHECK-DAG: #[[VMAP:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d0, d1, d2, d5)>
// CHECK-DAG: #[[PLANE:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2 floordiv 2, d3 floordiv 2)>
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x6x6xf32>, %[[BIAS:.+]]: tensor<1xf32>)
// CHECK-NOT: linalg.conv_2d
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 2, 2]
// CHECK-COUNT-14: tensor.extract_slice %[[X]]
// CHECK: tensor.extract_slice %[[X]][0, 0, 3, 3] [1, 1, 2, 2] [1, 1, 2, 2]
// CHECK: %[[V:.+]] = linalg.generic {indexing_maps = [#[[POINT]], {{.*}}, #[[VMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: outs(%{{.+}} : tensor<4x4x1x1x2x2xf32>)
// CHECK-DAG: linalg.index 3
// CHECK-DAG: linalg.index 4
// CHECK: %[[VF:.+]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1], [2], [3, 4, 5]] : tensor<4x4x1x1x2x2xf32> into tensor<16x1x4xf32>
// CHECK: %[[U:.+]] = arith.constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}3.000000e+00]], {{\[\[}}1.000000e+00]], {{\[\[}}3.000000e+00]], {{\[\[}}6.000000e+00]], {{\[\[}}1.125000e+01]], {{\[\[}}3.750000e+00]], {{\[\[}}9.000000e+00]], {{\[\[}}2.000000e+00]], {{\[\[}}3.750000e+00]], {{\[\[}}1.250000e+00]], {{\[\[}}3.000000e+00]], {{\[\[}}7.000000e+00]], {{\[\[}}1.200000e+01]], {{\[\[}}4.000000e+00]], {{\[\[}}9.000000e+00]]]> : tensor<16x1x1xf32>
// CHECK: %[[M:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[U]], %[[VF]] : tensor<16x1x1xf32>, tensor<16x1x4xf32>)
// CHECK: %[[MT:.+]] = tensor.expand_shape %[[M]] {{\[}}[0, 1], [2], [3, 4, 5]]
// CHECK: tensor.extract_slice %[[MT]][0, 0, 0, 0, 0, 0] [1, 1, 1, 1, 2, 2]
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[PLANE]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: %[[BIAS]]
// CHECK-DAG: linalg.index 2
// CHECK-DAG: linalg.index 3
// CHECK-DAG: arith.remui
// CHECK: arith.maximumf
// CHECK: return %[[Y]]
// POLICY-LABEL: func.func @conv
// POLICY: linalg.conv_2d_nchw_fchw
func.func @conv(%x: tensor<1x1x6x6xf32>, %bias: tensor<1xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (f)>, affine_map<(n, f, h, w) -> (n, f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %bias : tensor<1x1x4x4xf32>, tensor<1xf32>) outs(%e : tensor<1x1x4x4xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
  } -> tensor<1x1x4x4xf32>
  return %r : tensor<1x1x4x4xf32>
}

// -----

// An odd output (3x3: 2x2 tiles, the last row and column of tiles half used): the padded
// input grows by one zero row and column (5x5 -> 6x6) before the tiles are read; the output
// transform writes the 3x3 points only. No elementwise consumer: the transform is the result.
// CHECK-LABEL: func.func @odd
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x5x5xf32>)
// CHECK: %[[ZEROS:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x1x6x6xf32>)
// CHECK: %[[P:.+]] = tensor.insert_slice %[[X]] into %[[ZEROS]][0, 0, 0, 0] [1, 1, 5, 5] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 2, 2]
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x3x3xf32>)
// CHECK: return %[[Y]]
func.func @odd(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %c : tensor<1x1x3x3xf32>
}

// -----

// Not Winograd's: stride 2, and a filter that is not a constant.
// CHECK-LABEL: func.func @untouched
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
// CHECK-NOT: linalg.generic
func.func @untouched(%x: tensor<1x1x6x6xf32>, %w2: tensor<1x1x3x3xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x2x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %s2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%f2 : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %e4 = tensor.empty() : tensor<1x1x4x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %dyn = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w2 : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%f4 : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %s2, %dyn : tensor<1x1x2x2xf32>, tensor<1x1x4x4xf32>
}
