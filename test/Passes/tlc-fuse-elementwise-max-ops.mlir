// RUN: tlc-opt %s -split-input-file -tlc-fuse-elementwise=max-ops=4 -mlir-print-local-scope | FileCheck %s

#id = affine_map<(i) -> (i)>

// A chain of four one-op generics (two ops per body with the yield): fused bodies hold at
// most four ops, so the chain becomes two loop nests of two ops each, fused in one round.
// CHECK-LABEL: func.func @capped_chain
// CHECK: %[[G1:.+]] = linalg.generic
// CHECK: math.tanh
// CHECK: math.exp
// CHECK-NOT: math.
// CHECK: linalg.yield
// CHECK: %[[G2:.+]] = linalg.generic {{.+}} ins(%[[G1]] :
// CHECK: math.sqrt
// CHECK: math.absf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[G2]]
func.func @capped_chain(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.sqrt %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%2 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.absf %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

#id = affine_map<(i) -> (i)>

// Within the limit the whole chain is one loop nest.
// CHECK-LABEL: func.func @short_chain
// CHECK: %[[G:.+]] = linalg.generic
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[G]]
func.func @short_chain(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
