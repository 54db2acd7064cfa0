// RUN: tlc-opt %s -split-input-file -tlc-fuse-elementwise | FileCheck %s

#id = affine_map<(i) -> (i)>

// A sum of 20 inputs feeding a sum with 6 more: fused, the loop would have 28 operands (more
// than kMaxFusedOperands, 24; a GPU kernel binds each as a buffer, and drivers cap those at
// 31-32): two loops.
// CHECK-LABEL: func.func @too_many
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
func.func @too_many(%a0: tensor<8xf32>, %a1: tensor<8xf32>, %a2: tensor<8xf32>, %a3: tensor<8xf32>, %a4: tensor<8xf32>, %a5: tensor<8xf32>, %a6: tensor<8xf32>, %a7: tensor<8xf32>, %a8: tensor<8xf32>, %a9: tensor<8xf32>, %a10: tensor<8xf32>, %a11: tensor<8xf32>, %a12: tensor<8xf32>, %a13: tensor<8xf32>, %a14: tensor<8xf32>, %a15: tensor<8xf32>, %a16: tensor<8xf32>, %a17: tensor<8xf32>, %a18: tensor<8xf32>, %a19: tensor<8xf32>, %b0: tensor<8xf32>, %b1: tensor<8xf32>, %b2: tensor<8xf32>, %b3: tensor<8xf32>, %b4: tensor<8xf32>, %b5: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %x7: f32, %x8: f32, %x9: f32, %x10: f32, %x11: f32, %x12: f32, %x13: f32, %x14: f32, %x15: f32, %x16: f32, %x17: f32, %x18: f32, %x19: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    %s3 = arith.addf %s2, %x3 : f32
    %s4 = arith.addf %s3, %x4 : f32
    %s5 = arith.addf %s4, %x5 : f32
    %s6 = arith.addf %s5, %x6 : f32
    %s7 = arith.addf %s6, %x7 : f32
    %s8 = arith.addf %s7, %x8 : f32
    %s9 = arith.addf %s8, %x9 : f32
    %s10 = arith.addf %s9, %x10 : f32
    %s11 = arith.addf %s10, %x11 : f32
    %s12 = arith.addf %s11, %x12 : f32
    %s13 = arith.addf %s12, %x13 : f32
    %s14 = arith.addf %s13, %x14 : f32
    %s15 = arith.addf %s14, %x15 : f32
    %s16 = arith.addf %s15, %x16 : f32
    %s17 = arith.addf %s16, %x17 : f32
    %s18 = arith.addf %s17, %x18 : f32
    %s19 = arith.addf %s18, %x19 : f32
    linalg.yield %s19 : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %b0, %b1, %b2, %b3, %b4, %b5 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    %s3 = arith.addf %s2, %x3 : f32
    %s4 = arith.addf %s3, %x4 : f32
    %s5 = arith.addf %s4, %x5 : f32
    %s6 = arith.addf %s5, %x6 : f32
    linalg.yield %s6 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

#id = affine_map<(i) -> (i)>

// 10 inputs and 6 more: 18 operands, one loop.
// CHECK-LABEL: func.func @few_enough
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
func.func @few_enough(%a0: tensor<8xf32>, %a1: tensor<8xf32>, %a2: tensor<8xf32>, %a3: tensor<8xf32>, %a4: tensor<8xf32>, %a5: tensor<8xf32>, %a6: tensor<8xf32>, %a7: tensor<8xf32>, %a8: tensor<8xf32>, %a9: tensor<8xf32>, %b0: tensor<8xf32>, %b1: tensor<8xf32>, %b2: tensor<8xf32>, %b3: tensor<8xf32>, %b4: tensor<8xf32>, %b5: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %x7: f32, %x8: f32, %x9: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    %s3 = arith.addf %s2, %x3 : f32
    %s4 = arith.addf %s3, %x4 : f32
    %s5 = arith.addf %s4, %x5 : f32
    %s6 = arith.addf %s5, %x6 : f32
    %s7 = arith.addf %s6, %x7 : f32
    %s8 = arith.addf %s7, %x8 : f32
    %s9 = arith.addf %s8, %x9 : f32
    linalg.yield %s9 : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %b0, %b1, %b2, %b3, %b4, %b5 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %o: f32):
    %s1 = arith.addf %x0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    %s3 = arith.addf %s2, %x3 : f32
    %s4 = arith.addf %s3, %x4 : f32
    %s5 = arith.addf %s4, %x5 : f32
    %s6 = arith.addf %s5, %x6 : f32
    linalg.yield %s6 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
