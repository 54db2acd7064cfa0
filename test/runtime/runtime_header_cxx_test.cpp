// Checks that tlc/runtime.h and tlc/gpu.h are usable from C++ (extern "C" linkage, no C-only constructs).
#include "tlc/gpu.h"
#include "tlc/runtime.h"

#include <cstdio>
#include <cstring>

int main() {
  void *ws = nullptr;
  if (tlc_workspace_alloc(nullptr, 128, &ws) != TLC_STATUS_OK || ws == nullptr) {
    std::fprintf(stderr, "runtime-header-cxx: FAILED: tlc_workspace_alloc from C++\n");
    return 1;
  }
  tlc_workspace_free(nullptr, ws);
  if (tlc_check_abi(TLC_ABI_VERSION) != TLC_STATUS_OK ||
      std::strcmp(tlc_dtype_name(TLC_DTYPE_BF16), "bf16") != 0) {
    std::fprintf(stderr, "runtime-header-cxx: FAILED: ABI/dtype queries from C++\n");
    return 1;
  }
  // The GPU API links with C linkage; Metal off Apple answers without a device.
  tlc_gpu_context *ctx = nullptr;
  char message[128];
  tlc_status metal = tlc_gpu_context_create(TLC_GPU_BACKEND_METAL, 0, &ctx, message, sizeof message);
  if (metal != TLC_STATUS_UNSUPPORTED || ctx != nullptr) {
    std::fprintf(stderr, "runtime-header-cxx: FAILED: tlc_gpu_context_create from C++\n");
    return 1;
  }
  std::printf("runtime-header-cxx: ok\n");
  return 0;
}
