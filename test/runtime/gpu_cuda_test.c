/* The CUDA launcher: without a driver, a clean TLC_STATUS_UNSUPPORTED; with one, numerics and PTX
 * errors. */
#define _POSIX_C_SOURCE 200809L
#include "gpu/two_kernels.h"

#include <dlfcn.h>

static void check_no_driver(tlc_status status, const tlc_gpu_context *ctx, const char *message) {
  CHECK(status == TLC_STATUS_UNSUPPORTED);
  CHECK(ctx == NULL);
  CHECK(strstr(message, "CUDA") != NULL);
  /* Where the loader cannot find libcuda.so.1 either, the message must say so in its words. */
  void *probe = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (probe)
    dlclose(probe);
  else
    CHECK(strstr(message, "no CUDA driver: libcuda.so.1 could not be loaded (") != NULL);
  /* And again, with no message buffer: still no crash, still NULL. */
  tlc_gpu_context *again = (tlc_gpu_context *)&again;
  CHECK_STATUS(tlc_gpu_context_create(TLC_GPU_BACKEND_CUDA, 0, &again, NULL, 0), status);
  CHECK(again == NULL);
}

/* PTX the driver must refuse, each with the reason and the JIT log in the message. */
static void check_bad_ptx(tlc_gpu_context *ctx, const char *good_ptx, size_t good_size) {
  two_kernels t;
  static const char too_new[] = ".version 99.9\n.target sm_80\n.address_size 64\n"
                                ".visible .entry mul() { ret; }\n";
  two_kernels_init(&t, TLC_GPU_BACKEND_CUDA, too_new, sizeof too_new - 1, "sm_80 ptx 99.9");
  tlc_gpu_model *model = NULL;
  tlc_status status = tlc_gpu_model_load(ctx, &t.program, &model);
  printf("PTX .version 99.9: %s: %s\n", tlc_status_string(status), tlc_gpu_last_error(ctx));
  CHECK(status == TLC_STATUS_UNSUPPORTED && model == NULL);
  CHECK_ERROR(ctx, "the PTX (sm_80 ptx 99.9) does not load on");
  CHECK_ERROR(ctx, "JIT log: ");

  static const char broken[] = ".version 7.8\n.target sm_80\n.address_size 64\n"
                               ".visible .entry mul() { frobnicate.f32 %f1; ret; }\n";
  two_kernels_init(&t, TLC_GPU_BACKEND_CUDA, broken, sizeof broken - 1, "sm_80 ptx 7.8");
  status = tlc_gpu_model_load(ctx, &t.program, &model);
  printf("broken PTX: %s: %s\n", tlc_status_string(status), tlc_gpu_last_error(ctx));
  CHECK(status == TLC_STATUS_UNSUPPORTED && model == NULL);
  CHECK_ERROR(ctx, "the PTX (sm_80 ptx 7.8) does not load on");
  CHECK(strstr(tlc_gpu_last_error(ctx), "JIT log: (empty)") == NULL); /* the log is there */

  two_kernels_init(&t, TLC_GPU_BACKEND_CUDA, good_ptx, good_size, "sm_80 ptx 7.8");
  t.kernels[1].name = "addd";
  CHECK_STATUS(tlc_gpu_model_load(ctx, &t.program, &model), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "kernel 'addd' is not an .entry of its PTX");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s two_kernels.ptx\n", argv[0]);
    return 2;
  }
  size_t ptx_size = 0;
  char *ptx = read_file(argv[1], &ptx_size);
  if (!ptx)
    return 2;
  char message[1024];
  tlc_gpu_context *ctx = (tlc_gpu_context *)&message; /* must be overwritten */
  tlc_status status =
      tlc_gpu_context_create(TLC_GPU_BACKEND_CUDA, 0, &ctx, message, sizeof message);
  if (status != TLC_STATUS_OK) {
    printf("no CUDA device, so only the no-driver path is checked: %s: %s\n",
           tlc_status_string(status), message);
    check_no_driver(status, ctx, message);
  } else {
    /* Under test/runtime/gpu/fake_cuda.c, whose bookkeeping says whether every call popped the
     * context it pushed and everything made was freed. */
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    int (*depth)(void) = NULL, (*retained)(void) = NULL;
    long (*live)(void) = NULL;
    if (driver) {
      *(void **)&depth = dlsym(driver, "fake_cuda_depth");
      *(void **)&retained = dlsym(driver, "fake_cuda_retained");
      *(void **)&live = dlsym(driver, "fake_cuda_live");
    }
    printf("CUDA device: %s\n", tlc_gpu_device_name(ctx));
    CHECK(tlc_gpu_context_backend(ctx) == TLC_GPU_BACKEND_CUDA);
    two_kernels t;
    two_kernels_init(&t, TLC_GPU_BACKEND_CUDA, ptx, ptx_size, "sm_80 ptx 7.8");
    run_two_kernels(ctx, &t.program);
    check_bad_ptx(ctx, ptx, ptx_size);
    if (depth)
      CHECK(depth() == 0);
    tlc_gpu_context_destroy(ctx);
    if (depth && retained && live) {
      printf("fake driver after destroy: %d pushed, %d retained, %ld live objects\n", depth(),
             retained(), live());
      CHECK(depth() == 0 && retained() == 0 && live() == 0);
    }
    if (driver)
      dlclose(driver);
  }
  free(ptx);
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  else
    printf("gpu_cuda_test: all checks passed\n");
  return failures ? 1 : 0;
}
