// RUN: tlc-opt %s -tlc-plan-workspace="forward-outputs=false in-place=false" | FileCheck %s
// RUN: tlc-opt %s -tlc-plan-workspace="forward-outputs=false in-place=false inputs-through-epilogues=true" | FileCheck %s --check-prefix=EPILOGUE

// A matmul's input %a dies at the matmul (point 3); its epilogue (point 7, past an allocation,
// a constant and a fill) writes %d. By default %d takes %a's bytes (offset 0; a 128-byte
// arena). With inputs-through-epilogues %a lives through the epilogue (end 7), so a code
// generator may run the matmul and its epilogue as one kernel: %d gets bytes of its own.
// CHECK-LABEL: module attributes
// CHECK-SAME: arena_size = 128 : i64
// CHECK-SAME: {end = 3 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 2 : i64
// CHECK-SAME: {end = 8 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 7 : i64
// EPILOGUE-LABEL: module attributes
// EPILOGUE-SAME: arena_size = 192 : i64
// EPILOGUE-SAME: {end = 7 : i64, {{.+}}, offset = 0 : i64, size = 64 : i64, start = 2 : i64
// EPILOGUE-SAME: {end = 8 : i64, {{.+}}, offset = 128 : i64, size = 64 : i64, start = 7 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @epilogue(%in: memref<4x4xf32>, %w: memref<4x4xf32>, %out: memref<4x4xf32>) {
    %a = memref.alloc() : memref<4x4xf32>
    %c = memref.alloc() : memref<4x4xf32>
    linalg.copy ins(%in : memref<4x4xf32>) outs(%a : memref<4x4xf32>)
    linalg.matmul ins(%a, %w : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
    %d = memref.alloc() : memref<4x4xf32>
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%out : memref<4x4xf32>)
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%c : memref<4x4xf32>) outs(%d : memref<4x4xf32>) {
    ^bb0(%x: f32, %y: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    }
    memref.copy %d, %out : memref<4x4xf32> to memref<4x4xf32>
    return
  }
}
