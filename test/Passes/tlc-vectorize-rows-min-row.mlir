// RUN: tlc-opt %s -tlc-vectorize-rows="vector-bits=512" | FileCheck %s --check-prefix=WHOLE
// RUN: tlc-opt %s -tlc-vectorize-rows="vector-bits=512 min-row=4" | FileCheck %s --check-prefix=SHORT

// Rows shorter than a vector (16 lanes here): by default an elementwise row must fill one
// whole vector, so a 7x7 image's padding copy stays a generic for convert-linalg-to-loops.
// With min-row=4 (what the CPU target sets with AVX-512's mask registers) a row of 7 is one
// masked load and store per row. Short rows of contiguous buffers (5x3) are first one row of
// all their elements (15): shorter than a vector, it stays a generic by default, and is one
// masked load and store with min-row=4 (as rows of 3 it stayed scalar code).
// WHOLE-LABEL: func.func @short_rows
// WHOLE-NOT: vector.
// WHOLE: linalg.generic
// WHOLE: memref.collapse_shape %{{.+}} {{\[\[}}0, 1]] : memref<5x3xf32> into memref<15xf32>
// WHOLE: linalg.generic
// WHOLE-SAME: outs(%{{.+}} : memref<15xf32>)
// WHOLE: return
// SHORT-LABEL: func.func @short_rows
// SHORT: scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step
// SHORT-NOT: vector.load
// SHORT: %[[SEVEN:.+]] = arith.constant 7 : index
// SHORT: %[[M:.+]] = vector.create_mask %[[SEVEN]] : vector<16xi1>
// SHORT: %[[V:.+]] = vector.maskedload %{{.+}}[%[[R]], %{{.+}}], %[[M]]
// SHORT: vector.maskedstore %{{.+}}[%[[R]], %{{.+}}], %[[M]], %[[V]]
// SHORT: %[[A:.+]] = memref.collapse_shape %arg2 {{\[\[}}0, 1]] : memref<5x3xf32> into memref<15xf32>
// SHORT: %[[B:.+]] = memref.collapse_shape %arg3 {{\[\[}}0, 1]] : memref<5x3xf32> into memref<15xf32>
// SHORT: %[[FIFTEEN:.+]] = arith.constant 15 : index
// SHORT: %[[M2:.+]] = vector.create_mask %[[FIFTEEN]] : vector<16xi1>
// SHORT: %[[V2:.+]] = vector.maskedload %[[A]][%{{.+}}], %[[M2]]
// SHORT: vector.maskedstore %[[B]][%{{.+}}], %[[M2]], %[[V2]]
// SHORT-NOT: linalg.generic
// SHORT: return
func.func @short_rows(%x: memref<7x7xf32>, %padded: memref<9x9xf32>, %a: memref<5x3xf32>,
                      %b: memref<5x3xf32>) {
  %interior = memref.subview %padded[1, 1] [7, 7] [1, 1]
      : memref<9x9xf32> to memref<7x7xf32, strided<[9, 1], offset: 10>>
  linalg.copy ins(%x : memref<7x7xf32>) outs(%interior : memref<7x7xf32, strided<[9, 1], offset: 10>>)
  linalg.copy ins(%a : memref<5x3xf32>) outs(%b : memref<5x3xf32>)
  return
}

// An optimizer's update of a convolution filter: rows of 3 (KW), a scalar (the learning rate),
// two outputs. It is one row of all 72 elements: whole vectors and a masked tail.
// WHOLE-LABEL: func.func @filter_update
// WHOLE-DAG: memref.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : memref<4x2x3x3xf32> into memref<72xf32>
// WHOLE-DAG: memref.collapse_shape %arg3 {{\[\[}}0, 1, 2, 3]] : memref<4x2x3x3xf32> into memref<72xf32>
// WHOLE: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} {
// WHOLE: vector.load %{{.+}} : memref<72xf32>, vector<16xf32>
// WHOLE: vector.store %{{.+}} : memref<72xf32>, vector<16xf32>
// WHOLE: vector.store %{{.+}} : memref<72xf32>, vector<16xf32>
// WHOLE: vector.maskedstore
// WHOLE-NOT: linalg.generic
// WHOLE: return
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
#scalar4 = affine_map<(a, b, c, d) -> ()>
func.func @filter_update(%w: memref<4x2x3x3xf32>, %g: memref<4x2x3x3xf32>, %lr: memref<f32>,
                         %next: memref<4x2x3x3xf32>, %step: memref<4x2x3x3xf32>) {
  linalg.generic {indexing_maps = [#id4, #id4, #scalar4, #id4, #id4],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w, %g, %lr : memref<4x2x3x3xf32>, memref<4x2x3x3xf32>, memref<f32>)
      outs(%next, %step : memref<4x2x3x3xf32>, memref<4x2x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32, %p: f32):
    %s = arith.mulf %b, %c : f32
    %r = arith.subf %a, %s : f32
    linalg.yield %r, %s : f32, f32
  }
  return
}
