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

// CHECK-LABEL: func.func @erf
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK: return
func.func @erf(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  return %0 : f32
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
// CHECK-NEXT: return %[[S]], %[[P]], %[[E]], %[[T]]
func.func @untouched(%x: f32, %d: f64) -> (f32, f32, f64, f64) {
  %0 = math.sqrt %x : f32
  %1 = math.powf %x, %x : f32
  %2 = math.exp %d : f64
  %3 = math.tanh %d : f64
  return %0, %1, %2, %3 : f32, f32, f64, f64
}
