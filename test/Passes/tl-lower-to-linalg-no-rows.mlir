// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg=row-loops=false | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg | FileCheck %s --check-prefix=ROWS

// Without row loops (the GPU targets' strategy) softmax over the last axis is whole-tensor
// ops: the row maximum, x - max, exp, the row sum and the division, no scf.forall; the default
// (CPU) strategy takes the row loop.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.divf
// CHECK-NOT: scf.forall
// ROWS-LABEL: func.func @softmax
// ROWS: scf.forall
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %y = tl.softmax %x axis = -1 : tensor<4x10xf32>
  return %y : tensor<4x10xf32>
}

// -----

// LayerNorm likewise: whole-tensor mean and variance reductions, no row loop.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NOT: scf.forall
// ROWS-LABEL: func.func @layer_norm
// ROWS: scf.forall
func.func @layer_norm(%x: tensor<4x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %y = tl.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-05 : tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
