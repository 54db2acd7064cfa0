// RUN: tlc-opt %s -split-input-file -tlc-vectorize -canonicalize | FileCheck %s

#maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 * 2 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]

// A full 4 x 32 k-pair register tile (tlc-tile-contractions' bf16-pairs) inside its k loop:
// each row's k pair is one 32-bit word broadcast to 16 lanes, the pair row of the packed
// panel two 32-element loads, and each row times each 16 columns one vdpbf16ps; the
// accumulators (one 4x32 transfer, unmasked) stay in registers across the k loop.
// CHECK-LABEL: func.func @full_tile
// CHECK: %[[ACC0:.+]] = vector.transfer_read %{{.+}} {in_bounds = [true, true]} : memref<4x32xf32, {{.+}}>, vector<4x32xf32>
// CHECK: %[[ACC:.+]] = scf.for {{.+}} iter_args(%[[IT:.+]] = %[[ACC0]]) -> (vector<4x32xf32>) {
// CHECK-COUNT-4: vector.transfer_read %{{.+}} {in_bounds = [true]} : memref<4x2xbf16, {{.+}}>, vector<2xbf16>
// CHECK: vector.bitcast %{{.+}} : vector<2xbf16> to vector<1xi32>
// CHECK: vector.broadcast %{{.+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{.+}} : vector<16xi32> to vector<32xbf16>
// CHECK: %[[B0:.+]] = vector.load %{{.+}}[%c0] : memref<64xbf16, {{.+}}>, vector<32xbf16>
// CHECK: %[[B1:.+]] = vector.load %{{.+}}[%c32] : memref<64xbf16, {{.+}}>, vector<32xbf16>
// CHECK: x86vector.avx512.dot %{{.+}}, %{{.+}}, %[[B0]] : vector<32xbf16> -> vector<16xf32>
// CHECK: x86vector.avx512.dot %{{.+}}, %{{.+}}, %[[B1]] : vector<32xbf16> -> vector<16xf32>
// CHECK-COUNT-6: x86vector.avx512.dot
// CHECK-NOT: x86vector.avx512.dot
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[ACC]], %{{.+}} {in_bounds = [true, true]} : vector<4x32xf32>, memref<4x32xf32, {{.+}}>
// CHECK-NOT: linalg.generic
func.func @full_tile(%a: memref<4x64xbf16, strided<[64, 1], offset: ?>>, %panel: memref<32x64xbf16>,
                     %c: memref<4x32xf32, strided<[40, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c2 {
    %p = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%k)
    %row = memref.subview %panel[%p, 0] [1, 64] [1, 1] : memref<32x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
    %pair = memref.subview %a[0, %k] [4, 2] [1, 1] : memref<4x64xbf16, strided<[64, 1], offset: ?>> to memref<4x2xbf16, strided<[64, 1], offset: ?>>
    linalg.generic {indexing_maps = #maps, iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%pair, %row : memref<4x2xbf16, strided<[64, 1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>)
        outs(%c : memref<4x32xf32, strided<[40, 1], offset: ?>>) attrs = {tlc.bf16_pairs = array<i64: 0, 1, 2>, tlc.register_tile} {
    ^bb0(%x: bf16, %y: bf16, %acc: f32):
      %xe = arith.extf %x : bf16 to f32
      %ye = arith.extf %y : bf16 to f32
      %m = arith.mulf %xe, %ye : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

#maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 * 2 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]

// An edge tile (m and k extents dynamic, at most 4 and 2; 8 columns): the accumulators are
// one masked 4x16 transfer; a row's pair read is masked to the k extent, and to nothing for
// rows past the m extent; one vector of 16 columns, so one dot per row.
// CHECK-LABEL: func.func @edge_tile
// CHECK: %[[CMASK:.+]] = vector.create_mask %[[M:.+]], %c8 : vector<4x16xi1>
// CHECK: vector.transfer_read %[[CV:.+]][%c0, %c0], %{{.+}}, %[[CMASK]] {in_bounds = [true, true]} : memref<?x8xf32, {{.+}}>, vector<4x16xf32>
// CHECK: %[[IN:.+]] = arith.cmpi ugt, %[[M]], %c0
// CHECK: %[[VALID:.+]] = arith.select %[[IN]], %[[K:.+]], %c0
// CHECK: %[[AMASK:.+]] = vector.create_mask %[[VALID]] : vector<2xi1>
// CHECK: vector.transfer_read %[[AV:.+]][%c0, %c0], %{{.+}}, %[[AMASK]] {in_bounds = [true]} : memref<?x?xbf16, {{.+}}>, vector<2xbf16>
// CHECK: arith.cmpi ugt, %[[M]], %c3
// CHECK: arith.select %{{.+}}, %[[K]], %c0
// CHECK-COUNT-4: x86vector.avx512.dot
// CHECK-NOT: x86vector.avx512.dot
// CHECK: vector.transfer_write %{{.+}}, %[[CV]][%c0, %c0], %[[CMASK]] {in_bounds = [true, true]} : vector<4x16xf32>, memref<?x8xf32, {{.+}}>
func.func @edge_tile(%a: memref<?x?xbf16, strided<[32, 1], offset: ?>>, %row: memref<64xbf16, strided<[1], offset: ?>>,
                     %c: memref<?x8xf32, strided<[40, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %c, %c0 : memref<?x8xf32, strided<[40, 1], offset: ?>>
  %mb = affine.min affine_map<(d0) -> (d0, 4)>(%m)
  %c1 = arith.constant 1 : index
  %k = memref.dim %a, %c1 : memref<?x?xbf16, strided<[32, 1], offset: ?>>
  %kb = affine.min affine_map<(d0) -> (d0, 2)>(%k)
  %a2 = memref.subview %a[0, 0] [%mb, %kb] [1, 1] : memref<?x?xbf16, strided<[32, 1], offset: ?>> to memref<?x?xbf16, strided<[32, 1], offset: ?>>
  %c2 = memref.subview %c[0, 0] [%mb, 8] [1, 1] : memref<?x8xf32, strided<[40, 1], offset: ?>> to memref<?x8xf32, strided<[40, 1], offset: ?>>
  linalg.generic {indexing_maps = #maps, iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a2, %row : memref<?x?xbf16, strided<[32, 1], offset: ?>>, memref<64xbf16, strided<[1], offset: ?>>)
      outs(%c2 : memref<?x8xf32, strided<[40, 1], offset: ?>>) attrs = {tlc.bf16_pairs = array<i64: 0, 1, 2>, tlc.register_tile} {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
