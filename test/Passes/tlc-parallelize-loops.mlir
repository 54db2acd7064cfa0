// RUN: tlc-opt %s -split-input-file -tlc-parallelize-loops="min-work=1024 max-chunks=8" -canonicalize | FileCheck %s

// An elementwise op of 4096 iterations: split into 8 chunks of 512 along its only (parallel)
// dimension, in an scf.parallel loop.
// CHECK-LABEL: func.func @add
// CHECK-DAG: %[[C512:.+]] = arith.constant 512 : index
// CHECK: scf.parallel (%[[I:.+]]) = (%{{.+}}) to (%{{.+}}) step (%[[C512]])
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}} : memref<512xf32, {{.+}}>)
func.func @add(%a: memref<4096xf32>, %b: memref<4096xf32>, %c: memref<4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a, %b : memref<4096xf32>, memref<4096xf32>) outs(%c : memref<4096xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A row reduction: the rows (parallel) are split, the reduction dimension never is.
// CHECK-LABEL: func.func @row_max
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%[[C8]])
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}} : memref<8x256xf32, {{.+}}>) outs(%{{.+}} : memref<8xf32, {{.+}}>)
func.func @row_max(%a: memref<64x256xf32>, %m: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x256xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.maximumf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A full reduction has no parallel dimension and stays serial; so does a small op.
// CHECK-LABEL: func.func @serial
// CHECK-NOT: scf.parallel
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: scf.parallel
func.func @serial(%a: memref<4096xf32>, %s: memref<f32>, %b: memref<256xf32>, %c: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%a : memref<4096xf32>) outs(%s : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%b : memref<256xf32>) outs(%c : memref<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Ops already inside a loop nest are left to it.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK-NOT: scf.parallel
func.func @nested(%a: memref<4096xf32>, %c: memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    linalg.copy ins(%a : memref<4096xf32>) outs(%c : memref<4096xf32>)
  }
  return
}
