// RUN: tlc-opt %s -tlc-lower-memref-copy | FileCheck %s

// Regression (fixed): LowerMemRefCopy.cpp rewrites every memref.copy, including copies of unranked memrefs,
// into linalg.copy. The verifier accepts linalg.copy on memref<*xf32>, but linalg cannot
// iterate over an unknown rank: -convert-linalg-to-loops then drops the copy entirely (no
// loads or stores are emitted), a silent miscompile. Unranked copies should stay memref.copy
// (which lowers to the runtime's memrefCopy).

// CHECK-LABEL: func.func @unranked
// CHECK-NEXT: memref.copy %{{.+}}, %{{.+}} : memref<*xf32> to memref<*xf32>
// CHECK-NOT: linalg.copy
func.func @unranked(%a: memref<*xf32>, %b: memref<*xf32>) {
  memref.copy %a, %b : memref<*xf32> to memref<*xf32>
  return
}
