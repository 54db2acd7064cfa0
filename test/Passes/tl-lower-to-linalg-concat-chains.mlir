// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries" -canonicalize -cse -canonicalize | FileCheck %s --check-prefix=BUF

// DenseNet's pattern: each layer reads the concat of all earlier outputs. The four concats
// (the first of one input) become one buffer of the last one's shape; each input is inserted
// once, where the first concat reading it stood, and the earlier concats are leading slices
// of the buffer.
// CHECK-LABEL: func.func @dense_block
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x8xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x16x8xf32>
// CHECK: %[[B0:.+]] = tensor.insert_slice %[[X]] into %[[E]][0, 0, 0] [1, 4, 8] [1, 1, 1]
// CHECK: %[[C0:.+]] = tensor.extract_slice %[[B0]][0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x4x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[C0]]
// CHECK: %[[Y1:.+]] = linalg.generic
// CHECK: %[[B1:.+]] = tensor.insert_slice %[[Y1]] into %[[B0]][0, 4, 0] [1, 4, 8] [1, 1, 1]
// CHECK: %[[C1:.+]] = tensor.extract_slice %[[B1]][0, 0, 0] [1, 8, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x8x8xf32>
// CHECK: %[[S1:.+]] = tensor.extract_slice %[[C1]][0, 2, 0]
// CHECK: linalg.generic {{.*}} ins(%[[S1]]
// CHECK: %[[Y2:.+]] = linalg.generic
// CHECK: %[[B2:.+]] = tensor.insert_slice %[[Y2]] into %[[B1]][0, 8, 0] [1, 4, 8] [1, 1, 1]
// CHECK: %[[C2:.+]] = tensor.extract_slice %[[B2]][0, 0, 0] [1, 12, 8] [1, 1, 1] : tensor<1x16x8xf32> to tensor<1x12x8xf32>
// CHECK: %[[S2:.+]] = tensor.extract_slice %[[C2]][0, 8, 0]
// CHECK: linalg.generic {{.*}} ins(%[[S2]]
// CHECK: %[[Y3:.+]] = linalg.generic
// CHECK: %[[B3:.+]] = tensor.insert_slice %[[Y3]] into %[[B2]][0, 12, 0] [1, 4, 8] [1, 1, 1]
// CHECK-NOT: tensor.concat
// CHECK: return %[[B3]]
// Bufferized: one buffer; each layer reads its leading slice in place and writes its output
// into its own slice (a temporary between); only the chain's first input, a function
// argument, is copied.
// BUF-LABEL: func.func @dense_block
// BUF: %[[A:.+]] = memref.alloc() {{.*}} : memref<1x16x8xf32>
// BUF: memref.copy %{{.+}}, %{{.+}} : memref<1x4x8xf32, strided<[?, ?, ?], offset: ?>> to memref<1x4x8xf32, strided<[128, 8, 1]>>
// BUF-NOT: memref.copy
// BUF-NOT: memref.alloc() {{.*}} : memref<{{.*}}x16x8xf32>
// BUF: return %[[A]]
func.func @dense_block(%x: tensor<1x4x8xf32>) -> tensor<1x16x8xf32> {
  %c0 = tl.concat %x axis = 1 : tensor<1x4x8xf32> -> tensor<1x4x8xf32>
  %t1 = tl.exp %c0 : tensor<1x4x8xf32>
  %y1 = tl.neg %t1 : tensor<1x4x8xf32>
  %c1 = tl.concat %x, %y1 axis = 1 : tensor<1x4x8xf32>, tensor<1x4x8xf32> -> tensor<1x8x8xf32>
  %s1 = tl.slice %c1 offsets = [0, 2, 0] sizes = [1, 4, 8] strides = [1, 1, 1] : tensor<1x8x8xf32> -> tensor<1x4x8xf32>
  %t2 = tl.exp %s1 : tensor<1x4x8xf32>
  %y2 = tl.neg %t2 : tensor<1x4x8xf32>
  %c2 = tl.concat %x, %y1, %y2 axis = -2 : tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32> -> tensor<1x12x8xf32>
  %s2 = tl.slice %c2 offsets = [0, 8, 0] sizes = [1, 4, 8] strides = [1, 1, 1] : tensor<1x12x8xf32> -> tensor<1x4x8xf32>
  %t3 = tl.exp %s2 : tensor<1x4x8xf32>
  %y3 = tl.neg %t3 : tensor<1x4x8xf32>
  %c3 = tl.concat %x, %y1, %y2, %y3 axis = 1 : tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32> -> tensor<1x16x8xf32>
  return %c3 : tensor<1x16x8xf32>
}

// -----

// Not chains: another axis, inputs in another order, a concat that is no prefix of the other
// (x, a then x, b). Each is its own insert_slice chain into its own empty tensor.
// CHECK-LABEL: func.func @not_chains
// CHECK-COUNT-4: tensor.empty()
// CHECK-NOT: tensor.extract_slice
func.func @not_chains(%x: tensor<4x4xf32>, %a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x8xf32>, tensor<4x12xf32>, tensor<8x4xf32>, tensor<4x8xf32>) {
  %0 = tl.concat %x, %a axis = 1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x8xf32>
  %1 = tl.concat %x, %b, %a axis = 1 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x12xf32>
  %2 = tl.concat %x, %a axis = 0 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<8x4xf32>
  %3 = tl.concat %a, %x axis = 1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x12xf32>, tensor<8x4xf32>, tensor<4x8xf32>
}
