// RUN: %tlc_opt %s --split-input-file --tlc-set-spirv-entry-points --verify-diagnostics | FileCheck %s

// The workgroup size comes from known_block_size; the module gets the Vulkan 1.1 target env.
// CHECK: module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Float64, Int64], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [256, 1, 1]>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<8xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      gpu.return
    }
    // Device functions are not entry points.
    // CHECK-LABEL: gpu.func @helper
    // CHECK-NOT: spirv.entry_point_abi
    gpu.func @helper() {
      gpu.return
    }
  }
}

// -----

// An existing target environment is kept.
// CHECK: spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
  gpu.module @m {
    gpu.func @k() kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      gpu.return
    }
  }
}

// -----

// A kernel without a constant block size cannot be a SPIR-V entry point.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-error @+1 {{kernel 'k' has no constant workgroup size, which SPIR-V needs}}
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// f64 exp/log/tanh/... have no GLSL.std.450 instruction: one located error per op name; f32
// ones and f64 sqrt (which SPIR-V has) pass.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: f64, %y: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      // expected-error @+1 {{math.exp on f64 is not supported on the SPIR-V targets (Vulkan, Metal: GLSL.std.450 has it for 16- and 32-bit floats only); compute it in f32}}
      %a = math.exp %x : f64
      %b = math.exp %a : f64
      // expected-error @+1 {{math.tanh on f64 is not supported on the SPIR-V targets}}
      %c = math.tanh %b : f64
      %d = math.sqrt %c : f64
      %e = math.exp %y : f32
      gpu.return
    }
  }
}
