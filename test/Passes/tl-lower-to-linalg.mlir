// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg -mlir-print-local-scope -allow-unregistered-dialect | FileCheck %s

// Affine maps are printed inline (-mlir-print-local-scope) so each case checks its own maps.

// Broadcasting: a missing leading axis drops the dimension from the map, a size-1 axis against
// a larger extent reads index 0.
// CHECK-LABEL: func.func @elementwise_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>, %[[C:.+]]: tensor<4x1xf32>)
// CHECK: %[[E0:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[ADD:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) outs(%[[E0]] : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[MUL:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[ADD]], %[[C]] : tensor<4x8xf32>, tensor<4x1xf32>)
// CHECK: arith.mulf
// CHECK: return %[[MUL]]
// CHECK-NOT: tl.
func.func @elementwise_broadcast(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = tl.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = tl.mul %0, %c : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// Both operands broadcast: 4x1 against 1x8; a size-1 axis that stays size 1 keeps its dimension.
// CHECK-LABEL: func.func @elementwise_outer_broadcast
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK: arith.subi
func.func @elementwise_outer_broadcast(%a: tensor<1x4x1xi32>, %b: tensor<1x8xi32>) -> tensor<1x4x8xi32> {
  %0 = tl.sub %a, %b : tensor<1x4x1xi32>, tensor<1x8xi32> -> tensor<1x4x8xi32>
  return %0 : tensor<1x4x8xi32>
}

// -----

// Unary ops through their scalar bodies; gelu in both forms (erf as h + h erf(x / sqrt 2) with
// h = 0.5 x, tanh as x / (1 + exp2(t)),
// t = -2u log2(e) = x (c0 + c1 x^2) with c0 = -2 sqrt(2/pi) log2(e) and c1 = 0.044715 c0
// folded).
// CHECK-LABEL: func.func @unary
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.+}}, %[[ZERO]] : f32
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[XE:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[H:.+]] = arith.mulf %[[HALF]], %[[XE]] : f32
// CHECK: %[[RSQRT2:.+]] = arith.constant 0.707106769 : f32
// CHECK: %[[XS:.+]] = arith.mulf %[[XE]], %[[RSQRT2]] : f32
// CHECK: %[[ERF:.+]] = math.erf %[[XS]] : f32
// CHECK: %[[HE:.+]] = arith.mulf %[[H]], %[[ERF]] : f32
// CHECK: %[[GE:.+]] = arith.addf %[[H]], %[[HE]] : f32
// CHECK-NOT: math.tanh
// CHECK: linalg.yield %[[GE]]
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NOT: math.tanh
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[C0:.+]] = arith.constant -2.30220819 : f32
// CHECK-DAG: %[[C1:.+]] = arith.constant -0.102943242 : f32
// CHECK-DAG: %[[X2:.+]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK: %[[T:.+]] = arith.mulf %[[C1]], %[[X2]] : f32
// CHECK: %[[P:.+]] = arith.addf %[[C0]], %[[T]] : f32
// CHECK: %[[ARG:.+]] = arith.mulf %[[X]], %[[P]] : f32
// CHECK: %[[E:.+]] = math.exp2 %[[ARG]] : f32
// CHECK: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK: %[[Y:.+]] = arith.divf %[[X]], %[[D]] : f32
// CHECK-NOT: math.erf
// CHECK: linalg.yield %[[Y]]
func.func @unary(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = tl.exp %x : tensor<4xf32>
  %1 = tl.relu %x : tensor<4xf32>
  %2 = tl.gelu %x : tensor<4xf32>
  %3 = tl.gelu %x approximate = tanh : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @einsum_matmul
// CHECK-SAME: (%[[A:.+]]: tensor<3x4xf32>, %[[B:.+]]: tensor<4x5xf32>)
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<3x5xf32>
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<3x5xf32>)
// CHECK: %[[MM:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<3x4xf32>, tensor<4x5xf32>) outs(%[[FILL]] : tensor<3x5xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: return %[[MM]]
func.func @einsum_matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = tl.einsum "ij,jk->ik" %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// The operand holding the result's innermost label (b: x^T g as "ab,ac->cb") goes second in
// the generic, where linalg's contraction matching takes the n (vectorized) loops from.
// CHECK-LABEL: func.func @einsum_result_inner_label_second
// CHECK-SAME: (%[[G:.+]]: tensor<4x5xf32>, %[[X:.+]]: tensor<4x3xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
// CHECK-SAME: ins(%[[X]], %[[G]] : tensor<4x3xf32>, tensor<4x5xf32>)
func.func @einsum_result_inner_label_second(%g: tensor<4x5xf32>, %x: tensor<4x3xf32>) -> tensor<3x5xf32> {
  %0 = tl.einsum "ab,ac->cb" %g, %x : (tensor<4x5xf32>, tensor<4x3xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Integer contraction: identity 0 : i32, muli/addi. Implicit output "ij,kj" is "ik".
// CHECK-LABEL: func.func @einsum_implicit_int
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : i32)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%[[FILL]] : tensor<2x2xi32>)
// CHECK: arith.muli
// CHECK: arith.addi
func.func @einsum_implicit_int(%a: tensor<2x3xi32>) -> tensor<2x2xi32> {
  %0 = tl.einsum "ij,kj" %a, %a : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// A diagonal needs no reduction (no fill, all parallel); a trace reduces to rank 0.
// CHECK-LABEL: func.func @einsum_diagonal
// CHECK-SAME: (%[[M:.+]]: tensor<4x4xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[DIAG:.+]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME: ins(%[[M]] : tensor<4x4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[FILL:.+]] = linalg.fill
// CHECK: %[[TRACE:.+]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
// CHECK-SAME: outs(%[[FILL]] : tensor<f32>)
// CHECK: arith.addf
// CHECK: return %[[DIAG]], %[[TRACE]]
func.func @einsum_diagonal(%m: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %0 = tl.einsum "ii->i" %m : (tensor<4x4xf32>) -> tensor<4xf32>
  %1 = tl.einsum "ii" %m : (tensor<4x4xf32>) -> tensor<f32>
  return %0, %1 : tensor<4xf32>, tensor<f32>
}

// -----

// '...' broadcasts right-aligned: A's size-1 ellipsis axis reads index 0, B's missing leading
// ellipsis axis is dropped; the summed label is the last loop.
// CHECK-LABEL: func.func @einsum_ellipsis
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) outs(%{{.+}} : tensor<2x5x3x6xf32>)
func.func @einsum_ellipsis(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32> {
  %0 = tl.einsum "...ij,...jk->...ik" %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  return %0 : tensor<2x5x3x6xf32>
}

// -----

// Three operands: the body multiplies all of them before accumulating.
// CHECK-LABEL: func.func @einsum_three_operands
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-NEXT: ^bb0(%[[X:.+]]: f64, %[[Y:.+]]: f64, %[[Z:.+]]: f64, %[[ACC:.+]]: f64):
// CHECK-NEXT: %[[XY:.+]] = arith.mulf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[XYZ:.+]] = arith.mulf %[[XY]], %[[Z]] : f64
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[XYZ]] : f64
// CHECK-NEXT: linalg.yield %[[S]] : f64
func.func @einsum_three_operands(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>, %c: tensor<4x5xf64>) -> tensor<2x5xf64> {
  %0 = tl.einsum "ij,jk,kl->il" %a, %b, %c : (tensor<2x3xf64>, tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<2x5xf64>
  return %0 : tensor<2x5xf64>
}

// -----

// keepdims: reduce to 4, then expand_shape to 4x1. sum's finalizer is the identity.
// CHECK-LABEL: func.func @reduce_sum_keepdims
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[RED:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<4x8xf32>) outs(%[[FILL]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK: %[[FIN:.+]] = linalg.generic {{.*}} ins(%[[RED]] : tensor<4xf32>)
// CHECK: %[[KEEP:.+]] = tensor.expand_shape %[[FIN]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK: return %[[KEEP]]
func.func @reduce_sum_keepdims(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = tl.reduce_sum %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// Without keepdims there is no reshape; mean divides by the number of reduced elements.
// CHECK-LABEL: func.func @reduce_mean
// CHECK: %[[RED:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: arith.addf
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[RED]] : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[N:.+]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: %[[D:.+]] = arith.divf %[[IN]], %[[N]] : f32
// CHECK-NEXT: linalg.yield %[[D]]
// CHECK-NOT: tensor.expand_shape
// CHECK: return %[[MEAN]]
func.func @reduce_mean(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = tl.reduce_mean %x axes = [0] : tensor<4x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Trailing reduced axes (a global average pool's H and W) are one row: the input collapsed to
// [N, C, H * W], reduced along its last axis, divided by H * W, expanded back for keepdims.
// Axes that are not all trailing keep their own loops.
// CHECK-LABEL: func.func @reduce_trailing_axes
// CHECK-SAME: (%[[X:.+]]: tensor<1x32x14x14xf32>)
// CHECK: %[[RED:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.+}} : tensor<1x32x196xf32>)
// CHECK: arith.constant 1.960000e+02 : f32
// CHECK: tensor.expand_shape {{.+}} output_shape [1, 32, 1, 1]
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<1x32x14x14xf32>)
func.func @reduce_trailing_axes(%x: tensor<1x32x14x14xf32>) -> (tensor<1x32x1x1xf32>, tensor<1x14xf32>) {
  %0 = tl.reduce_mean %x axes = [2, 3] keepdims : tensor<1x32x14x14xf32> -> tensor<1x32x1x1xf32>
  %1 = tl.reduce_sum %x axes = [1, 3] : tensor<1x32x14x14xf32> -> tensor<1x14xf32>
  return %0, %1 : tensor<1x32x1x1xf32>, tensor<1x14xf32>
}

// -----

// max/min start from the lowest/highest value of the element type.
// CHECK-LABEL: func.func @reduce_max_min
// CHECK: %[[LOW:.+]] = arith.constant -2147483648 : i32
// CHECK: linalg.fill ins(%[[LOW]] : i32)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maxsi
// CHECK: %[[INF:.+]] = arith.constant 0x7C00 : f16
// CHECK: linalg.fill ins(%[[INF]] : f16) outs(%{{.+}} : tensor<f16>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %{{.+}} [] output_shape [1, 1] : tensor<f16> into tensor<1x1xf16>
func.func @reduce_max_min(%i: tensor<4x8xi32>, %h: tensor<2x3xf16>) -> (tensor<4xi32>, tensor<1x1xf16>) {
  %0 = tl.reduce_max %i axes = [-1] : tensor<4x8xi32> -> tensor<4xi32>
  %1 = tl.reduce_min %h axes = [0, 1] keepdims : tensor<2x3xf16> -> tensor<1x1xf16>
  return %0, %1 : tensor<4xi32>, tensor<1x1xf16>
}

// -----

// A large full reduction (2^16 elements: 256 x 256 in, mean out) in two levels: the input
// viewed as 16 rows of 4096, each row reduced (independent rows, for threads), then the 16
// partial sums, then the mean's division by the whole count. Below 2^16 elements (the
// second result, 255 x 257) or over only some axes (the third), one reduction.
// CHECK-LABEL: func.func @reduce_split
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [16, 4096] : tensor<65536xf32> into tensor<16x4096xf32>
// CHECK: %[[PART:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : tensor<16x4096xf32>)
// CHECK: %[[ALL:.+]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%[[PART]] : tensor<16xf32>)
// CHECK: linalg.generic {{.+}} ins(%[[ALL]] : tensor<f32>)
// CHECK: arith.constant 6.553600e+04 : f32
// CHECK: arith.divf
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%{{.+}} : tensor<255x257xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%{{.+}} : tensor<256x256xf32>)
func.func @reduce_split(%x: tensor<256x256xf32>, %y: tensor<255x257xf32>) -> (tensor<f32>, tensor<f32>, tensor<256xf32>) {
  %0 = tl.reduce_mean %x axes = [0, 1] : tensor<256x256xf32> -> tensor<f32>
  %1 = tl.reduce_sum %y axes = [0, 1] : tensor<255x257xf32> -> tensor<f32>
  %2 = tl.reduce_sum %x axes = [0] : tensor<256x256xf32> -> tensor<256xf32>
  return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<256xf32>
}

// -----

// softmax along a non-last axis (a strided one; the last axis takes the row form, see
// tl-lower-to-linalg-rows.mlir): max (from -inf), subtract the max, exp, sum, divide, each a
// whole-tensor linalg.generic.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NOT: scf.forall
// CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAXI:.+]] = linalg.fill ins(%[[NINF]] : f32)
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%[[X]] : tensor<4x8xf32>) outs(%[[MAXI]] : tensor<8xf32>)
// CHECK: arith.maximumf
// CHECK: %[[SH:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: arith.subf
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%[[SH]] : tensor<4x8xf32>)
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[EXP]] : tensor<4x8xf32>)
// CHECK: arith.addf
// CHECK: %[[DIV:.+]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: arith.divf
// CHECK: return %[[DIV]]
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tl.softmax %x axis = 0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// log_softmax along axis 0: the per-column value is read through (d1); result is shifted - log(sum).
// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: %[[SH:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]]
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%[[SH]]
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[EXP]]
// CHECK: %[[RES:.+]] = linalg.generic {{.*}} ins(%[[SH]], %[[SUM]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[V:.+]]: f32, %[[S:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[L:.+]] = math.log %[[S]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.subf %[[V]], %[[L]] : f32
// CHECK-NOT: arith.divf
// CHECK: return %[[RES]]
func.func @log_softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tl.log_softmax %x axis = 0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @compare_select
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>, %[[I:.+]]: tensor<4xi32>)
// CHECK: %[[CE:.+]] = tensor.empty() : tensor<4x8xi1>
// CHECK: %[[C:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) outs(%[[CE]] : tensor<4x8xi1>)
// CHECK-NEXT: ^bb0(%{{.+}}: f32, %{{.+}}: f32, %{{.+}}: i1):
// CHECK-NEXT: arith.cmpf olt
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[C]], %[[A]], %[[B]] : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[CC:.+]]: i1, %[[T:.+]]: f32, %[[F:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[SEL:.+]] = arith.select %[[CC]], %[[T]], %[[F]] : f32
// CHECK: arith.cmpf une
// CHECK: arith.cmpi sge
// CHECK: return %[[S]]
func.func @compare_select(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<4xi32>)
    -> (tensor<4x8xf32>, tensor<4x8xi1>, tensor<4xi1>) {
  %c = tl.compare lt %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  %0 = tl.select %c, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = tl.compare ne %a, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %2 = tl.compare ge %i, %i : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @cast
// CHECK: ^bb0(%[[X0:.+]]: f32, %{{.+}}: bf16):
// CHECK-NEXT: arith.truncf %[[X0]] : f32 to bf16
// CHECK: ^bb0(%[[X1:.+]]: f32, %{{.+}}: i32):
// CHECK-NEXT: arith.fptosi %[[X1]] : f32 to i32
// CHECK: ^bb0(%[[X2:.+]]: i1, %{{.+}}: i64):
// CHECK-NEXT: arith.extui %[[X2]] : i1 to i64
// CHECK: ^bb0(%[[X3:.+]]: i64, %{{.+}}: f32):
// CHECK-NEXT: arith.sitofp %[[X3]] : i64 to f32
// CHECK: ^bb0(%[[X4:.+]]: f16, %{{.+}}: bf16):
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[X4]] : f16 to f32
// CHECK-NEXT: arith.truncf %[[W]] : f32 to bf16
func.func @cast(%x: tensor<4xf32>, %p: tensor<4xi1>, %l: tensor<4xi64>, %h: tensor<4xf16>) {
  %0 = tl.cast %x : tensor<4xf32> to tensor<4xbf16>
  %1 = tl.cast %x : tensor<4xf32> to tensor<4xi32>
  %2 = tl.cast %p : tensor<4xi1> to tensor<4xi64>
  %3 = tl.cast %l : tensor<4xi64> to tensor<4xf32>
  %4 = tl.cast %h : tensor<4xf16> to tensor<4xbf16>
  "test.use"(%0, %1, %2, %3, %4) : (tensor<4xbf16>, tensor<4xi32>, tensor<4xi64>, tensor<4xf32>, tensor<4xbf16>) -> ()
  return
}

// -----

// Casts of the ONNX importer's narrow integers: from_unsigned zero-extends and converts to
// float as unsigned; without it, sign extension; narrowing truncates.
// CHECK-LABEL: func.func @cast_narrow
// CHECK: ^bb0(%[[U:.+]]: i8, %{{.+}}: i32):
// CHECK-NEXT: arith.extui %[[U]] : i8 to i32
// CHECK: ^bb0(%[[S:.+]]: i8, %{{.+}}: i32):
// CHECK-NEXT: arith.extsi %[[S]] : i8 to i32
// CHECK: ^bb0(%[[F:.+]]: i32, %{{.+}}: f32):
// CHECK-NEXT: arith.uitofp %[[F]] : i32 to f32
// CHECK: ^bb0(%[[T:.+]]: i32, %{{.+}}: i16):
// CHECK-NEXT: arith.trunci %[[T]] : i32 to i16
func.func @cast_narrow(%b: tensor<4xi8>, %w: tensor<4xi32>) {
  %0 = tl.cast %b {from_unsigned} : tensor<4xi8> to tensor<4xi32>
  %1 = tl.cast %b : tensor<4xi8> to tensor<4xi32>
  %2 = tl.cast %w {from_unsigned} : tensor<4xi32> to tensor<4xf32>
  %3 = tl.cast %w : tensor<4xi32> to tensor<4xi16>
  "test.use"(%0, %1, %2, %3) : (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi16>) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @constant
// CHECK: %[[C:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// CHECK: %[[S:.+]] = arith.constant dense<true> : tensor<3xi1>
// CHECK: return %[[C]], %[[S]]
func.func @constant() -> (tensor<1x2xf32>, tensor<3xi1>) {
  %0 = tl.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %1 = tl.constant dense<true> : tensor<3xi1>
  return %0, %1 : tensor<1x2xf32>, tensor<3xi1>
}

// -----

// reshape goes through rank 1; scalars expand with an empty reassociation.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[S:.+]]: tensor<f32>)
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: %[[R:.+]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
// CHECK: %[[FLAT2:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: %[[S1:.+]] = tensor.expand_shape %[[S]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK: return %[[R]], %[[FLAT2]], %[[S1]]
func.func @reshape(%x: tensor<4x8xf32>, %s: tensor<f32>) -> (tensor<2x16xf32>, tensor<32xf32>, tensor<1x1xf32>) {
  %0 = tl.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  %1 = tl.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %2 = tl.reshape %s : tensor<f32> -> tensor<1x1xf32>
  return %0, %1, %2 : tensor<2x16xf32>, tensor<32xf32>, tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_broadcast_to
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[V:.+]]: tensor<8xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8x4xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<4x8xf32>) outs(%[[E]] : tensor<8x4xf32>) permutation = [1, 0]
// CHECK: %[[B:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[V]] : tensor<8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: return %[[T]], %[[B]]
func.func @transpose_broadcast_to(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %0 = tl.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %1 = tl.broadcast_to %v : tensor<8xf32> -> tensor<4x8xf32>
  return %0, %1 : tensor<8x4xf32>, tensor<4x8xf32>
}

// -----

// concat: one insert_slice per input at a running offset along the (normalized) axis.
// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[A:.+]]: tensor<2x8xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<6x8xf32>
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[X]] into %[[E]][0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<6x8xf32>
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[A]] into %[[I0]][4, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<6x8xf32>
// CHECK: %[[E2:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK: %[[J0:.+]] = tensor.insert_slice %[[X]] into %[[E2]][0, 0] [4, 8] [1, 1]
// CHECK: %[[J1:.+]] = tensor.insert_slice %[[X]] into %[[J0]][0, 8] [4, 8] [1, 1]
// CHECK: return %[[I1]], %[[J1]]
func.func @concat(%x: tensor<4x8xf32>, %a: tensor<2x8xf32>) -> (tensor<6x8xf32>, tensor<4x16xf32>) {
  %0 = tl.concat %x, %a axis = -2 : tensor<4x8xf32>, tensor<2x8xf32> -> tensor<6x8xf32>
  %1 = tl.concat %x, %x axis = 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  return %0, %1 : tensor<6x8xf32>, tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK: %[[S:.+]] = tensor.extract_slice %[[X]][0, 2] [4, 3] [1, 2] : tensor<4x8xf32> to tensor<4x3xf32>
// CHECK: return %[[S]]
func.func @slice(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %0 = tl.slice %x offsets = [0, 2] sizes = [4, 3] strides = [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Negative case: ops of other dialects are left exactly as they are.
// CHECK-LABEL: func.func @non_tl_untouched
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[F:.+]]: f32)
// CHECK-NEXT: %[[ADD:.+]] = arith.addf %[[F]], %[[F]] : f32
// CHECK-NEXT: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[U:.+]] = "test.op"(%[[A]], %[[ADD]]) : (tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT: return %[[U]]
// CHECK-NOT: linalg
func.func @non_tl_untouched(%a: tensor<4xf32>, %f: f32) -> tensor<4xf32> {
  %0 = arith.addf %f, %f : f32
  %1 = tensor.empty() : tensor<4xf32>
  %2 = "test.op"(%a, %0) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
