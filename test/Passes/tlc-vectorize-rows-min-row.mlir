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

// A squeeze-and-excite gate: [1, C, 14, 14] planes times a per-channel [1, C, 1, 1] value read
// through constant indices, on a chunk of channels as tlc-parallelize-loops cuts it. The gate
// is read through a rank-reducing view (its map loses the constant results) and each plane is
// one row of 196 elements (rows of 14 stayed scalar code: 8x slower in efficientnet_b0).
// WHOLE-LABEL: func.func @gate_planes
// WHOLE: %[[G:.+]] = memref.subview %arg1[0, 0, 0, 0] [1, 84, 1, 1] [1, 1, 1, 1] : memref<1x84x1x1xf32, strided<[672, 1, 1, 1], offset: ?>> to memref<1x84xf32, strided<[672, 1], offset: ?>>
// WHOLE-DAG: memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<1x84x14x14xf32, strided<[131712, 196, 14, 1], offset: ?>> into memref<1x84x196xf32, strided<[131712, 196, 1], offset: ?>>
// WHOLE: scf.for
// WHOLE: memref.load %[[G]]
// WHOLE: vector.load %{{.+}} : memref<1x84x196xf32, strided<[131712, 196, 1], offset: ?>>, vector<16xf32>
// WHOLE: arith.mulf %{{.+}}, %{{.+}} : vector<16xf32>
// WHOLE: vector.maskedstore
// WHOLE-NOT: linalg.generic
// WHOLE: return
// A plane operand that is not contiguous (a row stride of 16) keeps rows of 14.
// WHOLE-LABEL: func.func @gate_strided_planes
// WHOLE-NOT: collapse_shape
// WHOLE: return
#plane = affine_map<(a, b, c, d) -> (a, b, c, d)>
#gate = affine_map<(a, b, c, d) -> (a, b, 0, 0)>
func.func @gate_planes(%x: memref<1x84x14x14xf32, strided<[131712, 196, 14, 1], offset: ?>>,
                       %g: memref<1x84x1x1xf32, strided<[672, 1, 1, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#plane, #gate, #plane],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g : memref<1x84x14x14xf32, strided<[131712, 196, 14, 1], offset: ?>>,
                   memref<1x84x1x1xf32, strided<[672, 1, 1, 1], offset: ?>>)
      outs(%x : memref<1x84x14x14xf32, strided<[131712, 196, 14, 1], offset: ?>>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}
func.func @gate_strided_planes(%x: memref<1x84x14x14xf32, strided<[131712, 256, 16, 1]>>,
                               %g: memref<1x84x1x1xf32>, %y: memref<1x84x14x14xf32>) {
  linalg.generic {indexing_maps = [#plane, #gate, #plane],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %g : memref<1x84x14x14xf32, strided<[131712, 256, 16, 1]>>, memref<1x84x1x1xf32>)
      outs(%y : memref<1x84x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}
