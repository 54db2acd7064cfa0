// RUN: tlc-opt %s -tlc-vectorize-rows="vector-bits=512" | FileCheck %s --check-prefix=WHOLE
// RUN: tlc-opt %s -tlc-vectorize-rows="vector-bits=512 min-row=4" | FileCheck %s --check-prefix=SHORT

// Rows shorter than a vector (16 lanes here): by default an elementwise row must fill one
// whole vector, so a 7x7 image's padding copy stays a generic for convert-linalg-to-loops.
// With min-row=4 (what the CPU target sets with AVX-512's mask registers) a row of 7 is one
// masked load and store per row; a row of 3 is still shorter than that and stays scalar.
// WHOLE-LABEL: func.func @short_rows
// WHOLE-NOT: vector.
// WHOLE: linalg.generic
// WHOLE: linalg.generic
// WHOLE: return
// SHORT-LABEL: func.func @short_rows
// SHORT: scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step
// SHORT-NOT: vector.load
// SHORT: %[[SEVEN:.+]] = arith.constant 7 : index
// SHORT: %[[M:.+]] = vector.create_mask %[[SEVEN]] : vector<16xi1>
// SHORT: %[[V:.+]] = vector.maskedload %{{.+}}[%[[R]], %{{.+}}], %[[M]]
// SHORT: vector.maskedstore %{{.+}}[%[[R]], %{{.+}}], %[[M]], %[[V]]
// SHORT: linalg.generic
// SHORT-SAME: outs(%{{.+}} : memref<5x3xf32>)
// SHORT: return
func.func @short_rows(%x: memref<7x7xf32>, %padded: memref<9x9xf32>, %a: memref<5x3xf32>,
                      %b: memref<5x3xf32>) {
  %interior = memref.subview %padded[1, 1] [7, 7] [1, 1]
      : memref<9x9xf32> to memref<7x7xf32, strided<[9, 1], offset: 10>>
  linalg.copy ins(%x : memref<7x7xf32>) outs(%interior : memref<7x7xf32, strided<[9, 1], offset: 10>>)
  linalg.copy ins(%a : memref<5x3xf32>) outs(%b : memref<5x3xf32>)
  return
}
