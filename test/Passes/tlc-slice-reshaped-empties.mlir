// RUN: tlc-opt %s -tlc-slice-reshaped-empties -split-input-file | FileCheck %s

// A transpose collapsed into a concat's slice (a Winograd output, say) gets that slice,
// expanded to its shape, as its init; it moves after the concat's earlier insert, which makes
// the destination.
// CHECK-LABEL: func.func @concat_of_transpose
// CHECK-SAME: %[[A:.+]]: tensor<1x4x6x6xf32>, %[[X:.+]]: tensor<1x2x2x2x3x3xf32>
// CHECK: %[[C:.+]] = tensor.empty() : tensor<1x6x6x6xf32>
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[A]] into %[[C]][0, 0, 0, 0] [1, 4, 6, 6] [1, 1, 1, 1]
// CHECK: %[[S:.+]] = tensor.extract_slice %[[I1]][0, 4, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : tensor<1x6x6x6xf32> to tensor<1x2x6x6xf32>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[S]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [1, 2, 3, 2, 3, 2]
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<1x2x2x2x3x3xf32>) outs(%[[E]] : tensor<1x2x3x2x3x2xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[T]]
// CHECK: tensor.insert_slice %[[R]] into %[[I1]][0, 4, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1]
// CHECK-NOT: tensor.empty() : tensor<1x2x3x2x3x2xf32>
func.func @concat_of_transpose(%a: tensor<1x4x6x6xf32>, %x: tensor<1x2x2x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  %e = tensor.empty() : tensor<1x2x3x2x3x2xf32>
  %t = linalg.transpose ins(%x : tensor<1x2x2x2x3x3xf32>) outs(%e : tensor<1x2x3x2x3x2xf32>) permutation = [0, 1, 4, 2, 5, 3]
  %r = tensor.collapse_shape %t [[0], [1], [2, 3], [4, 5]] : tensor<1x2x3x2x3x2xf32> into tensor<1x2x6x6xf32>
  %c = tensor.empty() : tensor<1x6x6x6xf32>
  %i1 = tensor.insert_slice %a into %c[0, 0, 0, 0] [1, 4, 6, 6] [1, 1, 1, 1] : tensor<1x4x6x6xf32> into tensor<1x6x6x6xf32>
  %i2 = tensor.insert_slice %r into %i1[0, 4, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : tensor<1x2x6x6xf32> into tensor<1x6x6x6xf32>
  return %i2 : tensor<1x6x6x6xf32>
}

// -----

// Left alone: a reshaped result with another use, and an init that is not an empty tensor.
// CHECK-LABEL: func.func @other_uses
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x2x3x2x3x2xf32>
// CHECK: linalg.transpose ins(%{{.+}} : tensor<1x2x2x2x3x3xf32>) outs(%[[E]] : tensor<1x2x3x2x3x2xf32>)
// CHECK: linalg.transpose ins(%{{.+}} : tensor<1x2x2x2x3x3xf32>) outs(%{{.+}} : tensor<1x2x3x2x3x2xf32>)
// CHECK-NOT: tensor.expand_shape
func.func @other_uses(%d: tensor<1x6x6x6xf32>, %x: tensor<1x2x2x2x3x3xf32>, %init: tensor<1x2x3x2x3x2xf32>) -> (tensor<1x6x6x6xf32>, tensor<1x2x3x2x3x2xf32>, tensor<1x6x6x6xf32>) {
  %e = tensor.empty() : tensor<1x2x3x2x3x2xf32>
  %t = linalg.transpose ins(%x : tensor<1x2x2x2x3x3xf32>) outs(%e : tensor<1x2x3x2x3x2xf32>) permutation = [0, 1, 4, 2, 5, 3]
  %r = tensor.collapse_shape %t [[0], [1], [2, 3], [4, 5]] : tensor<1x2x3x2x3x2xf32> into tensor<1x2x6x6xf32>
  %i = tensor.insert_slice %r into %d[0, 4, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : tensor<1x2x6x6xf32> into tensor<1x6x6x6xf32>
  %t2 = linalg.transpose ins(%x : tensor<1x2x2x2x3x3xf32>) outs(%init : tensor<1x2x3x2x3x2xf32>) permutation = [0, 1, 4, 2, 5, 3]
  %r2 = tensor.collapse_shape %t2 [[0], [1], [2, 3], [4, 5]] : tensor<1x2x3x2x3x2xf32> into tensor<1x2x6x6xf32>
  %i2 = tensor.insert_slice %r2 into %d[0, 0, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : tensor<1x2x6x6xf32> into tensor<1x6x6x6xf32>
  return %i, %t, %i2 : tensor<1x6x6x6xf32>, tensor<1x2x3x2x3x2xf32>, tensor<1x6x6x6xf32>
}
