// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace=forward-outputs=false -verify-diagnostics -allow-unregistered-dialect | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace="reuse=false forward-outputs=false" -verify-diagnostics -allow-unregistered-dialect | FileCheck %s --check-prefix=NAIVE

// (forward-outputs=false: the copies into out-params here would otherwise be removed; that
// rewrite is tested in tlc-plan-workspace-forward-outputs.mlir.)
// Live ranges run from a buffer's first to its last use (program points are the entry block's
// ops). %0 is dead after the second copy, so %1 and %2 (live together at the use) may take its
// bytes: the largest (%2, 68 B -> 128 B) goes first at 0, %0 reuses 0, %1 goes above %2. The
// arena is the lower bound (192 B), the naive sum is 256 B. Deallocs disappear, private
// functions are left alone.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 192 : i64
// CHECK-SAME: {end = 4 : i64, loc = #{{.+}}, offset = 0 : i64, size = 64 : i64, start = 3 : i64, type = memref<4x4xf32>}
// CHECK-SAME: {end = 5 : i64, loc = #{{.+}}, offset = 128 : i64, size = 6 : i64, start = 5 : i64, type = memref<3xf16>}
// CHECK-SAME: {end = 5 : i64, loc = #{{.+}}, offset = 0 : i64, size = 68 : i64, start = 5 : i64, type = memref<17xf32>}
// CHECK-SAME: function = "model", lower_bound = 192 : i64, naive_size = 256 : i64
// CHECK-SAME: tlc.workspace_size = 192 : i64
// CHECK-LABEL: func.func @model
// CHECK-SAME: (%[[IN:.+]]: memref<4x4xf32>, %[[OUT:.+]]: memref<4x4xf32>, %[[WS:.+]]: memref<192xi8> {tl.name = "workspace"})
// CHECK-NEXT: %[[O0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[V0:.+]] = memref.view %[[WS]][%[[O0]]][] : memref<192xi8> to memref<4x4xf32>
// CHECK-NEXT: %[[O1:.+]] = arith.constant 128 : index
// CHECK-NEXT: %[[V1:.+]] = memref.view %[[WS]][%[[O1]]][] : memref<192xi8> to memref<3xf16>
// CHECK-NEXT: %[[O2:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[V2:.+]] = memref.view %[[WS]][%[[O2]]][] : memref<192xi8> to memref<17xf32>
// CHECK-NEXT: memref.copy %[[IN]], %[[V0]]
// CHECK-NEXT: memref.copy %[[V0]], %[[OUT]]
// CHECK-NEXT: "test.use"(%[[V1]], %[[V2]])
// CHECK-NEXT: return
// CHECK-NOT: memref.dealloc
// CHECK-LABEL: func.func private @helper()
// CHECK-NEXT: memref.alloc() : memref<1024xf32>
// Without reuse, buffers go one after another (the naive sum).
// NAIVE-LABEL: module attributes
// NAIVE-SAME: arena_size = 256 : i64
// NAIVE-SAME: offset = 0 : i64, size = 64 : i64
// NAIVE-SAME: offset = 64 : i64, size = 6 : i64
// NAIVE-SAME: offset = 128 : i64, size = 68 : i64
// NAIVE-SAME: naive_size = 256 : i64
module {
  func.func @model(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
    %0 = memref.alloc() : memref<4x4xf32>
    %1 = memref.alloc() {alignment = 64 : i64} : memref<3xf16>
    %2 = memref.alloc() : memref<17xf32>
    memref.copy %in, %0 : memref<4x4xf32> to memref<4x4xf32>
    memref.copy %0, %out : memref<4x4xf32> to memref<4x4xf32>
    "test.use"(%1, %2) : (memref<3xf16>, memref<17xf32>) -> ()
    memref.dealloc %0 : memref<4x4xf32>
    memref.dealloc %2 : memref<17xf32>
    return
  }
  func.func private @helper() {
    %0 = memref.alloc() : memref<1024xf32>
    return
  }
}

// -----

// Negative: a view of a buffer keeps it alive. %0 is last used through its collapsed view at
// point 4, where %1 is used, so they cannot share; %2 (used at 6) reuses %0's bytes.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 128 : i64
// CHECK-SAME: {end = 4 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 2 : i64
// CHECK-SAME: {end = 4 : i64, {{.+}}, offset = 64 : i64, size = 64 : i64, start = 4 : i64
// CHECK-SAME: {end = 6 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 6 : i64
// CHECK-SAME: lower_bound = 128 : i64, naive_size = 192 : i64
module {
  func.func @views() {
    %0 = memref.alloc() : memref<4x4xf32>
    %c = memref.collapse_shape %0 [[0, 1]] : memref<4x4xf32> into memref<16xf32>
    "test.write"(%0) : (memref<4x4xf32>) -> ()
    %1 = memref.alloc() : memref<16xf32>
    "test.use"(%c, %1) : (memref<16xf32>, memref<16xf32>) -> ()
    %2 = memref.alloc() : memref<16xf32>
    "test.use"(%2) : (memref<16xf32>) -> ()
    return
  }
}

// -----

// Uses nested in a loop count at the loop (point 5): everything the loop touches is live across
// it, so %b and the loop's own %t conflict, while %a (dead before the loop) shares with %b.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 128 : i64
// CHECK-SAME: {end = 3 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 3 : i64, type = memref<16xf32>}
// CHECK-SAME: {end = 6 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 5 : i64, type = memref<16xf32>}
// CHECK-SAME: {end = 5 : i64, {{.+}}, offset = 64 : i64, size = 64 : i64, start = 5 : i64, type = memref<4xi128>}
// CHECK-SAME: lower_bound = 128 : i64, naive_size = 192 : i64
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK-NEXT: arith.constant 64 : index
// CHECK-NEXT: memref.view
// CHECK-NOT: memref.alloc
module {
  func.func @loop(%n: index) {
    %a = memref.alloc() : memref<16xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    "test.write"(%a) : (memref<16xf32>) -> ()
    %b = memref.alloc() : memref<16xf32>
    scf.for %i = %c0 to %n step %c1 {
      %t = memref.alloc() : memref<4xi128>
      "test.use"(%t, %b) : (memref<4xi128>, memref<16xf32>) -> ()
    }
    "test.use"(%b) : (memref<16xf32>) -> ()
    return
  }
}

// -----

// Each public function gets its own arena; the module records the largest.
// CHECK-LABEL: module attributes
// CHECK-SAME: tlc.workspace_size = 128 : i64
// CHECK-LABEL: func.func @small
// CHECK-SAME: memref<64xi8>
// CHECK-LABEL: func.func @large
// CHECK-SAME: memref<128xi8>
module {
  func.func @small() {
    %0 = memref.alloc() : memref<1xf32>
    "test.use"(%0) : (memref<1xf32>) -> ()
    return
  }
  func.func @large() {
    %0 = memref.alloc() : memref<2x2xf32>
    %1 = memref.alloc() : memref<2x2xf32>
    "test.use"(%0, %1) : (memref<2x2xf32>, memref<2x2xf32>) -> ()
    return
  }
}

// -----

// Negative: a function without allocations still gets an (empty) workspace, and the size is 0.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 0 : i64, buffers = [], function = "no_allocs", lower_bound = 0 : i64, naive_size = 0 : i64
// CHECK-SAME: tlc.workspace_size = 0 : i64
// CHECK-LABEL: func.func @no_allocs
// CHECK-SAME: (%{{.+}}: memref<4xf32>, %{{.+}}: memref<0xi8> {tl.name = "workspace"})
// CHECK-NEXT: return
module {
  func.func @no_allocs(%a: memref<4xf32>) {
    return
  }
}

// -----

// Negative: a buffer that escapes through a call lives to the end of the function.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 128 : i64
// CHECK-SAME: {end = 4 : i64, {{.+}}, start = 1 : i64
module {
  func.func private @sink(memref<16xf32>)
  func.func @escapes() {
    %0 = memref.alloc() : memref<16xf32>
    func.call @sink(%0) : (memref<16xf32>) -> ()
    %1 = memref.alloc() : memref<16xf32>
    "test.use"(%1) : (memref<16xf32>) -> ()
    return
  }
}

// -----

// Negative: a dynamically shaped buffer cannot be planned.
module {
  func.func @dynamic(%n: index) {
    // expected-error @+1 {{'memref.alloc' op cannot be placed in the workspace: its shape must be static}}
    %0 = memref.alloc(%n) : memref<?xf32>
    "test.use"(%0) : (memref<?xf32>) -> ()
    return
  }
}

// -----

// Negative: nor can a buffer with a non-identity layout.
module {
  func.func @strided() {
    // expected-error @+1 {{'memref.alloc' op cannot be placed in the workspace: its layout must be the identity}}
    %0 = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
    "test.use"(%0) : (memref<4x4xf32, strided<[8, 1]>>) -> ()
    return
  }
}

// -----

// Negative: nor a function whose body has several blocks (no liveness over a CFG yet).
module {
  // expected-error @+1 {{'func.func' op cannot be memory-planned: its body must be a single block}}
  func.func @cfg(%c: i1) {
    %0 = memref.alloc() : memref<4xf32>
    cf.cond_br %c, ^bb1, ^bb1
  ^bb1:
    "test.use"(%0) : (memref<4xf32>) -> ()
    return
  }
}
