// RUN: tlc-opt %s -split-input-file -tlc-vectorize | FileCheck %s

// A 4x16 register tile inside its k loop: the accumulator is read once before the loop, kept
// as an iter_arg, and written once after it; the body is one broadcast + FMA per row.
// CHECK-LABEL: func.func @tile
// CHECK-SAME: (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<8x16xf32>, %[[C:.+]]: memref<4x16xf32>)
// CHECK: %[[INIT:.+]] = vector.transfer_read %[[C]]
// CHECK-SAME: vector<4x16xf32>
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (vector<4x16xf32>)
// CHECK-NOT: vector.transfer_write
// CHECK-COUNT-4: vector.fma {{.+}} : vector<16xf32>
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]], %[[C]]
func.func @tile(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %sa = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x8xf32> to memref<4x1xf32, strided<[8, 1], offset: ?>>
    %sb = memref.subview %b[%k, 0] [1, 16] [1, 1] : memref<8x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<4x1xf32, strided<[8, 1], offset: ?>>, memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4x16xf32>)
  }
  return
}

// -----

// Unmarked ops and tiles with dynamic extents without a static bound stay linalg (they become
// loops later).
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: vector.
// CHECK: linalg.matmul ins
// CHECK: linalg.matmul {tlc.register_tile}
// CHECK-NOT: vector.
func.func @untouched(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>,
                     %d: memref<?x4xf32>, %e: memref<?x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  linalg.matmul {tlc.register_tile} ins(%d, %b : memref<?x4xf32>, memref<4x4xf32>) outs(%e : memref<?x4xf32>)
  return
}

// -----

// An edge tile whose n extent (17) is not a power of two computes on the next power of two
// (32 lanes) with masked loads and stores; its accumulator still stays in registers across k,
// and its FMAs compute every lane: the lanes past 17 are never stored, so no select keeps
// them (a blend per FMA on x86).
// CHECK-LABEL: func.func @edge
// CHECK-SAME: (%[[A:.+]]: memref<8x8xf32>, %[[B:.+]]: memref<8x17xf32>, %[[C:.+]]: memref<8x17xf32>)
// CHECK-DAG: %[[C17:.+]] = arith.constant 17 : index
// CHECK-DAG: %[[MASK:.+]] = vector.create_mask %{{.+}}, %[[C17]] : vector<8x32xi1>
// CHECK: %[[INIT:.+]] = vector.transfer_read %[[C]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]]
// CHECK-SAME: memref<8x17xf32>, vector<8x32xf32>
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[INIT]]) -> (vector<8x32xf32>)
// CHECK: vector.transfer_read %{{.+}}, %{{.+}} : memref<1x17xf32, strided<[17, 1], offset: ?>>, vector<1x32xf32>
// CHECK-NOT: vector.transfer_write
// CHECK-COUNT-8: vector.fma {{.+}} : vector<32xf32>
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]], %[[C]][%{{.+}}, %{{.+}}], %{{.+}} {{.+}} : vector<8x32xf32>, memref<8x17xf32>
func.func @edge(%a: memref<8x8xf32>, %b: memref<8x17xf32>, %c: memref<8x17xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %sa = memref.subview %a[0, %k] [8, 1] [1, 1] : memref<8x8xf32> to memref<8x1xf32, strided<[8, 1], offset: ?>>
    %sb = memref.subview %b[%k, 0] [1, 17] [1, 1] : memref<8x17xf32> to memref<1x17xf32, strided<[17, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<8x1xf32, strided<[8, 1], offset: ?>>, memref<1x17xf32, strided<[17, 1], offset: ?>>) outs(%c : memref<8x17xf32>)
  }
  return
}

// -----

// A dynamically sized edge tile (the last columns of a cache block whose width depends on the
// block index) computes on masked vectors of its bound (affine.min <= 32 columns), with the
// accumulator in registers across k; without a bound it would be left to scalar loops.
// CHECK-LABEL: func.func @dynamic_edge
// CHECK: %[[W:.+]] = affine.min
// CHECK: %[[MASK:.+]] = vector.create_mask %{{.+}}, %[[W]] : vector<8x32xi1>
// CHECK: %[[INIT:.+]] = vector.transfer_read %{{.+}}, %{{.+}}, %[[MASK]] {{.+}} : memref<8x?xf32, strided<[100, 1], offset: ?>>, vector<8x32xf32>
// CHECK: %[[R:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[INIT]]) -> (vector<8x32xf32>)
// CHECK-NOT: vector.transfer_write
// CHECK-COUNT-8: vector.fma {{.+}} : vector<32xf32>
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]], %{{.+}}, %{{.+}} {{.+}} : vector<8x32xf32>, memref<8x?xf32, strided<[100, 1], offset: ?>>
func.func @dynamic_edge(%a: memref<8x8xf32>, %b: memref<8x100xf32>, %c: memref<8x100xf32>, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = affine.min affine_map<(d0) -> (32, -d0 + 100)>(%j)
  %sc = memref.subview %c[0, %j] [8, %w] [1, 1] : memref<8x100xf32> to memref<8x?xf32, strided<[100, 1], offset: ?>>
  scf.for %k = %c0 to %c8 step %c1 {
    %sa = memref.subview %a[0, %k] [8, 1] [1, 1] : memref<8x8xf32> to memref<8x1xf32, strided<[8, 1], offset: ?>>
    %sb = memref.subview %b[%k, %j] [1, %w] [1, 1] : memref<8x100xf32> to memref<1x?xf32, strided<[100, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<8x1xf32, strided<[8, 1], offset: ?>>, memref<1x?xf32, strided<[100, 1], offset: ?>>) outs(%sc : memref<8x?xf32, strided<[100, 1], offset: ?>>)
  }
  return
}

// -----

// A tile whose k extent is masked (at most 4 of the k rows left) keeps the select after each
// FMA: a masked-off k lane would add to the sum.
// CHECK-LABEL: func.func @masked_k
// CHECK: vector.create_mask %{{.+}}, %{{.+}}, %[[K:.+]] : vector<8x32x4xi1>
// CHECK: vector.fma {{.+}} : vector<32xf32>
// CHECK-NEXT: arith.select {{.+}} : vector<32xi1>, vector<32xf32>
func.func @masked_k(%a: memref<8x100xf32>, %b: memref<100x17xf32>, %c: memref<8x17xf32>, %k: index) {
  %w = affine.min affine_map<(d0) -> (4, -d0 + 100)>(%k)
  %sa = memref.subview %a[0, %k] [8, %w] [1, 1] : memref<8x100xf32> to memref<8x?xf32, strided<[100, 1], offset: ?>>
  %sb = memref.subview %b[%k, 0] [%w, 17] [1, 1] : memref<100x17xf32> to memref<?x17xf32, strided<[17, 1], offset: ?>>
  linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<8x?xf32, strided<[100, 1], offset: ?>>, memref<?x17xf32, strided<[17, 1], offset: ?>>) outs(%c : memref<8x17xf32>)
  return
}

// -----

// A 1-D reduction tile reduces its row with one vector.reduction (a shuffle tree in LLVM), not
// element by element; a maxnumf reduction becomes an explicit tree of maxnumf over halves
// (64 -> 32 -> ... -> 1 lanes), exact since maxnum is associative.
// CHECK-LABEL: func.func @row_reductions
// CHECK: %[[ROW:.+]] = vector.transfer_read %{{.+}} : memref<64xf32>, vector<64xf32>
// CHECK: %[[LO:.+]] = vector.shuffle %[[ROW]], %[[ROW]] [0, 1, 2,
// CHECK-SAME: 31] : vector<64xf32>, vector<64xf32>
// CHECK: %[[HI:.+]] = vector.shuffle %[[ROW]], %[[ROW]] [32, 33,
// CHECK: %[[M32:.+]] = arith.maxnumf %[[LO]], %[[HI]] : vector<32xf32>
// CHECK-COUNT-4: arith.maxnumf %{{.+}}, %{{.+}} : vector<
// CHECK: arith.maxnumf %{{.+}}, %{{.+}} : vector<1xf32>
// CHECK: vector.extract %{{.+}}[0] : f32 from vector<1xf32>
// CHECK: arith.maxnumf %{{.+}}, %{{.+}} : f32
// CHECK: vector.reduction <add>, %{{.+}}, %{{.+}} : vector<64xf32> into f32
// CHECK-NOT: vector.extract %{{.+}}[1]
func.func @row_reductions(%x: memref<64xf32>, %m: memref<f32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]} ins(%x : memref<64xf32>) outs(%m : memref<f32>)
      attrs = {tlc.register_tile} {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maxnumf %acc, %in : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]} ins(%x : memref<64xf32>) outs(%s : memref<f32>)
      attrs = {tlc.register_tile} {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %acc, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Negative: a NaN-propagating maximumf reduction is not rewritten into the maxnumf tree.
// CHECK-LABEL: func.func @maximumf_row
// CHECK-NOT: vector.shuffle
// CHECK: vector.reduction <maximumf>
func.func @maximumf_row(%x: memref<64xf32>, %m: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]} ins(%x : memref<64xf32>) outs(%m : memref<f32>)
      attrs = {tlc.register_tile} {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %acc, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A register tile whose fill was fused into it (tlc-tile-contractions): the accumulators start
// from the fill's splat in registers (the k loop's iter_arg init; upstream's transfer
// forwarding), the fill's store and the load of the output are gone, and the one store is the
// result's after the loop.
// CHECK-LABEL: func.func @filled_tile
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4x16xf32>
// CHECK-NOT: vector.transfer_read %{{.+}} : memref<4x16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: %[[ACC:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]]) -> (vector<4x16xf32>)
// CHECK: vector.fma
// CHECK: vector.transfer_write %[[ACC]], %{{.+}} : vector<4x16xf32>, memref<4x16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @filled_tile(%a: memref<4x32xf32>, %b: memref<32x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  linalg.fill {tlc.register_tile} ins(%zero : f32) outs(%c : memref<4x16xf32>)
  scf.for %k = %c0 to %c32 step %c1 {
    %sa = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x32xf32> to memref<4x1xf32, strided<[32, 1], offset: ?>>
    %sb = memref.subview %b[%k, 0] [1, 16] [1, 1] : memref<32x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<4x1xf32, strided<[32, 1], offset: ?>>, memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4x16xf32>)
  }
  return
}

// -----

// Negative: a store to the tile between the fill and the k loop: the fill's vector is not
// forwarded (the tile is loaded), so the store is kept.
// CHECK-LABEL: func.func @store_between
// CHECK: vector.transfer_write
// CHECK: memref.store
// CHECK: %[[ACC0:.+]] = vector.transfer_read %{{.+}} : memref<4x16xf32>, vector<4x16xf32>
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[ACC0]])
func.func @store_between(%a: memref<4x32xf32>, %b: memref<32x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  linalg.fill {tlc.register_tile} ins(%zero : f32) outs(%c : memref<4x16xf32>)
  memref.store %one, %c[%c0, %c0] : memref<4x16xf32>
  scf.for %k = %c0 to %c32 step %c1 {
    %sa = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x32xf32> to memref<4x1xf32, strided<[32, 1], offset: ?>>
    %sb = memref.subview %b[%k, 0] [1, 16] [1, 1] : memref<32x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<4x1xf32, strided<[32, 1], offset: ?>>, memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4x16xf32>)
  }
  return
}

// -----

// A store to another buffer between the fill and the k loop does not stop the forwarding
// (effects are judged by the buffer they touch): one store of the tile, the result's.
// CHECK-LABEL: func.func @store_elsewhere_between
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4x16xf32>
// CHECK: memref.store
// CHECK-NOT: vector.transfer_write
// CHECK: %[[ACC:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]]) -> (vector<4x16xf32>)
// CHECK: vector.transfer_write %[[ACC]], %{{.+}} : vector<4x16xf32>, memref<4x16xf32>
// CHECK-NOT: vector.transfer_write
func.func @store_elsewhere_between(%a: memref<4x32xf32>, %b: memref<32x16xf32>, %c: memref<4x16xf32>, %d: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  linalg.fill {tlc.register_tile} ins(%zero : f32) outs(%c : memref<4x16xf32>)
  memref.store %one, %d[%c0] : memref<4xf32>
  scf.for %k = %c0 to %c32 step %c1 {
    %sa = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x32xf32> to memref<4x1xf32, strided<[32, 1], offset: ?>>
    %sb = memref.subview %b[%k, 0] [1, 16] [1, 1] : memref<32x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<4x1xf32, strided<[32, 1], offset: ?>>, memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4x16xf32>)
  }
  return
}

// -----

// Output and left operand are views of one buffer (as in the workspace): the accumulators
// still start from the splat, but the fill's store stays, since the k loop reads that buffer
// and nothing proves the two views disjoint.
// CHECK-LABEL: func.func @shared_root
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<4x16xf32>
// CHECK: vector.transfer_write %[[ZERO]]
// CHECK-NOT: vector.transfer_read %{{.+}} : memref<4x16xf32, {{.+}}>, vector<4x16xf32>
// CHECK: %[[ACC:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[ZERO]]) -> (vector<4x16xf32>)
// CHECK: vector.transfer_write %[[ACC]]
func.func @shared_root(%ws: memref<16x32xf32>, %b: memref<32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %a = memref.subview %ws[0, 0] [4, 32] [1, 1] : memref<16x32xf32> to memref<4x32xf32, strided<[32, 1]>>
  %c = memref.subview %ws[8, 0] [4, 16] [1, 1] : memref<16x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 256>>
  linalg.fill {tlc.register_tile} ins(%zero : f32) outs(%c : memref<4x16xf32, strided<[32, 1], offset: 256>>)
  scf.for %k = %c0 to %c32 step %c1 {
    %sa = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x32xf32, strided<[32, 1]>> to memref<4x1xf32, strided<[32, 1], offset: ?>>
    %sb = memref.subview %b[%k, 0] [1, 16] [1, 1] : memref<32x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<4x1xf32, strided<[32, 1], offset: ?>>, memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4x16xf32, strided<[32, 1], offset: 256>>)
  }
  return
}

// -----

// Negative: a linalg op on buffers (recursive memory effects, and its own) writing the tile
// between the fill and the k loop: the accumulators start from the tile as the copy left it,
// not from the fill's splat.
// CHECK-LABEL: func.func @linalg_copy_between
// CHECK: vector.transfer_write
// CHECK: linalg.copy
// CHECK: %[[ACC0:.+]] = vector.transfer_read %{{.+}} : memref<4x16xf32>, vector<4x16xf32>
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[ACC0]])
func.func @linalg_copy_between(%a: memref<4x32xf32>, %b: memref<32x16xf32>, %c: memref<4x16xf32>, %d: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  linalg.fill {tlc.register_tile} ins(%zero : f32) outs(%c : memref<4x16xf32>)
  linalg.copy ins(%d : memref<4x16xf32>) outs(%c : memref<4x16xf32>)
  scf.for %k = %c0 to %c32 step %c1 {
    %sa = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x32xf32> to memref<4x1xf32, strided<[32, 1], offset: ?>>
    %sb = memref.subview %b[%k, 0] [1, 16] [1, 1] : memref<32x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
    linalg.matmul {tlc.register_tile} ins(%sa, %sb : memref<4x1xf32, strided<[32, 1], offset: ?>>, memref<1x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4x16xf32>)
  }
  return
}
