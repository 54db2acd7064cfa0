// RUN: tlc-opt %s -split-input-file -tlc-tile-depthwise="vector-bits=512 straight-line-steps=0" -canonicalize | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-depthwise="vector-bits=512 straight-line-steps=0" -canonicalize -tlc-vectorize -canonicalize | FileCheck %s --check-prefix=REGS

// A depthwise convolution as tlc-view-window-operands leaves it (the input a strided view of
// [n, c, kh, oh, kw, ow]): no dimension of the weights and the output is missing from the
// input, so it has no m dimension. Each 56-column output row is one tile: threads take the
// channels, the row is read and written as a 64-lane vector (8 lanes masked off) around the
// two tap loops, and the zero fill of the whole output becomes a masked splat write of each
// row before them.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: linalg.fill
// CHECK: scf.parallel (%[[C:.+]]) =
// CHECK: scf.for %[[OH:.+]] =
// CHECK: %[[ROW:.+]] = memref.subview %{{.+}}[0, %[[C]], %[[OH]], 0] [1, 1, 1, 56]
// CHECK: %[[MASK:.+]] = vector.constant_mask [56] : vector<64xi1>
// CHECK: vector.transfer_write %{{.+}}, %[[ROW]]{{.+}}, %[[MASK]] {in_bounds = [true]} : vector<64xf32>
// CHECK: scf.for %[[KH:.+]] =
// CHECK: scf.for %[[KW:.+]] =
// CHECK: %[[IN:.+]] = vector.transfer_read {{.+}}, %[[MASK]] {in_bounds = [true]} : memref<1x1x1x1x1x56xf32, {{.+}}>, vector<64xf32>
// CHECK: %[[W:.+]] = memref.load
// CHECK: %[[WV:.+]] = vector.broadcast %[[W]] : f32 to vector<64xf32>
// CHECK: %[[ACC:.+]] = vector.transfer_read %[[ROW]]{{.+}}, %[[MASK]] {in_bounds = [true]}
// CHECK: %[[P:.+]] = arith.mulf %[[IN]], %[[WV]] fastmath<contract> : vector<64xf32>
// CHECK: %[[S:.+]] = arith.addf %[[ACC]], %[[P]] fastmath<reassoc,contract> : vector<64xf32>
// CHECK: vector.transfer_write %[[S]], %[[ROW]]{{.+}}, %[[MASK]] {in_bounds = [true]}
// After tlc-vectorize the row stays in registers across both tap loops, starting from zero:
// one masked write per row.
// REGS-LABEL: func.func @depthwise
// REGS: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<64xf32>
// REGS-NOT: vector.transfer_write
// REGS: scf.for %{{.+}} iter_args(%[[A:.+]] = %[[ZERO]]) -> (vector<64xf32>)
// REGS: scf.for %{{.+}} iter_args(%{{.+}} = %[[A]]) -> (vector<64xf32>)
// REGS-NOT: vector.transfer_write
// REGS: scf.yield
// REGS: scf.yield
// REGS: vector.transfer_write
// REGS-NEXT: {{^ +}}}{{$}}
// REGS-NEXT: scf.reduce
func.func @depthwise(%in: memref<1x32x3x56x3x56xf32, strided<[3364, 3364, 58, 58, 1, 1]>>,
                     %w: memref<32x3x3xf32>, %out: memref<1x32x56x56xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x32x56x56xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x32x3x56x3x56xf32, strided<[3364, 3364, 58, 58, 1, 1]>>, memref<32x3x3xf32>)
      outs(%out : memref<1x32x56x56xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %acc, %p fastmath<reassoc,contract> : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 67 columns: no divisor between one vector (16) and 64, so a tile of 64 and a peeled last
// one of 3 (a 4-lane vector, one lane masked). The output is not filled right before: each row
// tile accumulates onto what it holds.
// CHECK-LABEL: func.func @peeled
// CHECK: vector.transfer_read {{.+}} : memref<1x1x1x1x1x64xf32, {{.+}}>, vector<64xf32>
// CHECK: vector.transfer_write {{.+}} : vector<64xf32>, memref<1x1x1x64xf32, {{.+}}>
// CHECK: memref.subview %{{.+}}[0, %{{.+}}, %{{.+}}, 64] [1, 1, 1, 3]
// CHECK: %[[MASK:.+]] = vector.constant_mask [3] : vector<4xi1>
// CHECK: vector.transfer_read {{.+}}, %[[MASK]] {in_bounds = [true]} : memref<1x1x1x1x1x3xf32, {{.+}}>, vector<4xf32>
func.func @peeled(%in: memref<1x4x3x67x3x67xf32, strided<[4761, 4761, 69, 69, 1, 1]>>,
                  %w: memref<4x3x3xf32>, %out: memref<1x4x67x67xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x4x3x67x3x67xf32, strided<[4761, 4761, 69, 69, 1, 1]>>, memref<4x3x3xf32>)
      outs(%out : memref<1x4x67x67xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A stride-2 depthwise convolution as tlc-view-window-operands leaves it: the input view's
// innermost dimension is the column tap (stride 1) and the output column reads it at stride
// 2. Each row is read as one contiguous span (2 * 8 - 1 = 15 elements, a 16-lane vector with
// the last lane out of bounds) and every other lane kept. A matmul (m and n dimensions:
// tlc-tile-contractions') is left alone.
// CHECK-LABEL: func.func @strided_rows
// CHECK: memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [15], strides: [1]
// CHECK: %[[WIDE:.+]] = vector.transfer_read {{.+}} : memref<?xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK: vector.shuffle %[[WIDE]], %[[WIDE]] [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK: linalg.matmul
func.func @strided_rows(%in: memref<1x8x8x3x8x3xf32, strided<[2592, 324, 36, 18, 2, 1]>>,
                        %w: memref<8x3x3xf32>, %out: memref<1x8x8x8xf32>,
                        %a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, kh, ow, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x8x8x3x8x3xf32, strided<[2592, 324, 36, 18, 2, 1]>>, memref<8x3x3xf32>)
      outs(%out : memref<1x8x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  return
}

// -----

// A max pool (3x3, stride 2) as tlc-view-window-operands leaves it: a reduction of its input
// window, the window-shape operand unused. It takes the same row tiles, its combiner on vectors:
// the -inf fill is each row's splat write, each tap's input row read as one span with every
// other lane kept, the maximum taken in the row. A reduction that uses its second input's
// values and is not a multiply-add is left alone.
// CHECK-LABEL: func.func @max_pool_rows
// CHECK: %[[LOWEST:.+]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK: scf.parallel
// CHECK: vector.transfer_write %[[LOWEST]]
// CHECK: %[[WIDE:.+]] = vector.transfer_read {{.+}} : memref<?xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK: %[[IN:.+]] = vector.shuffle %[[WIDE]], %[[WIDE]] [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK: %[[ACC:.+]] = vector.transfer_read
// CHECK: %[[MAX:.+]] = arith.maximumf %[[ACC]], %[[IN]] : vector<8xf32>
// CHECK: vector.transfer_write %[[MAX]]
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: vector.
func.func @max_pool_rows(%in: memref<1x8x8x3x8x3xf32, strided<[2312, 289, 34, 17, 2, 1]>>,
                         %window: memref<3x3xf32>, %out: memref<1x8x8x8xf32>,
                         %other: memref<1x8x8x8xf32>) {
  %lowest = arith.constant 0xFF800000 : f32
  linalg.fill ins(%lowest : f32) outs(%out : memref<1x8x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, kh, ow, kw)>,
                                   affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>,
                                   affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %window : memref<1x8x8x3x8x3xf32, strided<[2312, 289, 34, 17, 2, 1]>>, memref<3x3xf32>)
      outs(%out : memref<1x8x8x8xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, kh, ow, kw)>,
                                   affine_map<(n, c, oh, ow, kh, kw) -> (kh, kw)>,
                                   affine_map<(n, c, oh, ow, kh, kw) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %window : memref<1x8x8x3x8x3xf32, strided<[2312, 289, 34, 17, 2, 1]>>, memref<3x3xf32>)
      outs(%other : memref<1x8x8x8xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %s = arith.addf %x, %w : f32
    %m = arith.maximumf %acc, %s : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Negative: rows read at stride 4 (above kMaxRowStride) are left to loops.
// CHECK-LABEL: func.func @stride4_rows
// CHECK-NOT: vector.transfer_read
// CHECK: linalg.generic
func.func @stride4_rows(%in: memref<1x8x3x8x3x8xf32, strided<[1152, 1152, 36, 144, 1, 4]>>,
                        %w: memref<8x3x3xf32>, %out: memref<1x8x8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x8x3x8x3x8xf32, strided<[1152, 1152, 36, 144, 1, 4]>>, memref<8x3x3xf32>)
      outs(%out : memref<1x8x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Negative: the output's contiguous dimension e is a batch dimension, indexed by both inputs
// (`bce,ec->be`), so the weights vary along the row and cannot be broadcast along it (they
// were: every lane read the weight of the row's first e).
// CHECK-LABEL: func.func @row_is_batch
// CHECK-NOT: vector.transfer_read
// CHECK: linalg.generic
func.func @row_is_batch(%a: memref<2x3x6xf32>, %w: memref<6x3xf32>, %out: memref<2x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, c, e) -> (b, c, e)>,
                                   affine_map<(b, c, e) -> (e, c)>,
                                   affine_map<(b, c, e) -> (b, e)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %w : memref<2x3x6xf32>, memref<6x3xf32>) outs(%out : memref<2x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The bias + ReLU6 epilogue right after it, in place on the output: it runs on each finished
// row after the tap loops (the row read back, the bias loaded once per row and broadcast,
// the clamp bounds broadcast) and the separate pass over the output is gone. After
// tlc-vectorize the row is written once, with the epilogue applied.
// CHECK-LABEL: func.func @epilogue_in_place
// CHECK: scf.for %[[OH:.+]] =
// CHECK: %[[ROW:.+]] = memref.subview %{{.+}}[0, %[[C:[^,]+]], %[[OH]], 0] [1, 1, 1, 24]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.transfer_write
// CHECK: }
// CHECK: }
// CHECK: %[[ACC:.+]] = vector.transfer_read %[[ROW]]
// CHECK: %[[B:.+]] = memref.load %{{.+}}[%[[C]]] : memref<16xf32>
// CHECK: %[[BV:.+]] = vector.broadcast %[[B]] : f32 to vector<32xf32>
// CHECK: %[[S:.+]] = arith.addf %[[ACC]], %[[BV]] : vector<32xf32>
// CHECK: arith.maximumf %[[S]]
// CHECK: %[[Y:.+]] = arith.minimumf
// CHECK: vector.transfer_write %[[Y]], %[[ROW]]
// CHECK-NOT: linalg.generic
// REGS-LABEL: func.func @epilogue_in_place
// REGS: scf.for {{.+}} -> (vector<32xf32>)
// REGS: arith.minimumf
// REGS-NEXT: vector.transfer_write
// REGS-NOT: vector.transfer_write
// REGS: scf.reduce
func.func @epilogue_in_place(%in: memref<1x16x3x24x3x24xf32, strided<[16384, 676, 26, 26, 1, 1]>>,
                             %w: memref<16x3x3xf32>, %bias: memref<16xf32>, %out: memref<1x16x24x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x16x24x24xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x16x3x24x3x24xf32, strided<[16384, 676, 26, 26, 1, 1]>>, memref<16x3x3xf32>)
      outs(%out : memref<1x16x24x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %bias : memref<1x16x24x24xf32>, memref<16xf32>) outs(%out : memref<1x16x24x24xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  return
}

// -----

// An epilogue writing another buffer and reading a second row operand (a residual): the
// finished row is still written to the convolution's output, and the epilogue's row goes
// to its own output at the row's position, the residual read there.
// CHECK-LABEL: func.func @epilogue_elsewhere
// CHECK: %[[ROW:.+]] = memref.subview %{{.+}}[0, %[[C:[^,]+]], %[[OH:[^,]+]], 0] [1, 1, 1, 24]
// CHECK: vector.transfer_write %{{.+}}, %[[ROW]]
// CHECK: %[[ACC:.+]] = vector.transfer_read %[[ROW]]
// CHECK: %[[R:.+]] = vector.transfer_read %{{.+}}[%{{.+}}, %[[C]], %[[OH]], %{{.+}}], %{{.+}}, %{{.+}} {in_bounds = [true]} : memref<1x16x24x24xf32>, vector<32xf32>
// CHECK: %[[S:.+]] = arith.addf %[[ACC]], %[[R]] : vector<32xf32>
// CHECK: vector.transfer_write %[[S]], %{{.+}}[%{{.+}}, %[[C]], %[[OH]], %{{.+}}], %{{.+}} {in_bounds = [true]} : vector<32xf32>, memref<1x16x24x24xf32>
// CHECK-NOT: linalg.generic
func.func @epilogue_elsewhere(%in: memref<1x16x3x24x3x24xf32, strided<[16384, 676, 26, 26, 1, 1]>>,
                              %w: memref<16x3x3xf32>, %res: memref<1x16x24x24xf32>,
                              %out: memref<1x16x24x24xf32>, %y: memref<1x16x24x24xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x16x3x24x3x24xf32, strided<[16384, 676, 26, 26, 1, 1]>>, memref<16x3x3xf32>)
      outs(%out : memref<1x16x24x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %res : memref<1x16x24x24xf32>, memref<1x16x24x24xf32>) outs(%y : memref<1x16x24x24xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Negative: the elementwise op after it reads the output transposed (not on the same row):
// it stays a pass of its own.
// CHECK-LABEL: func.func @epilogue_transposed
// CHECK: vector.transfer_write
// CHECK: linalg.generic
func.func @epilogue_transposed(%in: memref<1x16x3x24x3x24xf32, strided<[16384, 676, 26, 26, 1, 1]>>,
                               %w: memref<16x3x3xf32>, %out: memref<1x16x24x24xf32>, %y: memref<1x16x24x24xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, oh, kh, kw, ow) -> (n, c, kh, oh, kw, ow)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (c, kh, kw)>,
                                   affine_map<(n, c, oh, kh, kw, ow) -> (n, c, oh, ow)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<1x16x3x24x3x24xf32, strided<[16384, 676, 26, 26, 1, 1]>>, memref<16x3x3xf32>)
      outs(%out : memref<1x16x24x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, w, h)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out : memref<1x16x24x24xf32>) outs(%y : memref<1x16x24x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
