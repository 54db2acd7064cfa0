// RUN: tlc-opt %s -split-input-file -tlc-fill-splat-constants | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-fill-splat-constants="min-elements=8" | FileCheck %s --check-prefix=LOW

// A returned splat of 2^32 elements (an ONNX ConstantOfShape output) becomes a fill of an empty
// tensor; a splat below min-elements (1024) and a constant that is not a splat stay.
// CHECK-LABEL: func.func @returned
// CHECK-DAG: %[[V:.+]] = arith.constant 1.500000e+00 : f32
// CHECK-DAG: %[[E:.+]] = tensor.empty() : tensor<65536x65536xf32>
// CHECK: %[[F:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<65536x65536xf32>) -> tensor<65536x65536xf32>
// CHECK: arith.constant dense<2.000000e+00> : tensor<4x4xf32>
// CHECK: arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: return %[[F]]
// LOW-LABEL: func.func @returned
// LOW: tensor.empty() : tensor<4x4xf32>
// LOW: arith.constant dense<[1, 2]> : tensor<2xi32>
func.func @returned() -> (tensor<65536x65536xf32>, tensor<4x4xf32>, tensor<2xi32>) {
  %big = arith.constant dense<1.5> : tensor<65536x65536xf32>
  %small = arith.constant dense<2.0> : tensor<4x4xf32>
  %list = arith.constant dense<[1, 2]> : tensor<2xi32>
  return %big, %small, %list : tensor<65536x65536xf32>, tensor<4x4xf32>, tensor<2xi32>
}

// -----

// A loop-carried splat (an RNN's state history, written by the loop) is filled too; integer
// splats as well.
// CHECK-LABEL: func.func @carried
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4097x8xi32>
// CHECK: %[[F:.+]] = linalg.fill ins(%{{.+}} : i32) outs(%[[E]] : tensor<4097x8xi32>)
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[F]])
func.func @carried(%x: tensor<1x8xi32>) -> tensor<4097x8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %zeros = arith.constant dense<0> : tensor<4097x8xi32>
  %r = scf.for %i = %c0 to %c4096 step %c1 iter_args(%h = %zeros) -> tensor<4097x8xi32> {
    %n = arith.addi %i, %c1 : index
    %u = tensor.insert_slice %x into %h[%n, 0] [1, 8] [1, 1] : tensor<1x8xi32> into tensor<4097x8xi32>
    scf.yield %u : tensor<4097x8xi32>
  }
  return %r : tensor<4097x8xi32>
}
