// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace=forward-outputs=false -allow-unregistered-dialect -verify-diagnostics | FileCheck %s

// A buffer allocated inside an scf.forall is private to one iteration, and iterations may run
// at the same time: it gets one copy per iteration (3 x 64 bytes, 24 bytes rounded up to the
// 64-byte alignment) and each iteration views its own, at offset + iv * 64. A buffer outside
// the loop and live across it is planned as usual.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 256 : i64
// CHECK-SAME: replicas = 3 : i64, size = 192 : i64
// CHECK-LABEL: func.func @per_iteration
// CHECK: scf.forall (%[[I:.+]]) in (3)
// CHECK: %[[BASE:.+]] = arith.constant {{[0-9]+}} : index
// CHECK: %[[N:.+]] = arith.divui
// CHECK: %[[IDX:.+]] = arith.addi %{{.+}}, %[[N]] : index
// CHECK: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[OFF:.+]] = arith.muli %[[IDX]], %[[C64]] : index
// CHECK: %[[SHIFT:.+]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHECK: memref.view %{{.+}}[%[[SHIFT]]][] : memref<256xi8> to memref<6xf32>
// CHECK-NOT: memref.alloc
module {
  func.func @per_iteration(%in: memref<3x6xf32>, %out: memref<3x6xf32>) {
    %t = memref.alloc() : memref<16xf32>
    "test.use"(%t) : (memref<16xf32>) -> ()
    scf.forall (%i) in (3) {
      %a = memref.alloc() : memref<6xf32>
      %row = memref.subview %in[%i, 0] [1, 6] [1, 1] : memref<3x6xf32> to memref<6xf32, strided<[1], offset: ?>>
      memref.copy %row, %a : memref<6xf32, strided<[1], offset: ?>> to memref<6xf32>
      %dst = memref.subview %out[%i, 0] [1, 6] [1, 1] : memref<3x6xf32> to memref<6xf32, strided<[1], offset: ?>>
      memref.copy %a, %dst : memref<6xf32> to memref<6xf32, strided<[1], offset: ?>>
      memref.dealloc %a : memref<6xf32>
    }
    "test.use"(%t) : (memref<16xf32>) -> ()
    return
  }
}

// -----

// Negative: a forall with a dynamic trip count cannot be given per-iteration copies.
module {
  func.func @dynamic(%n: index) {
    scf.forall (%i) in (%n) {
      // expected-error @below {{'memref.alloc' op is inside an scf.forall with dynamic bounds}}
      %a = memref.alloc() : memref<6xf32>
      "test.use"(%a) : (memref<6xf32>) -> ()
    }
    return
  }
}
