// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-rhs=true pack-min-rows=16 pack-lhs=true pack-lhs-min-cols=32 pack-lhs-min-bytes=0" -canonicalize -mlir-print-local-scope | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-tile-contractions="cache-m=16 cache-n=64 cache-k=32 register-m=4 register-n=16 pack-lhs=true pack-lhs-min-cols=32 pack-lhs-min-bytes=1000000" -canonicalize | FileCheck %s --check-prefix=SMALL

// Mixed precision: bf16 operands of an f32 contraction are packed already extended to f32
// (each element converted once per packing, not in every register tile that reads it); the
// register tile then reads f32 buffers and multiplies them as they are.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK-DAG: memref.alloca() {alignment = 64 : i64} : memref<4x32x16xf32>
// CHECK-DAG: memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// CHECK: %[[V:.+]] = vector.transfer_read {{.+}} : memref<32x?xbf16, {{.+}}>, vector<16xbf16>
// CHECK: %[[E:.+]] = arith.extf %[[V]] : vector<16xbf16> to vector<16xf32>
// CHECK: vector.transfer_write %[[E]]
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : memref<4x1xf32, {{.+}}>, memref<1x16xf32, {{.+}}>) outs(%{{.+}} : memref<4x16xf32, {{.+}}>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : f32
// A bf16 left operand is packed (and converted) even below pack-lhs-min-bytes, which only
// pays for f32 operands that miss the cache.
// SMALL-LABEL: func.func @matmul_bf16
// SMALL: memref.alloca() {alignment = 64 : i64} : memref<16x32xf32>
// SMALL-LABEL: func.func @not_only_extended
func.func @matmul_bf16(%a: memref<40x64xbf16>, %b: memref<64x100xbf16>, %c: memref<40x100xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x64xbf16>, memref<64x100xbf16>) outs(%c : memref<40x100xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Negative: an operand the body uses other than through an extension (here negated in bf16
// first) is packed in its own type and the body keeps its ops.
// CHECK-LABEL: func.func @not_only_extended
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<4x32x16xbf16>
// CHECK: ^bb0(%{{.+}}: f32, %[[Y:.+]]: bf16, %{{.+}}: f32):
// CHECK: arith.negf %[[Y]] : bf16
func.func @not_only_extended(%a: memref<40x64xbf16>, %b: memref<64x100xbf16>, %c: memref<40x100xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<40x64xbf16>, memref<64x100xbf16>) outs(%c : memref<40x100xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %yn = arith.negf %y : bf16
    %ye = arith.extf %yn : bf16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
