// RUN: tlc-opt %s -split-input-file -tlc-add-entry-point="model-name=m" -verify-diagnostics | FileCheck %s

// The model becomes a private m_impl without argument names; m_run null-checks every buffer but
// the empty workspace, then calls m_impl and returns 0, or returns 1 without calling it.
// CHECK-LABEL: func.func private @m_impl
// CHECK-SAME: (%{{.+}}: memref<4xf32>, %{{.+}}: memref<2x3xf16>, %{{.+}}: memref<0xi8>)
// CHECK-NOT: tl.name
// CHECK: return
// CHECK-LABEL: func.func @m_run
// CHECK-SAME: (%[[X:.+]]: memref<4xf32>, %[[Y:.+]]: memref<2x3xf16>, %[[W:.+]]: memref<0xi8>) -> i32
// CHECK-NEXT: %[[FALSE:.+]] = arith.constant false
// CHECK-NEXT: %[[NULL:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[PX:.+]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<4xf32> -> index
// CHECK-NEXT: %[[ISX:.+]] = arith.cmpi eq, %[[PX]], %[[NULL]] : index
// CHECK-NEXT: %[[ANYX:.+]] = arith.ori %[[FALSE]], %[[ISX]] : i1
// CHECK-NEXT: %[[PY:.+]] = memref.extract_aligned_pointer_as_index %[[Y]] : memref<2x3xf16> -> index
// CHECK-NEXT: %[[ISY:.+]] = arith.cmpi eq, %[[PY]], %[[NULL]] : index
// CHECK-NEXT: %[[ANY:.+]] = arith.ori %[[ANYX]], %[[ISY]] : i1
// CHECK-NOT: extract_aligned_pointer_as_index %[[W]]
// CHECK-NEXT: %[[STATUS:.+]] = scf.if %[[ANY]] -> (i32) {
// CHECK-NEXT: %[[BAD:.+]] = arith.constant 1 : i32
// CHECK-NEXT: scf.yield %[[BAD]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: func.call @m_impl(%[[X]], %[[Y]], %[[W]]) : (memref<4xf32>, memref<2x3xf16>, memref<0xi8>) -> ()
// CHECK-NEXT: %[[OK:.+]] = arith.constant 0 : i32
// CHECK-NEXT: scf.yield %[[OK]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[STATUS]] : i32
func.func @m(%x: memref<4xf32> {tl.name = "x"}, %y: memref<2x3xf16> {tl.name = "y"},
             %w: memref<0xi8> {tl.name = "workspace"}) {
  return
}

// -----

// A non-empty workspace is checked; scalar arguments are not; other functions are left alone.
// CHECK-LABEL: func.func @other
// CHECK-LABEL: func.func private @m_impl
// CHECK-LABEL: func.func @m_run
// CHECK-SAME: (%[[N:.+]]: i64, %[[W:.+]]: memref<128xi8>) -> i32
// CHECK-NOT: extract_aligned_pointer_as_index %[[N]]
// CHECK: memref.extract_aligned_pointer_as_index %[[W]] : memref<128xi8> -> index
// CHECK: func.call @m_impl(%[[N]], %[[W]])
func.func @other() {
  return
}
func.func @m(%n: i64, %w: memref<128xi8>) {
  return
}

// -----

// Negative: no function with the model's name.
// expected-error @+1 {{no function named 'm' to wrap}}
module {
  func.func @model(%x: memref<4xf32>) {
    return
  }
}

// -----

// Negative: a declaration cannot be wrapped either.
// expected-error @+1 {{no function named 'm' to wrap}}
module {
  func.func private @m(%x: memref<4xf32>)
}

// -----

// Negative: the entry point's name is taken.
// expected-error @+1 {{symbol 'm_run' already exists}}
module {
  func.func @m(%x: memref<4xf32>) {
    return
  }
  func.func @m_run() {
    return
  }
}
