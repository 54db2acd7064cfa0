// Module-level errors: two public functions, none, and types the C ABI cannot carry.
// RUN: split-file %s %t
// RUN: not tlc %t/two.mlir -o %t/two.o 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not tlc %t/none.mlir -o %t/none.o 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not tlc %t/dynamic.mlir -o %t/dynamic.o 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not tlc %t/verifier.mlir -o %t/verifier.o 2>&1 | FileCheck %s --check-prefix=VERIFY

//--- two.mlir
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
// TWO: two.mlir:2:1: error: the module has more than one public function ('a' and 'b'); make helpers private

//--- none.mlir
func.func private @a(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
// NONE: none.mlir: error: the module has no public function to compile

//--- dynamic.mlir
func.func @d(%x: tensor<?xf32>) -> tensor<?xf32> { return %x : tensor<?xf32> }
// DYN: dynamic.mlir:1:1: error: input 'in0' must be a tensor with a static shape, got 'tensor<?xf32>'

//--- verifier.mlir
func.func @v(%x: tensor<4xf32>, %y: tensor<3xf32>) -> tensor<4xf32> {
  %z = tl.add %x, %y : tensor<4xf32>, tensor<3xf32> -> tensor<4xf32>
  return %z : tensor<4xf32>
}
// VERIFY: verifier.mlir:2:8: error: shapes 4 and 3 do not broadcast (dimension 4 against 3)
