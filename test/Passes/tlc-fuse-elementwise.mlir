// RUN: tlc-opt %s -split-input-file -tlc-fuse-elementwise -mlir-print-local-scope | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>

// A chain add -> tanh: one generic, located at both source ops, with the group recorded.
// CHECK-LABEL: func.func @chain
// CHECK: %[[R:.+]] = linalg.generic {{.+}} attrs = {tlc.fusion_group = {kind = "elementwise", ops = [loc("{{.+}}":{{[0-9]+}}:8), loc("{{.+}}":{{[0-9]+}}:8)], reason = "elementwise chain (addf, tanh) in one loop nest: each producer's only use is the next op"}}
// CHECK: arith.addf
// CHECK: math.tanh
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Negative: an elementwise producer of a contraction operand stays apart: the contraction
// reads each element of it once per output column (fused, tanh would run 16 times per element
// and the contraction would lose its multiply-add body).
// CHECK-LABEL: func.func @into_contraction
// CHECK: %[[T:.+]] = linalg.generic
// CHECK: math.tanh
// CHECK: linalg.generic {{.+}} ins(%[[T]], %{{.+}} : tensor<4x8xf32>, tensor<8x16xf32>)
// CHECK-NOT: math.tanh
// CHECK-NOT: tlc.fusion_group
func.func @into_contraction(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %mm : tensor<4x16xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Negative: the producer has two consumers; fused into one, the other would still read it
// from memory or compute it again.
// CHECK-LABEL: func.func @two_uses
// CHECK: math.tanh
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: math.log
// CHECK-NOT: tlc.fusion_group
func.func @two_uses(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.log %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %u, %v : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// A producer whose other uses are returns (an optimizer's next moments, which the param's
// update also reads) fuses into its consumer as a second result: one loop nest reads the
// inputs once and writes both values. The chain goes on through the two-result op.
// CHECK-LABEL: func.func @returned_alongside
// CHECK: %[[R:.+]]:3 = linalg.generic
// CHECK-SAME: reason = "elementwise chain ({{.+}}) in one loop nest: the producer's value is also a result, written by the same loop nest"
// CHECK-DAG: math.tanh
// CHECK-DAG: math.exp
// CHECK: arith.addf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#{{[0-9]}}, %[[R]]#{{[0-9]}}, %[[R]]#{{[0-9]}}
func.func @returned_alongside(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %u : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %s, %t, %u : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// Negative: returned, but read by a reduction (a row sum): its result has other loops.
// CHECK-LABEL: func.func @returned_into_reduction
// CHECK: math.tanh
// CHECK: linalg.generic
// CHECK-SAME: "reduction"
func.func @returned_into_reduction(%a: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %z = tensor.empty() : tensor<4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<4x8xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s, %t : tensor<4xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A producer feeding a row reduction is fused into it: the reduction reads each element once
// (one pass over the data).
// CHECK-LABEL: func.func @into_reduction
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} {{.+}} attrs = {tlc.fusion_group = {kind = "elementwise"
// CHECK: math.exp
// CHECK: arith.addf
func.func @into_reduction(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%t : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A collapsed operand of a contraction stays collapsed: expanding the contraction across it
// would split its one summed dimension (8 x 16 rows, merged by tl-layout-constant-operands)
// back into two, which the contraction generator runs about 2x slower.
// CHECK-LABEL: func.func @no_expansion_into_contraction
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<8x16x32xf32> into tensor<128x32xf32>
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: tensor.expand_shape
func.func @no_expansion_into_contraction(%g: tensor<8x16x32xf32>, %xt: tensor<64x128xf32>,
                                          %init: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c = tensor.collapse_shape %g [[0, 1], [2]] : tensor<8x16x32xf32> into tensor<128x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d, c, k) -> (d, k)>, affine_map<(d, c, k) -> (k, c)>, affine_map<(d, c, k) -> (d, c)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xt, %c : tensor<64x128xf32>, tensor<128x32xf32>) outs(%init : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// -----

// Nor is an integer contraction (tl.quantized_conv2d's im2col product, filters x taps x pixels)
// expanded across the reshape of its int32 result into an image: its columns, the 49 pixels,
// would become 7 rows of 7, narrower than a register tile of 32 columns. The reshape stays
// between the contraction and its epilogue.
// CHECK-LABEL: func.func @no_expansion_out_of_integer_contraction
// CHECK: %[[ACC:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: outs(%{{.+}} : tensor<16x49xi32>)
// CHECK: tensor.expand_shape %[[ACC]] {{\[}}[0], [1, 2]] {{.*}} : tensor<16x49xi32> into tensor<16x7x7xi32>
func.func @no_expansion_out_of_integer_contraction(%w: tensor<16x72xi8>, %cols: tensor<72x49xi8>,
                                                   %scale: tensor<16x7x7xf32>) -> tensor<16x7x7xf32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x49xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<16x49xi32>) -> tensor<16x49xi32>
  %acc = linalg.generic {indexing_maps = [affine_map<(f, p, k) -> (f, k)>, affine_map<(f, p, k) -> (k, p)>, affine_map<(f, p, k) -> (f, p)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%w, %cols : tensor<16x72xi8>, tensor<72x49xi8>) outs(%init : tensor<16x49xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %a32 = arith.extsi %a : i8 to i32
    %b32 = arith.extui %b : i8 to i32
    %m = arith.muli %a32, %b32 : i32
    %r = arith.addi %s, %m : i32
    linalg.yield %r : i32
  } -> tensor<16x49xi32>
  %img = tensor.expand_shape %acc [[0], [1, 2]] output_shape [16, 7, 7] : tensor<16x49xi32> into tensor<16x7x7xi32>
  %out = tensor.empty() : tensor<16x7x7xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(f, h, w) -> (f, h, w)>, affine_map<(f, h, w) -> (f, h, w)>, affine_map<(f, h, w) -> (f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%img, %scale : tensor<16x7x7xi32>, tensor<16x7x7xf32>) outs(%out : tensor<16x7x7xf32>) {
  ^bb0(%i: i32, %s: f32, %o: f32):
    %f = arith.sitofp %i : i32 to f32
    %m = arith.mulf %f, %s : f32
    linalg.yield %m : f32
  } -> tensor<16x7x7xf32>
  return %y : tensor<16x7x7xf32>
}
