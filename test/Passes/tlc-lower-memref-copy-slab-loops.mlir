// RUN: tlc-opt %s -tlc-lower-memref-copy=slab-loops=true | FileCheck %s
// RUN: tlc-opt %s -tlc-lower-memref-copy | FileCheck %s --check-prefix=DEFAULT
// RUN: tlc-opt %s -tlc-lower-memref-copy=slab-loops=true -convert-linalg-to-loops -convert-scf-to-cf -convert-cf-to-llvm | FileCheck %s --check-prefix=LLVM

// slab-loops: a side of more than 16 rows (all dimensions but the innermost) is filled in an
// scf.for over its outermost dimension longer than one, which LLVM is told not to unroll; the
// sides of 16 rows or fewer stay one fill. A padded 32-channel 6x6 input: the top and bottom
// sides are 32 rows of 8 (a loop over the 32 channels), the left and right ones 32 x 6 rows of 1
// (a loop over the channels, each iteration filling 6 rows); a 2-channel input's sides (2 and
// 12 rows) stay fills.
// CHECK: #loop_unroll = #llvm.loop_unroll<disable = true>
// CHECK: #loop_annotation = #llvm.loop_annotation<unroll = #loop_unroll>
// CHECK-LABEL: func.func @many_channels
// CHECK: %[[TOP:.+]] = memref.subview %[[P:.+]][0, 0, 0, 0] [1, 32, 1, 8] [1, 1, 1, 1]
// CHECK: scf.for %[[C:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT: %[[ROW:.+]] = memref.subview %[[TOP]][0, %[[C]], 0, 0] [1, 1, 1, 8] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.+}} : f32) outs(%[[ROW]]
// CHECK-NEXT: } {loop_annotation = #loop_annotation}
// CHECK: memref.subview %[[P]][0, 0, 7, 0] [1, 32, 1, 8]
// CHECK: scf.for
// CHECK: memref.subview %[[P]][0, 0, 1, 0] [1, 32, 6, 1]
// CHECK: scf.for
// CHECK-NEXT: memref.subview %{{.+}}[0, %{{.+}}, 0, 0] [1, 1, 6, 1]
// CHECK: memref.subview %[[P]][0, 0, 1, 7] [1, 32, 6, 1]
// CHECK: scf.for
// CHECK: linalg.copy
// DEFAULT-LABEL: func.func @many_channels
// DEFAULT-NOT: scf.for
// DEFAULT: linalg.copy
// The annotation reaches the loops' back edges (llvm.br's loop_annotation, LLVM's !llvm.loop).
// LLVM-LABEL: func.func @many_channels
// LLVM-COUNT-4: llvm.br ^{{.+}} {loop_annotation = #loop_annotation}
// LLVM-LABEL: func.func @few_channels
// LLVM-NOT: loop_annotation
func.func @many_channels(%x: memref<1x32x6x6xf32>, %p: memref<1x32x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<1x32x8x8xf32>)
  %interior = memref.subview %p[0, 0, 1, 1] [1, 32, 6, 6] [1, 1, 1, 1] : memref<1x32x8x8xf32> to memref<1x32x6x6xf32, strided<[2048, 64, 8, 1], offset: 9>>
  memref.copy %x, %interior : memref<1x32x6x6xf32> to memref<1x32x6x6xf32, strided<[2048, 64, 8, 1], offset: 9>>
  return
}

// CHECK-LABEL: func.func @few_channels
// CHECK-NOT: scf.for
// CHECK-COUNT-4: linalg.fill
// CHECK-NOT: scf.for
// CHECK: linalg.copy
func.func @few_channels(%x: memref<1x2x6x6xf32>, %p: memref<1x2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<1x2x8x8xf32>)
  %interior = memref.subview %p[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  memref.copy %x, %interior : memref<1x2x6x6xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  return
}
