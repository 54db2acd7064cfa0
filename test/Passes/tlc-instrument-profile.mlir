// RUN: tlc-opt %s -split-input-file -tlc-instrument-profile=model-name=m -verify-diagnostics | FileCheck %s

// Two kernels: the fill with the contraction it initializes and the elementwise op after it on
// the contraction's output (one timed range: code generation may merge the fill into the
// contraction and run such an epilogue on its tiles or rows while they are in registers, which a
// timer between them would prevent; ops without memory effects may come between), then the
// elementwise op on another buffer; the constants are not kernels. The table: the times (zeros,
// written by the runs), flops (16 x 8 x 4 multiply-adds and 16 x 8 adds: 1152; 16 x 8 adds:
// 128), bytes (x 256 + w 128 + y 512, then z 512), the names (source and kind per kernel,
// NUL-terminated: checked through tlc-run in test/tlc/profile.test) and the count.
// CHECK-DAG: memref.global "public" @m_profile_ns : memref<2xi64> = dense<0>
// CHECK-DAG: memref.global "public" constant @m_profile_flops : memref<2xi64> = dense<[1152, 128]>
// CHECK-DAG: memref.global "public" constant @m_profile_bytes : memref<2xi64> = dense<[896, 512]>
// CHECK-DAG: memref.global "public" constant @m_profile_count : memref<i64> = dense<2>
// CHECK-DAG: memref.global "public" constant @m_profile_names : memref<{{[0-9]+}}xi8>
// CHECK-DAG: func.func private @tlc_profile_clock() -> i64
// CHECK-LABEL: func.func private @m_impl
// CHECK: %[[T0:.+]] = call @tlc_profile_clock() : () -> i64
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.matmul
// CHECK-NEXT: arith.constant 2.0
// CHECK-NEXT: linalg.generic
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[T1:.+]] = call @tlc_profile_clock() : () -> i64
// CHECK-NEXT: %[[D:.+]] = arith.subi %[[T1]], %[[T0]] : i64
// CHECK-NEXT: %[[NS:.+]] = memref.get_global @m_profile_ns : memref<2xi64>
// CHECK-NEXT: %[[K:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[OLD:.+]] = memref.load %[[NS]][%[[K]]]
// CHECK-NEXT: %[[NEW:.+]] = arith.addi %[[OLD]], %[[D]] : i64
// CHECK-NEXT: memref.store %[[NEW]], %[[NS]][%[[K]]]
// CHECK-NEXT: call @tlc_profile_clock()
// CHECK-NEXT: linalg.generic
// CHECK: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: call @tlc_profile_clock()
// CHECK: arith.constant 1 : index
// CHECK: return
func.func private @m_impl(%x: memref<16x4xf32>, %w: memref<4x8xf32>, %y: memref<16x8xf32>,
                          %z: memref<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<16x8xf32>)
  linalg.matmul ins(%x, %w : memref<16x4xf32>, memref<4x8xf32>) outs(%y : memref<16x8xf32>)
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%y : memref<16x8xf32>) {
  ^bb0(%o: f32):
    %r = arith.addf %o, %two : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%z : memref<16x8xf32>) {
  ^bb0(%o: f32):
    %r = arith.addf %o, %o : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// expected-error @+1 {{tlc-instrument-profile: no one-block model function 'm_impl' (run it after tlc-add-entry-point)}}
module {
  func.func @other() {
    return
  }
}

// -----

// An int8 contraction counts its integer multiply and add (16 x 8 x 4 of each: 1024 ops), not
// its two extensions; the float epilogue (the same kernel: it reads the contraction's output)
// counts its conversion and multiply (16 x 8 x 2: 256).
// CHECK-DAG: memref.global "public" constant @m_profile_flops : memref<1xi64> = dense<1280>
func.func private @m_impl(%x: memref<16x4xi8>, %w: memref<4x8xi8>, %acc: memref<16x8xi32>,
                          %y: memref<16x8xf32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%acc : memref<16x8xi32>)
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<16x4xi8>, memref<4x8xi8>) outs(%acc : memref<16x8xi32>) {
  ^bb0(%a: i8, %b: i8, %s: i32):
    %a32 = arith.extui %a : i8 to i32
    %b32 = arith.extsi %b : i8 to i32
    %m = arith.muli %a32, %b32 : i32
    %r = arith.addi %s, %m : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<16x8xi32>) outs(%y : memref<16x8xf32>) {
  ^bb0(%i: i32, %o: f32):
    %f = arith.sitofp %i : i32 to f32
    %s = arith.constant 0.5 : f32
    %r = arith.mulf %f, %s : f32
    linalg.yield %r : f32
  }
  return
}
