// RUN: tlc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// tl.grad round-trips: the gradient has the type of the value it is taken with respect to.
// CHECK-LABEL: func.func @round_trip
// CHECK: %{{.+}} = tl.grad %arg0 wrt %arg1 : tensor<f32>, tensor<3x4xf32>
func.func @round_trip(%l: tensor<f32>, %w: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %g = tl.grad %l wrt %w : tensor<f32>, tensor<3x4xf32>
  return %g : tensor<3x4xf32>
}

// -----

func.func @loss_not_scalar(%l: tensor<2xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{loss must be a rank-0 tensor, got 'tensor<2xf32>'}}
  %g = tl.grad %l wrt %w : tensor<2xf32>, tensor<3xf32>
  return %g : tensor<3xf32>
}

// -----

func.func @integer_wrt(%l: tensor<f32>, %w: tensor<3xi64>) -> tensor<3xi64> {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of 16-bit float}}
  %g = tl.grad %l wrt %w : tensor<f32>, tensor<3xi64>
  return %g : tensor<3xi64>
}
