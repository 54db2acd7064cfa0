// RUN: %tlc_opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tlc-spirv-workgroup-memory))' --verify-diagnostics | FileCheck %s
// RUN: %tlc_opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tlc-spirv-workgroup-memory),convert-gpu-to-spirv,spirv.module(tlc-spirv-share-workgroup-memory))' --verify-diagnostics | FileCheck %s --check-prefix=SHARED

// Each workgroup attribution becomes a memref.alloc in the SPIR-V Workgroup storage class at
// the kernel's entry (what convert-gpu-to-spirv lowers), its loads and stores unchanged.
// CHECK-LABEL: gpu.func @first
// CHECK-NOT: workgroup(
// CHECK: %[[A:.+]] = memref.alloc() : memref<64xf32, #spirv.storage_class<Workgroup>>
// CHECK: %[[B:.+]] = memref.alloc() : memref<32xf32, #spirv.storage_class<Workgroup>>
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<64xf32, #spirv.storage_class<Workgroup>>
// CHECK: memref.load %[[B]][%{{.*}}] : memref<32xf32, #spirv.storage_class<Workgroup>>

// The kernels then share their variables: the n-th f32 array of each kernel is the module's
// n-th, as long as the longest (64 and 32 in @first, 16 and 48 in @second: 64 and 48).
// SHARED-DAG: spirv.GlobalVariable @__tlc_workgroup_f32_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32>)>, Workgroup>
// SHARED-DAG: spirv.GlobalVariable @__tlc_workgroup_f32_1 : !spirv.ptr<!spirv.struct<(!spirv.array<48 x f32>)>, Workgroup>
// SHARED-NOT: spirv.GlobalVariable @__workgroup_mem
// SHARED-LABEL: spirv.func @first
// SHARED-DAG: spirv.mlir.addressof @__tlc_workgroup_f32_0
// SHARED-DAG: spirv.mlir.addressof @__tlc_workgroup_f32_1
// SHARED-LABEL: spirv.func @second
// SHARED-DAG: spirv.mlir.addressof @__tlc_workgroup_f32_0
// SHARED-DAG: spirv.mlir.addressof @__tlc_workgroup_f32_1
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  gpu.module @kernels {
    gpu.func @first(%x: memref<64xf32>) workgroup(%a: memref<64xf32, #gpu.address_space<workgroup>>, %b: memref<32xf32, #gpu.address_space<workgroup>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<64xf32>
      memref.store %v, %a[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %b[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %b[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      %u = memref.load %a[%t] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %w, %u : f32
      memref.store %s, %x[%t] : memref<64xf32>
      gpu.return
    }
    gpu.func @second(%x: memref<64xf32>) workgroup(%a: memref<16xf32, #gpu.address_space<workgroup>>, %b: memref<48xf32, #gpu.address_space<workgroup>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<64xf32>
      memref.store %v, %a[%t] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %b[%t] : memref<48xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %b[%t] : memref<48xf32, #gpu.address_space<workgroup>>
      %u = memref.load %a[%t] : memref<16xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %w, %u : f32
      memref.store %s, %x[%t] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// Workgroup memory reached other than by loads and stores is refused at the user.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @view(%x: memref<64xf32>) workgroup(%a: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      // expected-error @below {{workgroup memory used by 'memref.subview'; the SPIR-V targets expect loads and stores only}}
      %s = memref.subview %a[0] [32] [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<32xf32, strided<[1]>, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
