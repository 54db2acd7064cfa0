// RUN: tlc-opt %s -split-input-file -tlc-lower-memref-copy | FileCheck %s

// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<4x8xf32>)
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NEXT: return
// CHECK-NOT: memref.copy
func.func @copy(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// Any layout (the reason for the pass: strided copies must not become a runtime call), rank 0,
// and copies nested in loops.
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<4x8xf32, strided<[16, 1], offset: 4>>, %[[S:.+]]: memref<f16>, %[[T:.+]]: memref<f16>)
// CHECK: linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32, strided<[16, 1], offset: 4>>)
// CHECK: scf.for
// CHECK-NEXT: linalg.copy ins(%[[S]] : memref<f16>) outs(%[[T]] : memref<f16>)
// CHECK-NOT: memref.copy
func.func @layouts(%a: memref<4x8xf32>, %b: memref<4x8xf32, strided<[16, 1], offset: 4>>,
                   %s: memref<f16>, %t: memref<f16>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32, strided<[16, 1], offset: 4>>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    memref.copy %s, %t : memref<f16> to memref<f16>
  }
  return
}

// -----

// Negative: other memref ops and existing linalg.copy ops are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-SAME: (%[[A:.+]]: memref<4xf32>, %[[B:.+]]: memref<4xf32>)
// CHECK-NEXT: %[[C:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[V:.+]] = memref.load %[[A]][%[[C]]] : memref<4xf32>
// CHECK-NEXT: memref.store %[[V]], %[[B]][%[[C]]] : memref<4xf32>
// CHECK-NEXT: linalg.copy ins(%[[B]] : memref<4xf32>) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: return
func.func @untouched(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32>
  linalg.copy ins(%b : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
