// RUN: tlc-opt %s -split-input-file -tlc-bound-forall-replicas | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-bound-forall-replicas=max-slots=4 | FileCheck %s --check-prefix=FOUR

// 32 iterations that each allocate: 8 slots, each an scf.for over slot, slot + 8, ... < 32,
// with the body (alloc included) unchanged and indexed by the loop's induction variable.
// CHECK-LABEL: func.func @bounded
// CHECK: %[[N:.+]] = arith.constant 32 : index
// CHECK: scf.forall (%[[SLOT:.+]]) in (8) {
// CHECK-NEXT: %[[STEP:.+]] = arith.constant 8 : index
// CHECK-NEXT: scf.for %[[I:.+]] = %[[SLOT]] to %[[N]] step %[[STEP]] {
// CHECK-NEXT: %[[BUF:.+]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: memref.store %{{.+}}, %[[BUF]][%[[I]]]
// CHECK-NEXT: memref.load %[[BUF]][%[[I]]]
// CHECK-NEXT: memref.store %{{.+}}, %{{.+}}[%[[I]]]
// CHECK-NOT: scf.forall
// FOUR-LABEL: func.func @bounded
// FOUR: scf.forall (%{{.+}}) in (4) {
func.func @bounded(%out: memref<32xf32>, %x: f32) {
  scf.forall (%i) in (32) {
    %buf = memref.alloc() : memref<64xf32>
    memref.store %x, %buf[%i] : memref<64xf32>
    %v = memref.load %buf[%i] : memref<64xf32>
    memref.store %v, %out[%i] : memref<32xf32>
  }
  return
}

// -----

// Left alone: no allocation in the body, few iterations, several dimensions, shared outputs.
// CHECK-LABEL: func.func @untouched
// CHECK: scf.forall (%{{.+}}) in (32) {
// CHECK: scf.forall (%{{.+}}) in (4) {
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (16, 16) {
// CHECK: scf.forall (%{{.+}}) in (32) shared_outs
// CHECK-NOT: scf.for {{.+}} step
func.func @untouched(%out: memref<32xf32>, %x: f32, %t: tensor<32xf32>) -> tensor<32xf32> {
  scf.forall (%i) in (32) {
    memref.store %x, %out[%i] : memref<32xf32>
  }
  scf.forall (%i) in (4) {
    %buf = memref.alloc() : memref<64xf32>
    memref.store %x, %buf[%i] : memref<64xf32>
  }
  scf.forall (%i, %j) in (16, 16) {
    %buf = memref.alloc() : memref<64xf32>
    memref.store %x, %buf[%i] : memref<64xf32>
  }
  %r = scf.forall (%i) in (32) shared_outs(%o = %t) -> (tensor<32xf32>) {
    %buf = memref.alloc() : memref<64xf32>
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<32xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<32xf32>
    }
  }
  return %r : tensor<32xf32>
}
