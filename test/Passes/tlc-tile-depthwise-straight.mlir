// RUN: tlc-opt %s -split-input-file -tlc-read-unpadded-rows -tlc-view-window-operands -tlc-tile-depthwise="vector-bits=512 registers=32" -canonicalize -cse | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-depthwise="vector-bits=512 registers=32 straight-line-steps=62" -canonicalize | FileCheck %s --check-prefix=LOOPS

// Straight-line tiles: a depthwise convolution over 7x7 pixels (one 8-lane vector per row)
// with 9 taps is one tile per channel of all 7 rows (7 accumulators, at most half of the 32
// registers), every tap unrolled with constant indices: no loop inside the channels', the
// output's zero fill a constant the accumulators start from (the fill erased, the output
// never read), the epilogue (bias, ReLU) on each finished row, each row written once.
// CHECK-LABEL: func.func @seven_rows
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.parallel (%[[C:.+]]) =
// CHECK-NOT: scf.for
// CHECK: %[[OUT:.+]] = memref.subview %{{.+}}[0, %[[C]], 0, 0] [1, 1, 7, 7]
// CHECK-NOT: vector.transfer_read %[[OUT]]
// CHECK-COUNT-63: arith.mulf {{.+}} : vector<8xf32>
// CHECK-NOT: arith.mulf
// CHECK-COUNT-7: arith.maximumf %{{.+}}, %[[ZERO]] : vector<8xf32>
// CHECK: vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0, %c0, %c0]
// CHECK: vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0, %c1, %c0]
// CHECK: vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0, %c6, %c0]
// CHECK-NOT: vector.transfer_write
// CHECK: scf.reduce
// With fewer steps allowed (7 rows x 9 taps = 63), the same op keeps its rows and tap loops.
// LOOPS-LABEL: func.func @seven_rows
// LOOPS: scf.parallel
// LOOPS: scf.for
// LOOPS: scf.for
// LOOPS: scf.for
func.func @seven_rows(%in: memref<1x8x3x7x3x7xf32, strided<[648, 81, 9, 9, 1, 1]>>,
                      %w: memref<8x3x3xf32>, %bias: memref<8xf32>, %out: memref<1x8x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x8x7x7xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x8x3x7x3x7xf32, strided<[648, 81, 9, 9, 1, 1]>>, memref<8x3x3xf32>)
      outs(%out : memref<1x8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %bias : memref<1x8x7x7xf32>, memref<8xf32>) outs(%out : memref<1x8x7x7xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A depthwise convolution reading its unpadded source (tlc-read-unpadded-rows): with every
// row and tap known, a tap row above or below the source folds to the padding (no select),
// and the rows the taps of several output rows share are read once: 7 source rows x 3
// column offsets = 21 masked loads for 63 multiply-adds. The padded copy and the output's
// fill are gone.
// CHECK-LABEL: func.func @padded_rows
// CHECK-NOT: linalg.fill
// CHECK: scf.parallel
// CHECK-NOT: arith.select
// CHECK-COUNT-21: vector.maskedload
// CHECK-NOT: vector.maskedload
// CHECK-NOT: arith.select
// CHECK: scf.reduce
#rows = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh + kh, kw + ow)>
#taps = affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>
#out = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>
func.func @padded_rows(%x: memref<1x4x7x7xf32>, %y: memref<1x4x7x7xf32>,
                       %w: memref<4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %src = memref.alloc() {alignment = 64 : i64} : memref<1x4x7x7xf32>
  memref.copy %x, %src : memref<1x4x7x7xf32> to memref<1x4x7x7xf32>
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x4x9x9xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x4x9x9xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 7, 7] [1, 1, 1, 1]
      : memref<1x4x9x9xf32> to memref<1x4x7x7xf32, strided<[324, 81, 9, 1], offset: 10>>
  memref.copy %src, %interior
      : memref<1x4x7x7xf32> to memref<1x4x7x7xf32, strided<[324, 81, 9, 1], offset: 10>>
  linalg.fill ins(%zero : f32) outs(%src : memref<1x4x7x7xf32>)
  linalg.generic {indexing_maps = [#rows, #taps, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction",
                                    "parallel"]}
      ins(%padded, %w : memref<1x4x9x9xf32>, memref<4x3x3xf32>)
      outs(%src : memref<1x4x7x7xf32>) {
  ^bb0(%in: f32, %tap: f32, %acc: f32):
    %p = arith.mulf %in, %tap : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.copy %src, %y : memref<1x4x7x7xf32> to memref<1x4x7x7xf32>
  return
}

// -----

// 28 rows of 28 columns (two vectors each): tiles of 7 rows (14 accumulators), a loop over
// the 4 row tiles inside each channel.
// CHECK-LABEL: func.func @row_tiles
// CHECK: scf.parallel (%[[C:.+]]) =
// CHECK: scf.for %[[OH:.+]] = %c0 to %c28 step %c7
// CHECK: %[[OUT:.+]] = memref.subview %{{.+}}[0, %[[C]], %[[OH]], 0] [1, 1, 7, 28]
// CHECK-NOT: scf.for
// CHECK-COUNT-63: arith.mulf {{.+}} : vector<32xf32>
// CHECK-NOT: arith.mulf
// CHECK: vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0, %c0, %c0]
// CHECK: vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0, %c6, %c0]
// CHECK-NOT: vector.transfer_write
func.func @row_tiles(%in: memref<1x2x3x28x3x28xf32, strided<[1800, 900, 30, 30, 1, 1]>>,
                     %w: memref<2x3x3xf32>, %out: memref<1x2x28x28xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x2x28x28xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x2x3x28x3x28xf32, strided<[1800, 900, 30, 30, 1, 1]>>, memref<2x3x3xf32>)
      outs(%out : memref<1x2x28x28xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
