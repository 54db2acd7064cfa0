/* What the GPU check's generated-input benchmarks (bench_matmul.c, bench_attention.c) share:
 * a seeded uniform generator and the timed runs. */
#ifndef TLC_TEST_GPU_BENCH_COMMON_H
#define TLC_TEST_GPU_BENCH_COMMON_H

#include <stdint.h>
#include <stdlib.h>

#include <tlc/gpu.h>

static uint64_t bench_state = 0x9e3779b97f4a7c15ull;

/* The next of a fixed sequence of floats in [-1, 1). */
static float next_uniform(void) {
  bench_state = bench_state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((bench_state >> 40) * (1.0 / (1 << 23)) - 1.0);
}

static int compare_ms(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Runs the model 3 times untimed, then `runs` times; the median device time (ms) and the
 * fastest in *min, or a negative value when a run fails. */
static double time_runs(tlc_gpu_context *ctx, tlc_gpu_model *model, tlc_gpu_buffer *const *inputs,
                        tlc_gpu_buffer *const *outputs, tlc_gpu_buffer *workspace, int runs,
                        double *min) {
  double *ms = malloc(sizeof(double) * runs);
  if (!ms)
    return -1;
  for (int i = -3; i < runs; ++i) {
    if (tlc_gpu_model_run(model, inputs, outputs, workspace) != TLC_STATUS_OK ||
        tlc_gpu_synchronize(ctx) != TLC_STATUS_OK) {
      free(ms);
      return -1;
    }
    if (i >= 0)
      ms[i] = tlc_gpu_model_last_run_ms(model);
  }
  qsort(ms, runs, sizeof(double), compare_ms);
  double median = ms[runs / 2];
  *min = ms[0];
  free(ms);
  return median;
}

#endif /* TLC_TEST_GPU_BENCH_COMMON_H */
