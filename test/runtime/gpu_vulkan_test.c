/* The Vulkan launcher on a real device (lavapipe in CI): two kernels' numerics, and every error
 * path. */
#define _POSIX_C_SOURCE 200809L
#include "gpu/two_kernels.h"

#include <stdlib.h>

/* Checks of the API that need no device: NULLs, unknown backends, Metal off Apple. */
static void check_without_device(void) {
  char message[256];
  tlc_gpu_context *ctx = (tlc_gpu_context *)&message; /* must be overwritten with NULL */
  CHECK_STATUS(tlc_gpu_context_create(TLC_GPU_BACKEND_METAL, 0, &ctx, message, sizeof message),
               TLC_STATUS_UNSUPPORTED);
  CHECK(ctx == NULL);
#ifndef __APPLE__
  CHECK(strstr(message, "Metal runs on Apple platforms only") != NULL);
#endif
  CHECK_STATUS(tlc_gpu_context_create((tlc_gpu_backend)7, 0, &ctx, message, sizeof message),
               TLC_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(message, "7 is not a tlc_gpu_backend") != NULL);
  CHECK_STATUS(tlc_gpu_context_create(TLC_GPU_BACKEND_VULKAN, 0, NULL, message, sizeof message),
               TLC_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(message, "out_ctx is NULL") != NULL);
  CHECK_STATUS(tlc_gpu_context_create(TLC_GPU_BACKEND_VULKAN, -1, &ctx, NULL, 0),
               TLC_STATUS_INVALID_ARGUMENT); /* a NULL message buffer is allowed */
  /* A tiny message buffer is truncated, still NUL-terminated. */
  char tiny[6];
  tlc_gpu_context_create(TLC_GPU_BACKEND_METAL, 0, &ctx, tiny, sizeof tiny);
  CHECK(strlen(tiny) == sizeof tiny - 1);

  setenv("TLC_GPU_DEVICE", "first", 1);
  CHECK_STATUS(tlc_gpu_context_create(TLC_GPU_BACKEND_VULKAN, 0, &ctx, message, sizeof message),
               TLC_STATUS_INVALID_ARGUMENT);
  CHECK(strstr(message, "TLC_GPU_DEVICE='first' is not a device index") != NULL);
  setenv("TLC_GPU_DEVICE", "99", 1);
  CHECK_STATUS(tlc_gpu_context_create(TLC_GPU_BACKEND_VULKAN, 0, &ctx, message, sizeof message),
               TLC_STATUS_UNSUPPORTED);
  CHECK(strstr(message, "no Vulkan device 99") != NULL);
  CHECK(ctx == NULL);
  unsetenv("TLC_GPU_DEVICE");

  /* NULL contexts and objects: statuses, no crash. */
  tlc_gpu_buffer *buffer = NULL;
  CHECK_STATUS(tlc_gpu_buffer_create(NULL, 4, &buffer), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(tlc_gpu_buffer_upload(NULL, NULL, 0, NULL, 0), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(tlc_gpu_buffer_download(NULL, NULL, 0, NULL, 0), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(tlc_gpu_synchronize(NULL), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(tlc_gpu_model_load(NULL, NULL, NULL), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(tlc_gpu_model_run(NULL, NULL, NULL, NULL), TLC_STATUS_INVALID_ARGUMENT);
  CHECK(tlc_gpu_model_last_run_ms(NULL) < 0);
  CHECK(strcmp(tlc_gpu_last_error(NULL), "") == 0);
  CHECK(strcmp(tlc_gpu_device_name(NULL), "") == 0);
  CHECK(tlc_gpu_buffer_size(NULL) == 0);
  tlc_gpu_context_destroy(NULL);
  tlc_gpu_buffer_destroy(NULL, NULL);
  tlc_gpu_model_release(NULL);
}

/* Loads a broken copy of the program; expects `status` and `needle` in the message. */
#define CHECK_LOAD_FAILS(ctx, t, status, needle)                                                   \
  do {                                                                                             \
    tlc_gpu_model *m_ = (tlc_gpu_model *)&(t);                                                     \
    CHECK_STATUS(tlc_gpu_model_load((ctx), &(t).program, &m_), (status));                          \
    CHECK(m_ == NULL);                                                                             \
    CHECK_ERROR((ctx), (needle));                                                                  \
  } while (0)

static void check_load_errors(tlc_gpu_context *ctx, const void *code, size_t code_size) {
  two_kernels t;
#define FRESH() two_kernels_init(&t, TLC_GPU_BACKEND_VULKAN, code, code_size, "vulkan 1.1")
  tlc_gpu_model *model = NULL;
  CHECK_STATUS(tlc_gpu_model_load(ctx, NULL, &model), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "program is NULL");
  FRESH();
  CHECK_STATUS(tlc_gpu_model_load(ctx, &t.program, NULL), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "out_model is NULL");

  FRESH();
  t.program.abi_version = TLC_GPU_ABI_VERSION + 1;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_ABI_MISMATCH,
                   "uses GPU ABI version 2; this runtime implements version 1");
  FRESH();
  t.program.backend = TLC_GPU_BACKEND_CUDA;
  t.program.target = "sm_80 ptx 7.8";
  CHECK_LOAD_FAILS(
      ctx, t, TLC_STATUS_INVALID_ARGUMENT,
      "program 'two_kernels' is a CUDA program (sm_80 ptx 7.8); this context runs Vulkan");
  FRESH();
  t.program.code = NULL;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "has no code");
  FRESH();
  t.program.code_size -= 2;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "not a module of 32-bit words");
  FRESH();
  t.program.code = "this is not SPIR-V, honestly";
  t.program.code_size = 28;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "its code is not SPIR-V");
  FRESH();
  t.program.kernels = NULL;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "a table with a nonzero count is NULL");
  FRESH();
  t.kernels[1].name = "addd";
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT,
                   "kernel 'addd' is not an entry point of its SPIR-V (entry points: mul, add)");
  FRESH();
  t.kernels[0].block[0] = 32;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT,
                   "kernel 'mul' has block 32x1x1 in the table but LocalSize 64x1x1");
  FRESH();
  t.kernels[0].grid[1] = 0;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "every extent must be at least 1");
  FRESH();
  t.kernels[0].grid[0] = 0x7fffffff;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_UNSUPPORTED, "exceeds");
  FRESH();
  t.add_args[0].offset = 128; /* not a multiple of 256 */
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT,
                   "not a multiple of TLC_GPU_BINDING_ALIGNMENT");
  FRESH();
  t.add_args[0].offset = 512; /* 512 + 4000 > 4256 */
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT,
                   "binds bytes [512, 512 + 4000) of a buffer of 4256 bytes");
  FRESH();
  t.mul_args[0].size = 0;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "must be a nonempty range");
  FRESH();
  t.add_args[1].index = 2;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "names input 2, which does not exist");
  FRESH();
  t.mul_args[1].kind = 9;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "has unknown kind 9");
  FRESH();
  t.program.workspace_size = 0;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT,
                   "binds the workspace, but the program's workspace_size is 0");
  FRESH();
  t.constants[0].data = NULL;
  CHECK_LOAD_FAILS(ctx, t, TLC_STATUS_INVALID_ARGUMENT, "constant 0 has 4000 bytes but no data");
#undef FRESH
}

static void check_run_errors(tlc_gpu_context *ctx, const void *code, size_t code_size) {
  two_kernels t;
  two_kernels_init(&t, TLC_GPU_BACKEND_VULKAN, code, code_size, "vulkan 1.1");
  tlc_gpu_model *model = NULL;
  CHECK_STATUS(tlc_gpu_model_load(ctx, &t.program, &model), TLC_STATUS_OK);
  if (!model)
    return;
  tlc_gpu_buffer *a = NULL, *b = NULL, *out = NULL, *small = NULL, *ws = NULL, *empty = NULL;
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, BYTES, &a), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, BYTES, &b), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, BYTES, &out), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, BYTES - 4, &small), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, WS_SIZE, &ws), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, 0, &empty), TLC_STATUS_OK);
  CHECK(tlc_gpu_buffer_size(empty) == 0 && tlc_gpu_buffer_size(ws) == WS_SIZE);
  CHECK_STATUS(tlc_gpu_buffer_upload(ctx, empty, 0, NULL, 0), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_buffer_download(ctx, empty, 0, NULL, 0), TLC_STATUS_OK);

  tlc_gpu_buffer *inputs[2] = {a, b}, *outputs[1] = {out};
  tlc_gpu_buffer *small_in[2] = {a, small}, *small_out[1] = {small}, *null_in[2] = {a, NULL};
  CHECK_STATUS(tlc_gpu_model_run(model, inputs, small_out, ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx,
              "tlc_gpu_model_run(two_kernels): output 0 is 3996 bytes; the program needs 4000");
  CHECK_STATUS(tlc_gpu_model_run(model, small_in, outputs, ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "input 1 is 3996 bytes; the program needs 4000");
  CHECK_STATUS(tlc_gpu_model_run(model, inputs, outputs, small), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "workspace 0 is 3996 bytes; the program needs 4256");
  CHECK_STATUS(tlc_gpu_model_run(model, inputs, outputs, NULL), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "workspace 0 is NULL (the program needs 4256 bytes)");
  CHECK_STATUS(tlc_gpu_model_run(model, null_in, outputs, ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "input 1 is NULL");
  CHECK_STATUS(tlc_gpu_model_run(model, NULL, outputs, ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "inputs is NULL but the program has 2");
  CHECK_STATUS(tlc_gpu_model_run(model, inputs, NULL, ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "outputs is NULL but the program has 1");

  /* A buffer of another context. */
  tlc_gpu_context *other = NULL;
  CHECK_STATUS(tlc_gpu_context_create(TLC_GPU_BACKEND_VULKAN, 0, &other, NULL, 0), TLC_STATUS_OK);
  tlc_gpu_buffer *foreign = NULL;
  if (other)
    CHECK_STATUS(tlc_gpu_buffer_create(other, BYTES, &foreign), TLC_STATUS_OK);
  tlc_gpu_buffer *foreign_out[1] = {foreign};
  CHECK_STATUS(tlc_gpu_model_run(model, inputs, foreign_out, ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "output 0 belongs to another context");
  CHECK_STATUS(tlc_gpu_buffer_upload(ctx, foreign, 0, &t.c, 4), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "the buffer belongs to another context");
  tlc_gpu_buffer_destroy(other, foreign);
  tlc_gpu_context_destroy(other);

  /* Copies outside a buffer, NULL host pointers. */
  CHECK_STATUS(tlc_gpu_buffer_upload(ctx, a, BYTES - 4, t.c, 8), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx,
              "tlc_gpu_buffer_upload: bytes [3996, 3996 + 8) are outside the buffer of 4000 bytes");
  CHECK_STATUS(tlc_gpu_buffer_download(ctx, a, SIZE_MAX, t.c, 8), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "tlc_gpu_buffer_download: bytes");
  CHECK_STATUS(tlc_gpu_buffer_upload(ctx, a, 0, NULL, 4), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "the host pointer is NULL");
  CHECK_STATUS(tlc_gpu_buffer_upload(ctx, NULL, 0, t.c, 4), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "buffer is NULL");
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, 4, NULL), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_ERROR(ctx, "out_buffer is NULL");

  /* After all those refusals the model still runs. */
  CHECK_STATUS(tlc_gpu_model_run(model, inputs, outputs, ws), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_synchronize(ctx), TLC_STATUS_OK);

  tlc_gpu_buffer *all[] = {a, b, out, small, ws, empty};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    tlc_gpu_buffer_destroy(ctx, all[i]);
  tlc_gpu_model_release(model);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s two_kernels.spv\n", argv[0]);
    return 2;
  }
  size_t code_size = 0;
  void *code = read_file(argv[1], &code_size);
  if (!code)
    return 2;
  check_without_device();

  char message[1024];
  tlc_gpu_context *ctx = NULL;
  tlc_status status =
      tlc_gpu_context_create(TLC_GPU_BACKEND_VULKAN, 0, &ctx, message, sizeof message);
  if (status != TLC_STATUS_OK) {
    /* Not a skip: CI installs lavapipe, so no device means a broken setup. */
    fprintf(stderr, "FAILED: no Vulkan device: %s (%s)\n", message, tlc_status_string(status));
    free(code);
    return 1;
  }
  CHECK(tlc_gpu_context_backend(ctx) == TLC_GPU_BACKEND_VULKAN);
  CHECK(strcmp(tlc_gpu_last_error(ctx), "") == 0);
  printf("Vulkan device: %s%s\n", tlc_gpu_device_name(ctx),
         getenv("TLC_VULKAN_FORCE_STAGING") ? " (through the staging buffer)" : "");

  two_kernels t;
  two_kernels_init(&t, TLC_GPU_BACKEND_VULKAN, code, code_size, "vulkan 1.1");
  run_two_kernels(ctx, &t.program);
  check_load_errors(ctx, code, code_size);
  check_run_errors(ctx, code, code_size);
  tlc_gpu_context_destroy(ctx);
  free(code);
  if (failures)
    fprintf(stderr, "%d check(s) failed\n", failures);
  else
    printf("gpu_vulkan_test: all checks passed\n");
  return failures ? 1 : 0;
}
