// RUN: tlc-opt %s -tlc-expand-bf16-truncation | FileCheck %s

// f32 -> bf16 (scalar and vector): round to nearest even on the bits, the NaN select on the
// i32 lanes with no constant arm (the NaN's bits with the quiet bit set), then the shift
// and the narrowing.
// CHECK-LABEL: func.func @vector
// CHECK-SAME: (%[[X:.+]]: vector<8xf32>)
// CHECK: %[[BITS:.+]] = arith.bitcast %[[X]] : vector<8xf32> to vector<8xi32>
// CHECK: %[[C16:.+]] = arith.constant dense<16> : vector<8xi32>
// CHECK: %[[SHIFTED:.+]] = arith.shrui %[[BITS]], %[[C16]]
// CHECK: %[[C1:.+]] = arith.constant dense<1> : vector<8xi32>
// CHECK: %[[KEPT:.+]] = arith.andi %[[SHIFTED]], %[[C1]]
// CHECK: %[[BIAS:.+]] = arith.constant dense<32767> : vector<8xi32>
// CHECK: %[[ROUND:.+]] = arith.addi %[[KEPT]], %[[BIAS]]
// CHECK: %[[SUM:.+]] = arith.addi %[[BITS]], %[[ROUND]]
// CHECK: %[[NAN:.+]] = arith.cmpf uno, %[[X]], %[[X]] : vector<8xf32>
// CHECK: %[[QUIET:.+]] = arith.constant dense<4194304> : vector<8xi32>
// CHECK: %[[Q:.+]] = arith.ori %[[BITS]], %[[QUIET]]
// CHECK: %[[SEL:.+]] = arith.select %[[NAN]], %[[Q]], %[[SUM]] : vector<8xi1>, vector<8xi32>
// CHECK: %[[HIGH:.+]] = arith.shrui %[[SEL]], %[[C16]]
// CHECK: %[[NARROW:.+]] = arith.trunci %[[HIGH]] : vector<8xi32> to vector<8xi16>
// CHECK: %[[R:.+]] = arith.bitcast %[[NARROW]] : vector<8xi16> to vector<8xbf16>
// CHECK: return %[[R]]
func.func @vector(%x: vector<8xf32>) -> vector<8xbf16> {
  %t = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %t : vector<8xbf16>
}

// CHECK-LABEL: func.func @scalar
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.select %{{.+}} : i32
// CHECK: arith.trunci %{{.+}} : i32 to i16
// CHECK: arith.bitcast %{{.+}} : i16 to bf16
func.func @scalar(%x: f32) -> bf16 {
  %t = arith.truncf %x : f32 to bf16
  return %t : bf16
}

// Negative: other truncations (f32 -> f16, f64 -> bf16) and a truncation with a
// rounding mode other than to-nearest-even are left alone.
// CHECK-LABEL: func.func @others
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: arith.truncf %{{.+}} : f64 to bf16
// CHECK: arith.truncf %{{.+}} to_nearest_away : f32 to bf16
// CHECK-NOT: arith.bitcast
func.func @others(%a: f32, %b: f64, %c: f32) -> (f16, bf16, bf16) {
  %x = arith.truncf %a : f32 to f16
  %y = arith.truncf %b : f64 to bf16
  %z = arith.truncf %c to_nearest_away : f32 to bf16
  return %x, %y, %z : f16, bf16, bf16
}
