// RUN: %tlc_opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(gpu.module(tlc-spirv-narrow-compares))' | FileCheck %s

// A sign-extended value compared with a constant that fits its width, either side, or with
// another value extended from the same width: the compare happens in the narrow width.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: (%[[A:[^:]+]]: i32, %[[B:[^:]+]]: i32, %[[C:[^:]+]]: i16
// CHECK-DAG: %[[M2:.+]] = arith.constant -2 : i32
// CHECK-DAG: %[[Z:.+]] = arith.constant 0 : i32
// CHECK: arith.cmpi slt, %[[A]], %[[M2]] : i32
// CHECK: arith.cmpi ugt, %[[A]], %[[Z]] : i32
// CHECK: arith.cmpi eq, %[[A]], %[[B]] : i32
// A constant i32 cannot hold, other source widths, a non-constant i64: left alone.
// CHECK: arith.cmpi slt, %{{.+}}, %{{.+}} : i64
// CHECK: arith.cmpi sgt, %{{.+}}, %{{.+}} : i64
// CHECK: arith.cmpi sge, %{{.+}}, %{{.+}} : i64
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: i32, %b: i32, %c: i16, %d: i64) kernel {
      %m2 = arith.constant -2 : i64
      %z = arith.constant 0 : i64
      %big = arith.constant 4294967296 : i64
      %ea = arith.extsi %a : i32 to i64
      %eb = arith.extsi %b : i32 to i64
      %ec = arith.extsi %c : i16 to i64
      %0 = arith.cmpi slt, %ea, %m2 : i64
      %1 = arith.cmpi ult, %z, %ea : i64
      %2 = arith.cmpi eq, %ea, %eb : i64
      %3 = arith.cmpi slt, %ea, %big : i64
      %4 = arith.cmpi sgt, %ea, %ec : i64
      %5 = arith.cmpi sge, %ea, %d : i64
      "test.use"(%0, %1, %2, %3, %4, %5) : (i1, i1, i1, i1, i1, i1) -> ()
      gpu.return
    }
  }
}
