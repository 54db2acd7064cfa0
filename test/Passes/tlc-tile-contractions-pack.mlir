// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-rhs=true pack-min-rows=16" -canonicalize -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-rhs=true pack-min-rows=16 pack-max-bytes=1024" | FileCheck %s --check-prefix=BLOCK
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-rhs=true pack-min-rows=16 pack-conflict-min-rows=8" | FileCheck %s --check-prefix=CONFLICT

// The right operand's 32 x 64 block is copied into 16-wide strips of a stack buffer (allocated
// once per thread at the top of the parallel n loop), row by row: full strips unmasked, the
// partial strip (100 = 64 + 36 = 64 + 2 x 16 + 4) masked. The register tiles read their strip
// of the buffer, not the operand.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: %[[B:[^:]+]]: memref<64x100xf32>
// CHECK: scf.parallel
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<4x32x16xf32>
// CHECK: scf.for %[[K0:.+]] =
// CHECK: %[[BLK:.+]] = memref.subview %[[B]][%[[K0]], %{{.+}}] [32, %{{.+}}] [1, 1]
// CHECK: scf.for %[[ROW:.+]] =
// CHECK: scf.for %[[COL:.+]] =
// CHECK: %[[STRIP:.+]] = affine.apply {{.+}}(%[[COL]])
// CHECK: %[[V:.+]] = vector.transfer_read %[[BLK]][%[[ROW]], %[[COL]]], %{{.+}} {in_bounds = [true]} : memref<32x?xf32, {{.+}}>, vector<16xf32>
// CHECK: vector.transfer_write %[[V]], %[[P]][%[[STRIP]], %[[ROW]], %{{.+}}] {in_bounds = [true]}
// CHECK: scf.for
// CHECK: %[[MASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK: vector.transfer_read %[[BLK]][%[[ROW]], %{{.+}}], %{{.+}}, %[[MASK]]
// CHECK: vector.transfer_write %{{.+}}, %[[P]][%{{.+}}, %[[ROW]], %{{.+}}], %[[MASK]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16
// CHECK: scf.for %[[NR:.+]] =
// CHECK: scf.for
// CHECK: scf.for %[[K:.+]] =
// CHECK: %[[S:.+]] = affine.apply {{.+}}(%[[NR]])
// CHECK: %[[VIEW:.+]] = memref.subview %[[P]][%[[S]], %[[K]], 0] [1, 1, 16] [1, 1, 1] : memref<4x32x16xf32> to memref<1x16xf32, strided<[512, 1], offset: ?>>
// CHECK: linalg.matmul {tlc.register_tile} ins(%{{.+}}, %[[VIEW]] : memref<4x1xf32, {{.+}}>, memref<1x16xf32, strided<[512, 1], offset: ?>>)
// CHECK-NOT: memref.subview %[[B]]
// CHECK: return
func.func @matmul(%a: memref<40x64xf32>, %b: memref<64x100xf32>, %c: memref<40x100xf32>) {
  linalg.matmul ins(%a, %b : memref<40x64xf32>, memref<64x100xf32>) outs(%c : memref<40x100xf32>)
  return
}

// -----

// A batch matmul: the buffer keeps the operand's unit batch dimension; the batch loop is the
// parallel one, so each batch element's thread has its own buffer.
// CHECK-LABEL: func.func @batch
// CHECK: scf.parallel
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<4x1x32x16xf32>
// CHECK: vector.transfer_write %{{.+}}, %[[P]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] {in_bounds = [true]}
// CHECK: memref.subview %[[P]][%{{.+}}, 0, %{{.+}}, 0] [1, 1, 1, 16] [1, 1, 1, 1] : memref<4x1x32x16xf32> to memref<1x1x16xf32, {{.+}}>
// CHECK: linalg.batch_matmul {tlc.register_tile}
func.func @batch(%a: memref<2x40x64xf32>, %b: memref<2x64x100xf32>, %c: memref<2x40x100xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x40x64xf32>, memref<2x64x100xf32>) outs(%c : memref<2x40x100xf32>)
  return
}

// -----

// A contraction already inside a parallel loop (e.g. an epilogue-fused tile): the buffer goes
// to the top of that loop's body, not into the block loops.
// CHECK-LABEL: func.func @in_parallel
// CHECK: scf.parallel
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<4x32x16xf32>
// CHECK-NOT: scf.parallel
// CHECK: linalg.matmul {tlc.register_tile}
func.func @in_parallel(%a: memref<4x40x64xf32>, %b: memref<64x100xf32>, %c: memref<4x40x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %sa = memref.subview %a[%i, 0, 0] [1, 40, 64] [1, 1, 1] : memref<4x40x64xf32> to memref<40x64xf32, strided<[64, 1], offset: ?>>
    %sc = memref.subview %c[%i, 0, 0] [1, 40, 100] [1, 1, 1] : memref<4x40x100xf32> to memref<40x100xf32, strided<[100, 1], offset: ?>>
    linalg.matmul ins(%sa, %b : memref<40x64xf32, strided<[64, 1], offset: ?>>, memref<64x100xf32>) outs(%sc : memref<40x100xf32, strided<[100, 1], offset: ?>>)
    scf.reduce
  }
  return
}

// -----

// A contraction in the row-tile loop of a parallel column loop (as tlc-fuse-epilogues makes
// them) whose right operand is invariant in that loop: the whole 64 x 100 operand is packed
// once per column tile, before the row loop, and the register tiles index it with the block
// offsets added (strip (n block + n tile) / 16, row k block + k). Above pack-max-bytes, each
// cache block is packed on its own (BLOCK).
// CHECK-LABEL: func.func @whole_operand
// CHECK: scf.parallel (%[[J:.+]]) =
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<7x64x16xf32>
// CHECK-NEXT: %[[SB:.+]] = memref.subview %{{.+}}[0, %[[J]]] [64, 100] [1, 1]
// CHECK: vector.transfer_read %[[SB]]
// CHECK: vector.transfer_write %{{.+}}, %[[P]]
// CHECK: vector.constant_mask [4] : vector<16xi1>
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c40
// CHECK-NOT: vector.transfer_write %{{.+}}, %[[P]]
// CHECK: scf.for %[[N0:.+]] = %{{.+}} to %{{.+}} step %c64
// CHECK: scf.for %[[K0:.+]] = %{{.+}} to %{{.+}} step %c32
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16
// CHECK: scf.for %[[NR:.+]] = %{{.+}} to %{{.+}} step %c16
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c4
// CHECK: scf.for %[[K:.+]] =
// CHECK: %[[S:.+]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1) floordiv 16)>(%[[N0]], %[[NR]])
// CHECK: %[[ROW:.+]] = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%[[K0]], %[[K]])
// CHECK: memref.subview %[[P]][%[[S]], %[[ROW]], 0] [1, 1, 16]
// BLOCK-LABEL: func.func @whole_operand
// BLOCK: memref.alloca() {alignment = 64 : i64} : memref<4x32x16xf32>
func.func @whole_operand(%a: memref<80x64xf32>, %b: memref<64x200xf32>, %c: memref<80x200xf32>) {
  %c0 = arith.constant 0 : index
  %c40 = arith.constant 40 : index
  %c80 = arith.constant 80 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  scf.parallel (%j) = (%c0) to (%c200) step (%c100) {
    scf.for %i = %c0 to %c80 step %c40 {
      %sa = memref.subview %a[%i, 0] [40, 64] [1, 1] : memref<80x64xf32> to memref<40x64xf32, strided<[64, 1], offset: ?>>
      %sb = memref.subview %b[0, %j] [64, 100] [1, 1] : memref<64x200xf32> to memref<64x100xf32, strided<[200, 1], offset: ?>>
      %sc = memref.subview %c[%i, %j] [40, 100] [1, 1] : memref<80x200xf32> to memref<40x100xf32, strided<[200, 1], offset: ?>>
      linalg.matmul ins(%sa, %sb : memref<40x64xf32, strided<[64, 1], offset: ?>>, memref<64x100xf32, strided<[200, 1], offset: ?>>) outs(%sc : memref<40x100xf32, strided<[200, 1], offset: ?>>)
    }
    scf.reduce
  }
  return
}

// -----

// Negative for whole-operand packing: the row loop also writes the right operand's buffer
// (before the contraction reads it), so its contents change between row tiles: each cache
// block is packed on its own, inside the row loop.
// CHECK-LABEL: func.func @operand_written_in_loop
// CHECK: scf.parallel
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<4x32x16xf32>
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c40
// CHECK: linalg.fill
// CHECK: vector.transfer_write %{{.+}}, %[[P]]
func.func @operand_written_in_loop(%a: memref<80x64xf32>, %b: memref<64x200xf32>, %c: memref<80x200xf32>) {
  %c0 = arith.constant 0 : index
  %c40 = arith.constant 40 : index
  %c80 = arith.constant 80 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%j) = (%c0) to (%c200) step (%c100) {
    scf.for %i = %c0 to %c80 step %c40 {
      %sa = memref.subview %a[%i, 0] [40, 64] [1, 1] : memref<80x64xf32> to memref<40x64xf32, strided<[64, 1], offset: ?>>
      %sb = memref.subview %b[0, %j] [64, 100] [1, 1] : memref<64x200xf32> to memref<64x100xf32, strided<[200, 1], offset: ?>>
      %sc = memref.subview %c[%i, %j] [40, 100] [1, 1] : memref<80x200xf32> to memref<40x100xf32, strided<[200, 1], offset: ?>>
      linalg.fill ins(%one : f32) outs(%sb : memref<64x100xf32, strided<[200, 1], offset: ?>>)
      linalg.matmul ins(%sa, %sb : memref<40x64xf32, strided<[64, 1], offset: ?>>, memref<64x100xf32, strided<[200, 1], offset: ?>>) outs(%sc : memref<40x100xf32, strided<[200, 1], offset: ?>>)
    }
    scf.reduce
  }
  return
}

// -----

// The right operand and the output are views of one workspace at disjoint offsets (a planned
// model's intermediates): the row loop writes the workspace, but not the operand's bytes, so
// the operand is packed whole, before the row loop, as in @whole_operand.
// CHECK-LABEL: func.func @workspace_views
// CHECK: scf.parallel
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<7x64x16xf32>
// CHECK: vector.transfer_write %{{.+}}, %[[P]]
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c40
// CHECK-NOT: vector.transfer_write %{{.+}}, %[[P]]
// CHECK: linalg.matmul {tlc.register_tile}
func.func @workspace_views(%a: memref<80x64xf32>, %ws: memref<115200xi8>) {
  %c0 = arith.constant 0 : index
  %c40 = arith.constant 40 : index
  %c80 = arith.constant 80 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  %off = arith.constant 51200 : index
  %b = memref.view %ws[%c0][] : memref<115200xi8> to memref<64x200xf32>
  %c = memref.view %ws[%off][] : memref<115200xi8> to memref<80x200xf32>
  scf.parallel (%j) = (%c0) to (%c200) step (%c100) {
    scf.for %i = %c0 to %c80 step %c40 {
      %sa = memref.subview %a[%i, 0] [40, 64] [1, 1] : memref<80x64xf32> to memref<40x64xf32, strided<[64, 1], offset: ?>>
      %sb = memref.subview %b[0, %j] [64, 100] [1, 1] : memref<64x200xf32> to memref<64x100xf32, strided<[200, 1], offset: ?>>
      %sc = memref.subview %c[%i, %j] [40, 100] [1, 1] : memref<80x200xf32> to memref<40x100xf32, strided<[200, 1], offset: ?>>
      linalg.matmul ins(%sa, %sb : memref<40x64xf32, strided<[64, 1], offset: ?>>, memref<64x100xf32, strided<[200, 1], offset: ?>>) outs(%sc : memref<40x100xf32, strided<[200, 1], offset: ?>>)
    }
    scf.reduce
  }
  return
}

// -----

// A batched right operand invariant in the row loop cannot be packed whole (its batch
// dimension is not a unit one): each cache block's panel is packed instead.
// CHECK-LABEL: func.func @batched_whole
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<4x1x32x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: tlc.register_tile
func.func @batched_whole(%a: memref<80x64xf32>, %b: memref<2x64x200xf32>, %c: memref<2x80x200xf32>) {
  %c0 = arith.constant 0 : index
  %c40 = arith.constant 40 : index
  %c80 = arith.constant 80 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  scf.parallel (%j) = (%c0) to (%c200) step (%c100) {
    scf.for %i = %c0 to %c80 step %c40 {
      %sa = memref.subview %a[%i, 0] [40, 64] [1, 1] : memref<80x64xf32> to memref<40x64xf32, strided<[64, 1], offset: ?>>
      %sb = memref.subview %b[0, 0, %j] [2, 64, 100] [1, 1, 1] : memref<2x64x200xf32> to memref<2x64x100xf32, strided<[12800, 200, 1], offset: ?>>
      %sc = memref.subview %c[0, %i, %j] [2, 40, 100] [1, 1, 1] : memref<2x80x200xf32> to memref<2x40x100xf32, strided<[16000, 200, 1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
          ins(%sa, %sb : memref<40x64xf32, strided<[64, 1], offset: ?>>, memref<2x64x100xf32, strided<[12800, 200, 1], offset: ?>>) outs(%sc : memref<2x40x100xf32, strided<[16000, 200, 1], offset: ?>>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      }
    }
    scf.reduce
  }
  return
}

// -----

// Negative: fewer rows of m than pack-min-rows (too little reuse for the copy).
// CHECK-LABEL: func.func @few_rows
// CHECK-NOT: memref.alloca
// CHECK: linalg.matmul {tlc.register_tile} ins(%{{.+}}, %{{.+}} : memref<4x1xf32, {{.+}}>, memref<1x16xf32, strided<[100, 1], offset: ?>>)
func.func @few_rows(%a: memref<8x64xf32>, %b: memref<64x100xf32>, %c: memref<8x100xf32>) {
  linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x100xf32>) outs(%c : memref<8x100xf32>)
  return
}

// -----

// Negative: the right operand is read with k contiguous (n is not its last dimension): it is
// left in place.
// CHECK-LABEL: func.func @transposed_rhs
// CHECK-NOT: memref.alloca
// CHECK: linalg.generic
// CHECK-SAME: tlc.register_tile
func.func @transposed_rhs(%a: memref<40x64xf32>, %b: memref<100x64xf32>, %c: memref<40x100xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x64xf32>, memref<100x64xf32>) outs(%c : memref<40x100xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Negative: without pack-rhs nothing is packed (the default of the pass; the CPU target sets it).
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16" | FileCheck %s --check-prefix=OFF
// OFF-NOT: memref.alloca
func.func @unpacked(%a: memref<40x64xf32>, %b: memref<64x100xf32>, %c: memref<40x100xf32>) {
  linalg.matmul ins(%a, %b : memref<40x64xf32>, memref<64x100xf32>) outs(%c : memref<40x100xf32>)
  return
}

// -----

// A right operand whose rows are 2 KiB apart (512 f32): a 32-row k block of it falls into 2 of
// L1's 64 sets, so unpacked every register tile would read its strip from L2. It is packed
// from pack-conflict-min-rows (8 here) rows of m, below pack-min-rows (16) (CONFLICT);
// without that option, not.
// CHECK-LABEL: func.func @conflicting_rows
// CHECK-NOT: memref.alloca
// CONFLICT-LABEL: func.func @conflicting_rows
// CONFLICT: memref.alloca() {alignment = 64 : i64} : memref<4x32x16xf32>
func.func @conflicting_rows(%a: memref<8x64xf32>, %b: memref<64x512xf32>, %c: memref<8x512xf32>) {
  linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x512xf32>) outs(%c : memref<8x512xf32>)
  return
}

// -----

// The same rows with a stride that spreads them over all sets (100 f32, 400 bytes): the 8 rows
// stay below pack-min-rows, unpacked.
// CHECK-LABEL: func.func @spread_rows
// CHECK-NOT: memref.alloca
// CONFLICT-LABEL: func.func @spread_rows
// CONFLICT-NOT: memref.alloca
func.func @spread_rows(%a: memref<8x64xf32>, %b: memref<64x100xf32>, %c: memref<8x100xf32>) {
  linalg.matmul ins(%a, %b : memref<8x64xf32>, memref<64x100xf32>) outs(%c : memref<8x100xf32>)
  return
}
