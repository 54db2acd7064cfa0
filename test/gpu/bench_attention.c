/* The GPU check's long attention rows: a model `o = attention(q, k, v)` over [B, H, S, D]
 * compiled for a GPU target, run on random inputs generated here (too large to carry to the GPU
 * machine), timed by the runtime's device timestamps (median of `runs`), and checked at 64
 * sampled (batch, head, query) rows against a float64 evaluation of softmax(q k^T / sqrt(D)) v:
 * |o - ref| <= 1e-5 * max|v| per element.
 *
 *   cc -DPROGRAM=attn_program -I runtime/include bench_attention.c attn.o <runtime>
 *   ./bench NAME B H S D cuda|vulkan [runs]
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
  bench_state = 0x2545f4914f6cdd1dull;
  if (argc < 7) {
    fprintf(stderr, "usage: %s NAME B H S D cuda|vulkan [runs]\n", argv[0]);
    return 2;
  }
  const char *name = argv[1];
  long batch = atol(argv[2]), heads = atol(argv[3]), seq = atol(argv[4]), dim = atol(argv[5]);
  tlc_gpu_backend backend = strcmp(argv[6], "cuda") == 0 ? TLC_GPU_BACKEND_CUDA
                                                          : TLC_GPU_BACKEND_VULKAN;
  int runs = argc > 7 ? atoi(argv[7]) : 20;
  if (batch <= 0 || heads <= 0 || seq <= 0 || dim <= 0 || runs <= 0 || runs > 1000) {
    fprintf(stderr, "bad sizes or runs\n");
    return 2;
  }
  size_t numel = (size_t)batch * heads * seq * dim, bytes = numel * sizeof(float);
  float *q = malloc(bytes), *k = malloc(bytes), *v = malloc(bytes), *o = malloc(bytes);
  double *scores = malloc(sizeof(double) * seq);
  if (!q || !k || !v || !o || !scores)
    return 2;
  for (size_t i = 0; i < numel; ++i) {
    q[i] = next_uniform();
    k[i] = next_uniform();
    v[i] = next_uniform();
  }

  char message[1024];
  tlc_gpu_context *ctx = NULL;
  tlc_gpu_model *model = NULL;
  tlc_gpu_buffer *dq = NULL, *dk = NULL, *dv = NULL, *dout = NULL, *ws = NULL;
  if (tlc_gpu_context_create(backend, 0, &ctx, message, sizeof message) != TLC_STATUS_OK) {
    printf("FAIL %s: no device: %s\n", name, message);
    return 1;
  }
  if (tlc_gpu_model_load(ctx, &PROGRAM, &model) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, bytes, &dq) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, bytes, &dk) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, bytes, &dv) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, bytes, &dout) != TLC_STATUS_OK ||
      tlc_gpu_buffer_create(ctx, PROGRAM.workspace_size, &ws) != TLC_STATUS_OK ||
      tlc_gpu_buffer_upload(ctx, dq, 0, q, bytes) != TLC_STATUS_OK ||
      tlc_gpu_buffer_upload(ctx, dk, 0, k, bytes) != TLC_STATUS_OK ||
      tlc_gpu_buffer_upload(ctx, dv, 0, v, bytes) != TLC_STATUS_OK) {
    printf("FAIL %s: setup: %s\n", name, tlc_gpu_last_error(ctx));
    return 1;
  }
  tlc_gpu_buffer *inputs[] = {dq, dk, dv}, *outputs[] = {dout};
  double min = 0, median = time_runs(ctx, model, inputs, outputs, ws, runs, &min);
  if (median < 0) {
    printf("FAIL %s: run: %s\n", name, tlc_gpu_last_error(ctx));
    return 1;
  }
  if (tlc_gpu_buffer_download(ctx, dout, 0, o, bytes) != TLC_STATUS_OK) {
    printf("FAIL %s: download: %s\n", name, tlc_gpu_last_error(ctx));
    return 1;
  }
  /* Two products of B*H*S*S*D multiply-adds each. */
  printf("time %s device_ms_median=%.4f min=%.4f runs=%d tflops=%.2f\n", name, median, min,
         runs, 4.0 * batch * heads * seq * seq * dim / (median * 1e-3) / 1e12);

  int bad = 0;
  double worst = 0;
  for (int s = 0; s < 64; ++s) {
    long bh = (long)((next_uniform() + 1) * 0.5 * batch * heads);
    long i = (long)((next_uniform() + 1) * 0.5 * seq);
    bh = bh < batch * heads ? bh : batch * heads - 1;
    i = i < seq ? i : seq - 1;
    const float *qi = q + ((size_t)bh * seq + i) * dim, *kh = k + (size_t)bh * seq * dim;
    const float *vh = v + (size_t)bh * seq * dim;
    double top = -INFINITY, sum = 0;
    for (long j = 0; j < seq; ++j) {
      double dot = 0;
      for (long d = 0; d < dim; ++d)
        dot += (double)qi[d] * kh[j * dim + d];
      scores[j] = dot / sqrt((double)dim);
      top = scores[j] > top ? scores[j] : top;
    }
    for (long j = 0; j < seq; ++j)
      sum += (scores[j] = exp(scores[j] - top));
    for (long d = 0; d < dim; ++d) {
      double ref = 0;
      for (long j = 0; j < seq; ++j)
        ref += scores[j] / sum * vh[j * dim + d];
      double err = fabs(o[((size_t)bh * seq + i) * dim + d] - ref);
      worst = err > worst ? err : worst;
      bad += !(err <= 1e-5);
    }
  }
  printf("%s %s: 64 sampled rows, worst |o-ref| = %.3g (|v| <= 1)\n", bad ? "FAIL" : "PASS", name,
         worst);
  tlc_gpu_buffer *buffers[] = {dq, dk, dv, dout, ws};
  for (int i = 0; i < 5; ++i)
    tlc_gpu_buffer_destroy(ctx, buffers[i]);
  free(q);
  free(k);
  free(v);
  free(o);
  free(scores);
  tlc_gpu_model_release(model);
  tlc_gpu_context_destroy(ctx);
  return bad ? 1 : 0;
}
