// --cpu with a list: one object holding a variant of the model per cpu, behind one NAME_run.
// RUN: rm -rf %t && mkdir -p %t

// Assembly: the x86-64-v4 variant uses 512-bit FMAs, the x86-64-v3 one 256-bit FMAs and no zmm
// register; the dispatcher, compiled for baseline x86-64, asks the runtime and uses no vector
// register wider than xmm.
// RUN: tlc %s --name=matmul --cpu=x86-64-v3,x86-64-v4 --emit=asm -o %t/m.s
// (The sed ranges collect every function of a variant: its entry point and parallel bodies.)
// RUN: sed -n '/^"[a-z_]*\.x86-64-v4":/,/^\.Lfunc_end/p' %t/m.s | FileCheck %s --check-prefix=V4
// RUN: sed -n '/^"[a-z_]*\.x86-64-v3":/,/^\.Lfunc_end/p' %t/m.s | FileCheck %s --check-prefix=V3
// RUN: sed -n '/^matmul_run:/,/^\.Lfunc_end/p' %t/m.s | FileCheck %s --check-prefix=DISPATCH
// V4: "matmul_run.x86-64-v4":
// V4: vfmadd{{[0-9]+}}ps {{.*}}%zmm
// V3: "matmul_run.x86-64-v3":
// V3-NOT: zmm
// V3: vfmadd{{[0-9]+}}ps {{.*}}%ymm
// V3-NOT: zmm
// DISPATCH: matmul_run:
// DISPATCH-NOT: {{[yz]mm}}
// DISPATCH: call{{q?}} tlc_cpu_select_variant
// DISPATCH-NOT: {{[yz]mm}}
// DISPATCH-DAG: "matmul_run.x86-64-v4"
// DISPATCH-DAG: "matmul_run.x86-64-v3"
// DISPATCH-NOT: {{[yz]mm}}

// LLVM IR: every function of a variant is compiled for its cpu; the dispatcher for x86-64.
// The table holds the variants most capable first, with the runtime feature masks
// (tlc/cpu_features.h bits) of the psABI levels: x86-64-v3 = cmov cx8 mmx fxsr sse sse2 sse3
// ssse3 fma cx16 sse4.1 sse4.2 crc32 movbe popcnt xsave avx f16c sahf lzcnt bmi avx2 bmi2
// (121569151), x86-64-v4 = that + avx512f avx512dq avx512cd avx512bw avx512vl (28441509759).
// RUN: tlc %s --name=matmul --cpu=x86-64-v3,x86-64-v4 --emit=llvm -o - | FileCheck %s --check-prefix=LLVM
// LLVM-DAG: @matmul_cpu_variants = private constant [2 x { ptr, i64 }] [{ ptr, i64 } { ptr @matmul_cpu_name.x86-64-v4, i64 28441509759 }, { ptr, i64 } { ptr @matmul_cpu_name.x86-64-v3, i64 121569151 }]
// LLVM-DAG: define internal {{.*}} @matmul_run.x86-64-v4({{.*}} #[[A4:[0-9]+]]
// LLVM-DAG: define internal {{.*}} @matmul_run.x86-64-v3({{.*}} #[[A3:[0-9]+]]
// LLVM-DAG: define {{.*}}i32 @matmul_run(ptr {{.*}} #[[BASE:[0-9]+]]
// LLVM-DAG: attributes #[[A4]] = { {{.*}}"prefer-vector-width"="512" "target-cpu"="x86-64-v4" }
// LLVM-DAG: attributes #[[A3]] = { {{.*}}"target-cpu"="x86-64-v3" }
// LLVM-DAG: attributes #[[BASE]] = { {{.*}}"target-cpu"="x86-64" {{.*}}}

// AArch64: the masks index the AArch64 table (its hwcap features): generic = fp-armv8 neon (3);
// neoverse-n1 = that + aes sha2 crc lse fullfp16 rdm rcpc dotprod (9471); a64fx = generic + aes
// sha2 crc lse fullfp16 rdm complxnum sve (17151). Equal counts keep the --cpu order.
// RUN: tlc %s --name=matmul --target=aarch64 --cpu=generic,neoverse-n1,a64fx --emit=llvm -o - | FileCheck %s --check-prefix=A64
// A64-DAG: @matmul_cpu_variants = private constant [3 x { ptr, i64 }] [{ ptr, i64 } { ptr @matmul_cpu_name.neoverse-n1, i64 9471 }, { ptr, i64 } { ptr @matmul_cpu_name.a64fx, i64 17151 }, { ptr, i64 } { ptr @matmul_cpu_name.generic, i64 3 }]
// A64-DAG: define internal {{.*}} @matmul_run.a64fx({{.*}} #[[SVE:[0-9]+]]
// A64-DAG: attributes #[[SVE]] = { {{.*}}"target-cpu"="a64fx"

// The object exports exactly the one-cpu ABI: NAME_run, NAME_info and NAME_manifest. The
// variants are local symbols; the weights are stored once.
// RUN: tlc %s --name=matmul --cpu=x86-64-v3,x86-64-v4 -o %t/m.o --header %t/m.h
// RUN: llvm-nm --extern-only --defined-only %t/m.o | FileCheck %s --check-prefix=EXPORTS
// RUN: llvm-nm --defined-only %t/m.o | FileCheck %s --check-prefix=LOCALS
// RUN: llvm-nm --undefined-only %t/m.o | FileCheck %s --check-prefix=IMPORTS
// EXPORTS: {{^[0-9a-f]+ R matmul_info$}}
// EXPORTS-NEXT: {{^[0-9a-f]+ R matmul_manifest$}}
// EXPORTS-NEXT: {{^[0-9a-f]+ T matmul_run$}}
// EXPORTS-NOT: {{.}}
// LOCALS-DAG: t matmul_run.x86-64-v3
// LOCALS-DAG: t matmul_run.x86-64-v4
// LOCALS-DAG: b matmul_cpu_choice
// IMPORTS: tlc_cpu_select_variant
// Weights (a seeded random parameter: 16 KiB of read-only data) are stored once, not per cpu.
// RUN: printf 'input x : f32[8, 64]\nparam w : f32[64, 64] = randn(seed=3)\noutput y = einsum("ij,jk->ik", x, w)\n' > %t/w.tl
// RUN: tlc %t/w.tl --cpu=x86-64-v3 -o %t/w1.o
// RUN: tlc %t/w.tl --cpu=x86-64-v3,x86-64-v4 -o %t/w2.o
// RUN: llvm-size -A %t/w1.o | FileCheck %s --check-prefix=WEIGHTS
// RUN: llvm-size -A %t/w2.o | FileCheck %s --check-prefix=WEIGHTS
// WEIGHTS: .rodata 1{{[0-9][0-9][0-9][0-9]}} 0

// The header is the one-cpu header but for its first line (provenance).
// RUN: tlc %s --name=matmul --cpu=x86-64-v3 -o %t/one.o --header %t/one.h
// RUN: tail -n +2 %t/one.h > %t/one.body && tail -n +2 %t/m.h > %t/m.body
// RUN: diff %t/one.body %t/m.body
// RUN: head -n 1 %t/m.h | FileCheck %s --check-prefix=HEADER
// HEADER: for x86_64 (cpus x86-64-v4 x86-64-v3, chosen at run time; TLC_STATUS_UNSUPPORTED if none runs)

// Stages before code generation do not depend on the cpu: printed once.
// RUN: tlc %s --name=matmul --cpu=x86-64-v3,x86-64-v4 --emit=linalg -o - | FileCheck %s --check-prefix=LINALG
// LINALG-COUNT-1: func.func @matmul(
// LINALG-NOT: func.func

func.func @matmul(%a: tensor<64x128xf32>, %b: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %c = tl.einsum "ij,jk->ik" %a, %b : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  return %c : tensor<64x256xf32>
}
