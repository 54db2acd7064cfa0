// RUN: tlc-opt %s -split-input-file -tlc-outline-parallel-loops | FileCheck %s

// The loop becomes a call of the launch declaration with the trip count and the captured
// buffers; the body iterates [begin, end) of the normalized loop, constants rematerialized.
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[A:.+]]: memref<64x32xf32>, %[[B:.+]]: memref<64x32xf32>)
// CHECK-NOT: scf.parallel
// CHECK: %[[N:.+]] = arith.ceildivui
// CHECK: call @f_par_launch(%[[N]], %[[A]], %[[B]])
// CHECK: func.func private @f_par(%[[BEGIN:.+]]: index, %[[END:.+]]: index, %{{.+}}: memref<64x32xf32>, %{{.+}}: memref<64x32xf32>) attributes {tlc.parallel_body}
// CHECK: scf.for %[[I:.+]] = %[[BEGIN]] to %[[END]]
// CHECK: arith.muli %[[I]]
// CHECK: memref.copy
// CHECK: func.func private @f_par_launch(index, memref<64x32xf32>, memref<64x32xf32>) attributes {tlc.parallel_launch = @f_par}
func.func @f(%a: memref<64x32xf32>, %b: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c16) {
    %s = memref.subview %a[%i, 0] [16, 32] [1, 1] : memref<64x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    %t = memref.subview %b[%i, 0] [16, 32] [1, 1] : memref<64x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    memref.copy %s, %t : memref<16x32xf32, strided<[32, 1], offset: ?>> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    scf.reduce
  }
  return
}

// -----

// Captured views that are no bare pointers (a strided subview of a padded buffer, an
// expand_shape of it) are rebuilt in the body from the buffer they view, which is passed (an
// identity-layout view, like the output's expand_shape, is passed as it is).
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[P:.+]]: memref<4x10x10xf32>, %[[O:.+]]: memref<4x8x8xf32>)
// CHECK-NOT: scf.parallel
// CHECK: call @views_par_launch(%{{.+}}, %[[P]], %{{.+}}) : (index, memref<4x10x10xf32>, memref<2x2x8x8xf32>) -> ()
// CHECK: func.func private @views_par(%{{.+}}: index, %{{.+}}: index, %[[PB:.+]]: memref<4x10x10xf32>, %{{.+}}: memref<2x2x8x8xf32>)
// CHECK: %[[IN:.+]] = memref.subview %[[PB]][0, 1, 1] [4, 8, 8] [1, 1, 1]
// CHECK: %[[X:.+]] = memref.expand_shape %[[IN]] {{\[}}[0, 1], [2], [3]]
// CHECK: scf.for
// CHECK: memref.subview %[[X]]
func.func @views(%p: memref<4x10x10xf32>, %o: memref<4x8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %in = memref.subview %p[0, 1, 1] [4, 8, 8] [1, 1, 1] : memref<4x10x10xf32> to memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>>
  %x = memref.expand_shape %in [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : memref<4x8x8xf32, strided<[100, 10, 1], offset: 11>> into memref<2x2x8x8xf32, strided<[200, 100, 10, 1], offset: 11>>
  %y = memref.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : memref<4x8x8xf32> into memref<2x2x8x8xf32>
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %s = memref.subview %x[%i, 0, 0, 0] [1, 2, 8, 8] [1, 1, 1, 1] : memref<2x2x8x8xf32, strided<[200, 100, 10, 1], offset: 11>> to memref<2x8x8xf32, strided<[100, 10, 1], offset: ?>>
    %t = memref.subview %y[%i, 0, 0, 0] [1, 2, 8, 8] [1, 1, 1, 1] : memref<2x2x8x8xf32> to memref<2x8x8xf32, strided<[64, 8, 1], offset: ?>>
    memref.copy %s, %t : memref<2x8x8xf32, strided<[100, 10, 1], offset: ?>> to memref<2x8x8xf32, strided<[64, 8, 1], offset: ?>>
    scf.reduce
  }
  return
}

// -----

// A captured buffer with a strided layout cannot cross as a bare pointer: the loop stays
// serial. Nested parallel loops are never outlined on their own.
// CHECK-LABEL: func.func @stays
// CHECK: scf.parallel
// CHECK-NOT: call
// CHECK-NOT: func.func private
func.func @stays(%a: memref<64xf32, strided<[2]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %cst, %a[%i] : memref<64xf32, strided<[2]>>
    scf.reduce
  }
  return
}

// -----

// A statically sized stack buffer at the top of the body (a packed contraction panel) is
// allocated once per call in the outlined function's entry block, not once per iteration.
// CHECK-LABEL: func.func @scratch
// CHECK: call @scratch_par_launch
// CHECK: func.func private @scratch_par(%[[BEGIN:.+]]: index, %[[END:.+]]: index, %[[A:.+]]: memref<64x32xf32>)
// CHECK: %[[BUF:.+]] = memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// CHECK: scf.for %{{.+}} = %[[BEGIN]] to %[[END]]
// CHECK-NOT: memref.alloca
// CHECK: memref.copy %{{.+}}, %[[BUF]]
// CHECK: memref.copy %[[BUF]], %{{.+}}
// CHECK: return
func.func @scratch(%a: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c16) {
    %buf = memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
    %s = memref.subview %a[%i, 0] [16, 32] [1, 1] : memref<64x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    memref.copy %s, %buf : memref<16x32xf32, strided<[32, 1], offset: ?>> to memref<16x32xf32>
    memref.copy %buf, %s : memref<16x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    scf.reduce
  }
  return
}

// -----

// A loop that stays serial (a strided capture) allocates its stack buffer once, before it.
// CHECK-LABEL: func.func @scratch_serial
// CHECK: memref.alloca() : memref<16xf32>
// CHECK-NEXT: scf.parallel
// CHECK-NOT: memref.alloca
func.func @scratch_serial(%a: memref<64xf32, strided<[2]>>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c16) {
    %buf = memref.alloca() : memref<16xf32>
    %s = memref.subview %a[%i] [16] [1] : memref<64xf32, strided<[2]>> to memref<16xf32, strided<[2], offset: ?>>
    memref.copy %s, %buf : memref<16xf32, strided<[2], offset: ?>> to memref<16xf32>
    scf.reduce
  }
  return
}
