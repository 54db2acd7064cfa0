// RUN: tlc-opt %s -tlc-flatten-constant-globals | FileCheck %s

// A rank-3 constant becomes one flat global viewed through expand_shape; its initializer a
// resource blob borrowing the attribute's bytes (values in order: 0.0, 1.0, ..., 11.0 as
// little-endian f32, after the blob's alignment word); a splat stays a (reshaped) splat;
// rank-1 and rank-0 globals, globals without a dense initializer and non-identity layouts stay
// as they are.
// CHECK-DAG: memref.global "private" constant @w : memref<12xf32> = dense_resource<w>
// CHECK-DAG: memref.global "private" constant @i : memref<6xi8> = dense_resource<i>
// CHECK-DAG: memref.global "private" constant @one : memref<8xf32> = dense<1.000000e+00>
// CHECK-DAG: memref.global "private" constant @v : memref<3xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-DAG: memref.global "private" constant @s : memref<f32> = dense<5.000000e+00>
// CHECK-DAG: memref.global "private" @u : memref<4x4xi32>
// CHECK-DAG: memref.global "private" constant @z : memref<2x2xf16, strided<[4, 1]>> = dense<0.000000e+00>
memref.global "private" constant @w : memref<2x3x2xf32> = dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]>
memref.global "private" constant @v : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
memref.global "private" constant @i : memref<2x3xi8> = dense<[[1, 2, 3], [-1, -2, -3]]>
memref.global "private" constant @one : memref<2x4xf32> = dense<1.0>
memref.global "private" constant @s : memref<f32> = dense<5.0>
memref.global "private" @u : memref<4x4xi32> = uninitialized
memref.global "private" constant @z : memref<2x2xf16, strided<[4, 1]>> = dense<0.0>

// CHECK-LABEL: func.func @uses
// CHECK: %[[W:.+]] = memref.get_global @w : memref<12xf32>
// CHECK: %[[WV:.+]] = memref.expand_shape %[[W]] {{\[}}[0, 1, 2]] output_shape [2, 3, 2] : memref<12xf32> into memref<2x3x2xf32>
// CHECK: %[[UV:.+]] = memref.get_global @u : memref<4x4xi32>
// CHECK: %[[V:.+]] = memref.get_global @v : memref<3xf32>
// CHECK: %[[Z:.+]] = memref.get_global @z : memref<2x2xf16, strided<[4, 1]>>
// CHECK: return %[[WV]], %[[UV]], %[[V]], %[[Z]]
func.func @uses() -> (memref<2x3x2xf32>, memref<4x4xi32>, memref<3xf32>, memref<2x2xf16, strided<[4, 1]>>) {
  %w = memref.get_global @w : memref<2x3x2xf32>
  %u = memref.get_global @u : memref<4x4xi32>
  %v = memref.get_global @v : memref<3xf32>
  %z = memref.get_global @z : memref<2x2xf16, strided<[4, 1]>>
  return %w, %u, %v, %z : memref<2x3x2xf32>, memref<4x4xi32>, memref<3xf32>, memref<2x2xf16, strided<[4, 1]>>
}

// CHECK: dialect_resources
// CHECK-DAG: w: "0x01000000000000000000803F0000004000004040000080400000A0400000C0400000E04000000041000010410000204100003041"
// CHECK-DAG: i: "0x01000000010203FFFEFD"
