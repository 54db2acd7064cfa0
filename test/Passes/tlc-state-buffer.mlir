// RUN: tlc-opt %s -split-input-file -allow-unregistered-dialect -tlc-state-buffer -verify-diagnostics | FileCheck %s

// The params marked with their offsets become views of one state buffer, the new first
// argument; other arguments stay, in order.
// CHECK-LABEL: func.func @infer
// CHECK-SAME: (%[[STATE:.+]]: memref<1088xi8> {tl.name = "state"}, %[[X:.+]]: memref<4x8xf32>, %[[OUT:.+]]: memref<4x16xf32>, %[[WS:.+]]: memref<0xi8>)
// CHECK-NOT: tl.state
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C576:.+]] = arith.constant 576 : index
// CHECK-DAG: %[[W:.+]] = memref.view %[[STATE]][%[[C0]]][] : memref<1088xi8> to memref<8x16xf32>
// CHECK-DAG: %[[B:.+]] = memref.view %[[STATE]][%[[C576]]][] : memref<1088xi8> to memref<16xf32>
// CHECK: linalg.matmul ins(%[[X]], %[[W]] : memref<4x8xf32>, memref<8x16xf32>) outs(%[[OUT]] : memref<4x16xf32>)
// CHECK: "test.use"(%[[B]])
func.func @infer(%x: memref<4x8xf32>, %w: memref<8x16xf32> {tl.state_offset = 0 : i64},
                 %b: memref<16xf32> {tl.state_offset = 576 : i64}, %out: memref<4x16xf32>,
                 %ws: memref<0xi8>) attributes {tl.state_size = 1088 : i64} {
  linalg.matmul ins(%x, %w : memref<4x8xf32>, memref<8x16xf32>) outs(%out : memref<4x16xf32>)
  "test.use"(%b) : (memref<16xf32>) -> ()
  return
}

// -----

// A function without tl.state_size is left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-SAME: (%{{.+}}: memref<16xf32>)
// CHECK-NOT: memref.view
func.func @untouched(%b: memref<16xf32>) {
  "test.use"(%b) : (memref<16xf32>) -> ()
  return
}

// -----

// expected-error @below {{tlc-state-buffer: argument 0 (64 bytes at 32) does not fit the 64-byte state}}
func.func @past_the_end(%b: memref<16xf32> {tl.state_offset = 32 : i64})
    attributes {tl.state_size = 64 : i64} {
  "test.use"(%b) : (memref<16xf32>) -> ()
  return
}

// -----

// expected-error @below {{tlc-state-buffer: argument 0 ('memref<?xf32>') is not a statically shaped, identity-layout memref}}
func.func @dynamic(%b: memref<?xf32> {tl.state_offset = 0 : i64})
    attributes {tl.state_size = 64 : i64} {
  "test.use"(%b) : (memref<?xf32>) -> ()
  return
}
