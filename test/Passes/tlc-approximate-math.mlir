// RUN: tlc-opt %s -split-input-file -tlc-approximate-math | FileCheck %s

// tanh: clamp to [-7.99881172, 7.99881172], then a rational polynomial (odd numerator over
// even denominator), with x itself returned near zero.
// CHECK-LABEL: func.func @tanh
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NOT: math.tanh
// CHECK-DAG: %[[HI:.+]] = arith.constant 7.99881172 : f32
// CHECK-DAG: %[[LO:.+]] = arith.constant -7.99881172 : f32
// CHECK: arith.cmpf ult, %[[X]], %[[HI]] : f32
// CHECK: math.fma
// CHECK: %[[Q:.+]] = arith.divf
// CHECK: %[[R:.+]] = arith.select %{{.+}}, %{{.+}}, %[[Q]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @tanh(%x: f32) -> f32 {
  %0 = math.tanh %x : f32
  return %0 : f32
}

// -----

// f32 erf: tlc's single rational function, not upstream's three intervals. Clamp to [-4, 4]
// (compare-and-select, so NaN flows through), x P(x^2) with P of degree 6 and Q(x^2) of degree
// 4 by Horner, one division, the result clamped to [-1, 1].
// CHECK-LABEL: func.func @erf
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NOT: math.erf
// CHECK-DAG: %[[M1:.+]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[M4:.+]] = arith.constant -4.000000e+00 : f32
// CHECK-DAG: %[[FOUR:.+]] = arith.constant 4.000000e+00 : f32
// CHECK-DAG: %[[P0:.+]] = arith.constant 1.12837911 : f32
// CHECK: %[[LT:.+]] = arith.cmpf olt, %[[X]], %[[M4]] : f32
// CHECK: %[[A:.+]] = arith.select %[[LT]], %[[M4]], %[[X]] : f32
// CHECK: %[[GT:.+]] = arith.cmpf ogt, %[[A]], %[[FOUR]] : f32
// CHECK: %[[XC:.+]] = arith.select %[[GT]], %[[FOUR]], %[[A]] : f32
// CHECK: %[[S:.+]] = arith.mulf %[[XC]], %[[XC]] : f32
// CHECK-COUNT-5: math.fma %{{.+}}, %[[S]], %{{.+}} : f32
// CHECK: %[[P:.+]] = math.fma %{{.+}}, %[[S]], %[[P0]] : f32
// CHECK: %[[NUM:.+]] = arith.mulf %[[XC]], %[[P]] : f32
// CHECK-COUNT-3: math.fma %{{.+}}, %[[S]], %{{.+}} : f32
// CHECK: %[[Q:.+]] = math.fma %{{.+}}, %[[S]], %[[ONE]] : f32
// CHECK: %[[R:.+]] = arith.divf %[[NUM]], %[[Q]] : f32
// CHECK: arith.cmpf olt, %[[R]], %[[M1]] : f32
// CHECK: arith.select
// CHECK: arith.cmpf ogt, %{{.+}}, %[[ONE]] : f32
// CHECK: %[[Y:.+]] = arith.select
// CHECK-NEXT: return %[[Y]] : f32
func.func @erf(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  return %0 : f32
}

// -----

// Vector and f16 erf: the same expansion on vectors; f16 is computed in f32 (upstream's
// f16-via-f32 rewrite, then the expansion above).
// CHECK-LABEL: func.func @erf_vector_f16
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>, %[[H:.+]]: f16)
// CHECK-NOT: math.erf
// CHECK: arith.divf %{{.+}}, %{{.+}} : vector<16xf32>
// CHECK: arith.extf %[[H]] : f16 to f32
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @erf_vector_f16(%v: vector<16xf32>, %h: f16) -> (vector<16xf32>, f16) {
  %0 = math.erf %v : vector<16xf32>
  %1 = math.erf %h : f16
  return %0, %1 : vector<16xf32>, f16
}

// -----

// f32 exp on vectors (what the vectorizer produces): tlc's short expansion, not upstream's.
// Clamp, k + 126 in the low bits of t = x * log2(e) + 1.5 * 2^23 + 126, Cody-Waite reduction,
// a degree-5 polynomial, 2^(k-1) from the bits of t. The clamps are compare-and-select, so a
// NaN fails both compares and reaches the result.
// CHECK-LABEL: func.func @exp_vector
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>)
// CHECK-NOT: math.exp
// CHECK-NOT: math.floor
// CHECK-DAG: %[[LO:.+]] = arith.constant dense<-8.750000e+01> : vector<16xf32>
// CHECK-DAG: %[[HI:.+]] = arith.constant dense<8.880000e+01> : vector<16xf32>
// CHECK-DAG: %[[SHIFT:.+]] = arith.constant dense<0x4B40007E> : vector<16xf32>
// CHECK-DAG: %[[C23:.+]] = arith.constant dense<23> : vector<16xi32>
// CHECK: %[[BELOW:.+]] = arith.cmpf olt, %[[V]], %[[LO]] : vector<16xf32>
// CHECK: %[[A:.+]] = arith.select %[[BELOW]], %[[LO]], %[[V]] : vector<16xi1>, vector<16xf32>
// CHECK: %[[ABOVE:.+]] = arith.cmpf ogt, %[[A]], %[[HI]] : vector<16xf32>
// CHECK: %[[XC:.+]] = arith.select %[[ABOVE]], %[[HI]], %[[A]] : vector<16xi1>, vector<16xf32>
// CHECK: %[[T:.+]] = math.fma %[[XC]], %{{.+}}, %[[SHIFT]] : vector<16xf32>
// CHECK: %[[K:.+]] = arith.subf %[[T]], %[[SHIFT]] : vector<16xf32>
// CHECK: %[[R0:.+]] = math.fma %[[K]], %{{.+}}, %[[XC]] : vector<16xf32>
// CHECK: %[[R:.+]] = math.fma %[[K]], %{{.+}}, %[[R0]] : vector<16xf32>
// CHECK-COUNT-5: math.fma %{{.+}}, %[[R]], %{{.+}} : vector<16xf32>
// CHECK: %[[B:.+]] = arith.bitcast %[[T]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[S:.+]] = arith.shli %[[B]], %[[C23]] : vector<16xi32>
// CHECK: %[[SC:.+]] = arith.bitcast %[[S]] : vector<16xi32> to vector<16xf32>
// CHECK: %[[Y:.+]] = arith.mulf %{{.+}}, %[[SC]] : vector<16xf32>
// CHECK-NEXT: return %[[Y]] : vector<16xf32>
func.func @exp_vector(%v: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %v : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// An exp whose argument is known <= 0 or NaN (tlc.nonpositive_arg, x - max in softmax): only
// the underflow clamp, then the same expansion.
// CHECK-LABEL: func.func @exp_nonpositive_arg
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>)
// CHECK-NOT: math.exp
// CHECK-NOT: 8.880000e+01
// CHECK-DAG: %[[LO:.+]] = arith.constant dense<-8.750000e+01> : vector<16xf32>
// CHECK-DAG: %[[SHIFT:.+]] = arith.constant dense<0x4B40007E> : vector<16xf32>
// CHECK: %[[BELOW:.+]] = arith.cmpf olt, %[[V]], %[[LO]] : vector<16xf32>
// CHECK: %[[XC:.+]] = arith.select %[[BELOW]], %[[LO]], %[[V]] : vector<16xi1>, vector<16xf32>
// CHECK-NOT: arith.cmpf
// CHECK: %[[T:.+]] = math.fma %[[XC]], %{{.+}}, %[[SHIFT]] : vector<16xf32>
// CHECK: math.fma %{{.+}}, %{{.+}}, %[[XC]] : vector<16xf32>
// CHECK-COUNT-6: math.fma
// CHECK: %[[Y:.+]] = arith.mulf
// CHECK-NEXT: return %[[Y]] : vector<16xf32>
func.func @exp_nonpositive_arg(%v: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %v {tlc.nonpositive_arg} : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// Scalar f32 exp takes the same expansion; f16 exp is left to MLIR's (computed in f32, where
// the expansion above then applies).
// CHECK-LABEL: func.func @exp_scalar_f16
// CHECK-SAME: (%[[X:.+]]: f32, %[[H:.+]]: f16)
// CHECK-NOT: math.exp
// CHECK: arith.cmpf olt, %[[X]], %{{.+}} : f32
// CHECK: arith.shli %{{.+}} : i32
// CHECK: arith.extf %[[H]] : f16 to f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @exp_scalar_f16(%x: f32, %h: f16) -> (f32, f16) {
  %0 = math.exp %x : f32
  %1 = math.exp %h : f16
  return %0, %1 : f32, f16
}

// -----

// f16 is computed in f32 and truncated back.
// CHECK-LABEL: func.func @tanh_f16
// CHECK-SAME: (%[[H:.+]]: f16)
// CHECK: arith.extf %[[H]] : f16 to f32
// CHECK-NOT: math.tanh
// CHECK: %[[T:.+]] = arith.truncf %{{.+}} : f32 to f16
// CHECK: return %[[T]] : f16
func.func @tanh_f16(%h: f16) -> f16 {
  %0 = math.tanh %h : f16
  return %0 : f16
}

// -----

// Negative: ops it does not approximate (sqrt, powf) and f64 math stay as they are.
// CHECK-LABEL: func.func @untouched
// CHECK-SAME: (%[[X:.+]]: f32, %[[D:.+]]: f64)
// CHECK-NEXT: %[[S:.+]] = math.sqrt %[[X]] : f32
// CHECK-NEXT: %[[P:.+]] = math.powf %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[D]] : f64
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[D]] : f64
// CHECK-NEXT: %[[R:.+]] = math.erf %[[D]] : f64
// CHECK-NEXT: return %[[S]], %[[P]], %[[E]], %[[T]], %[[R]]
func.func @untouched(%x: f32, %d: f64) -> (f32, f32, f64, f64, f64) {
  %0 = math.sqrt %x : f32
  %1 = math.powf %x, %x : f32
  %2 = math.exp %d : f64
  %3 = math.tanh %d : f64
  %4 = math.erf %d : f64
  return %0, %1, %2, %3, %4 : f32, f32, f64, f64, f64
}

// -----

// erf(c x) with a constant c (GELU's erf(x / sqrt 2)): c folds into the coefficients (P's
// constant term 1.12837911 c = 0.797884523, the clamp at 4 / c) and the multiply by c goes away.
// CHECK-LABEL: func.func @erf_scaled
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>)
// CHECK-NOT: math.erf
// CHECK-DAG: %[[M:.+]] = arith.constant dense<-5.65685415> : vector<16xf32>
// CHECK-DAG: %[[P:.+]] = arith.constant dense<5.65685415> : vector<16xf32>
// CHECK-DAG: %[[P0:.+]] = arith.constant dense<0.797884523> : vector<16xf32>
// CHECK-NOT: arith.mulf %[[V]], %{{.+}} : vector<16xf32>
// CHECK: %[[LT:.+]] = arith.cmpf olt, %[[V]], %[[M]] : vector<16xf32>
// CHECK: %[[A:.+]] = arith.select %[[LT]], %[[M]], %[[V]]
// CHECK: %[[GT:.+]] = arith.cmpf ogt, %[[A]], %[[P]] : vector<16xf32>
// CHECK: %[[XC:.+]] = arith.select %[[GT]], %[[P]], %[[A]]
// CHECK: %[[S:.+]] = arith.mulf %[[XC]], %[[XC]] : vector<16xf32>
// CHECK: %[[PS:.+]] = math.fma %{{.+}}, %[[S]], %[[P0]] : vector<16xf32>
// CHECK: arith.mulf %[[XC]], %[[PS]] : vector<16xf32>
// CHECK: arith.divf
func.func @erf_scaled(%v: vector<16xf32>) -> vector<16xf32> {
  %c = arith.constant dense<0.707106769> : vector<16xf32>
  %x = arith.mulf %v, %c : vector<16xf32>
  %0 = math.erf %x : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// Not folded: a factor that is not a constant, or one outside [1/16, 16] (its scaled
// coefficients could leave f32's normal range): the product is computed and clamped to +-4.
// CHECK-LABEL: func.func @erf_scaled_not_folded
// CHECK-SAME: (%[[X:.+]]: f32, %[[Y:.+]]: f32)
// CHECK: %[[XY:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK: arith.cmpf olt, %[[XY]], %{{.+}} : f32
// CHECK: %[[XB:.+]] = arith.mulf %[[X]], %{{.+}} : f32
// CHECK: arith.cmpf olt, %[[XB]], %{{.+}} : f32
func.func @erf_scaled_not_folded(%x: f32, %y: f32) -> (f32, f32) {
  %big = arith.constant 100.0 : f32
  %xy = arith.mulf %x, %y : f32
  %0 = math.erf %xy : f32
  %xb = arith.mulf %x, %big : f32
  %1 = math.erf %xb : f32
  return %0, %1 : f32, f32
}
