// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace -allow-unregistered-dialect | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace=forward-outputs=false -allow-unregistered-dialect | FileCheck %s --check-prefix=OFF

// Zero-copy outputs: the intermediate is reshaped and copied into the out-param, where it dies,
// so it is computed in the out-param (through the inverse reshape) and the copy disappears.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 0 : i64, buffers = []
// CHECK-LABEL: func.func @reshaped_output
// CHECK-SAME: (%[[IN:[^:]+]]: memref<8x16xf32>, %[[OUT:[^:]+]]: memref<2x64xf32>
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1]] : memref<2x64xf32> into memref<128xf32>
// CHECK: %[[BUF:.+]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [8, 16] : memref<128xf32> into memref<8x16xf32>
// CHECK: "test.write"(%[[IN]], %[[BUF]])
// CHECK-NOT: memref.copy
// OFF-LABEL: module attributes
// OFF-SAME: arena_size = 512 : i64
// OFF: memref.copy
module {
  func.func @reshaped_output(%in: memref<8x16xf32>, %out: memref<2x64xf32>) {
    %a = memref.alloc() : memref<8x16xf32>
    "test.write"(%in, %a) : (memref<8x16xf32>, memref<8x16xf32>) -> ()
    %c = memref.collapse_shape %a [[0, 1]] : memref<8x16xf32> into memref<128xf32>
    %e = memref.expand_shape %c [[0, 1]] output_shape [2, 64] : memref<128xf32> into memref<2x64xf32>
    memref.copy %e, %out : memref<2x64xf32> to memref<2x64xf32>
    return
  }
}

// -----

// Negative: the intermediate is still used after the copy.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 512 : i64
// CHECK: memref.copy
module {
  func.func @still_live(%out: memref<8x16xf32>) {
    %a = memref.alloc() : memref<8x16xf32>
    "test.write"(%a) : (memref<8x16xf32>) -> ()
    memref.copy %a, %out : memref<8x16xf32> to memref<8x16xf32>
    "test.use"(%a) : (memref<8x16xf32>) -> ()
    return
  }
}

// -----

// Negative: the out-param is used before the copy (it would be clobbered).
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 512 : i64
// CHECK: memref.copy
module {
  func.func @out_used_before(%out: memref<8x16xf32>) {
    %a = memref.alloc() : memref<8x16xf32>
    "test.write"(%a) : (memref<8x16xf32>) -> ()
    "test.use"(%out) : (memref<8x16xf32>) -> ()
    memref.copy %a, %out : memref<8x16xf32> to memref<8x16xf32>
    return
  }
}

// -----

// Negative: a strided view (here a transposing subview) changes the element order.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 1024 : i64
// CHECK: memref.copy
module {
  func.func @subview(%out: memref<8x16xf32>) {
    %a = memref.alloc() : memref<16x16xf32>
    "test.write"(%a) : (memref<16x16xf32>) -> ()
    %s = memref.subview %a[0, 0] [8, 16] [2, 1] : memref<16x16xf32> to memref<8x16xf32, strided<[32, 1]>>
    memref.copy %s, %out : memref<8x16xf32, strided<[32, 1]>> to memref<8x16xf32>
    return
  }
}
