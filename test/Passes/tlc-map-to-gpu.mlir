// RUN: %tlc_opt %s --split-input-file --tlc-map-to-gpu --verify-diagnostics | FileCheck %s

// One thread per output point: 16 x 8 points in one workgroup of 128 threads, the reduction
// loop (k) left whole inside the tiled op; the constant is reached through its expand_shape,
// which is cloned into the launch so the kernel binds the whole global.
memref.global "private" constant @w : memref<32xf32> = dense<1.0>
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[X:.+]]: memref<16x4xf32>, %[[Y:.+]]: memref<16x8xf32>)
func.func @matmul(%x: memref<16x4xf32>, %y: memref<16x8xf32>) {
  // CHECK: %[[G:.+]] = memref.get_global @w
  // CHECK-NOT: memref.expand_shape
  // CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
  // CHECK: %[[IN:.+]] = arith.cmpi ult, %{{.*}}, %c128
  // CHECK: scf.if %[[IN]]
  // CHECK: %[[J:.+]] = arith.remui %{{.*}}, %c8
  // CHECK: %[[I:.+]] = arith.divui %{{.*}}, %c8
  // CHECK: %[[W:.+]] = memref.expand_shape %[[G]]
  // CHECK-DAG: memref.subview %[[X]][%[[I]], 0] [1, 4] [1, 1]
  // CHECK-DAG: memref.subview %[[W]][0, %[[J]]] [4, 1] [1, 1]
  // CHECK-DAG: memref.subview %[[Y]][%[[I]], %[[J]]] [1, 1] [1, 1]
  // CHECK: linalg.matmul
  // CHECK: gpu.terminator
  // CHECK-NOT: linalg.matmul
  %g = memref.get_global @w : memref<32xf32>
  %w = memref.expand_shape %g [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  linalg.matmul ins(%x, %w : memref<16x4xf32>, memref<4x8xf32>) outs(%y : memref<16x8xf32>)
  return
}

// -----

// More points than one grid row holds: 20,000,000 points in workgroups of 256 make 78125
// workgroups, laid out on a 65535 x 2 grid (the linear index is guarded).
// CHECK-LABEL: func.func @big
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c65535{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}
// CHECK: arith.cmpi ult, %{{.*}}, %c20000000
func.func @big(%x: memref<20000000xf32>, %y: memref<20000000xf32>) {
  linalg.copy ins(%x : memref<20000000xf32>) outs(%y : memref<20000000xf32>)
  return
}

// -----

// A small op gets one workgroup of the next multiple of 32 threads.
// CHECK-LABEL: func.func @small
// CHECK: threads({{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK: linalg.generic
func.func @small(%x: memref<10xf32>, %y: memref<10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<10xf32>) outs(%y : memref<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Ops with no GPU lowering are reported, each at its location, not silently left on the host.
func.func @unsupported(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'scf.for' has no GPU lowering yet (the GPU targets run linalg ops)}}
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
  }
  // expected-error @+1 {{'memref.copy' has no GPU lowering yet}}
  memref.copy %x, %y : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Private helpers are not model functions: left alone.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: gpu.launch
// CHECK: linalg.copy
func.func private @helper(%x: memref<8xf32>, %y: memref<8xf32>) {
  linalg.copy ins(%x : memref<8xf32>) outs(%y : memref<8xf32>)
  return
}
