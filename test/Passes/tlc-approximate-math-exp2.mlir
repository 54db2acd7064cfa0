// RUN: tlc-opt %s -split-input-file -tlc-approximate-math | FileCheck %s --check-prefixes=CHECK,PORTABLE
// RUN: tlc-opt %s -split-input-file -tlc-approximate-math=x86-avx512=true | FileCheck %s --check-prefixes=CHECK,AVX512

// f32 exp2 on 16 lanes. Portable: clamp to [-126, 128], k + 126 in the low bits of
// s = t + 1.5 * 2^23 + 126, f = t - k, 2 * 2^f by Horner (degree 5), 2^(k-1) from the bits of
// s. With x86-avx512: clamp to [-151, 129] (only infinities matter), k = roundeven(t), 2^f
// scaled by x86vector's scalef over all lanes in the current rounding mode.
// CHECK-LABEL: func.func @exp2_vector16
// CHECK-SAME: (%[[V:.+]]: vector<16xf32>)
// CHECK-NOT: math.exp2
// PORTABLE-DAG: %[[LO:.+]] = arith.constant dense<-1.260000e+02> : vector<16xf32>
// PORTABLE-DAG: %[[HI:.+]] = arith.constant dense<1.280000e+02> : vector<16xf32>
// PORTABLE-DAG: %[[SHIFT:.+]] = arith.constant dense<0x4B40007E> : vector<16xf32>
// PORTABLE-DAG: %[[TWO:.+]] = arith.constant dense<2.000000e+00> : vector<16xf32>
// PORTABLE: %[[BELOW:.+]] = arith.cmpf olt, %[[V]], %[[LO]] : vector<16xf32>
// PORTABLE: %[[A:.+]] = arith.select %[[BELOW]], %[[LO]], %[[V]]
// PORTABLE: %[[ABOVE:.+]] = arith.cmpf ogt, %[[A]], %[[HI]] : vector<16xf32>
// PORTABLE: %[[T:.+]] = arith.select %[[ABOVE]], %[[HI]], %[[A]]
// PORTABLE: %[[S:.+]] = arith.addf %[[T]], %[[SHIFT]] : vector<16xf32>
// PORTABLE: %[[K:.+]] = arith.subf %[[S]], %[[SHIFT]] : vector<16xf32>
// PORTABLE: %[[F:.+]] = arith.subf %[[T]], %[[K]] : vector<16xf32>
// PORTABLE-COUNT-4: math.fma %{{.+}}, %[[F]], %{{.+}} : vector<16xf32>
// PORTABLE: %[[P:.+]] = math.fma %{{.+}}, %[[F]], %[[TWO]] : vector<16xf32>
// PORTABLE: %[[B:.+]] = arith.bitcast %[[S]] : vector<16xf32> to vector<16xi32>
// PORTABLE: %[[SH:.+]] = arith.shli %[[B]], %{{.+}} : vector<16xi32>
// PORTABLE: %[[SC:.+]] = arith.bitcast %[[SH]] : vector<16xi32> to vector<16xf32>
// PORTABLE: %[[Y:.+]] = arith.mulf %[[P]], %[[SC]] : vector<16xf32>
// PORTABLE-NOT: x86vector
// AVX512-DAG: %[[LO:.+]] = arith.constant dense<-1.510000e+02> : vector<16xf32>
// AVX512-DAG: %[[HI:.+]] = arith.constant dense<1.290000e+02> : vector<16xf32>
// AVX512-DAG: %[[ONE:.+]] = arith.constant dense<1.000000e+00> : vector<16xf32>
// AVX512-DAG: %[[ALL:.+]] = arith.constant -1 : i16
// AVX512-DAG: %[[CUR:.+]] = arith.constant 4 : i32
// AVX512: %[[BELOW:.+]] = arith.cmpf olt, %[[V]], %[[LO]] : vector<16xf32>
// AVX512: %[[A:.+]] = arith.select %[[BELOW]], %[[LO]], %[[V]]
// AVX512: %[[ABOVE:.+]] = arith.cmpf ogt, %[[A]], %[[HI]] : vector<16xf32>
// AVX512: %[[T:.+]] = arith.select %[[ABOVE]], %[[HI]], %[[A]]
// AVX512: %[[K:.+]] = math.roundeven %[[T]] : vector<16xf32>
// AVX512: %[[F:.+]] = arith.subf %[[T]], %[[K]] : vector<16xf32>
// AVX512-COUNT-4: math.fma %{{.+}}, %[[F]], %{{.+}} : vector<16xf32>
// AVX512: %[[P:.+]] = math.fma %{{.+}}, %[[F]], %[[ONE]] : vector<16xf32>
// AVX512-NOT: arith.shli
// AVX512: %[[Y:.+]] = x86vector.avx512.mask.scalef %[[P]], %[[K]], %[[P]], %[[ALL]], %[[CUR]] : vector<16xf32>
// CHECK-NEXT: return %[[Y]] : vector<16xf32>
func.func @exp2_vector16(%v: vector<16xf32>) -> vector<16xf32> {
  %0 = math.exp2 %v : vector<16xf32>
  return %0 : vector<16xf32>
}

// -----

// Vectors of other widths (AVX2's 8 lanes, a 4-lane tail) and scalars take the portable form
// even with x86-avx512: the x86vector ops take exactly 16 f32 lanes.
// CHECK-LABEL: func.func @exp2_other_shapes
// CHECK-NOT: math.exp2
// CHECK-NOT: x86vector
// CHECK: arith.shli %{{.+}} : vector<8xi32>
// CHECK-NOT: x86vector
// CHECK: arith.shli %{{.+}} : vector<4xi32>
// CHECK-NOT: x86vector
// CHECK: arith.shli %{{.+}} : i32
// CHECK-NOT: x86vector
func.func @exp2_other_shapes(%a: vector<8xf32>, %b: vector<4xf32>, %s: f32)
    -> (vector<8xf32>, vector<4xf32>, f32) {
  %0 = math.exp2 %a : vector<8xf32>
  %1 = math.exp2 %b : vector<4xf32>
  %2 = math.exp2 %s : f32
  return %0, %1, %2 : vector<8xf32>, vector<4xf32>, f32
}

// -----

// f16 and bf16 exp2 are computed in f32 (then expanded as above) and rounded back; f64 is
// left alone (LLVM calls exp2 for it).
// CHECK-LABEL: func.func @exp2_f16_bf16_f64
// CHECK-SAME: (%[[H:.+]]: vector<16xf16>, %[[B:.+]]: bf16, %[[D:.+]]: f64)
// CHECK: %[[HW:.+]] = arith.extf %[[H]] : vector<16xf16> to vector<16xf32>
// CHECK-NOT: math.exp2 %[[HW]]
// CHECK: arith.truncf %{{.+}} : vector<16xf32> to vector<16xf16>
// CHECK: %[[BW:.+]] = arith.extf %[[B]] : bf16 to f32
// CHECK: arith.truncf %{{.+}} : f32 to bf16
// CHECK: math.exp2 %[[D]] : f64
func.func @exp2_f16_bf16_f64(%h: vector<16xf16>, %b: bf16, %d: f64) -> (vector<16xf16>, bf16, f64) {
  %0 = math.exp2 %h : vector<16xf16>
  %1 = math.exp2 %b : bf16
  %2 = math.exp2 %d : f64
  return %0, %1, %2 : vector<16xf16>, bf16, f64
}
