// RUN: tlc-opt %s -split-input-file -verify-diagnostics -tlc-lower-parallel-launch | FileCheck %s

// The launch call becomes: captures stored into a context struct allocated in the caller's
// entry block, then tlc_parallel_for(trampoline, context, n); the trampoline loads them and
// calls the (now internal, always-inlined) body.
// CHECK: llvm.func @tlc_parallel_for(!llvm.ptr, !llvm.ptr, i64)
// CHECK-LABEL: llvm.func @f
// CHECK-SAME: (%[[A:.+]]: !llvm.ptr, %[[N:.+]]: i64)
// CHECK: %[[CTX:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(ptr, i64)>
// CHECK: %[[S0:.+]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: llvm.store %[[A]], %[[S0]]
// CHECK: %[[S1:.+]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: llvm.store %[[N]], %[[S1]]
// CHECK: %[[FN:.+]] = llvm.mlir.addressof @f_par_tramp
// CHECK: llvm.call @tlc_parallel_for(%[[FN]], %[[CTX]], %[[N]])
// CHECK-NOT: f_par_launch
// CHECK: llvm.func internal @f_par(
// CHECK-SAME: attributes {always_inline
// CHECK: llvm.func internal @f_par_tramp(%[[C:.+]]: !llvm.ptr, %[[B:.+]]: i64, %[[E:.+]]: i64)
// CHECK: %[[P:.+]] = llvm.load
// CHECK-SAME: -> !llvm.ptr
// CHECK: %[[M:.+]] = llvm.load
// CHECK-SAME: -> i64
// CHECK: llvm.call @f_par(%[[B]], %[[E]], %[[P]], %[[M]])
llvm.func @f(%a: !llvm.ptr, %n: i64) {
  llvm.call @f_par_launch(%n, %a, %n) : (i64, !llvm.ptr, i64) -> ()
  llvm.return
}
llvm.func @f_par(%begin: i64, %end: i64, %a: !llvm.ptr, %m: i64) attributes {tlc.parallel_body} {
  llvm.return
}
llvm.func @f_par_launch(i64, !llvm.ptr, i64) attributes {tlc.parallel_launch = @f_par}

// -----

// A module without launches is left alone (no runtime declaration).
// CHECK-LABEL: llvm.func @g
// CHECK-NOT: tlc_parallel_for
llvm.func @g() {
  llvm.return
}

// -----

// A launch may only be called: taking its address is reported at the use.
llvm.func @f(%n: i64) -> !llvm.ptr {
  // expected-error @+1 {{uses a parallel launch other than by calling it}}
  %p = llvm.mlir.addressof @f_par_launch : !llvm.ptr
  llvm.return %p : !llvm.ptr
}
llvm.func @f_par(%begin: i64, %end: i64) attributes {tlc.parallel_body} {
  llvm.return
}
llvm.func @f_par_launch(i64) attributes {tlc.parallel_launch = @f_par}

// -----

// A launch without its outlined body is reported at the launch.
llvm.func @g(%n: i64) {
  llvm.call @g_par_launch(%n) : (i64) -> ()
  llvm.return
}
// expected-error @+1 {{names no outlined parallel body}}
llvm.func @g_par_launch(i64) attributes {tlc.parallel_launch = @g_par}
