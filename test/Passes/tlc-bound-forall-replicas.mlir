// RUN: tlc-opt %s -split-input-file -tlc-bound-forall-replicas | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-bound-forall-replicas=max-slots=4 | FileCheck %s --check-prefix=FOUR

// 32 iterations that each allocate: 8 slots, each an scf.for over its contiguous chunk
// [slot * 4, slot * 4 + 4), with the body (alloc included) unchanged and indexed by the
// loop's induction variable.
// CHECK-DAG: #[[LB32:.+]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG: #[[UB32:.+]] = affine_map<(d0) -> (d0 * 4 + 4)>
// CHECK-LABEL: func.func @bounded
// CHECK: scf.forall (%[[SLOT:.+]]) in (8) {
// CHECK-NEXT: %[[LB:.+]] = affine.apply #[[LB32]](%[[SLOT]])
// CHECK-NEXT: %[[UB:.+]] = affine.apply #[[UB32]](%[[SLOT]])
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT: scf.for %[[I:.+]] = %[[LB]] to %[[UB]] step %[[ONE]] {
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

// 14 iterations (a convolution's row tiles) over 8 slots: chunks of floor((s + 1) * 14 / 8) -
// floor(s * 14 / 8) = 1, 2, 2, 2, 1, 2, 2, 2 iterations, so slots 0-3 and 4-7 (what two
// threads take) run 7 each.
// CHECK-DAG: #[[LB14:.+]] = affine_map<(d0) -> ((d0 * 7) floordiv 4)>
// CHECK-DAG: #[[UB14:.+]] = affine_map<(d0) -> ((d0 * 7 + 7) floordiv 4)>
// CHECK-LABEL: func.func @uneven
// CHECK: scf.forall (%[[SLOT:.+]]) in (8) {
// CHECK-NEXT: %[[LB:.+]] = affine.apply #[[LB14]](%[[SLOT]])
// CHECK-NEXT: %[[UB:.+]] = affine.apply #[[UB14]](%[[SLOT]])
// CHECK: scf.for %{{.+}} = %[[LB]] to %[[UB]] step
func.func @uneven(%out: memref<14xf32>, %x: f32) {
  scf.forall (%i) in (14) {
    %buf = memref.alloc() : memref<64xf32>
    memref.store %x, %buf[%i] : memref<64xf32>
    %v = memref.load %buf[%i] : memref<64xf32>
    memref.store %v, %out[%i] : memref<14xf32>
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
