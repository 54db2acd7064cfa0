// RUN: tlc-opt %s -split-input-file -tlc-alias-state-outputs -verify-diagnostics | FileCheck %s

#id = affine_map<(i) -> (i)>

// The fused update (an optimizer's p' = p - lr * g) reads p element for element and writes
// p' last: p' may be p's memory as it is.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT: tl.updates
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.+}} ins(%arg0, %arg1 : memref<64xf32>, memref<64xf32>) outs(%arg2 : memref<64xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @in_place(%p: memref<64xf32>, %g: memref<64xf32>,
                    %next: memref<64xf32> {tl.updates = 0 : i64}) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %g : memref<64xf32>, memref<64xf32>) outs(%next : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>

// Bufferization computed the gradient into the output's memory, then updated it there: that
// scratch use moves to a buffer of its own, the update still writes the output directly.
// CHECK-LABEL: func.func @scratch
// CHECK: %[[S:.+]] = memref.alloc() : memref<64xf32>
// CHECK: linalg.fill {{.+}} outs(%[[S]] : memref<64xf32>)
// CHECK: linalg.generic {{.+}} ins(%arg1 : memref<64xf32>) outs(%[[S]] : memref<64xf32>)
// CHECK: linalg.generic {{.+}} ins(%arg0, %[[S]] : memref<64xf32>, memref<64xf32>) outs(%arg2 : memref<64xf32>)
// CHECK-NOT: memref.copy
func.func @scratch(%p: memref<64xf32>, %x: memref<64xf32>,
                   %next: memref<64xf32> {tl.updates = 0 : i64}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%next : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<64xf32>) outs(%next : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %next : memref<64xf32>, memref<64xf32>) outs(%next : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>

// p is read after its update is written (here: a second output): written over p, that read
// would see p'. The update goes to a buffer of its own, copied over the output last; the copy
// is marked so that tlc-plan-workspace does not forward it away.
// CHECK-LABEL: func.func @read_after
// CHECK: %[[A:.+]] = memref.alloc() : memref<64xf32>
// CHECK: linalg.generic {{.+}} outs(%[[A]] : memref<64xf32>)
// CHECK: linalg.generic {{.+}} ins(%arg0 : memref<64xf32>) outs(%arg3 : memref<64xf32>)
// CHECK: memref.copy %[[A]], %arg2 {tlc.copy_last}
// CHECK-NEXT: return
func.func @read_after(%p: memref<64xf32>, %g: memref<64xf32>,
                      %next: memref<64xf32> {tl.updates = 0 : i64}, %twice: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %g : memref<64xf32>, memref<64xf32>) outs(%next : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%p : memref<64xf32>) outs(%twice : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#x = affine_map<(i, j, k) -> (k, i)>
#y = affine_map<(i, j, k) -> (k, j)>
#p = affine_map<(i, j, k) -> (i, j)>

// The update is a contraction's epilogue (SGD's p - lr * x^T dy): a k-blocked contraction
// stores partial sums in its output between blocks, before it has read all of p. Aside.
// CHECK-LABEL: func.func @contraction
// CHECK: %[[A:.+]] = memref.alloc() : memref<8x8xf32>
// CHECK: linalg.generic {{.+}} outs(%[[A]] : memref<8x8xf32>)
// CHECK: memref.copy %[[A]], %arg3 {tlc.copy_last}
func.func @contraction(%w: memref<8x8xf32>, %x: memref<4x8xf32>, %dy: memref<4x8xf32>,
                       %next: memref<8x8xf32> {tl.updates = 0 : i64}) {
  linalg.generic {indexing_maps = [#x, #y, #p, #p], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dy, %w : memref<4x8xf32>, memref<4x8xf32>, memref<8x8xf32>) outs(%next : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.subf %c, %m : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>
#rev = affine_map<(i) -> (63 - i)>

// p read in another order than p' is written (element 63 - i after element i was written).
// CHECK-LABEL: func.func @other_order
// CHECK: memref.alloc() : memref<64xf32>
// CHECK: memref.copy {{.+}}, %arg2 {tlc.copy_last}
func.func @other_order(%p: memref<64xf32>, %g: memref<64xf32>,
                       %next: memref<64xf32> {tl.updates = 0 : i64}) {
  linalg.generic {indexing_maps = [#rev, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %g : memref<64xf32>, memref<64xf32>) outs(%next : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#id = affine_map<(i) -> (i)>

// The op just before the update reads p: tlc-tile-depthwise could run the update as that
// kernel's row epilogue. Aside.
// CHECK-LABEL: func.func @read_just_before
// CHECK: memref.alloc() : memref<64xf32>
// CHECK: memref.copy {{.+}}, %arg2 {tlc.copy_last}
func.func @read_just_before(%p: memref<64xf32>, %g: memref<64xf32>,
                            %next: memref<64xf32> {tl.updates = 0 : i64}, %sq: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%p : memref<64xf32>) outs(%sq : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %g : memref<64xf32>, memref<64xf32>) outs(%next : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A state the step leaves as it is: copied only when the caller passed two buffers.
// CHECK-LABEL: func.func @unchanged
// CHECK: %[[I:.+]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[O:.+]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[NE:.+]] = arith.cmpi ne, %[[I]], %[[O]]
// CHECK: scf.if %[[NE]] {
// CHECK-NEXT: memref.copy %arg0, %arg1
func.func @unchanged(%p: memref<64xf32>, %next: memref<64xf32> {tl.updates = 0 : i64}) {
  memref.copy %p, %next : memref<64xf32> to memref<64xf32>
  return
}

// -----

// expected-error @below {{'tl.updates' of argument 1 names no argument of its type}}
func.func @bad_index(%p: memref<64xf32>, %next: memref<32xf32> {tl.updates = 0 : i64}) {
  return
}
