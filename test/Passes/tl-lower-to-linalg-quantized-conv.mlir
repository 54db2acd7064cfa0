// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg | FileCheck %s

// tl.quantized_conv2d: the input padded with its zero point, im2col into [N, C*KH*KW, OH*OW]
// bytes, one contraction extending each byte to i32 (the filter signed, the input as its
// attribute says), then zero point x the filter's row sums subtracted.

// CHECK: #[[WINDOW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>
// CHECK: #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK: #[[COLS:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK: #[[ACC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @strided_unsigned
// CHECK: %[[ZP:.+]] = arith.constant -128 : i8
// CHECK: %[[PADDED:.+]] = linalg.fill ins(%[[ZP]] : i8) outs(%{{.+}} : tensor<1x3x7x7xi8>)
// CHECK: tensor.insert_slice %{{.+}} into %[[PADDED]][0, 0, 1, 1] [1, 3, 5, 5] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[WINDOW]], #{{.+}}]{{.*}} outs(%{{.+}} : tensor<1x3x3x3x3x3xi8>)
// CHECK: tensor.expand_shape %{{.+}} output_shape [1, 27, 9] : tensor<243xi8> into tensor<1x27x9xi8>
// CHECK: tensor.expand_shape %{{.+}} output_shape [4, 27] : tensor<108xi8> into tensor<4x27xi8>
// CHECK: linalg.generic {indexing_maps = [#[[FILTER]], #[[COLS]], #[[ACC]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-NEXT: ^bb0(%[[W:.+]]: i8, %[[X:.+]]: i8, %[[OUT:.+]]: i32):
// CHECK-NEXT: %[[WE:.+]] = arith.extsi %[[W]] : i8 to i32
// CHECK-NEXT: %[[XE:.+]] = arith.extui %[[X]] : i8 to i32
// CHECK-NEXT: %[[P:.+]] = arith.muli %[[WE]], %[[XE]] : i32
// CHECK-NEXT: arith.addi %[[OUT]], %[[P]] : i32
// CHECK: arith.extsi %{{.+}} : i8 to i32
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.constant 128 : i32
// CHECK: arith.muli
// CHECK: arith.subi
// CHECK: tensor<36xi32> into tensor<1x4x3x3xi32>
func.func @strided_unsigned(%x: tensor<1x3x5x5xi8>, %w: tensor<4x3x3x3xi8>) -> tensor<1x4x3x3xi32> {
  %y = tl.quantized_conv2d %x, %w strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] input_zero_point = 128 unsigned_input : tensor<1x3x5x5xi8>, tensor<4x3x3x3xi8> -> tensor<1x4x3x3xi32>
  return %y : tensor<1x4x3x3xi32>
}

// -----

// A 1x1 stride-1 window reads the input as the column matrix (no copy); a signed input with
// zero point 0 needs no correction.
// CHECK-LABEL: func.func @pointwise_signed
// CHECK-NOT: linalg.fill ins(%{{.+}} : i8)
// CHECK: tensor.expand_shape %{{.+}} output_shape [2, 8, 16] : tensor<256xi8> into tensor<2x8x16xi8>
// CHECK: linalg.generic
// CHECK: arith.extsi
// CHECK-NEXT: arith.extsi
// CHECK-NOT: arith.subi
// CHECK: return
func.func @pointwise_signed(%x: tensor<2x8x4x4xi8>, %w: tensor<5x8x1x1xi8>) -> tensor<2x5x4x4xi32> {
  %y = tl.quantized_conv2d %x, %w strides = [1, 1] pads = [0, 0, 0, 0] dilations = [1, 1] input_zero_point = 0 : tensor<2x8x4x4xi8>, tensor<5x8x1x1xi8> -> tensor<2x5x4x4xi32>
  return %y : tensor<2x5x4x4xi32>
}
