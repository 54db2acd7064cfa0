// RUN: tlc-opt %s -split-input-file -tlc-add-cpu-dispatch="model-name=m variants=big,small" -verify-diagnostics | FileCheck %s

// Two variants, the table in the given order: "big" (avx2 = bit 25, avx512f = bit 27:
// 2^25 + 2^27 = 167772160) before "small" (no features). m_run caches index + 1 and forwards
// its arguments to the chosen variant; 0 (not chosen yet) asks the runtime; any other value
// returns TLC_STATUS_UNSUPPORTED (4).
// CHECK-LABEL: llvm.func @tlc_cpu_select_variant(!llvm.ptr, !llvm.ptr, i32) -> i32
// CHECK: llvm.mlir.global private constant @m_cpu_model("m\00")
// CHECK: llvm.mlir.global private constant @m_cpu_name.big("big\00")
// CHECK: llvm.mlir.global private constant @m_cpu_name.small("small\00")
// CHECK: llvm.mlir.global private constant @m_cpu_variants() {{.*}} : !llvm.array<2 x struct<(ptr, i64)>>
// CHECK: %[[BIG:.+]] = llvm.mlir.addressof @m_cpu_name.big
// CHECK: %[[BIGMASK:.+]] = llvm.mlir.constant(167772160 : i64)
// CHECK: llvm.insertvalue %[[BIG]], %{{.+}}[0, 0]
// CHECK: llvm.insertvalue %[[BIGMASK]], %{{.+}}[0, 1]
// CHECK: %[[SMALL:.+]] = llvm.mlir.addressof @m_cpu_name.small
// CHECK: %[[NONE:.+]] = llvm.mlir.constant(0 : i64)
// CHECK: llvm.insertvalue %[[SMALL]], %{{.+}}[1, 0]
// CHECK: llvm.insertvalue %[[NONE]], %{{.+}}[1, 1]
// CHECK: llvm.mlir.global internal @m_cpu_choice(0 : i32)
// CHECK-LABEL: llvm.func @m_run(
// CHECK-SAME: %[[A:.+]]: !llvm.ptr, %[[B:.+]]: !llvm.ptr) -> i32
// CHECK: %[[CACHE:.+]] = llvm.mlir.addressof @m_cpu_choice
// CHECK: %[[CACHED:.+]] = llvm.load %[[CACHE]] atomic monotonic {alignment = 4 : i64}
// CHECK: %[[MISS:.+]] = llvm.icmp "eq" %[[CACHED]]
// CHECK: llvm.cond_br %[[MISS]], ^[[CHOOSE:.+]], ^[[DISPATCH:.+]](%[[CACHED]] : i32)
// CHECK: ^[[CHOOSE]]:
// CHECK: %[[INDEX:.+]] = llvm.call @tlc_cpu_select_variant(%{{.+}}, %{{.+}}, %{{.+}})
// CHECK: %[[CHOICE:.+]] = llvm.add %[[INDEX]]
// CHECK: llvm.store %[[CHOICE]], %[[CACHE]] atomic monotonic {alignment = 4 : i64}
// CHECK: llvm.br ^[[DISPATCH]](%[[CHOICE]] : i32)
// CHECK: ^[[DISPATCH]](%[[K:.+]]: i32):
// CHECK: llvm.switch %[[K]] : i32, ^[[NOVARIANT:.+]] [
// CHECK-NEXT: 1: ^[[CALLBIG:[a-z0-9]+]],
// CHECK-NEXT: 2: ^[[CALLSMALL:[a-z0-9]+]]
// CHECK: ^[[NOVARIANT]]:
// CHECK: %[[STATUS:.+]] = llvm.mlir.constant(4 : i32)
// CHECK: llvm.return %[[STATUS]]
// CHECK: ^[[CALLBIG]]:
// CHECK: %[[R0:.+]] = llvm.call @m_run.big(%[[A]], %[[B]])
// CHECK: llvm.return %[[R0]]
// CHECK: ^[[CALLSMALL]]:
// CHECK: %[[R1:.+]] = llvm.call @m_run.small(%[[A]], %[[B]])
// CHECK: llvm.return %[[R1]]
// The features attribute is consumed.
// CHECK-NOT: tlc.cpu_features
llvm.func internal @m_run.small(%a: !llvm.ptr, %b: !llvm.ptr) -> i32 attributes {tlc.cpu_features = []} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.func internal @m_run.big(%a: !llvm.ptr, %b: !llvm.ptr) -> i32 attributes {tlc.cpu_features = ["avx2", "avx512f"]} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

// A variant without its entry point.
// expected-error @+1 {{no function 'm_run.big' for cpu variant 'big'}}
module {
  llvm.func internal @m_run.small(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = []} {
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.return %0 : i32
  }
}

// -----

// A feature the runtime does not know.
llvm.func internal @m_run.small(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = []} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
// expected-error @+1 {{unknown cpu feature 'amx-tile' in 'tlc.cpu_features'}}
llvm.func internal @m_run.big(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = ["avx2", "amx-tile"]} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

// No features attribute.
// expected-error @+1 {{cpu variant entry point has no 'tlc.cpu_features' array}}
llvm.func internal @m_run.big(%a: !llvm.ptr) -> i32 {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
llvm.func internal @m_run.small(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = []} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

// Variants must share the C signature.
llvm.func internal @m_run.big(%a: !llvm.ptr) -> i32 attributes {tlc.cpu_features = []} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}
// expected-error @+1 {{cpu variant entry points differ in signature}}
llvm.func internal @m_run.small(%a: !llvm.ptr, %b: !llvm.ptr) -> i32 attributes {tlc.cpu_features = []} {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

// The public entry point must not exist yet.
// expected-error @+1 {{symbol 'm_run' already exists}}
module {
  llvm.func @m_run() -> i32 {
    %0 = llvm.mlir.constant(0 : i32) : i32
    llvm.return %0 : i32
  }
}
