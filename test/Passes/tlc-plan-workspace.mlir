// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace -verify-diagnostics -allow-unregistered-dialect | FileCheck %s

// Buffers are placed one after another at 64-byte aligned offsets (64 B, 6 B -> 64 B, 68 B ->
// 128 B), the arena becomes a trailing argument, deallocs disappear and private functions are
// left alone.
// CHECK-LABEL: module attributes {tlc.workspace_size = 256 : i64}
// CHECK-LABEL: func.func @model
// CHECK-SAME: (%[[IN:.+]]: memref<4x4xf32>, %[[OUT:.+]]: memref<4x4xf32>, %[[WS:.+]]: memref<256xi8> {tl.name = "workspace"})
// CHECK-NEXT: %[[O0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[V0:.+]] = memref.view %[[WS]][%[[O0]]][] : memref<256xi8> to memref<4x4xf32>
// CHECK-NEXT: %[[O1:.+]] = arith.constant 64 : index
// CHECK-NEXT: %[[V1:.+]] = memref.view %[[WS]][%[[O1]]][] : memref<256xi8> to memref<3xf16>
// CHECK-NEXT: %[[O2:.+]] = arith.constant 128 : index
// CHECK-NEXT: %[[V2:.+]] = memref.view %[[WS]][%[[O2]]][] : memref<256xi8> to memref<17xf32>
// CHECK-NEXT: memref.copy %[[IN]], %[[V0]]
// CHECK-NEXT: memref.copy %[[V0]], %[[OUT]]
// CHECK-NEXT: "test.use"(%[[V1]], %[[V2]])
// CHECK-NEXT: return
// CHECK-NOT: memref.dealloc
// CHECK-LABEL: func.func private @helper()
// CHECK-NEXT: memref.alloc() : memref<1024xf32>
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

// i1 buffers take a byte per element; allocations in nested regions are placed too.
// CHECK-LABEL: module attributes {tlc.workspace_size = 192 : i64}
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[WS:.+]]: memref<192xi8> {tl.name = "workspace"})
// CHECK: memref.view %[[WS]][%{{.+}}][] : memref<192xi8> to memref<100xi1>
// CHECK: scf.execute_region
// CHECK-NEXT: %[[O:.+]] = arith.constant 128 : index
// CHECK-NEXT: memref.view %[[WS]][%[[O]]][] : memref<192xi8> to memref<2xf64>
// CHECK-NOT: memref.alloc
module {
  func.func @nested() {
    %0 = memref.alloc() : memref<100xi1>
    "test.use"(%0) : (memref<100xi1>) -> ()
    scf.execute_region {
      %1 = memref.alloc() : memref<2xf64>
      "test.use"(%1) : (memref<2xf64>) -> ()
      scf.yield
    }
    return
  }
}

// -----

// Negative: a function without allocations still gets an (empty) workspace, and the size is 0.
// CHECK-LABEL: module attributes {tlc.workspace_size = 0 : i64}
// CHECK-LABEL: func.func @no_allocs
// CHECK-SAME: (%{{.+}}: memref<4xf32>, %{{.+}}: memref<0xi8> {tl.name = "workspace"})
// CHECK-NEXT: return
module {
  func.func @no_allocs(%a: memref<4xf32>) {
    return
  }
}

// -----

// Each public function gets its own arena; the module records the largest.
// CHECK-LABEL: module attributes {tlc.workspace_size = 128 : i64}
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

// Negative: nor can a buffer with a non-identity layout (the message names the layout).
module {
  func.func @strided() {
    // expected-error @+1 {{'memref.alloc' op cannot be placed in the workspace: its layout must be the identity}}
    %0 = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
    "test.use"(%0) : (memref<4x4xf32, strided<[8, 1]>>) -> ()
    return
  }
}
