// RUN: tlc-opt %s -tlc-add-entry-point="model-name=m" | FileCheck %s

// Regression (fixed): AddEntryPoint.cpp renames the model with impl.setSymName(NAME + "_impl") but does not
// update symbol uses (SymbolTable::replaceAllSymbolUses), so any call to @m left in the module
// dangles and the verifier fails with "'func.call' op 'm' does not reference a valid function".

// CHECK-LABEL: func.func @caller
// CHECK: call @m_impl(%{{.+}}) : (memref<4xf32>) -> ()
// CHECK-LABEL: func.func private @m_impl
// CHECK-LABEL: func.func @m_run
func.func @caller(%x: memref<4xf32>) {
  func.call @m(%x) : (memref<4xf32>) -> ()
  return
}
func.func @m(%x: memref<4xf32>) {
  return
}
