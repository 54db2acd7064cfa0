// The generated header: entry point, workspace size, and shape/dtype macros per input/output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tlc %s -o %t/net.o --header %t/net.h --name net
// RUN: FileCheck %s < %t/net.h
// RUN: %cc -c -Wall -Werror -x c %t/net.h -o %t/header-compiles.o
// RUN: llvm-nm %t/net.o | FileCheck %s --check-prefix=SYMS

// CHECK: #ifndef TLC_MODEL_NET_H
// CHECK: #include <tlc/runtime.h>
// CHECK: #define NET_ABI_VERSION 1
// CHECK: #define NET_NUM_INPUTS 2
// CHECK: #define NET_NUM_OUTPUTS 2
// CHECK: #define NET_WORKSPACE_SIZE [[WS:[0-9]+]]
// CHECK: #define NET_INPUT_X_DTYPE TLC_DTYPE_F32
// CHECK: #define NET_INPUT_X_RANK 2
// CHECK: #define NET_INPUT_X_SHAPE {4, 8}
// CHECK: #define NET_INPUT_X_NUMEL 32
// CHECK: #define NET_INPUT_IDX_DTYPE TLC_DTYPE_I32
// CHECK: #define NET_INPUT_IDX_SHAPE {3}
// CHECK: #define NET_OUTPUT_Y_DTYPE TLC_DTYPE_F32
// CHECK: #define NET_OUTPUT_Y_SHAPE {4, 16}
// CHECK: #define NET_OUTPUT_MASK_DTYPE TLC_DTYPE_I1
// CHECK: #define NET_OUTPUT_MASK_RANK 0
// CHECK: #define NET_OUTPUT_MASK_SHAPE {1}
// CHECK: tlc_status net_run(const float *x, const int32_t *idx, float *y, uint8_t *mask, void *workspace);

// SYMS: T net_run
// SYMS-NOT: malloc
func.func @model(%x: tensor<4x8xf32> {tl.name = "x"}, %idx: tensor<3xi32> {tl.name = "idx"})
    -> (tensor<4x16xf32> {tl.name = "y"}, tensor<i1> {tl.name = "mask"}) {
  %w = tl.constant dense<0.5> : tensor<8x16xf32>
  %h = tl.einsum "ij,jk->ik" %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %e = tl.exp %h : tensor<4x16xf32>
  %y = tl.softmax %e axis = 1 : tensor<4x16xf32>
  %s = tl.reduce_sum %idx axes = [0] : tensor<3xi32> -> tensor<i32>
  %z = tl.constant dense<0> : tensor<i32>
  %m = tl.compare gt %s, %z : tensor<i32>, tensor<i32> -> tensor<i1>
  return %y, %m : tensor<4x16xf32>, tensor<i1>
}
