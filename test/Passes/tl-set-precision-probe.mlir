// RUN: tlc-opt %s -split-input-file -tl-set-precision="precision=bf16 probe=true" | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tl-set-precision="precision=bf16 probe=true keep-f32=fc2" | FileCheck %s --check-prefix=KEEP

// The --report=precision probe of two layers. The original body becomes the bf16 run (casts
// before each contraction); an f32 copy of it (the reference) follows, sharing the constant;
// each demoted op is then run again in bf16 on the reference's operands (its local error).
// The result is one table: per layer max |local - ref|, max |bf16 run - ref|, max |ref|;
// per f32 output 0, max |bf16 run - ref|, max |ref|; the rows are named on the function.
// CHECK-LABEL: func.func @two_layers
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>) -> (tensor<3x3xf32> {tl.name = "precision_errors"})
// CHECK-SAME: tl.precision_probe = [{kind = "layer", name = "fc1", op = "tl.einsum"}, {kind = "layer", name = "fc2", op = "tl.einsum"}, {kind = "output", name = "y", op = ""}]
// CHECK: %[[W:.+]] = tl.constant
// The bf16 run.
// CHECK: %[[XB:.+]] = tl.cast %[[X]] : tensor<2x3xf32> to tensor<2x3xbf16>
// CHECK: %[[WB:.+]] = tl.cast %[[W]] : tensor<3x3xf32> to tensor<3x3xbf16>
// CHECK: %[[L1:.+]] = tl.einsum "ij,jk->ik" %[[XB]], %[[WB]] {tl.precision = "bf16"}
// CHECK: %[[R1:.+]] = tl.relu %[[L1]]
// CHECK: %[[L2:.+]] = tl.einsum "ij,jk->ik" {{.*}} {tl.precision = "bf16"}
// The f32 reference: the same ops on the f32 values, no precision decided.
// CHECK: %[[F1:.+]] = tl.einsum "ij,jk->ik" %[[X]], %[[W]] : (tensor<2x3xf32>, tensor<3x3xf32>)
// CHECK: %[[G1:.+]] = tl.relu %[[F1]]
// CHECK: %[[F2:.+]] = tl.einsum "ij,jk->ik" %[[G1]], %[[W]] : (tensor<2x3xf32>, tensor<3x3xf32>)
// fc1 alone in bf16 on the reference operands, then its row.
// CHECK: %[[A:.+]] = tl.cast %[[X]]
// CHECK: %[[B:.+]] = tl.cast %[[W]]
// CHECK: %[[LOC1:.+]] = tl.einsum "ij,jk->ik" %[[A]], %[[B]] {tl.precision = "bf16"}
// CHECK: %[[D1:.+]] = tl.sub %[[LOC1]], %[[F1]]
// CHECK: tl.reshape %[[D1]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK: tl.abs
// CHECK: tl.reduce_max {{.*}} axes = [0] keepdims : tensor<6xf32> -> tensor<1xf32>
// CHECK: tl.sub %[[L1]], %[[F1]]
// fc2 alone reads the reference's relu output.
// CHECK: %[[C:.+]] = tl.cast %[[G1]]
// CHECK: tl.einsum "ij,jk->ik" %[[C]], {{.*}} {tl.precision = "bf16"}
// CHECK: tl.sub %[[L2]], %[[F2]]
// The output row, then the table.
// CHECK: %[[ZERO:.+]] = tl.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK: tl.sub %[[L2]], %[[F2]]
// CHECK: %[[T:.+]] = tl.concat {{.*}} axis = 0 : {{.*}} -> tensor<9xf32>
// CHECK: %[[TABLE:.+]] = tl.reshape %[[T]] : tensor<9xf32> -> tensor<3x3xf32>
// CHECK: return %[[TABLE]] : tensor<3x3xf32>
// A name kept in f32 gets no row and no cast.
// KEEP-LABEL: func.func @two_layers
// KEEP-SAME: tl.precision_probe = [{kind = "layer", name = "fc1", op = "tl.einsum"}, {kind = "output", name = "y", op = ""}]
// KEEP: tl.einsum "ij,jk->ik" {{.*}} {tl.precision = "f32"} : (tensor<2x3xf32>, tensor<3x3xf32>)
func.func @two_layers(%x: tensor<2x3xf32>) -> (tensor<2x3xf32> {tl.name = "y"}) {
  %w = tl.constant dense<[[1.0, 3.0, 0.5], [0.5, -2.0, 1.5], [0.25, 1.0, -1.0]]> : tensor<3x3xf32>
  %a = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32> loc("fc1")
  %r = tl.relu %a : tensor<2x3xf32>
  %b = tl.einsum "ij,jk->ik" %r, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32> loc("fc2")
  return %b : tensor<2x3xf32>
}

