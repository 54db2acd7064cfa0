// RUN: tlc-opt %s -split-input-file | tlc-opt -split-input-file | FileCheck %s
// RUN: tlc-opt %s -split-input-file -mlir-print-op-generic | tlc-opt -split-input-file | FileCheck %s

// Round trip (parse, print, parse, print) of every tl op and its variants. The second RUN line
// goes through the generic form, so the custom printer and parser must agree with the
// properties they carry (enum attributes, unit keepdims, default gelu approximation).

// CHECK-LABEL: func.func @constants
// CHECK: tl.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK: tl.constant dense<0.000000e+00> : tensor<16xf32>
// CHECK: tl.constant dense<[1, -2, 3]> : tensor<3xi32>
// CHECK: tl.constant dense<7> : tensor<i64>
// CHECK: tl.constant dense<[true, false]> : tensor<2xi1>
// CHECK: tl.constant dense<1.500000e+00> : tensor<2x3xbf16>
// CHECK: tl.constant dense<-2.500000e-01> : tensor<4xf16>
// CHECK: tl.constant dense<3.000000e+00> : tensor<f64>
func.func @constants() -> (tensor<2x2xf32>, tensor<16xf32>, tensor<3xi32>, tensor<i64>,
                           tensor<2xi1>, tensor<2x3xbf16>, tensor<4xf16>, tensor<f64>) {
  %0 = tl.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %1 = tl.constant dense<0.0> : tensor<16xf32>
  %2 = tl.constant dense<[1, -2, 3]> : tensor<3xi32>
  %3 = tl.constant dense<7> : tensor<i64>
  %4 = tl.constant dense<[true, false]> : tensor<2xi1>
  %5 = tl.constant dense<1.5> : tensor<2x3xbf16>
  %6 = tl.constant dense<-0.25> : tensor<4xf16>
  %7 = tl.constant dense<3.0> : tensor<f64>
  return %0, %1, %2, %3, %4, %5, %6, %7
      : tensor<2x2xf32>, tensor<16xf32>, tensor<3xi32>, tensor<i64>, tensor<2xi1>,
        tensor<2x3xbf16>, tensor<4xf16>, tensor<f64>
}

// -----

// CHECK-LABEL: func.func @einsum_explicit
// CHECK-SAME: (%[[A:.+]]: tensor<3x4xf32>, %[[B:.+]]: tensor<4x5xf32>, %[[BA:.+]]: tensor<2x3x4xf32>, %[[BB:.+]]: tensor<2x4x5xf32>)
// CHECK: tl.einsum "ij,jk->ik" %[[A]], %[[B]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK: tl.einsum "bij,bjk->bik" %[[BA]], %[[BB]] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK: tl.einsum "ij->ji" %[[A]] : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK: tl.einsum "ij->" %[[A]] : (tensor<3x4xf32>) -> tensor<f32>
func.func @einsum_explicit(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %ba: tensor<2x3x4xf32>,
                           %bb: tensor<2x4x5xf32>)
    -> (tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<4x3xf32>, tensor<f32>) {
  %0 = tl.einsum "ij,jk->ik" %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %1 = tl.einsum "bij,bjk->bik" %ba, %bb : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %2 = tl.einsum "ij->ji" %a : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %3 = tl.einsum "ij->" %a : (tensor<3x4xf32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<4x3xf32>, tensor<f32>
}

// -----

// Implicit output: labels seen once, sorted ("ba,ac" gives "bc"; "ji" gives "ij", a transpose).
// CHECK-LABEL: func.func @einsum_implicit
// CHECK-SAME: (%[[A:.+]]: tensor<3x4xf64>, %[[B:.+]]: tensor<4x5xf64>)
// CHECK: tl.einsum "ij,jk" %[[A]], %[[B]] : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
// CHECK: tl.einsum "ji" %[[A]] : (tensor<3x4xf64>) -> tensor<4x3xf64>
// CHECK: tl.einsum "ba,ac" %[[A]], %[[B]] : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
func.func @einsum_implicit(%a: tensor<3x4xf64>, %b: tensor<4x5xf64>)
    -> (tensor<3x5xf64>, tensor<4x3xf64>, tensor<3x5xf64>) {
  %0 = tl.einsum "ij,jk" %a, %b : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
  %1 = tl.einsum "ji" %a : (tensor<3x4xf64>) -> tensor<4x3xf64>
  %2 = tl.einsum "ba,ac" %a, %b : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
  return %0, %1, %2 : tensor<3x5xf64>, tensor<4x3xf64>, tensor<3x5xf64>
}

// -----

// CHECK-LABEL: func.func @einsum_ellipsis
// CHECK-SAME: (%[[A:.+]]: tensor<2x1x3x4xf16>, %[[B:.+]]: tensor<5x4x6xf16>, %[[C:.+]]: tensor<4x6xf16>)
// CHECK: tl.einsum "...ij,...jk->...ik" %[[A]], %[[B]] : (tensor<2x1x3x4xf16>, tensor<5x4x6xf16>) -> tensor<2x5x3x6xf16>
// CHECK: tl.einsum "...ij,jk" %[[A]], %[[C]] : (tensor<2x1x3x4xf16>, tensor<4x6xf16>) -> tensor<2x1x3x6xf16>
// CHECK: tl.einsum "i...->...i" %[[C]] : (tensor<4x6xf16>) -> tensor<6x4xf16>
// CHECK: tl.einsum "...,..." %[[C]], %[[C]] : (tensor<4x6xf16>, tensor<4x6xf16>) -> tensor<4x6xf16>
func.func @einsum_ellipsis(%a: tensor<2x1x3x4xf16>, %b: tensor<5x4x6xf16>, %c: tensor<4x6xf16>)
    -> (tensor<2x5x3x6xf16>, tensor<2x1x3x6xf16>, tensor<6x4xf16>, tensor<4x6xf16>) {
  %0 = tl.einsum "...ij,...jk->...ik" %a, %b : (tensor<2x1x3x4xf16>, tensor<5x4x6xf16>) -> tensor<2x5x3x6xf16>
  %1 = tl.einsum "...ij,jk" %a, %c : (tensor<2x1x3x4xf16>, tensor<4x6xf16>) -> tensor<2x1x3x6xf16>
  %2 = tl.einsum "i...->...i" %c : (tensor<4x6xf16>) -> tensor<6x4xf16>
  %3 = tl.einsum "...,..." %c, %c : (tensor<4x6xf16>, tensor<4x6xf16>) -> tensor<4x6xf16>
  return %0, %1, %2, %3 : tensor<2x5x3x6xf16>, tensor<2x1x3x6xf16>, tensor<6x4xf16>, tensor<4x6xf16>
}

// -----

// Labels repeated within one operand: diagonal (explicit) and trace (implicit).
// CHECK-LABEL: func.func @einsum_diagonal
// CHECK-SAME: (%[[M:.+]]: tensor<4x4xbf16>, %[[T:.+]]: tensor<3x3x5xbf16>)
// CHECK: tl.einsum "ii->i" %[[M]] : (tensor<4x4xbf16>) -> tensor<4xbf16>
// CHECK: tl.einsum "ii" %[[M]] : (tensor<4x4xbf16>) -> tensor<bf16>
// CHECK: tl.einsum "iij->j" %[[T]] : (tensor<3x3x5xbf16>) -> tensor<5xbf16>
func.func @einsum_diagonal(%m: tensor<4x4xbf16>, %t: tensor<3x3x5xbf16>)
    -> (tensor<4xbf16>, tensor<bf16>, tensor<5xbf16>) {
  %0 = tl.einsum "ii->i" %m : (tensor<4x4xbf16>) -> tensor<4xbf16>
  %1 = tl.einsum "ii" %m : (tensor<4x4xbf16>) -> tensor<bf16>
  %2 = tl.einsum "iij->j" %t : (tensor<3x3x5xbf16>) -> tensor<5xbf16>
  return %0, %1, %2 : tensor<4xbf16>, tensor<bf16>, tensor<5xbf16>
}

// -----

// CHECK-LABEL: func.func @einsum_multi_operand
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xi32>, %[[B:.+]]: tensor<3x4xi32>, %[[C:.+]]: tensor<4x5xi32>, %[[V:.+]]: tensor<3xi64>, %[[W:.+]]: tensor<5xi64>)
// CHECK: tl.einsum "ij,jk,kl->il" %[[A]], %[[B]], %[[C]] : (tensor<2x3xi32>, tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<2x5xi32>
// CHECK: tl.einsum "i,j->ij" %[[V]], %[[W]] : (tensor<3xi64>, tensor<5xi64>) -> tensor<3x5xi64>
// CHECK: tl.einsum "i, j -> ji" %[[V]], %[[W]] : (tensor<3xi64>, tensor<5xi64>) -> tensor<5x3xi64>
func.func @einsum_multi_operand(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>, %c: tensor<4x5xi32>,
                                %v: tensor<3xi64>, %w: tensor<5xi64>)
    -> (tensor<2x5xi32>, tensor<3x5xi64>, tensor<5x3xi64>) {
  %0 = tl.einsum "ij,jk,kl->il" %a, %b, %c : (tensor<2x3xi32>, tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<2x5xi32>
  %1 = tl.einsum "i,j->ij" %v, %w : (tensor<3xi64>, tensor<5xi64>) -> tensor<3x5xi64>
  %2 = tl.einsum "i, j -> ji" %v, %w : (tensor<3xi64>, tensor<5xi64>) -> tensor<5x3xi64>
  return %0, %1, %2 : tensor<2x5xi32>, tensor<3x5xi64>, tensor<5x3xi64>
}

// -----

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>, %[[I:.+]]: tensor<4x1xi32>, %[[J:.+]]: tensor<1x8xi32>, %[[P:.+]]: tensor<2xi1>, %[[L:.+]]: tensor<i64>)
// CHECK: tl.add %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK: tl.sub %[[B]], %[[A]] : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: tl.mul %[[I]], %[[J]] : tensor<4x1xi32>, tensor<1x8xi32> -> tensor<4x8xi32>
// CHECK: tl.div %[[A]], %[[A]] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: tl.pow %[[I]], %[[I]] : tensor<4x1xi32>, tensor<4x1xi32> -> tensor<4x1xi32>
// CHECK: tl.max %[[P]], %[[P]] : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
// CHECK: tl.min %[[L]], %[[L]] : tensor<i64>, tensor<i64> -> tensor<i64>
// CHECK: tl.rem %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK: tl.rem %[[I]], %[[J]] : tensor<4x1xi32>, tensor<1x8xi32> -> tensor<4x8xi32>
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<4x1xi32>,
                  %j: tensor<1x8xi32>, %p: tensor<2xi1>, %l: tensor<i64>) {
  %0 = tl.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = tl.sub %b, %a : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %2 = tl.mul %i, %j : tensor<4x1xi32>, tensor<1x8xi32> -> tensor<4x8xi32>
  %3 = tl.div %a, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %4 = tl.pow %i, %i : tensor<4x1xi32>, tensor<4x1xi32> -> tensor<4x1xi32>
  %5 = tl.max %p, %p : tensor<2xi1>, tensor<2xi1> -> tensor<2xi1>
  %6 = tl.min %l, %l : tensor<i64>, tensor<i64> -> tensor<i64>
  %7 = tl.rem %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %8 = tl.rem %i, %j : tensor<4x1xi32>, tensor<1x8xi32> -> tensor<4x8xi32>
  return
}

// -----

// Binary ops over every float element type.
// CHECK-LABEL: func.func @binary_float_types
// CHECK: tl.add %{{.+}}, %{{.+}} : tensor<2xf16>, tensor<2xf16> -> tensor<2xf16>
// CHECK: tl.mul %{{.+}}, %{{.+}} : tensor<2xbf16>, tensor<1xbf16> -> tensor<2xbf16>
// CHECK: tl.pow %{{.+}}, %{{.+}} : tensor<3x2xf64>, tensor<2xf64> -> tensor<3x2xf64>
func.func @binary_float_types(%h: tensor<2xf16>, %b: tensor<2xbf16>, %b1: tensor<1xbf16>,
                              %d: tensor<3x2xf64>, %e: tensor<2xf64>) {
  %0 = tl.add %h, %h : tensor<2xf16>, tensor<2xf16> -> tensor<2xf16>
  %1 = tl.mul %b, %b1 : tensor<2xbf16>, tensor<1xbf16> -> tensor<2xbf16>
  %2 = tl.pow %d, %e : tensor<3x2xf64>, tensor<2xf64> -> tensor<3x2xf64>
  return
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[H:.+]]: tensor<3xf16>, %[[B:.+]]: tensor<3xbf16>, %[[D:.+]]: tensor<f64>, %[[I:.+]]: tensor<5xi32>, %[[L:.+]]: tensor<5xi64>)
// CHECK: tl.neg %[[X]] : tensor<4x8xf32>
// CHECK: tl.neg %[[I]] : tensor<5xi32>
// CHECK: tl.abs %[[L]] : tensor<5xi64>
// CHECK: tl.abs %[[H]] : tensor<3xf16>
// CHECK: tl.exp %[[B]] : tensor<3xbf16>
// CHECK: tl.log %[[D]] : tensor<f64>
// CHECK: tl.sqrt %[[X]] : tensor<4x8xf32>
// CHECK: tl.rsqrt %[[H]] : tensor<3xf16>
// CHECK: tl.tanh %[[B]] : tensor<3xbf16>
// CHECK: tl.sigmoid %[[D]] : tensor<f64>
// CHECK: tl.relu %[[X]] : tensor<4x8xf32>
// CHECK: tl.relu %[[I]] : tensor<5xi32>
// CHECK: tl.erf %[[X]] : tensor<4x8xf32>
// CHECK: tl.sin %[[X]] : tensor<4x8xf32>
// CHECK: tl.cos %[[H]] : tensor<3xf16>
// CHECK: tl.tan %[[D]] : tensor<f64>
// CHECK: tl.asin %[[X]] : tensor<4x8xf32>
// CHECK: tl.acos %[[X]] : tensor<4x8xf32>
// CHECK: tl.atan %[[B]] : tensor<3xbf16>
// CHECK: tl.sinh %[[X]] : tensor<4x8xf32>
// CHECK: tl.cosh %[[X]] : tensor<4x8xf32>
// CHECK: tl.asinh %[[X]] : tensor<4x8xf32>
// CHECK: tl.acosh %[[X]] : tensor<4x8xf32>
// CHECK: tl.atanh %[[X]] : tensor<4x8xf32>
// CHECK: tl.round %[[X]] : tensor<4x8xf32>
func.func @unary(%x: tensor<4x8xf32>, %h: tensor<3xf16>, %b: tensor<3xbf16>, %d: tensor<f64>,
                 %i: tensor<5xi32>, %l: tensor<5xi64>) {
  %0 = tl.neg %x : tensor<4x8xf32>
  %1 = tl.neg %i : tensor<5xi32>
  %2 = tl.abs %l : tensor<5xi64>
  %3 = tl.abs %h : tensor<3xf16>
  %4 = tl.exp %b : tensor<3xbf16>
  %5 = tl.log %d : tensor<f64>
  %6 = tl.sqrt %x : tensor<4x8xf32>
  %7 = tl.rsqrt %h : tensor<3xf16>
  %8 = tl.tanh %b : tensor<3xbf16>
  %9 = tl.sigmoid %d : tensor<f64>
  %10 = tl.relu %x : tensor<4x8xf32>
  %11 = tl.relu %i : tensor<5xi32>
  %12 = tl.erf %x : tensor<4x8xf32>
  %13 = tl.sin %x : tensor<4x8xf32>
  %14 = tl.cos %h : tensor<3xf16>
  %15 = tl.tan %d : tensor<f64>
  %16 = tl.asin %x : tensor<4x8xf32>
  %17 = tl.acos %x : tensor<4x8xf32>
  %18 = tl.atan %b : tensor<3xbf16>
  %19 = tl.sinh %x : tensor<4x8xf32>
  %20 = tl.cosh %x : tensor<4x8xf32>
  %21 = tl.asinh %x : tensor<4x8xf32>
  %22 = tl.acosh %x : tensor<4x8xf32>
  %23 = tl.atanh %x : tensor<4x8xf32>
  %24 = tl.round %x : tensor<4x8xf32>
  return
}

// -----

// The default approximation (none) is not printed, whether written or implied.
// CHECK-LABEL: func.func @gelu
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<2xbf16>)
// CHECK: tl.gelu %[[X]] approximate = tanh : tensor<4x8xf32>
// CHECK: tl.gelu %[[X]] : tensor<4x8xf32>
// CHECK: tl.gelu %[[X]] : tensor<4x8xf32>
// CHECK: tl.gelu %[[B]] approximate = tanh : tensor<2xbf16>
func.func @gelu(%x: tensor<4x8xf32>, %b: tensor<2xbf16>) {
  %0 = tl.gelu %x approximate = tanh : tensor<4x8xf32>
  %1 = tl.gelu %x : tensor<4x8xf32>
  %2 = tl.gelu %x approximate = none : tensor<4x8xf32>
  %3 = tl.gelu %b approximate = tanh : tensor<2xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>, %[[I:.+]]: tensor<3xi64>, %[[P:.+]]: tensor<3xi1>)
// CHECK: tl.compare eq %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
// CHECK: tl.compare ne %[[A]], %[[A]] : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
// CHECK: tl.compare lt %[[I]], %[[I]] : tensor<3xi64>, tensor<3xi64> -> tensor<3xi1>
// CHECK: tl.compare le %[[P]], %[[P]] : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
// CHECK: tl.compare gt %[[B]], %[[A]] : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
// CHECK: tl.compare ge %[[I]], %[[I]] : tensor<3xi64>, tensor<3xi64> -> tensor<3xi1>
func.func @compare(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<3xi64>, %p: tensor<3xi1>) {
  %0 = tl.compare eq %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xi1>
  %1 = tl.compare ne %a, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %2 = tl.compare lt %i, %i : tensor<3xi64>, tensor<3xi64> -> tensor<3xi1>
  %3 = tl.compare le %p, %p : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %4 = tl.compare gt %b, %a : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xi1>
  %5 = tl.compare ge %i, %i : tensor<3xi64>, tensor<3xi64> -> tensor<3xi1>
  return
}

// -----

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:.+]]: tensor<4x1xi1>, %[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>, %[[I:.+]]: tensor<i32>)
// CHECK: tl.select %[[C]], %[[A]], %[[B]] : tensor<4x1xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK: tl.select %[[C]], %[[I]], %[[I]] : tensor<4x1xi1>, tensor<i32>, tensor<i32> -> tensor<4x1xi32>
func.func @select(%c: tensor<4x1xi1>, %a: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<i32>) {
  %0 = tl.select %c, %a, %b : tensor<4x1xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = tl.select %c, %i, %i : tensor<4x1xi1>, tensor<i32>, tensor<i32> -> tensor<4x1xi32>
  return
}

// -----

// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[P:.+]]: tensor<3xi1>, %[[L:.+]]: tensor<3xi64>, %[[H:.+]]: tensor<3xf16>)
// CHECK: tl.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK: tl.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xi32>
// CHECK: tl.cast %[[X]] : tensor<4x8xf32> to tensor<4x8xf64>
// CHECK: tl.cast %[[P]] : tensor<3xi1> to tensor<3xf32>
// CHECK: tl.cast %[[L]] : tensor<3xi64> to tensor<3xi32>
// CHECK: tl.cast %[[L]] : tensor<3xi64> to tensor<3xi1>
// CHECK: tl.cast %[[H]] : tensor<3xf16> to tensor<3xbf16>
// CHECK: tl.cast %[[H]] : tensor<3xf16> to tensor<3xf16>
func.func @cast(%x: tensor<4x8xf32>, %p: tensor<3xi1>, %l: tensor<3xi64>, %h: tensor<3xf16>) {
  %0 = tl.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
  %1 = tl.cast %x : tensor<4x8xf32> to tensor<4x8xi32>
  %2 = tl.cast %x : tensor<4x8xf32> to tensor<4x8xf64>
  %3 = tl.cast %p : tensor<3xi1> to tensor<3xf32>
  %4 = tl.cast %l : tensor<3xi64> to tensor<3xi32>
  %5 = tl.cast %l : tensor<3xi64> to tensor<3xi1>
  %6 = tl.cast %h : tensor<3xf16> to tensor<3xbf16>
  %7 = tl.cast %h : tensor<3xf16> to tensor<3xf16>
  return
}

// -----

// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[T:.+]]: tensor<2x3x4xi32>, %[[H:.+]]: tensor<6xf16>, %[[P:.+]]: tensor<2x2xi1>)
// CHECK: tl.reduce_sum %[[X]] axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK: tl.reduce_sum %[[X]] axes = [-1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK: tl.reduce_sum %[[X]] axes = [] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: tl.reduce_mean %[[X]] axes = [0, 1] : tensor<4x8xf32> -> tensor<f32>
// CHECK: tl.reduce_mean %[[H]] axes = [0] keepdims : tensor<6xf16> -> tensor<1xf16>
// CHECK: tl.reduce_max %[[T]] axes = [2, 0] : tensor<2x3x4xi32> -> tensor<3xi32>
// CHECK: tl.reduce_max %[[T]] axes = [-3, 2] keepdims : tensor<2x3x4xi32> -> tensor<1x3x1xi32>
// CHECK: tl.reduce_min %[[P]] axes = [0] : tensor<2x2xi1> -> tensor<2xi1>
// CHECK: tl.reduce_min %[[X]] axes = [0] keepdims : tensor<4x8xf32> -> tensor<1x8xf32>
func.func @reductions(%x: tensor<4x8xf32>, %t: tensor<2x3x4xi32>, %h: tensor<6xf16>,
                      %p: tensor<2x2xi1>) {
  %0 = tl.reduce_sum %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %1 = tl.reduce_sum %x axes = [-1] : tensor<4x8xf32> -> tensor<4xf32>
  %2 = tl.reduce_sum %x axes = [] : tensor<4x8xf32> -> tensor<4x8xf32>
  %3 = tl.reduce_mean %x axes = [0, 1] : tensor<4x8xf32> -> tensor<f32>
  %4 = tl.reduce_mean %h axes = [0] keepdims : tensor<6xf16> -> tensor<1xf16>
  %5 = tl.reduce_max %t axes = [2, 0] : tensor<2x3x4xi32> -> tensor<3xi32>
  %6 = tl.reduce_max %t axes = [-3, 2] keepdims : tensor<2x3x4xi32> -> tensor<1x3x1xi32>
  %7 = tl.reduce_min %p axes = [0] : tensor<2x2xi1> -> tensor<2xi1>
  %8 = tl.reduce_min %x axes = [0] keepdims : tensor<4x8xf32> -> tensor<1x8xf32>
  return
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<2x3xbf16>)
// CHECK: tl.softmax %[[X]] axis = 1 : tensor<4x8xf32>
// CHECK: tl.softmax %[[B]] axis = -2 : tensor<2x3xbf16>
// CHECK: tl.log_softmax %[[X]] axis = 0 : tensor<4x8xf32>
// CHECK: tl.log_softmax %[[B]] axis = -1 : tensor<2x3xbf16>
func.func @softmax(%x: tensor<4x8xf32>, %b: tensor<2x3xbf16>) {
  %0 = tl.softmax %x axis = 1 : tensor<4x8xf32>
  %1 = tl.softmax %b axis = -2 : tensor<2x3xbf16>
  %2 = tl.log_softmax %x axis = 0 : tensor<4x8xf32>
  %3 = tl.log_softmax %b axis = -1 : tensor<2x3xbf16>
  return
}

// -----

// CHECK-LABEL: func.func @shape_ops
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>, %[[V:.+]]: tensor<8xi64>, %[[A:.+]]: tensor<2x8xf32>, %[[S:.+]]: tensor<f16>)
// CHECK: tl.reshape %[[X]] : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK: tl.reshape %[[S]] : tensor<f16> -> tensor<1x1xf16>
// CHECK: tl.transpose %[[X]] perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK: tl.broadcast_to %[[V]] : tensor<8xi64> -> tensor<4x8xi64>
// CHECK: tl.broadcast_to %[[S]] : tensor<f16> -> tensor<2x3xf16>
// CHECK: tl.concat %[[X]], %[[A]] axis = 0 : tensor<4x8xf32>, tensor<2x8xf32> -> tensor<6x8xf32>
// CHECK: tl.concat %[[X]], %[[X]], %[[X]] axis = -1 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x24xf32>
// CHECK: tl.concat %[[V]] axis = 0 : tensor<8xi64> -> tensor<8xi64>
// CHECK: tl.slice %[[X]] offsets = [0, 2] sizes = [4, 3] strides = [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
// CHECK: tl.slice %[[V]] offsets = [7] sizes = [0] strides = [3] : tensor<8xi64> -> tensor<0xi64>
func.func @shape_ops(%x: tensor<4x8xf32>, %v: tensor<8xi64>, %a: tensor<2x8xf32>, %s: tensor<f16>) {
  %0 = tl.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
  %1 = tl.reshape %s : tensor<f16> -> tensor<1x1xf16>
  %2 = tl.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %3 = tl.broadcast_to %v : tensor<8xi64> -> tensor<4x8xi64>
  %4 = tl.broadcast_to %s : tensor<f16> -> tensor<2x3xf16>
  %5 = tl.concat %x, %a axis = 0 : tensor<4x8xf32>, tensor<2x8xf32> -> tensor<6x8xf32>
  %6 = tl.concat %x, %x, %x axis = -1 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x24xf32>
  %7 = tl.concat %v axis = 0 : tensor<8xi64> -> tensor<8xi64>
  %8 = tl.slice %x offsets = [0, 2] sizes = [4, 3] strides = [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
  %9 = tl.slice %v offsets = [7] sizes = [0] strides = [3] : tensor<8xi64> -> tensor<0xi64>
  return
}
