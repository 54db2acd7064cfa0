// RUN: %tlc_opt %s --split-input-file --tlc-map-to-gpu --verify-diagnostics | FileCheck %s
// RUN: %tlc_opt %s --split-input-file --tlc-map-to-gpu=workgroup-memory=8192 --verify-diagnostics | FileCheck %s --check-prefix=SMALL
// RUN: not %tlc_opt %s --tlc-map-to-gpu=workgroup-memory=1024 2>&1 | FileCheck %s --check-prefix=TINY

// tl.fused_attention becomes one flash-attention launch: 128 threads per block of query rows
// (64: 4 x 64 = 256 blocks of rows at 64 batch points make 256 workgroups), a workgroup per
// batch point on grid y, five workgroup arrays (Q^T [16][65], K^T [16][33], V [32][24],
// P^T [32][65], the row partials [8][64]); Q staged once, then an scf.for over the keys 32 at a time that a
// causal block stops at its last row (min(70, row0 + 64)), carrying m, l (4 rows each) and
// the 4 x 3 accumulators; four barriers per step, one before the final sums; exp for the
// online softmax; out = acc / l stored under a guard.
// CHECK-LABEL: func.func @attention
// CHECK: gpu.launch blocks({{.*}}) in (%{{[^ ]+}} = %c4{{[_0-9]*}}, %{{[^ ]+}} = %c64, %{{[^ ]+}} = %c1{{[_0-9]*}}) threads({{.*}}) in (%{{[^ ]+}} = %c128,
// CHECK-SAME: workgroup({{.*}} : memref<1040xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<528xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<768xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<2080xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<512xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[END:.+]] = arith.minui %c70{{.*}}, %{{.+}} : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %[[END]] step %c32{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: arith.cmpi ule
// CHECK: arith.maximumf
// CHECK: gpu.barrier
// CHECK: math.exp
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: arith.divf
// CHECK: gpu.terminator
// CHECK-NOT: tl.fused_attention
// With 8 KiB of workgroup memory the tile is 16 rows by 16 keys: 16 blocks of rows.
// SMALL: gpu.launch blocks({{.*}}) in (%{{[^ ]+}} = %c16{{[_0-9]*}}, %{{[^ ]+}} = %c64,
// SMALL-SAME: workgroup({{.*}} : memref<272xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<272xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<384xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<272xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<128xf32, #gpu.address_space<workgroup>>)
// TINY: tlc-map-to-gpu-attention.mlir:{{[0-9]+}}:3: error: attention with head dimensions 16 and 24 does not fit this target's 1024 bytes of workgroup memory
func.func @attention(%q: memref<8x8x250x16xf32>, %k: memref<8x8x70x16xf32>,
                     %v: memref<8x8x70x24xf32>, %m: memref<1x70xf32>,
                     %o: memref<8x8x250x24xf32>) {
  tl.fused_attention %q, %k, %v mask %m causal scale = 0.25 outs(%o)
      : memref<8x8x250x16xf32>, memref<8x8x70x16xf32>, memref<8x8x70x24xf32>, memref<1x70xf32>
        into memref<8x8x250x24xf32>
  return
}

// -----

// A short sequence at few batch points takes the smallest tile for more workgroups: 16 rows
// by 16 keys, 4 blocks of the 50 rows at 6 batch points (2 x 3 on grid y).
// CHECK-LABEL: func.func @short
// CHECK: gpu.launch blocks({{.*}}) in (%{{[^ ]+}} = %c4{{[_0-9]*}}, %{{[^ ]+}} = %c6, %{{[^ ]+}} = %c1{{[_0-9]*}}) threads
// CHECK-SAME: workgroup({{.*}} : memref<272xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<272xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<256xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<272xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<128xf32, #gpu.address_space<workgroup>>)
// CHECK: arith.minui %c50{{.*}}, %{{.+}} : index
// SMALL-LABEL: func.func @short
func.func @short(%q: memref<2x3x50x16xf32>, %o: memref<2x3x50x16xf32>) {
  tl.fused_attention %q, %q, %q causal scale = 0.25 outs(%o)
      : memref<2x3x50x16xf32>, memref<2x3x50x16xf32>, memref<2x3x50x16xf32> into memref<2x3x50x16xf32>
  return
}
