// RUN: tlc-opt %s -split-input-file -tlc-lower-memref-copy | FileCheck %s

// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<4x8xf32>)
// CHECK-NEXT: linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32>)
// CHECK-NEXT: return
// CHECK-NOT: memref.copy
func.func @copy(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// Any layout (the reason for the pass: strided copies must not become a runtime call), rank 0,
// and copies nested in loops.
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<4x8xf32, strided<[16, 1], offset: 4>>, %[[S:.+]]: memref<f16>, %[[T:.+]]: memref<f16>)
// CHECK: linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%[[B]] : memref<4x8xf32, strided<[16, 1], offset: 4>>)
// CHECK: scf.for
// CHECK-NEXT: linalg.copy ins(%[[S]] : memref<f16>) outs(%[[T]] : memref<f16>)
// CHECK-NOT: memref.copy
func.func @layouts(%a: memref<4x8xf32>, %b: memref<4x8xf32, strided<[16, 1], offset: 4>>,
                   %s: memref<f16>, %t: memref<f16>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32, strided<[16, 1], offset: 4>>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c2 step %c1 {
    memref.copy %s, %t : memref<f16> to memref<f16>
  }
  return
}

// -----

// Negative: other memref ops and existing linalg.copy ops are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-SAME: (%[[A:.+]]: memref<4xf32>, %[[B:.+]]: memref<4xf32>)
// CHECK-NEXT: %[[C:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[V:.+]] = memref.load %[[A]][%[[C]]] : memref<4xf32>
// CHECK-NEXT: memref.store %[[V]], %[[B]][%[[C]]] : memref<4xf32>
// CHECK-NEXT: linalg.copy ins(%[[B]] : memref<4xf32>) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: return
func.func @untouched(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32>
  linalg.copy ins(%b : memref<4xf32>) outs(%a : memref<4xf32>)
  return
}

// -----

// A padded input: the whole buffer filled with the pad value, then the image copied into its
// interior. The fill then covers only the border: rows 0 and 9 of every channel (whole), and
// columns 0 and 9 of rows 1-8; the interior is written once, by the copy.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[X:.+]]: memref<1x3x8x8xf32>, %[[P:.+]]: memref<1x3x10x10xf32>)
// CHECK-NOT: outs(%[[P]] : memref<1x3x10x10xf32>)
// CHECK: %[[TOP:.+]] = memref.subview %[[P]][0, 0, 0, 0] [1, 3, 1, 10] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[TOP]]
// CHECK: %[[BOTTOM:.+]] = memref.subview %[[P]][0, 0, 9, 0] [1, 3, 1, 10] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[BOTTOM]]
// CHECK: %[[LEFT:.+]] = memref.subview %[[P]][0, 0, 1, 0] [1, 3, 8, 1] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[LEFT]]
// CHECK: %[[RIGHT:.+]] = memref.subview %[[P]][0, 0, 1, 9] [1, 3, 8, 1] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[RIGHT]]
// CHECK-NOT: linalg.fill
// CHECK: linalg.copy ins(%[[X]]
func.func @padded(%x: memref<1x3x8x8xf32>, %p: memref<1x3x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<1x3x10x10xf32>)
  %interior = memref.subview %p[0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1] : memref<1x3x10x10xf32> to memref<1x3x8x8xf32, strided<[300, 100, 10, 1], offset: 11>>
  memref.copy %x, %interior : memref<1x3x8x8xf32> to memref<1x3x8x8xf32, strided<[300, 100, 10, 1], offset: 11>>
  return
}

// -----

// Negative: a write between the fill and the copy (the fill's values may be read or
// overwritten in part), and a copy from the filled buffer itself: the fills stay whole.
// CHECK-LABEL: func.func @not_padded
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<10x10xf32>)
// CHECK: memref.store
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<10x10xf32>)
func.func @not_padded(%x: memref<8x8xf32>, %p: memref<10x10xf32>, %q: memref<10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  linalg.fill ins(%zero : f32) outs(%p : memref<10x10xf32>)
  memref.store %zero, %p[%c0, %c0] : memref<10x10xf32>
  %interior = memref.subview %p[1, 1] [8, 8] [1, 1] : memref<10x10xf32> to memref<8x8xf32, strided<[10, 1], offset: 11>>
  memref.copy %x, %interior : memref<8x8xf32> to memref<8x8xf32, strided<[10, 1], offset: 11>>
  linalg.fill ins(%zero : f32) outs(%q : memref<10x10xf32>)
  %head = memref.subview %q[0, 0] [8, 8] [1, 1] : memref<10x10xf32> to memref<8x8xf32, strided<[10, 1]>>
  %tail = memref.subview %q[2, 2] [8, 8] [1, 1] : memref<10x10xf32> to memref<8x8xf32, strided<[10, 1], offset: 22>>
  memref.copy %tail, %head : memref<8x8xf32, strided<[10, 1], offset: 22>> to memref<8x8xf32, strided<[10, 1]>>
  return
}

// -----

// An elementwise op that writes every element of the interior without reading it (a
// convolution's bias and ReLU written into the next one's padded input) completes the fill as
// a copy does: the fill covers only the border.
// CHECK-LABEL: func.func @written_interior
// CHECK-SAME: (%[[X:.+]]: memref<2x6xf32>, %[[P:.+]]: memref<4x8xf32>)
// CHECK-NOT: outs(%[[P]] : memref<4x8xf32>)
// CHECK-COUNT-4: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<{{.+}}, strided<[8, 1]{{.*}}>>)
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[X]]
func.func @written_interior(%x: memref<2x6xf32>, %p: memref<4x8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%ninf : f32) outs(%p : memref<4x8xf32>)
  %interior = memref.subview %p[1, 1] [2, 6] [1, 1] : memref<4x8xf32> to memref<2x6xf32, strided<[8, 1], offset: 9>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x6xf32>) outs(%interior : memref<2x6xf32, strided<[8, 1], offset: 9>>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Negative: an op that reads the interior it writes (an accumulation) leaves the fill whole.
// CHECK-LABEL: func.func @read_interior
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<4x8xf32>)
func.func @read_interior(%x: memref<2x6xf32>, %p: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<4x8xf32>)
  %interior = memref.subview %p[1, 1] [2, 6] [1, 1] : memref<4x8xf32> to memref<2x6xf32, strided<[8, 1], offset: 9>>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x6xf32>) outs(%interior : memref<2x6xf32, strided<[8, 1], offset: 9>>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A loop whose iterations each overwrite one row of the interior before accumulating into it
// (tlc-lower-convolutions' pointwise rows: a 1x1 convolution writing the next convolution's
// padded input row by row) completes the fill too: the fill covers only the border.
// CHECK-LABEL: func.func @rows_interior
// CHECK-SAME: (%[[X:.+]]: memref<3x2x6xf32>, %[[P:.+]]: memref<3x4x8xf32>)
// CHECK-NOT: outs(%[[P]] : memref<3x4x8xf32>)
// CHECK-COUNT-4: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<{{.+}}, strided<[32, 8, 1]{{.*}}>>)
// CHECK: scf.forall
// CHECK-NEXT: memref.subview
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.fill
// CHECK-SAME: memref<3x1x6xf32
func.func @rows_interior(%x: memref<3x2x6xf32>, %p: memref<3x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<3x4x8xf32>)
  %interior = memref.subview %p[0, 1, 1] [3, 2, 6] [1, 1, 1] : memref<3x4x8xf32> to memref<3x2x6xf32, strided<[32, 8, 1], offset: 9>>
  scf.forall (%i) in (2) {
    %xi = memref.subview %x[0, %i, 0] [3, 1, 6] [1, 1, 1] : memref<3x2x6xf32> to memref<3x1x6xf32, strided<[12, 6, 1], offset: ?>>
    %row = memref.subview %interior[0, %i, 0] [3, 1, 6] [1, 1, 1] : memref<3x2x6xf32, strided<[32, 8, 1], offset: 9>> to memref<3x1x6xf32, strided<[32, 8, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%row : memref<3x1x6xf32, strided<[32, 8, 1], offset: ?>>)
    linalg.generic {indexing_maps = [affine_map<(c, i, j) -> (c, i, j)>, affine_map<(c, i, j) -> (c, i, j)>],
                    iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%xi : memref<3x1x6xf32, strided<[12, 6, 1], offset: ?>>) outs(%row : memref<3x1x6xf32, strided<[32, 8, 1], offset: ?>>) {
    ^bb0(%in: f32, %out: f32):
      %r = arith.addf %in, %out : f32
      linalg.yield %r : f32
    }
  }
  return
}

// -----

// Negative: rows that do not cover the interior (a loop over one of its two rows), and a loop
// whose first writer accumulates into its row, leave the fills whole.
// CHECK-LABEL: func.func @rows_not_interior
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<3x4x8xf32>)
// CHECK: scf.forall
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<3x4x8xf32>)
// CHECK: scf.forall
func.func @rows_not_interior(%x: memref<3x2x6xf32>, %p: memref<3x4x8xf32>, %q: memref<3x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%p : memref<3x4x8xf32>)
  %interior = memref.subview %p[0, 1, 1] [3, 2, 6] [1, 1, 1] : memref<3x4x8xf32> to memref<3x2x6xf32, strided<[32, 8, 1], offset: 9>>
  scf.forall (%i) in (1) {
    %row = memref.subview %interior[0, %i, 0] [3, 1, 6] [1, 1, 1] : memref<3x2x6xf32, strided<[32, 8, 1], offset: 9>> to memref<3x1x6xf32, strided<[32, 8, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%row : memref<3x1x6xf32, strided<[32, 8, 1], offset: ?>>)
  }
  linalg.fill ins(%zero : f32) outs(%q : memref<3x4x8xf32>)
  %interior_q = memref.subview %q[0, 1, 1] [3, 2, 6] [1, 1, 1] : memref<3x4x8xf32> to memref<3x2x6xf32, strided<[32, 8, 1], offset: 9>>
  scf.forall (%i) in (2) {
    %xi = memref.subview %x[0, %i, 0] [3, 1, 6] [1, 1, 1] : memref<3x2x6xf32> to memref<3x1x6xf32, strided<[12, 6, 1], offset: ?>>
    %row = memref.subview %interior_q[0, %i, 0] [3, 1, 6] [1, 1, 1] : memref<3x2x6xf32, strided<[32, 8, 1], offset: 9>> to memref<3x1x6xf32, strided<[32, 8, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(c, i, j) -> (c, i, j)>, affine_map<(c, i, j) -> (c, i, j)>],
                    iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%xi : memref<3x1x6xf32, strided<[12, 6, 1], offset: ?>>) outs(%row : memref<3x1x6xf32, strided<[32, 8, 1], offset: ?>>) {
    ^bb0(%in: f32, %out: f32):
      %r = arith.addf %in, %out : f32
      linalg.yield %r : f32
    }
  }
  return
}
