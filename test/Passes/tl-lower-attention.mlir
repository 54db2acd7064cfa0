// RUN: tlc-opt %s -split-input-file -tl-lower-attention="block-q=32 block-k=16" | FileCheck %s

// Flash attention: an scf.forall over the batch (independent iterations, each computing its
// [Sq, Dv] output slice and inserting it in parallel); per batch index the keys are transposed
// once, block by block ([8, 64, 16]: each block's K^T contiguous), then a loop over 32-row query
// blocks and 16-key blocks reads its K^T block by index; the key loop carries the running max, running sum and the accumulator, which
// is the output's own tile. Without a mask the scale goes into the exponent: the running max is
// of scale * rowmax, p = exp(scale * s - m); row max, exp and row sum run row by row as 1-D
// register tiles (vectorized by tlc-vectorize).
// Only tiles exist: no 128x128 scores tensor.
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[Q:.+]]: tensor<2x128x64xf32>, %[[K:.+]]: tensor<2x128x64xf32>, %[[V:.+]]: tensor<2x128x32xf32>)
// CHECK: %[[OUT:.+]] = tensor.empty() : tensor<2x128x32xf32>
// CHECK: %[[RES:.+]] = scf.forall (%[[B:.+]]) in (2) shared_outs(%[[O1:.+]] = %[[OUT]])
// CHECK: %[[OB:.+]] = tensor.extract_slice %[[O1]][%[[B]], 0, 0] [1, 128, 32] [1, 1, 1] : tensor<2x128x32xf32> to tensor<128x32xf32>
// CHECK: %[[KB:.+]] = tensor.extract_slice %[[K]][%[[B]], 0, 0] [1, 128, 64] [1, 1, 1] : tensor<2x128x64xf32> to tensor<128x64xf32>
// CHECK: %[[KBLK:.+]] = tensor.expand_shape %[[KB]] {{\[\[}}0, 1], [2]] output_shape [8, 16, 64]
// CHECK: %[[KTS:.+]] = linalg.transpose ins(%[[KBLK]] : tensor<8x16x64xf32>) outs(%{{.+}} : tensor<8x64x16xf32>) permutation = [0, 2, 1]
// CHECK: %[[QLOOP:.+]] = scf.for %[[QS:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[O2:.+]] = %[[OB]])
// CHECK: %[[QT:.+]] = tensor.extract_slice %[[Q]][%[[B]], %[[QS]], 0] [1, 32, 64] [1, 1, 1] : tensor<2x128x64xf32> to tensor<32x64xf32>
// CHECK: %[[OT:.+]] = tensor.extract_slice %[[O2]][%[[QS]], 0] [32, 32]
// CHECK: %[[ACC0:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[OT]] : tensor<32x32xf32>)
// CHECK: scf.for %[[KS:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[M:.+]] = %{{.+}}, %[[L:.+]] = %{{.+}}, %[[ACC:.+]] = %[[ACC0]]) -> (tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>)
// CHECK: tensor.extract_slice %[[V]][%[[B]], %[[KS]], 0] [1, 16, 32]
// CHECK: %[[KI:.+]] = arith.divui %[[KS]], %{{.+}} : index
// CHECK: %[[KTT:.+]] = tensor.extract_slice %[[KTS]][%[[KI]], 0, 0] [1, 64, 16] [1, 1, 1] : tensor<8x64x16xf32> to tensor<64x16xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[QT]], %[[KTT]] : tensor<32x64xf32>, tensor<64x16xf32>) outs(%{{.+}} : tensor<32x16xf32>)
// CHECK: scf.for %[[R:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[MX:.+]] = %{{.+}}) -> (tensor<32xf32>)
// CHECK: %[[SROW:.+]] = tensor.extract_slice %{{.+}}[%[[R]], 0] [1, 16] [1, 1] : tensor<32x16xf32> to tensor<16xf32>
// CHECK: %[[MXE:.+]] = tensor.extract_slice %[[MX]][%[[R]]] [1] [1] : tensor<32xf32> to tensor<f32>
// CHECK: linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[SROW]] : tensor<16xf32>) outs(%[[MXE]] : tensor<f32>) attrs = {tlc.register_tile}
// CHECK: arith.maxnumf
// CHECK: %[[UPD:.+]]:3 = linalg.generic {{.+}} ins(%{{.+}} : tensor<32xf32>) outs(%[[M]], %{{.+}}, %[[L]] : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) attrs = {{.*}}{tlc.register_tile}
// CHECK: arith.mulf %{{.+}}, %[[SCALE:.+]] : f32
// CHECK: math.exp
// CHECK: %[[P:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ST:.+]] = %{{.+}}) -> (tensor<32x16xf32>)
// CHECK: %[[ROW:.+]] = tensor.extract_slice %[[ST]][%[[I]], 0] [1, 16] [1, 1] : tensor<32x16xf32> to tensor<16xf32>
// CHECK: %[[MI:.+]] = tensor.extract %[[UPD]]#0[%[[I]]]
// CHECK: linalg.generic {{.+}} outs(%[[ROW]] : tensor<16xf32>) attrs = {tlc.register_tile}
// CHECK: %[[XS:.+]] = arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK: arith.subf %[[XS]], %[[MI]] : f32
// CHECK: math.exp
// CHECK: scf.for %{{.+}} iter_args(%{{.+}} = %[[UPD]]#2) -> (tensor<32xf32>)
// CHECK: tensor.extract_slice %[[P]]
// CHECK: linalg.generic {{.+}} iterator_types = ["reduction"]} {{.+}} attrs = {tlc.register_tile}
// CHECK: arith.addf
// CHECK: outs(%[[ACC]] : tensor<32x32xf32>)
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<32x16xf32>, tensor<16x32xf32>) outs(%{{.+}} : tensor<32x32xf32>)
// CHECK: scf.yield
// CHECK: arith.divf
// CHECK: tensor.insert_slice %{{.+}} into %[[O2]][%[[QS]], 0] [32, 32]
// CHECK: scf.forall.in_parallel
// CHECK: tensor.parallel_insert_slice %[[QLOOP]] into %[[O1]][%[[B]], 0, 0] [1, 128, 32] [1, 1, 1]
// CHECK: return %[[RES]]
// CHECK-NOT: tensor<128x128xf32>
// CHECK-NOT: tl.attention
func.func @plain(%q: tensor<2x128x64xf32>, %k: tensor<2x128x64xf32>, %v: tensor<2x128x32xf32>) -> tensor<2x128x32xf32> {
  %0 = tl.attention %q, %k, %v scale = 0.125 : tensor<2x128x64xf32>, tensor<2x128x64xf32>, tensor<2x128x32xf32> -> tensor<2x128x32xf32>
  return %0 : tensor<2x128x32xf32>
}

// -----

// Causal: key blocks after the query block are skipped (upper bound min(Sk, ceil((qs + 32) /
// 16) * 16)), and keys j > i are masked with -inf by index.
// CHECK-LABEL: func.func @causal
// CHECK: scf.for %[[QS:[^ ]+]] =
// CHECK: %[[LAST:.+]] = arith.addi %[[QS]], %{{.+}} : index
// CHECK: %[[NB:.+]] = arith.ceildivui %[[LAST]], %{{.+}} : index
// CHECK: %[[END:.+]] = arith.muli %[[NB]], %{{.+}} : index
// CHECK: %[[UB:.+]] = arith.minui %[[END]], %{{.+}} : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[UB]] step
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: arith.cmpi ugt
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
func.func @causal(%q: tensor<64x8xf32>) -> tensor<64x8xf32> {
  %0 = tl.attention %q, %q, %q causal scale = 1.0 : tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32> -> tensor<64x8xf32>
  return %0 : tensor<64x8xf32>
}

// -----

// A key-padding mask [B, 1, 1, Sk] is read per tile: its batch axis at the batch index (the
// flat batch x heads index divided by 3 heads), the
// broadcast axes at 0, the key axis at the block; the tile is [1, 16] read through (0, j).
// CHECK-DAG: #[[MASKMAP:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @padding
// CHECK-SAME: %[[MASK:[^:]+]]: tensor<2x1x1x32xf32>
// CHECK: scf.forall (%[[BH:[^)]+]]) in (6)
// CHECK: %[[B:.+]] = arith.divui %[[BH]], %{{.+}} : index
// CHECK: scf.for %[[QS:[^ ]+]] =
// CHECK: scf.for %[[KS:[^ ]+]] =
// CHECK: %[[MT:.+]] = tensor.extract_slice %[[MASK]][%[[B]], 0, 0, %[[KS]]] [1, 1, 1, 16] [1, 1, 1, 1] : tensor<2x1x1x32xf32> to tensor<1x16xf32>
// CHECK: linalg.generic {indexing_maps = [#[[MASKMAP]], #{{.+}}]{{.+}} ins(%[[MT]] : tensor<1x16xf32>)
// CHECK: arith.addf
func.func @padding(%q: tensor<2x3x32x8xf32>, %m: tensor<2x1x1x32xf32>) -> tensor<2x3x32x8xf32> {
  %0 = tl.attention %q, %q, %q mask %m scale = 1.0 : tensor<2x3x32x8xf32>, tensor<2x3x32x8xf32>, tensor<2x3x32x8xf32>, tensor<2x1x1x32xf32> -> tensor<2x3x32x8xf32>
  return %0 : tensor<2x3x32x8xf32>
}

// -----

// Lengths that are not multiples of the tiles: 48 query rows are one loop block of 32 and a
// 16-row remainder block after the loop; 37 keys (prime) are two blocks of 16 in the key loop
// and a 5-key remainder block after it, in both query blocks. All tiles stay static.
// CHECK-LABEL: func.func @odd_lengths
// CHECK-SAME: (%[[Q:[^:]+]]: tensor<48x4xf32>, %[[K:[^:]+]]: tensor<37x4xf32>)
// The full key blocks and the remainder are transposed once, before the query loop.
// CHECK: %[[KF:.+]] = tensor.extract_slice %[[K]][0, 0] [32, 4] [1, 1] : tensor<37x4xf32> to tensor<32x4xf32>
// CHECK: %[[KFB:.+]] = tensor.expand_shape %[[KF]] {{\[\[}}0, 1], [2]] output_shape [2, 16, 4]
// CHECK: %[[KTS:.+]] = linalg.transpose ins(%[[KFB]] : tensor<2x16x4xf32>) outs(%{{.+}} : tensor<2x4x16xf32>) permutation = [0, 2, 1]
// CHECK: %[[KR:.+]] = tensor.extract_slice %[[K]][32, 0] [5, 4] [1, 1] : tensor<37x4xf32> to tensor<5x4xf32>
// CHECK: %[[KTR:.+]] = linalg.transpose ins(%[[KR]] : tensor<5x4xf32>) outs(%{{.+}} : tensor<4x5xf32>) permutation = [1, 0]
// CHECK: %[[QLOOP:.+]] = scf.for %[[QS:[^ ]+]] = %{{.+}} to %[[C32:[^ ]+]] step
// CHECK: tensor.extract_slice %[[Q]][%[[QS]], 0] [32, 4]
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[C32B:[^ ]+]] step %[[C16:[^ ]+]] iter_args
// CHECK: tensor.extract_slice %[[KTS]][%{{.+}}, 0, 0] [1, 4, 16]
// CHECK: scf.yield
// CHECK: tensor.extract_slice %[[K]][%{{.+}}, 0] [5, 4]
// CHECK: ins(%{{.+}}, %[[KTR]] : tensor<32x4xf32>, tensor<4x5xf32>)
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[%[[QS]], 0] [32, 4]
// CHECK: tensor.extract_slice %[[Q]][%[[QR:[^,]+]], 0] [16, 4] [1, 1] : tensor<48x4xf32> to tensor<16x4xf32>
// CHECK: scf.for
// CHECK: ins(%{{.+}}, %[[KTR]] : tensor<16x4xf32>, tensor<4x5xf32>)
// CHECK: tensor.insert_slice %{{.+}} into %[[QLOOP]][%[[QR]], 0] [16, 4]
func.func @odd_lengths(%q: tensor<48x4xf32>, %k: tensor<37x4xf32>) -> tensor<48x4xf32> {
  %0 = tl.attention %q, %k, %k scale = 1.0 : tensor<48x4xf32>, tensor<37x4xf32>, tensor<37x4xf32> -> tensor<48x4xf32>
  return %0 : tensor<48x4xf32>
}

// -----

// Negative: other ops are left alone.
// CHECK-LABEL: func.func @other
// CHECK-NEXT: tl.softmax
// CHECK-NOT: scf.for
func.func @other(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tl.softmax %x axis = 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
