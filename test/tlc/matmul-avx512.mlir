// AVX-512 code generation: a matmul compiled for x86-64-v4 uses 512-bit FMAs; for x86-64-v3
// (AVX2) it uses 256-bit FMAs and no zmm register.
// The FMAs are in the private implementation or, where LLVM inlines it, in the entry point.
// RUN: tlc %s --name=matmul --cpu=x86-64-v4 --emit=asm -o - | FileCheck %s --check-prefix=AVX512
// RUN: tlc %s --name=matmul --cpu=x86-64-v3 --emit=asm -o - | FileCheck %s --check-prefix=AVX2
// RUN: tlc %s --name=matmul --cpu=znver4 --emit=asm -o - | FileCheck %s --check-prefix=AVX512

// AVX512-LABEL: {{^}}matmul_{{impl|run}}:
// AVX512: vfmadd{{[0-9]+}}ps {{.*}}%zmm

// AVX2-LABEL: {{^}}matmul_{{impl|run}}:
// AVX2-NOT: zmm
// AVX2: vfmadd{{[0-9]+}}ps {{.*}}%ymm
// AVX2-NOT: zmm
func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %c = tl.einsum "ij,jk->ik" %a, %b : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  return %c : tensor<64x256xf32>
}
