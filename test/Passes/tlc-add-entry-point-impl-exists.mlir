// RUN: tlc-opt %s -tlc-add-entry-point="model-name=m" -verify-diagnostics

// Regression (fixed): AddEntryPoint.cpp checks that NAME_run is free but renames NAME to NAME_impl without
// checking that NAME_impl is free, leaving two @m_impl symbols; the pass succeeds and the module
// verifier then fails with "redefinition of symbol named 'm_impl'" on the user's function.
// The pass should report it like the NAME_run case.

// expected-error @+1 {{symbol 'm_impl' already exists}}
module {
  func.func @m(%x: memref<4xf32>) {
    return
  }
  func.func private @m_impl(%x: memref<4xf32>)
}
