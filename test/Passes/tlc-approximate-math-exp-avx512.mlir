// RUN: tlc-opt %s -split-input-file -tlc-approximate-math=x86-avx512=true | FileCheck %s

// f32 exp on 16 lanes with x86-avx512: clamp to [-104, 89] (only keeps r finite for
// infinities and huge |x|), k = roundeven(x * log2(e)) (vrndscaleps), the same Cody-Waite
// reduction and degree-5 polynomial as the portable form but with exp's own coefficients (not
// doubled), then exp(r) * 2^k by x86vector's scalef over all lanes in the current rounding
// mode: no exponent-bits shift.
// CHECK-LABEL: func.func @exp_vector16
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>)
// CHECK-NOT: math.exp
// CHECK-DAG: %[[LO:.+]] = arith.constant dense<-1.040000e+02> : vector<16xf32>
// CHECK-DAG: %[[HI:.+]] = arith.constant dense<8.900000e+01> : vector<16xf32>
// CHECK-DAG: %[[LOG2E:.+]] = arith.constant dense<1.44269502> : vector<16xf32>
// CHECK-DAG: %[[ONE:.+]] = arith.constant dense<1.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[ALL:.+]] = arith.constant -1 : i16
// CHECK-DAG: %[[CUR:.+]] = arith.constant 4 : i32
// CHECK: %[[BELOW:.+]] = arith.cmpf olt, %[[V]], %[[LO]] : vector<16xf32>
// CHECK: %[[A:.+]] = arith.select %[[BELOW]], %[[LO]], %[[V]]
// CHECK: %[[ABOVE:.+]] = arith.cmpf ogt, %[[A]], %[[HI]] : vector<16xf32>
// CHECK: %[[XC:.+]] = arith.select %[[ABOVE]], %[[HI]], %[[A]]
// CHECK: %[[T:.+]] = arith.mulf %[[XC]], %[[LOG2E]] : vector<16xf32>
// CHECK: %[[K:.+]] = math.roundeven %[[T]] : vector<16xf32>
// CHECK: %[[R0:.+]] = math.fma %[[K]], %{{.+}}, %[[XC]] : vector<16xf32>
// CHECK: %[[R:.+]] = math.fma %[[K]], %{{.+}}, %[[R0]] : vector<16xf32>
// CHECK-COUNT-4: math.fma %{{.+}}, %[[R]], %{{.+}} : vector<16xf32>
// CHECK: %[[P:.+]] = math.fma %{{.+}}, %[[R]], %[[ONE]] : vector<16xf32>
// CHECK-NOT: arith.shli
// CHECK: %[[Y:.+]] = x86vector.avx512.mask.scalef %[[P]], %[[K]], %[[P]], %[[ALL]], %[[CUR]] : vector<16xf32>
// CHECK-NEXT: return %[[Y]] : vector<16xf32>
func.func @exp_vector16(%v: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %v : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// tlc.nonpositive_arg (softmax's exp(x - max)): only the lower clamp, then the same form.
// CHECK-LABEL: func.func @exp_nonpositive_arg
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>)
// CHECK-NOT: 8.900000e+01
// CHECK: %[[BELOW:.+]] = arith.cmpf olt, %[[V]], %{{.+}} : vector<16xf32>
// CHECK: %[[XC:.+]] = arith.select %[[BELOW]], %{{.+}}, %[[V]]
// CHECK-NOT: arith.cmpf
// CHECK: %[[T:.+]] = arith.mulf %[[XC]], %{{.+}} : vector<16xf32>
// CHECK: %[[K:.+]] = math.roundeven %[[T]] : vector<16xf32>
// CHECK-COUNT-7: math.fma
// CHECK: %[[Y:.+]] = x86vector.avx512.mask.scalef %{{.+}}, %[[K]], %{{.+}} : vector<16xf32>
// CHECK-NEXT: return %[[Y]] : vector<16xf32>
func.func @exp_nonpositive_arg(%v: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp %v {tlc.nonpositive_arg} : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// Vectors of other widths (AVX2's 8 lanes) and scalars keep the portable form (2^(k-1) built
// in the exponent field) even with x86-avx512: the x86vector op takes exactly 16 f32 lanes.
// CHECK-LABEL: func.func @exp_other_shapes
// CHECK-NOT: x86vector
// CHECK-NOT: math.roundeven
// CHECK: arith.shli %{{.+}} : vector<8xi32>
// CHECK-NOT: x86vector
// CHECK: arith.shli %{{.+}} : i32
// CHECK-NOT: x86vector
func.func @exp_other_shapes(%v: vector<8xf32>, %x: f32) -> (vector<8xf32>, f32) {
  %0 = math.exp %v : vector<8xf32>
  %1 = math.exp %x : f32
  return %0, %1 : vector<8xf32>, f32
}
