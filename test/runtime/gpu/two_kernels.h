/* The GPU runtime tests' program (two_kernels.spvasm / .ptx), built by hand the way tlc will
 * emit it, and the numeric check both backends run. Included once per test program. */
#ifndef TLC_TEST_RUNTIME_GPU_TWO_KERNELS_H
#define TLC_TEST_RUNTIME_GPU_TWO_KERNELS_H

#include "tlc/gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

/* The last error of `ctx` contains `needle`. */
#define CHECK_ERROR(ctx, needle)                                                                   \
  do {                                                                                             \
    const char *got_ = tlc_gpu_last_error(ctx);                                                    \
    if (!strstr(got_, (needle))) {                                                                 \
      fprintf(stderr, "%s:%d: FAILED: last error \"%s\" does not contain \"%s\"\n", __FILE__,      \
              __LINE__, got_, (needle));                                                           \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

enum { N = 1000, BYTES = N * 4, WS_OFFSET = 256, WS_SIZE = WS_OFFSET + BYTES, RUNS = 3 };

/* Everything a program points to, so a test can take a fresh copy and break one field. */
typedef struct two_kernels {
  tlc_gpu_arg mul_args[3], add_args[3];
  tlc_gpu_kernel kernels[2];
  uint64_t input_sizes[2], output_sizes[1];
  float c[N];
  tlc_gpu_constant constants[1];
  tlc_gpu_program program;
} two_kernels;

static void two_kernels_init(two_kernels *t, tlc_gpu_backend backend, const void *code,
                             uint64_t code_size, const char *target) {
  memset(t, 0, sizeof *t);
  for (int i = 0; i < N; ++i)
    t->c[i] = 0.5f + (float)(i % 7) * 0.25f;
  /* mul binds the whole workspace and writes from element 64 on; add binds it at byte 256. */
  tlc_gpu_arg mul[3] = {{TLC_GPU_ARG_INPUT, 0, 0, BYTES},
                        {TLC_GPU_ARG_CONSTANT, 0, 0, BYTES},
                        {TLC_GPU_ARG_WORKSPACE, 0, 0, WS_SIZE}};
  tlc_gpu_arg add[3] = {{TLC_GPU_ARG_WORKSPACE, 0, WS_OFFSET, BYTES},
                        {TLC_GPU_ARG_INPUT, 1, 0, BYTES},
                        {TLC_GPU_ARG_OUTPUT, 0, 0, BYTES}};
  memcpy(t->mul_args, mul, sizeof mul);
  memcpy(t->add_args, add, sizeof add);
  uint32_t grid = (N + 63) / 64;
  t->kernels[0] = (tlc_gpu_kernel){"mul", {grid, 1, 1}, {64, 1, 1}, 0, 3, t->mul_args};
  t->kernels[1] = (tlc_gpu_kernel){"add", {grid, 1, 1}, {64, 1, 1}, 0, 3, t->add_args};
  t->input_sizes[0] = t->input_sizes[1] = BYTES;
  t->output_sizes[0] = BYTES;
  t->constants[0] = (tlc_gpu_constant){t->c, BYTES};
  t->program = (tlc_gpu_program){.abi_version = TLC_GPU_ABI_VERSION,
                                 .backend = backend,
                                 .name = "two_kernels",
                                 .code = code,
                                 .code_size = code_size,
                                 .target = target,
                                 .num_kernels = 2,
                                 .kernels = t->kernels,
                                 .num_inputs = 2,
                                 .input_sizes = t->input_sizes,
                                 .num_outputs = 1,
                                 .output_sizes = t->output_sizes,
                                 .workspace_size = WS_SIZE,
                                 .num_constants = 1,
                                 .constants = t->constants};
}

/* Reads a whole file (NUL-terminated for text); NULL and a message if it cannot. */
static void *read_file(const char *path, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc((size_t)size + 1);
  if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  if (data)
    data[size] = '\0';
  *out_size = (size_t)size;
  return data;
}

/* Loads the program, scribbles over the caller's copy (the model must have taken what it
 * needs: tables, and the constants on the device), then runs it RUNS times on different inputs
 * back to back, without waiting in between, and checks every output against C. */
static void run_two_kernels(tlc_gpu_context *ctx, const tlc_gpu_program *program_in) {
  /* A private program the test can scribble over once it is loaded. */
  two_kernels *t = malloc(sizeof *t);
  if (!t)
    return;
  two_kernels_init(t, (tlc_gpu_backend)program_in->backend, program_in->code, program_in->code_size,
                   program_in->target);
  tlc_gpu_model *model = NULL;
  CHECK_STATUS(tlc_gpu_model_load(ctx, &t->program, &model), TLC_STATUS_OK);
  if (!model) {
    fprintf(stderr, "load failed: %s\n", tlc_gpu_last_error(ctx));
    free(t);
    return;
  }
  float c_ref[N];
  memcpy(c_ref, t->c, sizeof c_ref);
  memset(t, 0xff, sizeof *t); /* NaN constants, garbage tables */

  float a[RUNS][N], b[RUNS][N], out[RUNS][N];
  for (int r = 0; r < RUNS; ++r)
    for (int i = 0; i < N; ++i) {
      a[r][i] = sinf((float)(i + 100 * r)) * 3.0f;
      b[r][i] = (float)(i % 13) - 6.0f + (float)r;
    }
  tlc_gpu_buffer *in[RUNS][2], *outs[RUNS], *ws = NULL;
  CHECK_STATUS(tlc_gpu_buffer_create(ctx, WS_SIZE, &ws), TLC_STATUS_OK);
  unsigned char pattern[WS_OFFSET];
  memset(pattern, 0xab, sizeof pattern);
  CHECK_STATUS(tlc_gpu_buffer_upload(ctx, ws, 0, pattern, sizeof pattern), TLC_STATUS_OK);
  for (int r = 0; r < RUNS; ++r) {
    CHECK_STATUS(tlc_gpu_buffer_create(ctx, BYTES, &in[r][0]), TLC_STATUS_OK);
    CHECK_STATUS(tlc_gpu_buffer_create(ctx, BYTES, &in[r][1]), TLC_STATUS_OK);
    CHECK_STATUS(tlc_gpu_buffer_create(ctx, BYTES, &outs[r]), TLC_STATUS_OK);
    CHECK_STATUS(tlc_gpu_buffer_upload(ctx, in[r][0], 0, a[r], BYTES), TLC_STATUS_OK);
    CHECK_STATUS(tlc_gpu_buffer_upload(ctx, in[r][1], 0, b[r], BYTES), TLC_STATUS_OK);
  }
  for (int r = 0; r < RUNS; ++r)
    CHECK_STATUS(tlc_gpu_model_run(model, in[r], &outs[r], ws), TLC_STATUS_OK);
  for (int r = 0; r < RUNS; ++r)
    CHECK_STATUS(tlc_gpu_buffer_download(ctx, outs[r], 0, out[r], BYTES), TLC_STATUS_OK);
  int wrong = 0;
  for (int r = 0; r < RUNS; ++r)
    for (int i = 0; i < N; ++i) {
      float product = a[r][i] * c_ref[i]; /* two statements: no FMA contraction */
      float expected = product + b[r][i];
      if (out[r][i] != expected && wrong++ < 5)
        fprintf(stderr, "run %d: out[%d] = %.9g, expected %.9g\n", r, i, out[r][i], expected);
    }
  CHECK(wrong == 0);
  unsigned char head[WS_OFFSET];
  CHECK_STATUS(tlc_gpu_buffer_download(ctx, ws, 0, head, sizeof head), TLC_STATUS_OK);
  CHECK(memcmp(head, pattern, sizeof head) == 0); /* mul wrote from byte 256 on only */
  float last_product = 0;
  CHECK_STATUS(tlc_gpu_buffer_download(ctx, ws, WS_SIZE - 4, &last_product, 4), TLC_STATUS_OK);
  CHECK(last_product == a[RUNS - 1][N - 1] * c_ref[N - 1]);
  double ms = tlc_gpu_model_last_run_ms(model);
  printf("%d runs of two_kernels on %s: outputs exact; last run %.3f ms (device time)\n", RUNS,
         tlc_gpu_device_name(ctx), ms);
  CHECK(ms >= 0.0 && ms < 10000.0);
  CHECK_STATUS(tlc_gpu_synchronize(ctx), TLC_STATUS_OK);

  /* Per-kernel times: refused for a run that was not profiled, then one profiled run whose
   * kernels' times are each non-negative and together within the run's own. */
  double kernel_ms[3] = {-1, -1, -1};
  CHECK_STATUS(tlc_gpu_model_kernel_times(model, kernel_ms, 2), TLC_STATUS_UNSUPPORTED);
  CHECK(strstr(tlc_gpu_last_error(ctx), "was not profiled") != NULL);
  CHECK_STATUS(tlc_gpu_model_set_profiling(model, 1), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_model_run(model, in[0], &outs[0], ws), TLC_STATUS_OK);
  CHECK_STATUS(tlc_gpu_model_kernel_times(model, kernel_ms, 3), TLC_STATUS_OK);
  double run_ms = tlc_gpu_model_last_run_ms(model);
  printf("profiled run: kernels %.3f + %.3f ms of %.3f ms\n", kernel_ms[0], kernel_ms[1], run_ms);
  CHECK(kernel_ms[0] >= 0.0 && kernel_ms[1] >= 0.0);
  CHECK(kernel_ms[2] == -1); /* only the program's two kernels are written */
  CHECK(kernel_ms[0] + kernel_ms[1] <= run_ms * 1.0001 + 1e-6);
  CHECK_STATUS(tlc_gpu_model_kernel_times(NULL, kernel_ms, 2), TLC_STATUS_INVALID_ARGUMENT);
  CHECK_STATUS(tlc_gpu_model_set_profiling(NULL, 1), TLC_STATUS_INVALID_ARGUMENT);

  for (int r = 0; r < RUNS; ++r) {
    tlc_gpu_buffer_destroy(ctx, in[r][0]);
    tlc_gpu_buffer_destroy(ctx, in[r][1]);
    tlc_gpu_buffer_destroy(ctx, outs[r]);
  }
  tlc_gpu_buffer_destroy(ctx, ws);
  tlc_gpu_model_release(model);
  free(t);
}

#endif /* TLC_TEST_RUNTIME_GPU_TWO_KERNELS_H */
