// RUN: tlc-opt %s -split-input-file -tlc-merge-parallel-bodies | FileCheck %s

// Two layers of one shape outline to bodies that differ only in their names (and source
// locations): the second's launch calls become calls of the first's launch, and its body and
// launch are erased. A body with another constant, and one with another argument type, stay.
// CHECK-LABEL: func.func @f
// CHECK: call @f_par_launch(%{{.+}}, %{{.+}}, %{{.+}})
// CHECK-NEXT: call @f_par_launch(%{{.+}}, %{{.+}}, %{{.+}})
// CHECK-NEXT: call @f_par_1_launch(
// CHECK-NEXT: call @f_par_2_launch(
// CHECK-NEXT: call @f_par_launch(%{{.+}}, %{{.+}}, %{{.+}})
// CHECK: func.func private @f_par(
// CHECK: func.func private @f_par_launch(
// CHECK-NOT: @f_par_0
// CHECK: func.func private @f_par_1(
// CHECK: arith.constant 2.000000e+00
// CHECK: func.func private @f_par_1_launch(
// CHECK: func.func private @f_par_2(
// CHECK: func.func private @f_par_2_launch(
// CHECK-NOT: @f_par_0
func.func @f(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<32xf32>) {
  %n = arith.constant 4 : index
  call @f_par_launch(%n, %a, %b) : (index, memref<64xf32>, memref<64xf32>) -> ()
  call @f_par_0_launch(%n, %b, %a) : (index, memref<64xf32>, memref<64xf32>) -> ()
  call @f_par_1_launch(%n, %a, %b) : (index, memref<64xf32>, memref<64xf32>) -> ()
  call @f_par_2_launch(%n, %c, %c) : (index, memref<32xf32>, memref<32xf32>) -> ()
  call @f_par_0_launch(%n, %a, %b) : (index, memref<64xf32>, memref<64xf32>) -> ()
  return
}
func.func private @f_par(%begin: index, %end: index, %x: memref<64xf32>, %y: memref<64xf32>) attributes {tlc.parallel_body} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %begin to %end step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<64xf32>
  }
  return
}
func.func private @f_par_launch(index, memref<64xf32>, memref<64xf32>) attributes {tlc.parallel_launch = @f_par}
func.func private @f_par_0(%begin: index, %end: index, %x: memref<64xf32>, %y: memref<64xf32>) attributes {tlc.parallel_body} {
  %c1 = arith.constant 1 : index loc("other.onnx":3:4)
  %one = arith.constant 1.0 : f32
  scf.for %i = %begin to %end step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<64xf32>
  }
  return
}
func.func private @f_par_0_launch(index, memref<64xf32>, memref<64xf32>) attributes {tlc.parallel_launch = @f_par_0}
func.func private @f_par_1(%begin: index, %end: index, %x: memref<64xf32>, %y: memref<64xf32>) attributes {tlc.parallel_body} {
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %begin to %end step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %w = arith.addf %v, %two : f32
    memref.store %w, %y[%i] : memref<64xf32>
  }
  return
}
func.func private @f_par_1_launch(index, memref<64xf32>, memref<64xf32>) attributes {tlc.parallel_launch = @f_par_1}
func.func private @f_par_2(%begin: index, %end: index, %x: memref<32xf32>, %y: memref<32xf32>) attributes {tlc.parallel_body} {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %begin to %end step %c1 {
    %v = memref.load %x[%i] : memref<32xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<32xf32>
  }
  return
}
func.func private @f_par_2_launch(index, memref<32xf32>, memref<32xf32>) attributes {tlc.parallel_launch = @f_par_2}

// -----

// Bodies that use their arguments differently (x read and y written, against the reverse)
// are not the same function.
// CHECK-LABEL: func.func @g
// CHECK: call @g_par_launch(
// CHECK-NEXT: call @g_par_0_launch(
// CHECK: func.func private @g_par(
// CHECK: func.func private @g_par_0(
func.func @g(%a: memref<64xf32>, %b: memref<64xf32>) {
  %n = arith.constant 4 : index
  call @g_par_launch(%n, %a, %b) : (index, memref<64xf32>, memref<64xf32>) -> ()
  call @g_par_0_launch(%n, %a, %b) : (index, memref<64xf32>, memref<64xf32>) -> ()
  return
}
func.func private @g_par(%begin: index, %end: index, %x: memref<64xf32>, %y: memref<64xf32>) attributes {tlc.parallel_body} {
  %c1 = arith.constant 1 : index
  scf.for %i = %begin to %end step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    memref.store %v, %y[%i] : memref<64xf32>
  }
  return
}
func.func private @g_par_launch(index, memref<64xf32>, memref<64xf32>) attributes {tlc.parallel_launch = @g_par}
func.func private @g_par_0(%begin: index, %end: index, %x: memref<64xf32>, %y: memref<64xf32>) attributes {tlc.parallel_body} {
  %c1 = arith.constant 1 : index
  scf.for %i = %begin to %end step %c1 {
    %v = memref.load %y[%i] : memref<64xf32>
    memref.store %v, %x[%i] : memref<64xf32>
  }
  return
}
func.func private @g_par_0_launch(index, memref<64xf32>, memref<64xf32>) attributes {tlc.parallel_launch = @g_par_0}
