// RUN: tlc-opt %s -split-input-file -tlc-fuse-epilogues -canonicalize -mlir-print-local-scope | FileCheck %s
// Without a cleanup afterwards: the untiled contraction must be gone (nothing later removes
// it before bufferization, and it would be computed next to its fused tiles).
// RUN: tlc-opt %s -split-input-file -tlc-fuse-epilogues -mlir-print-local-scope | FileCheck %s --check-prefix=ALONE

// Matmul + bias + tanh: one scf.forall over 64-row tiles (the dimension with the most tiles),
// an scf.for over 256-column tiles inside; each tile fills, contracts over all of k, then runs
// the epilogue in place on the tile (all in the output's slice: no intermediate buffers).
// CHECK-LABEL: func.func @matmul_bias_tanh
// ALONE-LABEL: func.func @matmul_bias_tanh
// ALONE-NOT: linalg.matmul ins({{.+}} : tensor<256x64xf32>, tensor<64x512xf32>)
// ALONE: scf.forall
// CHECK-SAME: (%[[A:.+]]: tensor<256x64xf32>, %[[B:.+]]: tensor<64x512xf32>, %[[BIAS:.+]]: tensor<512xf32>)
// CHECK: %[[Y:.+]] = scf.forall (%[[I:.+]]) = (0) to (256) step (64) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<256x512xf32>)
// CHECK: %[[AT:.+]] = tensor.extract_slice %[[A]][%[[I]], 0] [64, 64] [1, 1]
// CHECK: %[[OT:.+]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [64, 512] [1, 1]
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[OT]]) -> (tensor<64x512xf32>)
// CHECK: %[[BIAST:.+]] = tensor.extract_slice %[[BIAS]][%[[J]]] [256] [1]
// CHECK: %[[BT:.+]] = tensor.extract_slice %[[B]][0, %[[J]]] [64, 256] [1, 1]
// CHECK: %[[ACCT:.+]] = tensor.extract_slice %[[ACC]][0, %[[J]]] [64, 256] [1, 1]
// CHECK: %[[Z:.+]] = linalg.fill {{.+}} outs(%[[ACCT]] : tensor<64x256xf32>) -> tensor<64x256xf32>
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[AT]], %[[BT]] : tensor<64x64xf32>, tensor<64x256xf32>) outs(%[[Z]] : tensor<64x256xf32>)
// CHECK: %[[E:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel"]} ins(%[[BIAST]] : tensor<256xf32>) outs(%[[MM]] : tensor<64x256xf32>)
// CHECK: math.tanh
// CHECK: tensor.insert_slice %[[E]] into %[[ACC]][0, %[[J]]] [64, 256] [1, 1]
// CHECK: tensor.parallel_insert_slice %{{.+}} into %[[OUT]][%[[I]], 0] [64, 512] [1, 1]
// CHECK: tlc.fusion_group = {kind = "contraction+epilogue", ops = [{{.+}}], reason = "epilogue (addf, tanh) runs on each 64x256 output tile of the contraction while the tile is in cache", tile = array<i64: 64, 256>}
// CHECK: return %[[Y]]
func.func @matmul_bias_tanh(%a: tensor<256x64xf32>, %b: tensor<64x512xf32>, %bias: tensor<512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x512xf32>) outs(%z : tensor<256x512xf32>) -> tensor<256x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<256x512xf32>, tensor<512xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<256x512xf32>
  return %y : tensor<256x512xf32>
}

// -----

// Negative: the contraction's result has two uses (the epilogue and the function result);
// fusing would compute it twice. It stays whole, with the reason recorded.
// CHECK-LABEL: func.func @two_uses
// CHECK-NOT: scf.forall
// CHECK: linalg.matmul {tlc.fusion_unfused = "result has 2 uses: fusing into one consumer would compute the contraction again for the others"}
// CHECK: linalg.generic
func.func @two_uses(%a: tensor<256x64xf32>, %b: tensor<64x512xf32>) -> (tensor<256x512xf32>, tensor<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x512xf32>) outs(%z : tensor<256x512xf32>) -> tensor<256x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<256x512xf32>
  return %mm, %y : tensor<256x512xf32>, tensor<256x512xf32>
}

// -----

// Negative: the consumer is a row reduction (e.g. the max of a softmax): it needs whole rows.
// CHECK-LABEL: func.func @reduction_consumer
// CHECK-NOT: scf.forall
// CHECK: linalg.matmul {tlc.fusion_unfused = "consumer is a reduction (it needs whole rows, not one output tile)"}
func.func @reduction_consumer(%a: tensor<256x64xf32>, %b: tensor<64x512xf32>, %init: tensor<256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x512xf32>) outs(%z : tensor<256x512xf32>) -> tensor<256x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%mm : tensor<256x512xf32>) outs(%init : tensor<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %o : f32
    linalg.yield %m : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

// -----

// Negative: the consumer reads the result transposed; its tiles do not line up.
// CHECK-LABEL: func.func @transposed_consumer
// CHECK-NOT: scf.forall
// CHECK: linalg.matmul {tlc.fusion_unfused = "consumer reads the result through a non-identity map (transpose or broadcast): its tiles do not line up with the contraction's output tiles"}
func.func @transposed_consumer(%a: tensor<256x64xf32>, %b: tensor<64x512xf32>) -> tensor<512x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %et = tensor.empty() : tensor<512x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x512xf32>) outs(%z : tensor<256x512xf32>) -> tensor<256x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<256x512xf32>) outs(%et : tensor<512x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<512x256xf32>
  return %y : tensor<512x256xf32>
}

// -----

// Negative: the output is a single tile (8x16), so there is no tile loop to fuse into.
// CHECK-LABEL: func.func @one_tile
// CHECK-NOT: scf.forall
// CHECK: linalg.matmul {tlc.fusion_unfused = "the whole output is one tile: nothing to gain from tiling"}
func.func @one_tile(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A convolution's im2col contraction [N, F, OH*OW] expanded to NCHW, then bias + ReLU: the
// epilogue is collapsed to the contraction's shape and fused; F (128) is tiled by 64 and the
// 196 pixels stay whole (no multiple of 32 divides 196, and 196 < 256).
// CHECK-LABEL: func.func @conv_bias_relu
// ALONE-LABEL: func.func @conv_bias_relu
// ALONE-NOT: ins({{.+}} : tensor<128x72xf32>, tensor<1x72x196xf32>)
// ALONE-NOT: tensor.expand_shape {{.+}} : tensor<1x128x196xf32> into tensor<1x128x14x14xf32>
// ALONE: scf.forall
// CHECK-SAME: (%[[W:.+]]: tensor<128x72xf32>, %[[COL:.+]]: tensor<1x72x196xf32>, %[[BIAS:.+]]: tensor<128xf32>)
// CHECK: %[[Y:.+]] = scf.forall (%[[F:.+]]) = (0) to (128) step (64) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<1x128x196xf32>)
// CHECK: %[[BT:.+]] = tensor.extract_slice %[[BIAS]][%[[F]]] [64] [1]
// CHECK: %[[WT:.+]] = tensor.extract_slice %[[W]][%[[F]], 0] [64, 72] [1, 1]
// CHECK: %[[MM:.+]] = linalg.generic {{.+}} ins(%[[WT]], %[[COL]] : tensor<64x72xf32>, tensor<1x72x196xf32>) outs(%{{.+}} : tensor<1x64x196xf32>)
// CHECK: linalg.generic {{.+}} ins(%[[BT]] : tensor<64xf32>) outs(%[[MM]] : tensor<1x64x196xf32>)
// CHECK: arith.maximumf
// CHECK: tile = array<i64: 1, 64, 196>
// CHECK: %[[R:.+]] = tensor.expand_shape %[[Y]] {{\[}}[0], [1], [2, 3]] output_shape [1, 128, 14, 14]
// CHECK: return %[[R]]
func.func @conv_bias_relu(%w: tensor<128x72xf32>, %col: tensor<1x72x196xf32>, %bias: tensor<128xf32>) -> tensor<1x128x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x196xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x196xf32>) -> tensor<1x128x196xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : tensor<128x72xf32>, tensor<1x72x196xf32>) outs(%z : tensor<1x128x196xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x128x196xf32>
  %r = tensor.expand_shape %mm [[0], [1], [2, 3]] output_shape [1, 128, 14, 14] : tensor<1x128x196xf32> into tensor<1x128x14x14xf32>
  %e4 = tensor.empty() : tensor<1x128x14x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %bias : tensor<1x128x14x14xf32>, tensor<128xf32>) outs(%e4 : tensor<1x128x14x14xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x128x14x14xf32>
  return %y : tensor<1x128x14x14xf32>
}

// -----

// Enough column tiles for the threads (4 of 256, though there are 8 row tiles): the forall
// runs over columns and the row tiles loop inside, so each thread reads (and
// tlc-tile-contractions packs) a column panel of the right operand once, not once per row
// tile. With fewer column tiles (@matmul_bias_tanh: 2) the forall takes the rows.
// CHECK-LABEL: func.func @columns_outer
// CHECK-SAME: (%[[A:.+]]: tensor<512x64xf32>, %[[B:.+]]: tensor<64x1024xf32>)
// CHECK: scf.forall (%[[J:.+]]) = (0) to (1024) step (256)
// CHECK: %[[BT:.+]] = tensor.extract_slice %[[B]][0, %[[J]]] [64, 256] [1, 1]
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK: tensor.extract_slice %[[A]][%[[I]], 0] [64, 64] [1, 1]
// CHECK: linalg.matmul
// CHECK: math.tanh
// CHECK: tile = array<i64: 64, 256>
func.func @columns_outer(%a: tensor<512x64xf32>, %b: tensor<64x1024xf32>) -> tensor<512x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x1024xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<512x64xf32>, tensor<64x1024xf32>) outs(%z : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<512x1024xf32>) outs(%e : tensor<512x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}

// -----

// As tlc-lower-convolutions leaves it: the contraction accumulates into a collapsed view of
// a fill of the 4-D output. The fill is rewritten as a fill of the collapsed tensor and moves
// into the tile loop with the contraction (each tile fills its own slice); the whole-output
// fill is gone, so it is not run (a memset of the whole output) before the tiles.
// CHECK-LABEL: func.func @conv_reshaped_fill
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%[[F:.+]]) = (0) to (128) step (64) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<1x128x196xf32>)
// CHECK: %[[SLICE:.+]] = tensor.extract_slice %[[OUT]][0, %[[F]], 0] [1, 64, 196] [1, 1, 1]
// CHECK: %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[SLICE]] : tensor<1x64x196xf32>)
// CHECK: linalg.generic {{.+}} outs(%[[FILL]] : tensor<1x64x196xf32>)
// CHECK: tile = array<i64: 1, 64, 196>
// ALONE-LABEL: func.func @conv_reshaped_fill
// ALONE-NOT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x128x14x14xf32>)
// ALONE: scf.forall
func.func @conv_reshaped_fill(%w: tensor<128x72xf32>, %col: tensor<1x72x196xf32>, %bias: tensor<128xf32>) -> tensor<1x128x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<1x128x14x14xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x128x14x14xf32>) -> tensor<1x128x14x14xf32>
  %z = tensor.collapse_shape %z4 [[0], [1], [2, 3]] : tensor<1x128x14x14xf32> into tensor<1x128x196xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : tensor<128x72xf32>, tensor<1x72x196xf32>) outs(%z : tensor<1x128x196xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x128x196xf32>
  %r = tensor.expand_shape %mm [[0], [1], [2, 3]] output_shape [1, 128, 14, 14] : tensor<1x128x196xf32> into tensor<1x128x14x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %bias : tensor<1x128x14x14xf32>, tensor<128xf32>) outs(%e4 : tensor<1x128x14x14xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x128x14x14xf32>
  return %y : tensor<1x128x14x14xf32>
}

// -----

// A 1x128x1x1 gate (a LR-ASPP head's sigmoid of a pooled branch) multiplied onto a batch-2
// convolution's output reads the gate at (0, c, 0, 0). Before the epilogue is collapsed to
// the contraction's shape the gate becomes a tensor<128> read at (c) (collapse needs
// projected permutations: it took the constant 0 for d0, reading gate[n, c, n, n]).
// CHECK-LABEL: func.func @conv_gate
// CHECK-SAME: %[[GATE:[a-zA-Z0-9_]+]]: tensor<1x128x1x1xf32>
// CHECK: %[[G:.+]] = tensor.collapse_shape %[[GATE]] {{\[}}[0, 1, 2, 3]] : tensor<1x128x1x1xf32> into tensor<128xf32>
// CHECK: scf.forall
// CHECK: %[[GT:.+]] = tensor.extract_slice %[[G]][%{{.+}}] [64] [1] : tensor<128xf32> to tensor<64xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]{{.+}} ins(%[[GT]] : tensor<64xf32>) outs(%{{.+}} : tensor<1x64x196xf32>)
// CHECK: arith.mulf
// CHECK: tile = array<i64: 1, 64, 196>
func.func @conv_gate(%w: tensor<128x72xf32>, %col: tensor<2x72x196xf32>, %gate: tensor<1x128x1x1xf32>) -> tensor<2x128x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128x196xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x196xf32>) -> tensor<2x128x196xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : tensor<128x72xf32>, tensor<2x72x196xf32>) outs(%z : tensor<2x128x196xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x128x196xf32>
  %r = tensor.expand_shape %mm [[0], [1], [2, 3]] output_shape [2, 128, 14, 14] : tensor<2x128x196xf32> into tensor<2x128x14x14xf32>
  %e4 = tensor.empty() : tensor<2x128x14x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (0, c, 0, 0)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %gate : tensor<2x128x14x14xf32>, tensor<1x128x1x1xf32>) outs(%e4 : tensor<2x128x14x14xf32>) {
  ^bb0(%x: f32, %g: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    %s = arith.mulf %m, %g : f32
    linalg.yield %s : f32
  } -> tensor<2x128x14x14xf32>
  return %y : tensor<2x128x14x14xf32>
}

// -----

// Negative: a 1x128x14x1 operand read at (0, c, h, 0): without its constant results it reads
// h alone of the collapsed (h, w) pair, so the epilogue cannot be collapsed.
// CHECK-LABEL: func.func @conv_row_broadcast
// CHECK-NOT: scf.forall
// CHECK: tlc.fusion_unfused = "consumer's other operands split the reshaped dimensions"
func.func @conv_row_broadcast(%w: tensor<128x72xf32>, %col: tensor<2x72x196xf32>, %rows: tensor<1x128x14x1xf32>) -> tensor<2x128x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128x196xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x196xf32>) -> tensor<2x128x196xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : tensor<128x72xf32>, tensor<2x72x196xf32>) outs(%z : tensor<2x128x196xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x128x196xf32>
  %r = tensor.expand_shape %mm [[0], [1], [2, 3]] output_shape [2, 128, 14, 14] : tensor<2x128x196xf32> into tensor<2x128x14x14xf32>
  %e4 = tensor.empty() : tensor<2x128x14x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (0, c, h, 0)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %rows : tensor<2x128x14x14xf32>, tensor<1x128x14x1xf32>) outs(%e4 : tensor<2x128x14x14xf32>) {
  ^bb0(%x: f32, %g: f32, %o: f32):
    %s = arith.mulf %x, %g : f32
    linalg.yield %s : f32
  } -> tensor<2x128x14x14xf32>
  return %y : tensor<2x128x14x14xf32>
}

// -----

// Negative: an operand read at a constant index of a dimension of size 3 (not a broadcast).
// CHECK-LABEL: func.func @conv_constant_index
// CHECK-NOT: scf.forall
// CHECK: tlc.fusion_unfused = "consumer reads an operand at a constant index of a dimension larger than 1"
func.func @conv_constant_index(%w: tensor<128x72xf32>, %col: tensor<2x72x196xf32>, %g: tensor<1x128x1x3xf32>) -> tensor<2x128x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128x196xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x196xf32>) -> tensor<2x128x196xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : tensor<128x72xf32>, tensor<2x72x196xf32>) outs(%z : tensor<2x128x196xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x128x196xf32>
  %r = tensor.expand_shape %mm [[0], [1], [2, 3]] output_shape [2, 128, 14, 14] : tensor<2x128x196xf32> into tensor<2x128x14x14xf32>
  %e4 = tensor.empty() : tensor<2x128x14x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (0, c, 0, 2)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %g : tensor<2x128x14x14xf32>, tensor<1x128x1x3xf32>) outs(%e4 : tensor<2x128x14x14xf32>) {
  ^bb0(%x: f32, %s0: f32, %o: f32):
    %s = arith.mulf %x, %s0 : f32
    linalg.yield %s : f32
  } -> tensor<2x128x14x14xf32>
  return %y : tensor<2x128x14x14xf32>
}

// -----

// A fill that another contraction also accumulates into (CSE merged them): the fused one
// gets a copy of it, filled tile by tile inside the loops like any other; the other keeps
// the whole fill.
// CHECK-LABEL: func.func @shared_fill
// CHECK: %[[Z:.+]] = linalg.fill {{.+}} -> tensor<256x512xf32>
// CHECK: scf.forall
// CHECK: linalg.fill {{.+}} -> tensor<64x256xf32>
// CHECK: linalg.matmul {{.+}} outs(%{{.+}} : tensor<64x256xf32>)
// CHECK: math.tanh
// CHECK: tlc.fusion_group = {kind = "contraction+epilogue"
// CHECK: linalg.matmul {{.*}}ins(%{{.+}}, %{{.+}} : tensor<256x64xf32>, tensor<64x512xf32>) outs(%[[Z]] : tensor<256x512xf32>)
// ALONE-LABEL: func.func @shared_fill
// ALONE-COUNT-1: linalg.fill {{.+}} -> tensor<256x512xf32>
// ALONE-NOT: linalg.fill {{.+}} -> tensor<256x512xf32>
func.func @shared_fill(%a: tensor<256x64xf32>, %b: tensor<64x512xf32>, %c: tensor<256x64xf32>) -> (tensor<256x512xf32>, tensor<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x512xf32>) outs(%z : tensor<256x512xf32>) -> tensor<256x512xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<256x512xf32>
  %other = linalg.matmul ins(%c, %b : tensor<256x64xf32>, tensor<64x512xf32>) outs(%z : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %y, %other : tensor<256x512xf32>, tensor<256x512xf32>
}
