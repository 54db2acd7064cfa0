// RUN: tlc-opt %s -split-input-file -tlc-vectorize -canonicalize | FileCheck %s

#maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 * 4 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]

// A full 4 x 32 k-quad register tile (tlc-tile-contractions' int8-quads) inside its k loop:
// each row's k quad is one 32-bit word broadcast to 16 lanes, the quad row of the packed
// panel two 64-byte loads, and each row times each 16 columns one vpdpbusd whose unsigned
// operand is the zero-extended one (here the panel); the accumulators (one 4x32 transfer,
// unmasked) stay in registers across the k loop.
// CHECK-LABEL: func.func @full_tile
// CHECK: %[[ACC0:.+]] = vector.transfer_read %{{.+}} {in_bounds = [true, true]} : memref<4x32xi32, {{.+}}>, vector<4x32xi32>
// CHECK: %[[ACC:.+]] = scf.for {{.+}} iter_args(%[[IT:.+]] = %[[ACC0]]) -> (vector<4x32xi32>) {
// CHECK-COUNT-4: vector.transfer_read %{{.+}} {in_bounds = [true]} : memref<4x4xi8, {{.+}}>, vector<4xi8>
// CHECK: vector.bitcast %{{.+}} : vector<4xi8> to vector<1xi32>
// CHECK: vector.broadcast %{{.+}} : i32 to vector<16xi32>
// CHECK: vector.bitcast %{{.+}} : vector<16xi32> to vector<64xi8>
// CHECK: %[[B0:.+]] = vector.load %{{.+}}[%c0] : memref<128xi8, {{.+}}>, vector<64xi8>
// CHECK: %[[B1:.+]] = vector.load %{{.+}}[%c64] : memref<128xi8, {{.+}}>, vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %[[B0]], %{{.+}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %[[B1]], %{{.+}})
// CHECK-COUNT-6: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[ACC]], %{{.+}} {in_bounds = [true, true]} : vector<4x32xi32>, memref<4x32xi32, {{.+}}>
// CHECK-NOT: linalg.generic
func.func @full_tile(%a: memref<4x64xi8, strided<[64, 1], offset: ?>>, %panel: memref<16x128xi8>,
                     %c: memref<4x32xi32, strided<[40, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c4 {
    %p = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%k)
    %row = memref.subview %panel[%p, 0] [1, 128] [1, 1] : memref<16x128xi8> to memref<128xi8, strided<[1], offset: ?>>
    %quad = memref.subview %a[0, %k] [4, 4] [1, 1] : memref<4x64xi8, strided<[64, 1], offset: ?>> to memref<4x4xi8, strided<[64, 1], offset: ?>>
    linalg.generic {indexing_maps = #maps, iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%quad, %row : memref<4x4xi8, strided<[64, 1], offset: ?>>, memref<128xi8, strided<[1], offset: ?>>)
        outs(%c : memref<4x32xi32, strided<[40, 1], offset: ?>>) attrs = {tlc.int8_quads = array<i64: 0, 1, 2>, tlc.register_tile} {
    ^bb0(%x: i8, %y: i8, %acc: i32):
      %xe = arith.extsi %x : i8 to i32
      %ye = arith.extui %y : i8 to i32
      %m = arith.muli %xe, %ye : i32
      %s = arith.addi %acc, %m : i32
      linalg.yield %s : i32
    }
  }
  return
}

// -----

#maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 * 4 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]

// An edge tile with the left operand unsigned (a matmul of uint8 activations by int8
// weights): the broadcast quad is vpdpbusd's unsigned operand; m and k extents dynamic (at
// most 4 and 4), 8 columns: masked accumulators and quad reads, one dot per row.
// CHECK-LABEL: func.func @edge_tile_unsigned_lhs
// CHECK: %[[CMASK:.+]] = vector.create_mask %[[M:.+]], %c8 : vector<4x16xi1>
// CHECK: vector.transfer_read %[[CV:.+]][%c0, %c0], %{{.+}}, %[[CMASK]] {in_bounds = [true, true]} : memref<?x8xi32, {{.+}}>, vector<4x16xi32>
// CHECK: %[[AMASK:.+]] = vector.create_mask %{{.+}} : vector<4xi1>
// CHECK: vector.transfer_read %{{.+}}[%c0, %c0], %{{.+}}, %[[AMASK]] {in_bounds = [true]} : memref<?x?xi8, {{.+}}>, vector<4xi8>
// CHECK: %[[A0:.+]] = vector.bitcast %{{.+}} : vector<16xi32> to vector<64xi8>
// CHECK: %[[B0:.+]] = vector.load
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.+}}, %[[A0]], %[[B0]])
// CHECK-COUNT-3: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: llvm.call_intrinsic
// CHECK: vector.transfer_write %{{.+}}, %[[CV]][%c0, %c0], %[[CMASK]] {in_bounds = [true, true]} : vector<4x16xi32>, memref<?x8xi32, {{.+}}>
func.func @edge_tile_unsigned_lhs(%a: memref<?x?xi8, strided<[32, 1], offset: ?>>, %row: memref<128xi8, strided<[1], offset: ?>>,
                                  %c: memref<?x8xi32, strided<[40, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %c, %c0 : memref<?x8xi32, strided<[40, 1], offset: ?>>
  %mb = affine.min affine_map<(d0) -> (d0, 4)>(%m)
  %c1 = arith.constant 1 : index
  %k = memref.dim %a, %c1 : memref<?x?xi8, strided<[32, 1], offset: ?>>
  %kb = affine.min affine_map<(d0) -> (d0, 4)>(%k)
  %a2 = memref.subview %a[0, 0] [%mb, %kb] [1, 1] : memref<?x?xi8, strided<[32, 1], offset: ?>> to memref<?x?xi8, strided<[32, 1], offset: ?>>
  %c2 = memref.subview %c[0, 0] [%mb, 8] [1, 1] : memref<?x8xi32, strided<[40, 1], offset: ?>> to memref<?x8xi32, strided<[40, 1], offset: ?>>
  linalg.generic {indexing_maps = #maps, iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a2, %row : memref<?x?xi8, strided<[32, 1], offset: ?>>, memref<128xi8, strided<[1], offset: ?>>)
      outs(%c2 : memref<?x8xi32, strided<[40, 1], offset: ?>>) attrs = {tlc.int8_quads = array<i64: 0, 1, 2>, tlc.register_tile} {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extui %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  }
  return
}
