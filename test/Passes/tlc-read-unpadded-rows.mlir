// RUN: tlc-opt %s -split-input-file -tlc-read-unpadded-rows | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-read-unpadded-rows -tlc-view-window-operands -tlc-tile-depthwise="vector-bits=512 straight-line-steps=0" | FileCheck %s --check-prefix=ROWS
// RUN: tlc-opt %s -split-input-file -tlc-read-unpadded-rows -tlc-view-window-operands -tlc-tile-depthwise="vector-bits=512 vectors=1 straight-line-steps=0" -canonicalize | FileCheck %s --check-prefix=UNROLL

// A depthwise convolution over a padded copy of %src, its output in %src's storage (as
// bufferization leaves it once the copy is %src's last read): the output and every later use
// move to an alloc of their own, %src joins as a third input read by no block argument, and
// the op records the padding.
// CHECK-DAG: #[[PADMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d3, d4 + d5)>
// CHECK-DAG: #[[SOURCE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, 0, 0)>
// CHECK-LABEL: func.func @depthwise_padded
// CHECK: %[[SRC:.+]] = memref.alloc() {{.*}} : memref<1x4x14x14xf32>
// CHECK: memref.copy %[[SRC]], %{{.+}} : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
// CHECK-NEXT: %[[OUT:.+]] = memref.alloc() {{.*}} : memref<1x4x14x14xf32>
// CHECK-NEXT: linalg.fill ins(%{{.+}} : f32) outs(%[[OUT]] : memref<1x4x14x14xf32>)
// CHECK-NEXT: linalg.generic
// CHECK-SAME: #[[SOURCE]]
// CHECK-SAME: ins(%{{.+}}, %{{.+}}, %[[SRC]] : memref<1x4x16x16xf32>, memref<4x3x3xf32>, memref<1x4x14x14xf32>)
// CHECK-SAME: outs(%[[OUT]] : memref<1x4x14x14xf32>)
// CHECK-SAME: tlc.padded_source = {low = array<i64: 0, 0, 1, 1>, map = #[[PADMAP]], source = 2 : i64, value = 0.000000e+00 : f32}
// CHECK: ^bb0(%[[IN:.+]]: f32, %[[W:.+]]: f32, %{{.+}}: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: arith.mulf %[[IN]], %[[W]]
// CHECK: memref.copy %[[OUT]], %arg1
// The rows read the source through masked loads (the padding lanes off), and the padded
// copy's fill and copy are gone.
// ROWS-LABEL: func.func @depthwise_padded
// ROWS-NOT: memref.copy %{{.+}}, %{{.+}} : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided
// ROWS-NOT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<1x4x16x16xf32>)
// ROWS: vector.maskedload %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}], %{{.+}}, %{{.+}} : memref<1x4x14x14xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// ROWS: arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<16xf32>
#rows = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh + kh, kw + ow)>
#taps = affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>
#out = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>
func.func @depthwise_padded(%x: memref<1x4x14x14xf32>, %y: memref<1x4x14x14xf32>,
                            %w: memref<4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %src = memref.alloc() {alignment = 64 : i64} : memref<1x4x14x14xf32>
  memref.copy %x, %src : memref<1x4x14x14xf32> to memref<1x4x14x14xf32>
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x4x16x16xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1]
      : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %src, %interior
      : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  linalg.fill ins(%zero : f32) outs(%src : memref<1x4x14x14xf32>)
  linalg.generic {indexing_maps = [#rows, #taps, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction",
                                    "parallel"]}
      ins(%padded, %w : memref<1x4x16x16xf32>, memref<4x3x3xf32>)
      outs(%src : memref<1x4x14x14xf32>) {
  ^bb0(%in: f32, %tap: f32, %acc: f32):
    %p = arith.mulf %in, %tap : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.copy %src, %y : memref<1x4x14x14xf32> to memref<1x4x14x14xf32>
  return
}

// -----

// The padded copy is also read by another op: left alone.
// CHECK-LABEL: func.func @padded_read_twice
// CHECK-NOT: tlc.padded_source
// CHECK: return
#rows = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh + kh, kw + ow)>
#taps = affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>
#out = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>
func.func @padded_read_twice(%x: memref<1x4x14x14xf32>, %y: memref<1x4x14x14xf32>,
                             %w: memref<4x3x3xf32>, %z: memref<1x4x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x4x16x16xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x4x16x16xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 14, 14] [1, 1, 1, 1]
      : memref<1x4x16x16xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  memref.copy %x, %interior
      : memref<1x4x14x14xf32> to memref<1x4x14x14xf32, strided<[1024, 256, 16, 1], offset: 17>>
  linalg.generic {indexing_maps = [#rows, #taps, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction",
                                    "parallel"]}
      ins(%padded, %w : memref<1x4x16x16xf32>, memref<4x3x3xf32>)
      outs(%y : memref<1x4x14x14xf32>) {
  ^bb0(%in: f32, %tap: f32, %acc: f32):
    %p = arith.mulf %in, %tap : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.copy %padded, %z : memref<1x4x16x16xf32> to memref<1x4x16x16xf32>
  return
}

// -----

// Rows of two tiles (16 lanes each, vectors=1): the loop over a row's tiles is unrolled, so
// each tile reads its source columns from a constant offset (here kw - 1 and kw + 15), from
// which its masks follow without a loop index.
// UNROLL-DAG: #[[FIRST:.+]] = affine_map<(d0) -> (d0 - 1)>
// UNROLL-DAG: #[[SECOND:.+]] = affine_map<(d0) -> (d0 + 15)>
// UNROLL-LABEL: func.func @two_row_tiles
// UNROLL-NOT: step %c16
// UNROLL: memref.subview %arg1[0, %{{.+}}, %{{.+}}, 0] [1, 1, 1, 16]
// UNROLL: scf.for %{{.+}} = %c0 to %c3
// UNROLL: scf.for %[[KW:.+]] = %c0 to %c3
// UNROLL: %[[X0:.+]] = affine.apply #[[FIRST]](%[[KW]])
// UNROLL: vector.maskedload %arg0[%c0, %{{.+}}, %{{.+}}, %[[X0]]]
// UNROLL: memref.subview %arg1[0, %{{.+}}, %{{.+}}, 16] [1, 1, 1, 16]
// UNROLL: scf.for %{{.+}} = %c0 to %c3
// UNROLL: scf.for %[[KW2:.+]] = %c0 to %c3
// UNROLL: %[[X1:.+]] = affine.apply #[[SECOND]](%[[KW2]])
// UNROLL: vector.maskedload %arg0[%c0, %{{.+}}, %{{.+}}, %[[X1]]]
// UNROLL-NOT: vector.maskedload
#rows = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh + kh, kw + ow)>
#taps = affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>
#out = affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>
func.func @two_row_tiles(%x: memref<1x4x14x32xf32>, %y: memref<1x4x14x32xf32>,
                         %w: memref<4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() {alignment = 64 : i64} : memref<1x4x16x34xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x4x16x34xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 14, 32] [1, 1, 1, 1]
      : memref<1x4x16x34xf32> to memref<1x4x14x32xf32, strided<[2176, 544, 34, 1], offset: 35>>
  memref.copy %x, %interior
      : memref<1x4x14x32xf32> to memref<1x4x14x32xf32, strided<[2176, 544, 34, 1], offset: 35>>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x14x32xf32>)
  linalg.generic {indexing_maps = [#rows, #taps, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction",
                                    "parallel"]}
      ins(%padded, %w : memref<1x4x16x34xf32>, memref<4x3x3xf32>)
      outs(%y : memref<1x4x14x32xf32>) {
  ^bb0(%in: f32, %tap: f32, %acc: f32):
    %p = arith.mulf %in, %tap : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
