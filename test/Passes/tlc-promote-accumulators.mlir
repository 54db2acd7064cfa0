// RUN: %tlc_opt %s --split-input-file --tlc-promote-accumulators | FileCheck %s

// A dot product's accumulator: loaded once before the loop, carried, stored once after.
// CHECK-LABEL: func.func @dot
// CHECK-SAME: (%[[A:.+]]: memref<64xf32>, %[[B:.+]]: memref<64xf32>, %[[C:.+]]: memref<4xf32>, %[[I:.+]]: index)
// CHECK: %[[INIT:.+]] = memref.load %[[C]][%[[I]]]
// CHECK: %[[SUM:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (f32)
// CHECK-NOT: memref.load %[[C]]
// CHECK-NOT: memref.store
// CHECK: arith.addf %[[ACC]], %{{.+}} : f32
// CHECK: scf.yield
// CHECK: memref.store %[[SUM]], %[[C]][%[[I]]]
func.func @dot(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<4xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c1 {
    %x = memref.load %a[%k] : memref<64xf32>
    %y = memref.load %b[%k] : memref<64xf32>
    %acc = memref.load %c[%i] : memref<4xf32>
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    memref.store %s, %c[%i] : memref<4xf32>
  }
  return
}

// -----

// The element changes with the loop (a copy, not an accumulator): left alone.
// CHECK-LABEL: func.func @varying
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: memref.store
func.func @varying(%c: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.for %k = %c0 to %c64 step %c1 {
    %v = memref.load %c[%k] : memref<64xf32>
    %s = arith.addf %v, %one : f32
    memref.store %s, %c[%k] : memref<64xf32>
  }
  return
}

// -----

// The buffer is also read elsewhere in the loop (another element may be the same one): left
// alone.
// CHECK-LABEL: func.func @other_access
// CHECK-NOT: iter_args
func.func @other_access(%c: memref<64xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c1 {
    %x = memref.load %c[%k] : memref<64xf32>
    %acc = memref.load %c[%i] : memref<64xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %c[%i] : memref<64xf32>
  }
  return
}

// -----

// An op with unknown memory effects in the loop (a call) could touch the element: left alone.
func.func private @touch(memref<4xf32>)
// CHECK-LABEL: func.func @opaque
// CHECK-NOT: iter_args
func.func @opaque(%c: memref<4xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = memref.load %c[%i] : memref<4xf32>
    %s = arith.addf %acc, %one : f32
    memref.store %s, %c[%i] : memref<4xf32>
    func.call @touch(%c) : (memref<4xf32>) -> ()
  }
  return
}
