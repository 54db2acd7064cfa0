// RUN: tlc-opt %s -tlc-interchange-loops | FileCheck %s

// Regression (fixed): InterchangeLoops.cpp, pickInnermostDim() calls getElementTypeBitWidth() on every shaped
// operand; for index (or vector) elements that is undefined and tlc-opt crashes
// (Type::getIntOrFloatBitWidth). Such a generic must be handled (or skipped) without a crash.

// CHECK-LABEL: func.func @index_elements
// CHECK: linalg.generic
func.func @index_elements(%a: memref<4x8xindex>, %b: memref<8x4xindex>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x8xindex>) outs(%b : memref<8x4xindex>) {
  ^bb0(%x: index, %o: index):
    linalg.yield %x : index
  }
  return
}
