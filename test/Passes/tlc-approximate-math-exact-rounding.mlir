// RUN: tlc-opt %s -split-input-file -tlc-approximate-math=exact-rounding=true | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-approximate-math | FileCheck %s --check-prefix=SHIFTER

// With exact rounding (the GPU targets) exp rounds k = roundeven(x log2 e) and builds
// 2^(k-1) from k converted to an integer: no 1.5 * 2^23 + 126 shifter (0x4B40007E), whose
// (t + C) - C Mesa's SPIR-V compiler folds to t. The CPU form keeps the shifter.
// CHECK-LABEL: func.func @exp
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NOT: 0x4B40007E
// CHECK: %[[T:.+]] = arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK: %[[K:.+]] = math.roundeven %[[T]] : f32
// CHECK: %[[KI:.+]] = arith.fptosi %[[K]] : f32 to i32
// CHECK: %[[B:.+]] = arith.addi %[[KI]], %{{.+}} : i32
// CHECK: %[[E:.+]] = arith.shli %[[B]], %{{.+}} : i32
// CHECK: %[[S:.+]] = arith.bitcast %[[E]] : i32 to f32
// CHECK: arith.mulf %{{.+}}, %[[S]] : f32
// SHIFTER-LABEL: func.func @exp
// SHIFTER: arith.constant 0x4B40007E : f32
// SHIFTER-NOT: math.roundeven
func.func @exp(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// -----

// exp2 likewise: k = roundeven(t), f = t - k, 2^(k-1) from the integer k.
// CHECK-LABEL: func.func @exp2
// CHECK-NOT: 0x4B40007E
// CHECK: %[[K:.+]] = math.roundeven %{{.+}} : f32
// CHECK: arith.subf %{{.+}}, %[[K]] : f32
// CHECK: arith.fptosi %[[K]] : f32 to i32
// SHIFTER-LABEL: func.func @exp2
// SHIFTER: arith.constant 0x4B40007E : f32
// SHIFTER-NOT: math.roundeven
func.func @exp2(%x: f32) -> f32 {
  %0 = math.exp2 %x : f32
  return %0 : f32
}
