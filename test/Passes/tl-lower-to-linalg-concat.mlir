// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg=max-in-place-concat=2 | FileCheck %s

// More inputs than max-in-place-concat: one tensor.concat along the normalized axis (linear
// bufferization), not an insert_slice chain.
// CHECK-LABEL: func.func @long_concat
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[A:.+]]: tensor<2x8xf32>)
// CHECK: %[[C:.+]] = tensor.concat dim(0) %[[X]], %[[A]], %[[X]] : (tensor<4x8xf32>, tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<10x8xf32>
// CHECK-NOT: tensor.insert_slice
// CHECK: return %[[C]]
func.func @long_concat(%x: tensor<4x8xf32>, %a: tensor<2x8xf32>) -> tensor<10x8xf32> {
  %0 = tl.concat %x, %a, %x axis = -2 : tensor<4x8xf32>, tensor<2x8xf32>, tensor<4x8xf32> -> tensor<10x8xf32>
  return %0 : tensor<10x8xf32>
}

// -----

// At most max-in-place-concat inputs: the insert_slice chain into an empty tensor, which
// bufferizes in place.
// CHECK-LABEL: func.func @short_concat
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NOT: tensor.concat
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[X]] into %[[E]][0, 0] [4, 8] [1, 1]
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[X]] into %[[I0]][0, 8] [4, 8] [1, 1]
// CHECK: return %[[I1]]
func.func @short_concat(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %0 = tl.concat %x, %x axis = 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
