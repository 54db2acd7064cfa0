/* The GPU check's large matmul rows: a model `c = einsum("ij,jk->ik", a, b)` compiled for a GPU
 * target, run on random inputs generated here (too large to carry to the GPU machine), timed
 * by the runtime's device timestamps (median of `runs`), and checked at 256 sampled outputs
 * against a float64 dot product: |c - ref| <= 1e-5 * sum_k |a_ik * b_kj|.
 *
 *   cc -DPROGRAM=matmul4096_program -I runtime/include bench_matmul.c matmul4096.o <runtime>
 *   ./bench NAME M K N BACKEND(cuda|vulkan) [runs]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tlc/gpu.h>

#include "bench_common.h"

extern const tlc_gpu_program PROGRAM;

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s NAME M K N cuda|vulkan [runs]\n", argv[0]);
    return 2;
  }
  const char *name = argv[1];
  long m = atol(argv[2]), k = atol(argv[3]), n = atol(argv[4]);
  tlc_gpu_backend backend = strcmp(argv[5], "cuda") == 0 ? TLC_GPU_BACKEND_CUDA
                                                          : TLC_GPU_BACKEND_VULKAN;
  int runs = argc > 6 ? atoi(argv[6]) : 20;
  if (m <= 0 || k <= 0 || n <= 0 || runs <= 0 || runs > 1000) {
    fprintf(stderr, "bad sizes or runs\n");
    return 2;
  }
  float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
  float *c = malloc(sizeof(float) * m * n);
  if (!a || !b || !c)
    return 2;
  for (long i = 0; i < m * k; ++i)
    a[i] = next_uniform();
  for (long i = 0; i < k * n; ++i)
    b[i] = next_uniform();

  char message[1024];
  tlc_gpu_context *ctx = NULL;
  tlc_gpu_model *model = NULL;
  tlc_gpu_buffer *da = NULL, *db = NULL, *dc = NULL, *ws = NULL;
  if (tlc_gpu_context_create(backend, 0, &ctx, message, sizeof message) != TLC_STATUS_OK) {
    printf("FAIL %s: no device: %s\n", name, message);
    return 1;
  }
  if (tlc_gpu_model_load(ctx, &PROGRAM, &model) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, sizeof(float) * m * k, &da) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, sizeof(float) * k * n, &db) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, sizeof(float) * m * n, &dc) != TLC_STATUS_OK ||
      // Split-k partial sums (small products with a long k) live in the workspace.
      tlc_gpu_buffer_create(ctx, PROGRAM.workspace_size, &ws) != TLC_STATUS_OK ||
      tlc_gpu_buffer_upload(ctx, da, 0, a, sizeof(float) * m * k) != TLC_STATUS_OK ||
      tlc_gpu_buffer_upload(ctx, db, 0, b, sizeof(float) * k * n) != TLC_STATUS_OK) {
    printf("FAIL %s: setup: %s\n", name, tlc_gpu_last_error(ctx));
    return 1;
  }
  tlc_gpu_buffer *inputs[] = {da, db}, *outputs[] = {dc};
  double min = 0, median = time_runs(ctx, model, inputs, outputs, ws, runs, &min);
  if (median < 0) {
    printf("FAIL %s: run: %s\n", name, tlc_gpu_last_error(ctx));
    return 1;
  }
  if (tlc_gpu_buffer_download(ctx, dc, 0, c, sizeof(float) * m * n) != TLC_STATUS_OK) {
    printf("FAIL %s: download: %s\n", name, tlc_gpu_last_error(ctx));
    return 1;
  }
  printf("time %s device_ms_median=%.4f min=%.4f runs=%d tflops=%.2f\n", name, median, min,
         runs, 2.0 * m * k * n / (median * 1e-3) / 1e12);

  int bad = 0;
  double worst = 0;
  for (int s = 0; s < 256; ++s) {
    long i = (long)((next_uniform() + 1) * 0.5 * m), j = (long)((next_uniform() + 1) * 0.5 * n);
    i = i < m ? i : m - 1;
    j = j < n ? j : n - 1;
    double ref = 0, mag = 0;
    for (long q = 0; q < k; ++q) {
      ref += (double)a[i * k + q] * b[q * n + j];
      mag += fabs((double)a[i * k + q] * b[q * n + j]);
    }
    double err = fabs(c[i * n + j] - ref) / mag;
    worst = err > worst ? err : worst;
    bad += !(err <= 1e-5);
  }
  printf("%s %s: 256 sampled outputs, worst |c-ref|/sum|a*b| = %.3g\n", bad ? "FAIL" : "PASS",
         name, worst);
  tlc_gpu_buffer_destroy(ctx, da);
  tlc_gpu_buffer_destroy(ctx, db);
  tlc_gpu_buffer_destroy(ctx, dc);
  tlc_gpu_buffer_destroy(ctx, ws);
  tlc_gpu_model_release(model);
  tlc_gpu_context_destroy(ctx);
  free(a);
  free(b);
  free(c);
  return bad ? 1 : 0;
}
