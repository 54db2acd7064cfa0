// RUN: tlc-opt %s -split-input-file -tlc-add-cpu-dispatch="model-name=m variants=n1,generic arch=aarch64" -verify-diagnostics | FileCheck %s
// RUN: not tlc-opt %s -split-input-file -tlc-add-cpu-dispatch="model-name=m variants=n1,generic arch=riscv64" 2>&1 | FileCheck %s --check-prefix=ARCH

// With arch=aarch64 the names index the AArch64 table of tlc/cpu_features.h: neon = bit 1,
// dotprod = bit 13 (2 + 8192 = 8194). The x86 name "avx2" is unknown there.
// CHECK: llvm.mlir.global private constant @m_cpu_variants()
// CHECK: llvm.mlir.constant(8194 : i64)
// ARCH: tlc-add-cpu-dispatch: arch must be x86_64 or aarch64, not 'riscv64'
llvm.func internal @m_run.n1(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = ["neon", "dotprod"]} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.func internal @m_run.generic(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = ["neon"]} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

llvm.func internal @m_run.generic(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = []} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
// expected-error @+1 {{unknown cpu feature 'avx2' in 'tlc.cpu_features'}}
llvm.func internal @m_run.n1(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = ["avx2"]} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
