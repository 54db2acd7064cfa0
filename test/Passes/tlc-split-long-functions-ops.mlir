// RUN: tlc-opt %s -split-input-file -tlc-split-long-functions=max-ops=9 | FileCheck %s

// Three loops of five ops each (the loop, its load, multiply, store and yield): more than
// max-ops in all, so runs of about nine ops (two loops, then one) move into functions that
// neither MLIR (no_inline) nor LLVM (passthrough noinline) inlines.
// CHECK-LABEL: func.func private @big_bodies_chunk(%{{.+}}: memref<8xf32>)
// CHECK-SAME: attributes {no_inline, passthrough = ["noinline"]}
// CHECK-COUNT-2: scf.for
// CHECK-NOT: scf.for
// CHECK: return
// CHECK-LABEL: func.func private @big_bodies_chunk_0(%{{.+}}: memref<8xf32>)
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: return
// CHECK-LABEL: func.func @big_bodies
// CHECK-NOT: scf.for
// CHECK: call @big_bodies_chunk(
// CHECK-NEXT: call @big_bodies_chunk_0(
// CHECK-NEXT: return
func.func @big_bodies(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %a[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %a[%i] : memref<8xf32>
  }
  return
}

// -----

// One loop of five ops and its four constants (nine ops): not more than max-ops, unchanged.
// CHECK-LABEL: func.func @small
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-NOT: _chunk
func.func @small(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %a[%i] : memref<8xf32>
  }
  return
}
