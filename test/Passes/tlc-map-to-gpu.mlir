// RUN: %tlc_opt %s --split-input-file --tlc-map-to-gpu --verify-diagnostics | FileCheck %s

// One thread per output point: 16 x 8 points in one workgroup of 128 threads, the reduction
// loop (k) left whole inside the tiled op; the constant is reached through its expand_shape,
// which is cloned into the launch so the kernel binds the whole global.
memref.global "private" constant @w : memref<32xf32> = dense<1.0>
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[X:.+]]: memref<16x4xf32>, %[[Y:.+]]: memref<16x8xf32>)
func.func @matmul(%x: memref<16x4xf32>, %y: memref<16x8xf32>) {
  // CHECK: %[[G:.+]] = memref.get_global @w
  // CHECK-NOT: memref.expand_shape
  // CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
  // CHECK: %[[IN:.+]] = arith.cmpi ult, %{{.*}}, %c128
  // CHECK: scf.if %[[IN]]
  // CHECK: %[[J:.+]] = arith.remui %{{.*}}, %c8
  // CHECK: %[[I:.+]] = arith.divui %{{.*}}, %c8
  // CHECK: %[[W:.+]] = memref.expand_shape %[[G]]
  // CHECK-DAG: memref.subview %[[X]][%[[I]], 0] [1, 4] [1, 1]
  // CHECK-DAG: memref.subview %[[W]][0, %[[J]]] [4, 1] [1, 1]
  // CHECK-DAG: memref.subview %[[Y]][%[[I]], %[[J]]] [1, 1] [1, 1]
  // CHECK: linalg.matmul
  // CHECK: gpu.terminator
  // CHECK-NOT: linalg.matmul
  %g = memref.get_global @w : memref<32xf32>
  %w = memref.expand_shape %g [[0, 1]] output_shape [4, 8] : memref<32xf32> into memref<4x8xf32>
  linalg.matmul ins(%x, %w : memref<16x4xf32>, memref<4x8xf32>) outs(%y : memref<16x8xf32>)
  return
}

// -----

// More points than one grid row holds: 20,000,000 points in workgroups of 256 make 78125
// workgroups, laid out on a 65535 x 2 grid (the linear index is guarded).
// CHECK-LABEL: func.func @big
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c65535{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}
// CHECK: arith.cmpi ult, %{{.*}}, %c20000000
func.func @big(%x: memref<20000000xf32>, %y: memref<20000000xf32>) {
  linalg.copy ins(%x : memref<20000000xf32>) outs(%y : memref<20000000xf32>)
  return
}

// -----

// A small op gets one workgroup of the next multiple of 32 threads.
// CHECK-LABEL: func.func @small
// CHECK: threads({{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}})
// CHECK: linalg.generic
func.func @small(%x: memref<10xf32>, %y: memref<10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<10xf32>) outs(%y : memref<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Ops with no GPU lowering are reported, each at its location, not silently left on the host.
func.func @unsupported(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'scf.for' has no GPU lowering yet (the GPU targets run linalg ops)}}
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
  }
  // expected-error @+1 {{'memref.copy' has no GPU lowering yet}}
  memref.copy %x, %y : memref<8xf32> to memref<8xf32>
  return
}

// -----

// Private helpers are not model functions: left alone.
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: gpu.launch
// CHECK: linalg.copy
func.func private @helper(%x: memref<8xf32>, %y: memref<8xf32>) {
  linalg.copy ins(%x : memref<8xf32>) outs(%y : memref<8xf32>)
  return
}

// -----

// A contraction of at least 32 x 32 x 16 becomes workgroup tiles: here 64 x 64 tiles (16 x 17
// of them, 69632 threads: enough for a large GPU, where 8 x 8 register tiles would make a
// quarter of that, and more than 2 x 4 register tiles need) of 256 threads, with two
// 16-deep slices in workgroup memory (16 rows of 64 + 4 padding). Each thread's first slice
// elements are read before the k loop, whose iteration arguments are the 4 x 4 accumulators and
// the 4 + 4 slice elements read one step ahead: each step stores them, synchronizes, reads the
// next ones, multiplies through the op's body and synchronizes again. Reads at the edges are
// clamped and zeroed; stores are guarded.
// CHECK-LABEL: func.func @tiled
// CHECK-SAME: (%{{.*}}: memref<1000x40xf32>, %{{.*}}: memref<40x1030xf32>, %[[C:.+]]: memref<1000x1030xf32>)
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c17{{.*}}, {{.*}} = %c16{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) {{.*}} workgroup(%[[LT:.+]] : memref<1088xf32, #gpu.address_space<workgroup>>, %[[RT:.+]] : memref<1088xf32, #gpu.address_space<workgroup>>)
// CHECK: arith.minui %{{.*}}, %c999
// CHECK: arith.minui %{{.*}}, %c39
// CHECK: arith.select %{{.*}}, %{{.*}}, %cst
// CHECK: scf.for %{{.*}} = %{{.*}} to %c40{{.*}} step %c16{{.*}} iter_args({{.*}}) -> ({{(f32, ){23}f32}})
// CHECK-COUNT-4: memref.store %{{.*}}, %[[LT]]
// CHECK-COUNT-4: memref.store %{{.*}}, %[[RT]]
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %[[LT]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NOT: linalg.matmul
func.func @tiled(%a: memref<1000x40xf32>, %b: memref<40x1030xf32>, %c: memref<1000x1030xf32>) {
  linalg.matmul ins(%a, %b : memref<1000x40xf32>, memref<40x1030xf32>) outs(%c : memref<1000x1030xf32>)
  return
}

// -----

// A small product takes 32 x 64 tiles (2 x 4 per thread), the most threads:
// 2 x 4 of them here, with slices of 16 x (32 + 4) and 16 x (64 + 4), and 8 accumulators plus
// 2 + 4 slice elements carried by the k loop.
// CHECK-LABEL: func.func @small_tiles
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c4{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}}) {{.*}} workgroup({{.*}} : memref<576xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1088xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> ({{(f32, ){13}f32}})
func.func @small_tiles(%a: memref<100x40xf32>, %b: memref<40x70xf32>, %c: memref<100x70xf32>) {
  linalg.matmul ins(%a, %b : memref<100x40xf32>, memref<40x70xf32>) outs(%c : memref<100x70xf32>)
  return
}

// -----

// Enough output for 128 x 128 tiles (12 x 12 here: 36864 threads, where 64 x 64 tiles would
// make 4 times as many at half the multiply-adds per workgroup-memory read) takes them:
// 8-deep slices of 128 + 4. A batch loop goes to the grid's z dimension.
// CHECK-LABEL: func.func @big_tiles
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c12{{.*}}, {{.*}} = %c12{{.*}}, {{.*}} = %c1{{.*}}) {{.*}} workgroup({{.*}} : memref<1056xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1056xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16{{.*}} step %c8{{.*}} iter_args({{.*}}) -> ({{(f32, ){71}f32}})
// CHECK-LABEL: func.func @batch
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c3{{.*}})
// CHECK: memref.load %{{.*}}[%[[Z:block_id_z|arg5]], %{{.*}}, %{{.*}}]
func.func @big_tiles(%a: memref<1536x16xf32>, %b: memref<16x1536xf32>, %c: memref<1536x1536xf32>) {
  linalg.matmul ins(%a, %b : memref<1536x16xf32>, memref<16x1536xf32>) outs(%c : memref<1536x1536xf32>)
  return
}
func.func @batch(%a: memref<3x64x32xf32>, %b: memref<3x32x64xf32>, %c: memref<3x64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x64x32xf32>, memref<3x32x64xf32>) outs(%c : memref<3x64x64xf32>)
  return
}

// -----

// An output of 64 rows (a convolution's 64 output channels) takes 64 x 128 tiles of 8 x 8 per
// thread (128 threads), not 128 x 128 tiles half outside it: 1 x 512 of them.
// CHECK-LABEL: func.func @wide_tiles
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c512{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}}) {{.*}} workgroup({{.*}} : memref<544xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1056xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %{{.*}} iter_args({{.*}}) -> ({{(f32, ){75}f32}})
func.func @wide_tiles(%a: memref<64x64xf32>, %b: memref<64x65536xf32>, %c: memref<64x65536xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x65536xf32>) outs(%c : memref<64x65536xf32>)
  return
}

// -----

// Too few tiles for a large GPU and a long k: k is split over 8 workgroups per tile (the grid's
// z), 512 deep each. The first part adds into the output (here from the absorbed fill's
// zero), the others store into scratch past the workspace's arena (7 x 256 x 256 floats at
// 4096, the arena's size aligned to 256 bytes); the workspace argument, tlc.workspace_size and
// the memory plan grow by it. A second kernel, one thread per output element, adds the 7
// scratch parts to the output's in order and runs the epilogue (bias and ReLU).
// CHECK: module attributes {tlc.memory_plan = [{arena_size = 4000 : i64, function = "split_k", scratch_size = 1835008 : i64}], tlc.workspace_size = 1839104 : i64}
// CHECK-LABEL: func.func @split_k
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<256x256xf32>, %{{.*}}: memref<256xf32>, %[[WS:.+]]: memref<1839104xi8> {tl.name = "workspace"})
// CHECK: %[[SCRATCH:.+]] = memref.view %[[WS]][%c4096{{.*}}][] : memref<1839104xi8> to memref<458752xf32>
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}}, {{.*}}, {{.*}} = %c8{{.*}}) threads
// CHECK: %[[PART:.+]] = arith.divui %{{.*}}, %c1{{.*}}
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[PART]], %c0
// CHECK: %[[K0:.+]] = arith.muli %[[PART]], %c512
// CHECK: %[[K1:.+]] = arith.minui %{{.*}}, %c4096
// CHECK: arith.select %[[FIRST]], %cst{{.*}}, %cst
// CHECK: scf.for %{{.*}} = %[[K0]] to %[[K1]] step
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[C]]
// CHECK-NEXT: } else {
// CHECK: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}
// CHECK: %[[V0:.+]] = memref.load %[[C]]
// CHECK-COUNT-7: arith.addf
// CHECK: arith.addf
// CHECK-NEXT: %[[R:.+]] = arith.maximumf
// CHECK-NEXT: memref.store %[[R]], %[[C]]
// CHECK-NOT: gpu.launch
// CHECK: return
module attributes {tlc.memory_plan = [{function = "split_k", arena_size = 4000 : i64}],
                   tlc.workspace_size = 4000 : i64} {
func.func @split_k(%a: memref<256x4096xf32>, %b: memref<4096x256xf32>, %c: memref<256x256xf32>,
                   %bias: memref<256xf32>, %ws: memref<4000xi8> {tl.name = "workspace"}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x4096xf32>, memref<4096x256xf32>) outs(%c : memref<256x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<256xf32>) outs(%c : memref<256x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
}

// -----

// A reduction of at least 128 elements per output element gets a workgroup per output element
// (8 here), 128 threads (256 from 1024 elements on): each folds the elements tid, tid + 128, ...
// from the combiner's neutral element (-inf for maximumf) through the op's body, the partials
// meet in workgroup memory in 7 halving steps, and thread 0 combines the total with the
// output's initial value.
// CHECK-LABEL: func.func @row_max
// CHECK-SAME: (%[[X:.+]]: memref<8x512xf32>, %[[Y:.+]]: memref<8xf32>)
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c8{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads(%[[T:.+]], %{{.*}}, %{{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) {{.*}} workgroup(%[[P:.+]] : memref<128xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[NEG:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[PART:.+]] = scf.for %[[R:.+]] = %[[T]] to %c512{{.*}} step %c128{{.*}} iter_args(%[[ACC:.+]] = %[[NEG]]) -> (f32)
// CHECK: %[[V:.+]] = memref.load %[[X]][%{{.*}}, %[[R]]]
// CHECK: arith.maximumf %[[ACC]], %[[V]]
// CHECK: memref.store %[[PART]], %[[P]][%[[T]]]
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-7: gpu.barrier
// CHECK: scf.if
// CHECK: %[[INIT:.+]] = memref.load %[[Y]]
// CHECK: %[[TOTAL:.+]] = memref.load %[[P]]
// CHECK: %[[M:.+]] = arith.maximumf %[[INIT]], %[[TOTAL]]
// CHECK: memref.store %[[M]], %[[Y]]
func.func @row_max(%x: memref<8x512xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x512xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Fewer than 128 elements per output element, or a body that reads linalg.index, keep one
// thread per output element.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT: workgroup(
// CHECK-LABEL: func.func @indexed
// CHECK-NOT: workgroup(
func.func @short_rows(%x: memref<64x100xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x100xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @indexed(%x: memref<4x512xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x512xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %m = arith.mulf %in, %f : f32
    %0 = arith.addf %out, %m : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A fill of exactly the buffer the next op accumulates into (a tiled contraction, a workgroup
// reduction) becomes that kernel's initial value: one launch each, the output never read.
// CHECK-LABEL: func.func @fill_absorbed
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<100x70xf32>, %{{.*}}: memref<8x512xf32>, %[[Y:[a-z0-9]+]]: memref<8xf32>)
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch
// CHECK-NOT: memref.load %[[C]]
// CHECK: scf.for
// CHECK: gpu.launch
// CHECK-NOT: memref.load %[[Y]]
// CHECK: arith.maximumf %{{.*}}, %{{.*}}
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @fill_absorbed(%a: memref<100x40xf32>, %b: memref<40x70xf32>, %c: memref<100x70xf32>,
                         %x: memref<8x512xf32>, %y: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %low = arith.constant 0xFF800000 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<100x70xf32>)
  linalg.matmul ins(%a, %b : memref<100x40xf32>, memref<40x70xf32>) outs(%c : memref<100x70xf32>)
  linalg.fill ins(%low : f32) outs(%y : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x512xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Consecutive fills (a padded buffer's border after tlc-lower-memref-copy) run as one launch:
// one thread per point of all of them (2 x 8 + 2 x 8 + 4 = 36), each thread storing into the
// fill its index falls in. A fill the next op absorbs (the contraction's zeros) stays out of
// the group, which runs before it.
// CHECK-LABEL: func.func @fills_grouped
// CHECK-SAME: (%[[P:[a-z0-9]+]]: memref<4x8xf32>, %[[V:[a-z0-9]+]]: memref<4xf32>,
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c64
// CHECK: arith.cmpi ult, %{{.*}}, %c36
// CHECK: memref.subview %[[P]][0, 0] [2, 8]
// CHECK: arith.cmpi ult, %{{.*}}, %c16
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x8xf32, strided<[8, 1]>>
// CHECK: memref.subview %[[P]][2, 0] [2, 8]
// CHECK: memref.store
// CHECK: arith.cmpi ult, %{{.*}}, %c4
// CHECK: memref.store %{{.*}}, %[[V]][%{{.*}}] : memref<4xf32>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @fills_grouped(%p: memref<4x8xf32>, %v: memref<4xf32>, %a: memref<64x32xf32>,
                         %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %top = memref.subview %p[0, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<2x8xf32, strided<[8, 1]>>)
  %bottom = memref.subview %p[2, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: 16>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<2x8xf32, strided<[8, 1], offset: 16>>)
  linalg.fill ins(%one : f32) outs(%v : memref<4xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A fill followed by an op that also reads the filled buffer, or by one left to one thread per
// output element, keeps its own kernel.
// CHECK-LABEL: func.func @fill_kept
// CHECK-COUNT-4: gpu.launch
// CHECK-NOT: gpu.launch
func.func @fill_kept(%x: memref<8x512xf32>, %y: memref<8x512xf32>, %s: memref<8x4xf32>, %t: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<8x512xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<8x512xf32>) outs(%y : memref<8x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %in : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%t : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%s : memref<8x4xf32>) outs(%t : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// The elementwise op right after a tiled contraction, in place on its output (here a bias and
// a ReLU, the bias reached through a view defined between the two), runs in the tile's store:
// one launch, placed where the epilogue was; the output is stored once, as the epilogue's
// result, and the bias is read at the element's column.
// CHECK-LABEL: func.func @epilogue
// CHECK-SAME: (%{{.*}}: memref<650x40xf32>, %{{.*}}: memref<40x630xf32>, %[[C:.+]]: memref<650x630xf32>, %[[BIAS:.+]]: memref<630xf32>)
// CHECK: gpu.launch
// CHECK: memref.expand_shape %[[BIAS]]
// CHECK: scf.for
// CHECK: scf.if
// CHECK: %[[B:.+]] = memref.load %{{.*}}[%c0{{.*}}, %{{.*}}] : memref<1x630xf32>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %{{.*}}, %[[B]]
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[SUM]], %cst
// CHECK-NEXT: memref.store %[[R]], %[[C]]
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.generic
func.func @epilogue(%a: memref<650x40xf32>, %b: memref<40x630xf32>, %c: memref<650x630xf32>, %bias: memref<630xf32>) {
  linalg.matmul ins(%a, %b : memref<650x40xf32>, memref<40x630xf32>) outs(%c : memref<650x630xf32>)
  %row = memref.expand_shape %bias [[0, 1]] output_shape [1, 630] : memref<630xf32> into memref<1x630xf32>
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %row : memref<650x630xf32>, memref<1x630xf32>) outs(%c : memref<650x630xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A convolution is an implicit GEMM in the same tiles: m the 64 output channels, n the batch and
// output image (2 x 8 x 8 = 128, linearized, the innermost fastest), k the input channels and
// filter window (16 x 3 x 3 = 144). The filter is the left operand, read at (m, k); the image
// at its index expressions (oh * 2 + kh).
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[IMG:.+]]: memref<2x16x17x17xf32>, %[[FILT:.+]]: memref<64x16x3x3xf32>, %[[OUT:.+]]: memref<2x64x8x8xf32>)
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}}) {{.*}} workgroup({{.*}} : memref<576xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1088xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.load %[[FILT]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<64x16x3x3xf32>
// CHECK: %[[H2:.+]] = arith.muli %{{.*}}, %c2{{.*}} : index
// CHECK: arith.addi %[[H2]], %{{.*}} : index
// CHECK: memref.load %[[IMG]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %c144{{.*}} step %c16
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv(%img: memref<2x16x17x17xf32>, %filt: memref<64x16x3x3xf32>, %out: memref<2x64x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %filt : memref<2x16x17x17xf32>, memref<64x16x3x3xf32>) outs(%out : memref<2x64x8x8xf32>)
  return
}

// -----

// Pooling has a convolution's indexing maps but no multiply-add (and no output channel): one
// thread per output element.
// CHECK-LABEL: func.func @pool
// CHECK-NOT: workgroup(
// CHECK: linalg.pooling_nchw_max
func.func @pool(%img: memref<1x64x18x18xf32>, %window: memref<3x3xf32>, %out: memref<1x64x16x16xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %window : memref<1x64x18x18xf32>, memref<3x3xf32>) outs(%out : memref<1x64x16x16xf32>)
  return
}

// -----

// An epilogue may write another buffer when nothing else reads the contraction's output: then
// only its result is stored. A fill between the two moves before the launch when its bytes
// overlap none of the contraction's operands (here a workspace view disjoint from them).
// CHECK-LABEL: func.func @epilogue_elsewhere
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<4096xi8>)
// CHECK: %[[PAD:.+]] = memref.view %[[WS]][%c0{{.*}}][] : memref<4096xi8> to memref<2x64xf32>
// CHECK: gpu.launch
// CHECK: linalg.fill
// CHECK: gpu.launch
// CHECK: memref.subview %[[PAD]]
// CHECK: scf.if
// CHECK: %[[R:.+]] = arith.maximumf
// CHECK-NEXT: memref.store %[[R]], %{{.*}}
// CHECK-NOT: gpu.launch
func.func @epilogue_elsewhere(%a: memref<64x40xf32>, %b: memref<40x64xf32>, %c: memref<64x64xf32>,
                              %out: memref<64x64xf32>, %ws: memref<4096xi8>) {
  %zero = arith.constant 0.0 : f32
  linalg.matmul ins(%a, %b : memref<64x40xf32>, memref<40x64xf32>) outs(%c : memref<64x64xf32>)
  %c0 = arith.constant 0 : index
  %pad = memref.view %ws[%c0][] : memref<4096xi8> to memref<2x64xf32>
  linalg.fill ins(%zero : f32) outs(%pad : memref<2x64xf32>)
  %row = memref.subview %pad[0, 0] [1, 64] [1, 1] : memref<2x64xf32> to memref<64xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %row : memref<64x64xf32>, memref<64xf32, strided<[1]>>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not fused: the epilogue writes another buffer that the memory planner gave the bytes of
// the contraction's input (its last use was the contraction): in one launch, workgroups would
// store results over the input others still read.
// CHECK-LABEL: func.func @epilogue_over_input
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: gpu.launch
func.func @epilogue_over_input(%ws: memref<32768xi8>, %b: memref<40x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %a = memref.view %ws[%c0][] : memref<32768xi8> to memref<64x40xf32>
  linalg.matmul ins(%a, %b : memref<64x40xf32>, memref<40x64xf32>) outs(%c : memref<64x64xf32>)
  %out = memref.view %ws[%c0][] : memref<32768xi8> to memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not fused: the fill between them reuses the bytes of the contraction's input (the memory
// planner may do so once the input's last use is the contraction), so the contraction cannot
// move after it; and an epilogue into another buffer while the contraction's output has
// another reader.
// CHECK-LABEL: func.func @not_fused
// CHECK-COUNT-6: gpu.launch
// CHECK-NOT: gpu.launch
func.func @not_fused(%ws: memref<32768xi8>, %b: memref<40x64xf32>, %c: memref<64x64xf32>,
                     %out: memref<64x64xf32>, %d: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %a = memref.view %ws[%c0][] : memref<32768xi8> to memref<64x40xf32>
  linalg.matmul ins(%a, %b : memref<64x40xf32>, memref<40x64xf32>) outs(%c : memref<64x64xf32>)
  %reuse = memref.view %ws[%c0][] : memref<32768xi8> to memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%reuse : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<64x64xf32>) outs(%reuse : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%a, %b : memref<64x40xf32>, memref<40x64xf32>) outs(%d : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%d : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  linalg.copy ins(%d : memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
