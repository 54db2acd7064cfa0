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
