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

// exp on vectors (what the vectorizer produces): range reduction by ln 2 and a 2^n built from
// the exponent bits.
// CHECK-LABEL: func.func @exp_vector
// CHECK-NOT: math.exp
// CHECK: math.floor %{{.+}} : vector<8xf32>
// CHECK: math.fma %{{.+}} : vector<8xf32>
// CHECK: arith.shli %{{.+}} : vector<8xi32>
// CHECK: return %{{.+}} : vector<8xf32>
func.func @exp_vector(%v: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %v : vector<8xf32>
  return %0 : vector<8xf32>
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
