// RUN: tlc-opt %s -tlc-plan-workspace -allow-unregistered-dialect | FileCheck %s

// Regression (fixed): PlanWorkspace.cpp, bufferBytes() calls MemRefType::getElementTypeBitWidth(), which is only
// defined for integer and float elements; a statically shaped alloc of vectors (as vectorized
// code may allocate) or of index crashes tlc-opt (segfault in Type::getIntOrFloatBitWidth).
// Two vector<8xf32> take 64 bytes.

// CHECK-LABEL: module attributes
// CHECK-SAME: tlc.workspace_size = 64 : i64
// CHECK: memref.view %{{.+}}[%{{.+}}][] : memref<64xi8> to memref<2xvector<8xf32>>
func.func @vector_elements() {
  %0 = memref.alloc() : memref<2xvector<8xf32>>
  "test.use"(%0) : (memref<2xvector<8xf32>>) -> ()
  return
}
