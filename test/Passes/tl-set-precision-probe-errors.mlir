// RUN: tlc-opt %s -tl-set-precision="precision=bf16 probe=true" -verify-diagnostics -o /dev/null

// The --report=precision probe compares f32 values: an integer output gets no row, and a
// model with no f32 output and no contraction or convolution is an error.
// expected-error @below {{--report=precision: the model has no f32 output and no contraction or convolution to compare}}
func.func @nothing(%x: tensor<4xi32>) -> tensor<4xi32> {
  %y = tl.add %x, %x : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %y : tensor<4xi32>
}
