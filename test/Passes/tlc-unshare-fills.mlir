// RUN: %tlc_opt %s --tlc-unshare-fills | FileCheck %s

// One zero-filled tensor that two pads insert into and a contraction accumulates into: the
// first writer keeps the fill, the others get fills of their own right before them (of fresh
// tensor.empty), and a read of the filled tensor keeps sharing the original.
// CHECK-LABEL: func.func @shared_zeros
// CHECK: %[[Z:.+]] = linalg.fill ins(%[[C:.+]] : f32) outs(%{{.+}} : tensor<4x6xf32>)
// CHECK: tensor.insert_slice %{{.+}} into %[[Z]]
// CHECK: %[[E1:.+]] = tensor.empty() : tensor<4x6xf32>
// CHECK-NEXT: %[[Z1:.+]] = linalg.fill ins(%[[C]] : f32) outs(%[[E1]] : tensor<4x6xf32>)
// CHECK-NEXT: tensor.insert_slice %{{.+}} into %[[Z1]]
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<4x6xf32>
// CHECK-NEXT: %[[Z2:.+]] = linalg.fill ins(%[[C]] : f32) outs(%[[E2]] : tensor<4x6xf32>)
// CHECK-NEXT: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x6xf32>) outs(%[[Z2]] : tensor<4x6xf32>)
// CHECK: linalg.add ins(%[[Z]], %{{.+}} : tensor<4x6xf32>, tensor<4x6xf32>)
func.func @shared_zeros(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>, %a: tensor<4x8xf32>,
                        %b: tensor<8x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %p1 = tensor.insert_slice %x into %z[1, 1] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x6xf32>
  %p2 = tensor.insert_slice %y into %z[1, 1] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x6xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%z : tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = linalg.add ins(%z, %m : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %p1, %p2, %m, %s : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// A fill with one writer is left alone.
// CHECK-LABEL: func.func @one_writer
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
func.func @one_writer(%x: tensor<2x4xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %p = tensor.insert_slice %x into %z[1, 1] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x6xf32>
  return %p, %z : tensor<4x6xf32>, tensor<4x6xf32>
}

// A fill read by several ops and written by none is left alone.
// CHECK-LABEL: func.func @only_read
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
func.func @only_read(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %a = linalg.add ins(%z, %x : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %b = linalg.sub ins(%z, %x : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %a, %b : tensor<4x6xf32>, tensor<4x6xf32>
}

// A fill only written into, by one op further down, moves right before it (another op in
// between would keep tlc-tile-contractions from starting the accumulators at the fill value).
// CHECK-LABEL: func.func @moved_to_writer
// CHECK: linalg.exp
// CHECK-NEXT: %[[Z:.+]] = linalg.fill
// CHECK-NEXT: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8x6xf32>) outs(%[[Z]] : tensor<4x6xf32>)
func.func @moved_to_writer(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %ea = tensor.empty() : tensor<4x8xf32>
  %x = linalg.exp ins(%a : tensor<4x8xf32>) outs(%ea : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%z : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %m : tensor<4x6xf32>
}

// A fill also read stays where it is (the read may come first).
// CHECK-LABEL: func.func @read_and_written
// CHECK: linalg.fill
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.exp
func.func @read_and_written(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %ea = tensor.empty() : tensor<4x8xf32>
  %x = linalg.exp ins(%a : tensor<4x8xf32>) outs(%ea : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%z : tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = linalg.add ins(%z, %m : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %m, %s : tensor<4x6xf32>, tensor<4x6xf32>
}
