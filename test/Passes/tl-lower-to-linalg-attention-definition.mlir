// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg=tiled-attention=false | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg | FileCheck %s --check-prefix=TILED

// Without tiled-attention (the GPU targets) causal attention is its definition: the scores
// contraction over the head dimension, one elementwise pass scaling them and setting keys after
// the query's position to -inf, softmax over the keys (max, exp, sum, divide), and the
// contraction with V. No flash-attention loop nest (scf.forall / scf.for).
// CHECK-LABEL: func.func @causal
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-DAG: %[[ROW:.+]] = linalg.index 1 : index
// CHECK-DAG: %[[COL:.+]] = linalg.index 2 : index
// CHECK: arith.cmpi ugt, %[[COL]], %[[ROW]] : index
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-NOT: scf.for
// TILED-LABEL: func.func @causal
// TILED: scf.for
func.func @causal(%q: tensor<2x16x8xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x16x4xf32>) -> tensor<2x16x4xf32> {
  %o = tl.attention %q, %k, %v causal scale = 0.35355339059327373 : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x4xf32> -> tensor<2x16x4xf32>
  return %o : tensor<2x16x4xf32>
}

// -----

// An additive mask is added to the scaled scores (broadcast over the batch).
// CHECK-LABEL: func.func @masked
// CHECK-NOT: linalg.index
// CHECK: arith.mulf
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: math.exp
func.func @masked(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>, %m: tensor<4x6xf32>) -> tensor<2x4x8xf32> {
  %o = tl.attention %q, %k, %v mask %m scale = 1.250000e-01 : tensor<2x4x8xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>, tensor<4x6xf32> -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}
