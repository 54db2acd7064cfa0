// RUN: tlc-opt %s -split-input-file -tlc-split-long-functions=max-loops=2 | FileCheck %s

// Three loops, at most two per function: runs of two and one loops move into no_inline
// functions; the constants they use are cloned into them, the memrefs passed.
// CHECK-LABEL: func.func private @three_loops_chunk(%{{.+}}: memref<8xf32>, %{{.+}}: memref<8xf32>)
// CHECK-SAME: no_inline
// CHECK: arith.constant
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: return
// CHECK-LABEL: func.func private @three_loops_chunk_0(%{{.+}}: memref<8xf32>, %{{.+}}: memref<8xf32>)
// CHECK-SAME: no_inline
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: return
// CHECK-LABEL: func.func @three_loops
// CHECK-SAME: (%[[A:.+]]: memref<8xf32>, %[[B:.+]]: memref<8xf32>)
// CHECK-NOT: scf.for
// CHECK: call @three_loops_chunk(%[[A]], %[[B]])
// CHECK-NEXT: call @three_loops_chunk_0(%[[B]], %[[A]])
// CHECK-NEXT: return
func.func @three_loops(%a: memref<8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %b[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %b[%i] : memref<8xf32>
    memref.store %v, %a[%i] : memref<8xf32>
  }
  return
}

// -----

// Two loops: not more than max-loops, unchanged.
// CHECK-LABEL: func.func @two_loops
// CHECK-NOT: call
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: _chunk
func.func @two_loops(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %a[%i] : memref<8xf32>
  }
  return
}

// -----

// A value read before the loops and used after them (a memory effect, so not cloned) keeps
// every cut closed: the whole body is one run.
// CHECK-LABEL: func.func private @crossing_chunk
// CHECK: memref.load
// CHECK-COUNT-3: scf.for
// CHECK: memref.store
// CHECK-LABEL: func.func @crossing
// CHECK-NOT: scf.for
// CHECK: call @crossing_chunk
// CHECK-NEXT: return
func.func @crossing(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %first = memref.load %a[%c0] : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %first, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %first, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %first, %a[%i] : memref<8xf32>
  }
  memref.store %first, %a[%c1] : memref<8xf32>
  return
}

// -----

// A capture that cannot cross as a bare pointer (a dynamically sized buffer) keeps its runs
// where they are.
// CHECK-LABEL: func.func @dynamic_capture
// CHECK-NOT: call
// CHECK-COUNT-3: scf.for
// CHECK-NOT: _chunk
func.func @dynamic_capture(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %buf = memref.alloca(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %buf[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %buf[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %buf[%i] : memref<?xf32>
  }
  return
}
