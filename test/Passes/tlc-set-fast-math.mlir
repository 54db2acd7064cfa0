// RUN: tlc-opt %s -split-input-file -tlc-set-fast-math | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-set-fast-math="reassociate-reductions=false" | FileCheck %s --check-prefix=NOREASSOC
// RUN: tlc-opt %s -split-input-file -tlc-set-fast-math="contract=false" | FileCheck %s --check-prefix=NOCONTRACT
// RUN: tlc-opt %s -split-input-file -tlc-set-fast-math -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: tlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tlc-set-fast-math{contract=false reassociate-reductions=false}))' | FileCheck %s --check-prefix=NONE

// Only the combiner (the op consuming the accumulator) of a reduction gets reassoc; every float
// op gets contract.
// CHECK-LABEL: func.func @matmul
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[X]], %[[Y]] fastmath<contract> : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] fastmath<reassoc,contract> : f32
// NOREASSOC-LABEL: func.func @matmul
// NOREASSOC: arith.mulf %{{.+}}, %{{.+}} fastmath<contract> : f32
// NOREASSOC-NEXT: arith.addf %{{.+}}, %{{.+}} fastmath<contract> : f32
// NOCONTRACT-LABEL: func.func @matmul
// NOCONTRACT: arith.mulf %{{.+}}, %{{.+}} : f32
// NOCONTRACT-NEXT: arith.addf %{{.+}}, %{{.+}} fastmath<reassoc> : f32
// NONE-LABEL: func.func @matmul
// NONE: arith.mulf %{{.+}}, %{{.+}} : f32
// NONE-NEXT: arith.addf %{{.+}}, %{{.+}} : f32
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%c : tensor<8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// A max reduction's combiner is reassociated too (not contracted: no FMA); flags already
// present are kept.
// CHECK-LABEL: func.func @row_max
// CHECK: arith.maximumf %{{.+}}, %{{.+}} fastmath<reassoc,nnan> : f32
// NOREASSOC-LABEL: func.func @row_max
// NOREASSOC: arith.maximumf %{{.+}}, %{{.+}} fastmath<nnan> : f32
// NOCONTRACT-LABEL: func.func @row_max
// NOCONTRACT: arith.maximumf %{{.+}}, %{{.+}} fastmath<reassoc,nnan> : f32
// NONE-LABEL: func.func @row_max
// NONE: arith.maximumf %{{.+}}, %{{.+}} fastmath<nnan> : f32
func.func @row_max(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %acc, %x fastmath<nnan> : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Negative: a parallel generic that reads its output is not a reduction, so no reassoc; integer
// ops carry no fast-math flags at all; float ops outside generics get contract only, and only
// add/sub/mul/neg do (a contracted divide or cast enables no FMA, and contracted casts would let
// arith fold extf(truncf(x)) to x).
// CHECK-LABEL: func.func @not_a_reduction
// CHECK: ^bb0(%[[X:.+]]: f32, %[[O:.+]]: f32):
// CHECK-NEXT: arith.addf %[[O]], %[[X]] fastmath<contract> : f32
// CHECK: arith.addi %{{.+}}, %{{.+}} : i32
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK-NOT: reassoc
// NOREASSOC-LABEL: func.func @not_a_reduction
// NOREASSOC: arith.addf %{{.+}}, %{{.+}} fastmath<contract> : f32
// NOCONTRACT-LABEL: func.func @not_a_reduction
// NOCONTRACT: arith.addf %{{.+}}, %{{.+}} : f32
// NOCONTRACT: arith.divf %{{.+}}, %{{.+}} : f32
// NOCONTRACT-NOT: fastmath
func.func @not_a_reduction(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: i32, %f: f32) -> (tensor<4xf32>, i32, f32) {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %o, %x : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %1 = arith.addi %i, %i : i32
  %2 = arith.divf %f, %f : f32
  return %0, %1, %2 : tensor<4xf32>, i32, f32
}

// -----

// Negative: casts never get `contract`, so the f16 rounding of a round trip survives
// canonicalization.
// CHECK-LABEL: func.func @round_trip
// CHECK: %[[T:.+]] = arith.truncf %{{.+}} : f32 to f16
// CHECK: %[[E:.+]] = arith.extf %[[T]] : f16 to f32
// CHECK: return %[[E]]
// NOREASSOC-LABEL: func.func @round_trip
// NOCONTRACT-LABEL: func.func @round_trip
// NONE-LABEL: func.func @round_trip
// CANON-LABEL: func.func @round_trip
// CANON: arith.truncf
// CANON: arith.extf
func.func @round_trip(%x: f32) -> f32 {
  %t = arith.truncf %x : f32 to f16
  %e = arith.extf %t : f16 to f32
  return %e : f32
}
