// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace=forward-outputs=false -allow-unregistered-dialect | FileCheck %s
// RUN: tlc-opt %s -split-input-file -tlc-plan-workspace="in-place=false forward-outputs=false" -allow-unregistered-dialect | FileCheck %s --check-prefix=NOINPLACE

// In-place reuse: the elementwise op at point 3 reads %a for the last time through the same
// (identity) map as it first writes %b, so %b takes %a's bytes and the arena halves. Without
// in-place, both are live at point 3.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 64 : i64
// CHECK-SAME: {end = 3 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 2 : i64
// CHECK-SAME: {end = 4 : i64, in_place_of = 0 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 3 : i64
// CHECK-SAME: naive_size = 128 : i64
// CHECK-LABEL: func.func @in_place
// CHECK: arith.constant 0 : index
// CHECK-NEXT: %[[A:.+]] = memref.view
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[B:.+]] = memref.view
// CHECK: linalg.generic {{.+}} ins(%[[A]] : memref<4x4xf32>) outs(%[[B]] : memref<4x4xf32>)
// NOINPLACE-LABEL: module attributes
// NOINPLACE-SAME: arena_size = 128 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @in_place(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
    %a = memref.alloc() : memref<4x4xf32>
    %b = memref.alloc() : memref<4x4xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%in : memref<4x4xf32>) outs(%a : memref<4x4xf32>) {
    ^bb0(%x: f32, %y: f32):
      %e = math.exp %x : f32
      linalg.yield %e : f32
    }
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
    ^bb0(%x: f32, %y: f32):
      %n = arith.negf %x : f32
      linalg.yield %n : f32
    }
    memref.copy %b, %out : memref<4x4xf32> to memref<4x4xf32>
    return
  }
}

// -----

// Negative: %a is read again after the op, so %b cannot overwrite it.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 128 : i64
// CHECK-NOT: in_place_of
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @still_live(%in: memref<4x4xf32>) {
    %a = memref.alloc() : memref<4x4xf32>
    %b = memref.alloc() : memref<4x4xf32>
    "test.write"(%a) : (memref<4x4xf32>) -> ()
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %x : f32
    }
    "test.use"(%a, %b) : (memref<4x4xf32>, memref<4x4xf32>) -> ()
    return
  }
}

// -----

// Negative: a transposing op reads element (j, i) while writing (i, j): overwriting would
// clobber elements it has not read yet.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 128 : i64
// CHECK-NOT: in_place_of
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func @transpose() {
    %a = memref.alloc() : memref<4x4xf32>
    %b = memref.alloc() : memref<4x4xf32>
    "test.write"(%a) : (memref<4x4xf32>) -> ()
    linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %x : f32
    }
    "test.use"(%b) : (memref<4x4xf32>) -> ()
    return
  }
}

// -----

// Negative: the op also reads %a through a second (transposed) operand.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 128 : i64
// CHECK-NOT: in_place_of
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func @read_twice() {
    %a = memref.alloc() : memref<4x4xf32>
    %b = memref.alloc() : memref<4x4xf32>
    "test.write"(%a) : (memref<4x4xf32>) -> ()
    linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
    ^bb0(%x: f32, %x2: f32, %y: f32):
      %s = arith.addf %x, %x2 : f32
      linalg.yield %s : f32
    }
    "test.use"(%b) : (memref<4x4xf32>) -> ()
    return
  }
}

// -----

// Negative: a reduction writes each output element many times while still reading inputs.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 320 : i64
// CHECK-NOT: in_place_of
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  func.func @reduction() {
    %a = memref.alloc() : memref<16x4xf32>
    %b = memref.alloc() : memref<16xf32>
    "test.write"(%a) : (memref<16x4xf32>) -> ()
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<16x4xf32>) outs(%b : memref<16xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
    "test.use"(%b) : (memref<16xf32>) -> ()
    return
  }
}
