// RUN: tlc-opt %s -split-input-file -verify-diagnostics

// Regression (fixed): the dialect says tl works "on ranked tensors with static shapes" (TLBase.td), but
// TL_Tensor is RankedTensorOf<...>, which admits dynamic dimensions, and no verifier or inference
// function rejects them. Consequences:
//  - tl.reshape's verifier (TLOps.cpp, ReshapeOp::verify) calls getNumElements() on dynamic
//    shapes (an assertion in +asserts builds; in release builds the two bogus products are equal,
//    so tensor<?x4xf32> -> tensor<4x?xf32> verifies) and tl-lower-to-linalg then segfaults in
//    reshapeTensor (tensor.expand_shape inference);
//  - reduce_mean over a dynamic axis divides by -9.22337203E+18 after lowering;
//  - diagnostics print ShapedType::kDynamic as -9223372036854775808 (broadcastShapes, sliceType).
// Each op below should be rejected with a message saying its shapes must be static.

func.func @reshape_dynamic(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error @+1 {{static}}
  %0 = tl.reshape %x : tensor<?x4xf32> -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

func.func @reduce_mean_dynamic(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{static}}
  %0 = tl.reduce_mean %x axes = [0] : tensor<?x4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @exp_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{static}}
  %0 = tl.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
