// RUN: tlc-opt %s -split-input-file -tlc-share-entry-allocas | FileCheck %s

// Three stack buffers at the function's top level: %a (4096 bytes) lives from the first op to
// the last, %b (2048) only in the second, %c (1024) from the third to the last (through a
// subview of %a). Largest first, at the lowest offset clear of the buffers live at the same
// time: %a at 0, %b at 4096, %c also at 4096 (%b is dead by then): one 6144-byte buffer.
// CHECK-LABEL: func.func @three
// CHECK: %[[F:.+]] = memref.alloca() {alignment = 64 : i64} : memref<6144xi8>
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[A:.+]] = memref.view %[[F]][%[[C0]]][] : memref<6144xi8> to memref<1024xf32>
// CHECK-DAG: %[[C4096:.+]] = arith.constant 4096 : index
// CHECK-DAG: %[[B:.+]] = memref.view %[[F]][%[[C4096]]][] : memref<6144xi8> to memref<512xf32>
// CHECK-DAG: %[[C:.+]] = memref.view %[[F]][%{{.+}}][] : memref<6144xi8> to memref<256xf32>
// CHECK-NOT: memref.alloca
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[A]] : memref<1024xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[B]] : memref<512xf32>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[C]] : memref<256xf32>)
func.func @three(%out: memref<512xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloca() {alignment = 64 : i64} : memref<1024xf32>
  %b = memref.alloca() {alignment = 64 : i64} : memref<512xf32>
  %c = memref.alloca() {alignment = 64 : i64} : memref<256xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<1024xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<512xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<256xf32>)
  %sub = memref.subview %a[0] [256] [1] : memref<1024xf32> to memref<256xf32, strided<[1]>>
  memref.copy %c, %sub : memref<256xf32> to memref<256xf32, strided<[1]>>
  return
}

// -----

// One buffer: nothing to share.
// CHECK-LABEL: func.func @one
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<64xf32>
// CHECK-NOT: memref.view
func.func @one() {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloca() {alignment = 64 : i64} : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  return
}
