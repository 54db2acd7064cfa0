// NEON code generation: a matmul compiled for aarch64 uses vector FMLA on 4 x f32 registers.
// The private implementation is inlined into the entry point (at the default -O2).
// RUN: tlc %s --name=matmul --target=aarch64 --emit=asm -o - | FileCheck %s
// RUN: tlc %s --name=matmul --target=aarch64 --cpu=neoverse-n1 --emit=asm -o - | FileCheck %s

// CHECK-LABEL: matmul_run:
// CHECK: fmla v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.{{4s|s\[[0-3]\]}}
func.func @matmul(%a: tensor<32x64xf32>, %b: tensor<64x128xf32>) -> tensor<32x128xf32> {
  %c = tl.einsum "ij,jk->ik" %a, %b : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  return %c : tensor<32x128xf32>
}
