// RUN: tlc-opt %s -split-input-file -tlc-approximate-math | FileCheck %s

// f32 sin: k = roundeven(x 2/pi), r = x - k pi/2 by three FMAs with the f32 parts of pi/2
// (upstream subtracts k pi/2 in one step), the sin and cos polynomials of r, then the
// quadrant k mod 4 (computed in f32, then converted) picks cos r for odd k and negates for
// k mod 4 >= 2.
// CHECK-LABEL: func.func @sin
// CHECK-SAME: (%[[X:.+]]: vector<8xf32>)
// CHECK-NOT: math.sin
// CHECK-DAG: %[[TWO_OVER_PI:.+]] = arith.constant dense<0.636619746> : vector<8xf32>
// CHECK-DAG: %[[P1:.+]] = arith.constant dense<1.57079637> : vector<8xf32>
// CHECK-DAG: %[[P2:.+]] = arith.constant dense<-4.37113883E-8> : vector<8xf32>
// CHECK-DAG: %[[P3:.+]] = arith.constant dense<-1.71512451E-15> : vector<8xf32>
// CHECK: %[[Y:.+]] = arith.mulf %[[X]], %[[TWO_OVER_PI]]
// CHECK: %[[K:.+]] = math.roundeven %[[Y]]
// CHECK: %[[NK:.+]] = arith.negf %[[K]]
// CHECK: %[[R1:.+]] = math.fma %[[NK]], %[[P1]], %[[X]]
// CHECK: %[[R2:.+]] = math.fma %[[NK]], %[[P2]], %[[R1]]
// CHECK: %[[R3:.+]] = math.fma %[[NK]], %[[P3]], %[[R2]]
// CHECK: %[[Q:.+]] = arith.fptosi %{{.+}} : vector<8xf32> to vector<8xi32>
// CHECK: arith.andi %[[Q]], %{{.+}} : vector<8xi32>
// CHECK: %[[V:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<8xi1>, vector<8xf32>
// CHECK: %[[N:.+]] = arith.negf %[[V]]
// CHECK: %[[S:.+]] = arith.select %{{.+}}, %[[N]], %[[V]]
// CHECK: return %[[S]]
func.func @sin(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.sin %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// cos x = sin(x + pi/2): the same reduction, with the quadrant advanced by one.
// CHECK-LABEL: func.func @cos
// CHECK-NOT: math.cos
// CHECK: math.roundeven
// CHECK: %[[Q:.+]] = arith.fptosi
// CHECK: arith.addi %[[Q]], %{{.+}} : i32
func.func @cos(%x: f32) -> f32 {
  %0 = math.cos %x : f32
  return %0 : f32
}

// -----

// tan: sin r / cos r for even quadrants, -cos r / sin r for odd ones.
// CHECK-LABEL: func.func @tan
// CHECK-NOT: math.tan
// CHECK: %[[EVEN:.+]] = arith.divf %[[S:.+]], %[[C:.+]] : f32
// CHECK: %[[NC:.+]] = arith.negf %[[C]]
// CHECK: %[[ODD:.+]] = arith.divf %[[NC]], %[[S]]
// CHECK: arith.select %{{.+}}, %[[ODD]], %[[EVEN]]
func.func @tan(%x: f32) -> f32 {
  %0 = math.tan %x : f32
  return %0 : f32
}

// -----

// atan2: min(|x|, |y|) / max(|x|, |y|) (0 for 0 / 0), reduced to (a - 1) / (a + 1) above
// tan(pi/8), then pi/2 - r when |y| > |x|, pi - r when x's sign bit is set, y's sign.
// CHECK-LABEL: func.func @atan2
// CHECK-SAME: (%[[Y:.+]]: f32, %[[X:.+]]: f32)
// CHECK-NOT: math.atan2
// CHECK-DAG: %[[TAN_PI_8:.+]] = arith.constant 0.414213568 : f32
// CHECK-DAG: %[[PI:.+]] = arith.constant 3.14159274 : f32
// CHECK: %[[AX:.+]] = math.absf %[[X]]
// CHECK: %[[AY:.+]] = math.absf %[[Y]]
// CHECK: %[[SWAP:.+]] = arith.cmpf ogt, %[[AY]], %[[AX]]
// CHECK: arith.cmpf ogt, %{{.+}}, %[[TAN_PI_8]]
// CHECK: %[[BITS:.+]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.cmpi slt, %[[BITS]]
// CHECK: arith.subf %[[PI]]
// CHECK: math.copysign %{{.+}}, %[[Y]]
func.func @atan2(%y: f32, %x: f32) -> f32 {
  %0 = math.atan2 %y, %x : f32
  return %0 : f32
}

// -----

// atan x = atan2(x, 1).
// CHECK-LABEL: func.func @atan
// CHECK-NOT: math.atan
// CHECK: math.copysign
func.func @atan(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.atan %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// Negative: f64 is left to LLVM (a libm call), neither tlc's expansion nor upstream's.
// CHECK-LABEL: func.func @sin_f64
// CHECK: math.sin %{{.+}} : f64
func.func @sin_f64(%x: f64) -> f64 {
  %0 = math.sin %x : f64
  return %0 : f64
}
