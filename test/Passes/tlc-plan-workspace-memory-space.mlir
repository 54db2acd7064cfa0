// RUN: tlc-opt %s -tlc-plan-workspace -verify-diagnostics -allow-unregistered-dialect

// Regression (fixed): PlanWorkspace.cpp only checks shape and layout, so an alloc in a non-default memory space
// is replaced by a memref.view of the (default-space) workspace, which is invalid IR: the pass
// "succeeds" and the verifier then reports "different memory spaces specified for base memref
// type 'memref<64xi8>' and view memref type 'memref<4xf32, 1>'" on the view. The pass should
// reject such an alloc itself ("cannot be placed in the workspace", naming the memory space).

func.func @other_memory_space() {
  // expected-error @+1 {{'memref.alloc' op cannot be placed in the workspace}}
  %0 = memref.alloc() : memref<4xf32, 1>
  "test.use"(%0) : (memref<4xf32, 1>) -> ()
  return
}
