// RUN: tlc-opt %s -tl-set-precision="precision=bf16 keep-f32=fc9" -verify-diagnostics

// A --keep-fp32 name that names no contraction or convolution is an error, not ignored.
// expected-error @below {{--keep-fp32 name 'fc9' matches no contraction, convolution or constant-table gather of the model}}
module {
  func.func @f(%x: tensor<2x3xf32>, %w: tensor<3x3xf32>) -> tensor<2x3xf32> {
    %a = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32> loc("fc1")
    return %a : tensor<2x3xf32>
  }
}
