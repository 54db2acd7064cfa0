// RUN: tlc-opt %s -tlc-vectorize=dot-lanes=4 -canonicalize | FileCheck %s

#maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1 * 2 + d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]

// The NEON form of a k-pair register tile (AArch64 +bf16; the 8x8 f32 tile of two 4-lane
// vectors per row, here 4 rows): each row's k pair is one 32-bit word broadcast to 4 lanes, the
// packed panel's pair row two 8-element loads, and each row times each 4 columns one BFDOT
// (lane i += a[2i] b[2i] + a[2i + 1] b[2i + 1]) through its LLVM intrinsic; the accumulators
// stay in registers across the k loop.
// CHECK-LABEL: func.func @neon_tile
// CHECK: %[[ACC0:.+]] = vector.transfer_read %{{.+}} {in_bounds = [true, true]} : memref<4x8xf32, {{.+}}>, vector<4x8xf32>
// CHECK: scf.for {{.+}} iter_args(%{{.+}} = %[[ACC0]]) -> (vector<4x8xf32>) {
// CHECK: vector.bitcast %{{.+}} : vector<2xbf16> to vector<1xi32>
// CHECK: vector.broadcast %{{.+}} : i32 to vector<4xi32>
// CHECK: vector.bitcast %{{.+}} : vector<4xi32> to vector<8xbf16>
// CHECK: %[[B0:.+]] = vector.load %{{.+}}[%c0] : memref<16xbf16, {{.+}}>, vector<8xbf16>
// CHECK: %[[B1:.+]] = vector.load %{{.+}}[%c8] : memref<16xbf16, {{.+}}>, vector<8xbf16>
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.bfdot.v4f32.v8bf16"(%{{.+}}, %{{.+}}, %[[B0]]) : (vector<4xf32>, vector<8xbf16>, vector<8xbf16>) -> vector<4xf32>
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.bfdot.v4f32.v8bf16"(%{{.+}}, %{{.+}}, %[[B1]])
// CHECK-COUNT-6: llvm.call_intrinsic "llvm.aarch64.neon.bfdot.v4f32.v8bf16"
// CHECK-NOT: llvm.call_intrinsic
// CHECK: scf.yield
// CHECK-NOT: x86vector
// CHECK-NOT: linalg.generic
func.func @neon_tile(%a: memref<4x64xbf16, strided<[64, 1], offset: ?>>, %panel: memref<32x16xbf16>,
                     %c: memref<4x8xf32, strided<[40, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %c64 step %c2 {
    %p = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%k)
    %row = memref.subview %panel[%p, 0] [1, 16] [1, 1] : memref<32x16xbf16> to memref<16xbf16, strided<[1], offset: ?>>
    %pair = memref.subview %a[0, %k] [4, 2] [1, 1] : memref<4x64xbf16, strided<[64, 1], offset: ?>> to memref<4x2xbf16, strided<[64, 1], offset: ?>>
    linalg.generic {indexing_maps = #maps, iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%pair, %row : memref<4x2xbf16, strided<[64, 1], offset: ?>>, memref<16xbf16, strided<[1], offset: ?>>)
        outs(%c : memref<4x8xf32, strided<[40, 1], offset: ?>>) attrs = {tlc.bf16_pairs = array<i64: 0, 1, 2>, tlc.register_tile} {
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
