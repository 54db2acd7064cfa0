// RUN: tlc-opt %s -split-input-file -tlc-add-entry-point="model-name=m max-inline-checks=2" | FileCheck %s

// More buffers to check than max-inline-checks: their pointers go into a stack array, in
// argument order, and one loop ORs the NULL tests. The empty buffer and the scalar are skipped
// (not stored, not counted); a buffer of dynamic shape is checked.
// CHECK-LABEL: func.func @m_run
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>, %[[W:.+]]: memref<0xi8>, %[[Y:.+]]: memref<2x3xf16>, %[[N:.+]]: i64, %[[Z:.+]]: memref<?xf32>) -> i32
// CHECK-NEXT: %[[PTRS:.+]] = memref.alloca() : memref<3xindex>
// CHECK-NEXT: %[[PX:.+]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<4xf32> -> index
// CHECK-NEXT: %[[I0:.+]] = arith.constant 0 : index
// CHECK-NEXT: memref.store %[[PX]], %[[PTRS]][%[[I0]]] : memref<3xindex>
// CHECK-NEXT: %[[PY:.+]] = memref.extract_aligned_pointer_as_index %[[Y]] : memref<2x3xf16> -> index
// CHECK-NEXT: %[[I1:.+]] = arith.constant 1 : index
// CHECK-NEXT: memref.store %[[PY]], %[[PTRS]][%[[I1]]] : memref<3xindex>
// CHECK-NEXT: %[[PZ:.+]] = memref.extract_aligned_pointer_as_index %[[Z]] : memref<?xf32> -> index
// CHECK-NEXT: %[[I2:.+]] = arith.constant 2 : index
// CHECK-NEXT: memref.store %[[PZ]], %[[PTRS]][%[[I2]]] : memref<3xindex>
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[COUNT:.+]] = arith.constant 3 : index
// CHECK-NEXT: %[[FALSE:.+]] = arith.constant false
// CHECK-NEXT: %[[ANY:.+]] = scf.for %[[IV:.+]] = %[[ZERO]] to %[[COUNT]] step %[[ONE]] iter_args(%[[ACC:.+]] = %[[FALSE]]) -> (i1) {
// CHECK-NEXT: %[[P:.+]] = memref.load %[[PTRS]][%[[IV]]] : memref<3xindex>
// CHECK-NEXT: %[[ISNULL:.+]] = arith.cmpi eq, %[[P]], %[[ZERO]] : index
// CHECK-NEXT: %[[OR:.+]] = arith.ori %[[ACC]], %[[ISNULL]] : i1
// CHECK-NEXT: scf.yield %[[OR]] : i1
// CHECK-NEXT: }
// CHECK-NEXT: %[[STATUS:.+]] = scf.if %[[ANY]] -> (i32) {
// CHECK-NEXT: %[[BAD:.+]] = arith.constant 1 : i32
// CHECK-NEXT: scf.yield %[[BAD]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @m_impl(%[[X]], %[[W]], %[[Y]], %[[N]], %[[Z]])
// CHECK-NEXT: %[[OK:.+]] = arith.constant 0 : i32
// CHECK-NEXT: scf.yield %[[OK]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[STATUS]] : i32
func.func @m(%x: memref<4xf32>, %w: memref<0xi8>, %y: memref<2x3xf16>, %n: i64,
             %z: memref<?xf32>) {
  return
}

// -----

// Negative: as many buffers to check as max-inline-checks (the empty workspace does not count)
// keep the inline chain of NULL tests, with no array and no loop.
// CHECK-LABEL: func.func @m_run
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>, %[[Y:.+]]: memref<2x3xf16>, %[[W:.+]]: memref<0xi8>) -> i32
// CHECK-NOT: memref.alloca
// CHECK-NOT: scf.for
// CHECK: %[[FALSE:.+]] = arith.constant false
// CHECK-NEXT: %[[NULL:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[PX:.+]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<4xf32> -> index
// CHECK-NEXT: %[[ISX:.+]] = arith.cmpi eq, %[[PX]], %[[NULL]] : index
// CHECK-NEXT: %[[ANYX:.+]] = arith.ori %[[FALSE]], %[[ISX]] : i1
// CHECK-NEXT: %[[PY:.+]] = memref.extract_aligned_pointer_as_index %[[Y]] : memref<2x3xf16> -> index
// CHECK-NEXT: %[[ISY:.+]] = arith.cmpi eq, %[[PY]], %[[NULL]] : index
// CHECK-NEXT: %[[ANY:.+]] = arith.ori %[[ANYX]], %[[ISY]] : i1
// CHECK-NEXT: %[[STATUS:.+]] = scf.if %[[ANY]] -> (i32) {
// CHECK-NOT: scf.for
// CHECK: return %[[STATUS]] : i32
func.func @m(%x: memref<4xf32>, %y: memref<2x3xf16>, %w: memref<0xi8>) {
  return
}
