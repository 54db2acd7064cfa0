/* Helpers shared by the C timing harnesses that bench.py and bench_memattn.py generate:
 * an aligned float buffer with deterministic contents and a monotonic clock. */
#ifndef TLC_BENCHMARKS_HARNESS_H
#define TLC_BENCHMARKS_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <tlc/runtime.h>

/* `bytes` of floats aligned to TLC_BUFFER_ALIGNMENT: a fixed pseudo-random pattern in
 * [-0.5, 0.5) when `fill`, zeros otherwise. Exits on allocation failure. */
static void *buffer(size_t bytes, int fill) {
  size_t n = (bytes + TLC_BUFFER_ALIGNMENT - 1) / TLC_BUFFER_ALIGNMENT * TLC_BUFFER_ALIGNMENT;
  float *p = aligned_alloc(TLC_BUFFER_ALIGNMENT, n ? n : TLC_BUFFER_ALIGNMENT);
  if (!p) { fprintf(stderr, "out of memory\n"); exit(2); }
  for (size_t i = 0; i < bytes / sizeof(float); ++i)
    p[i] = fill ? (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f : 0.0f;
  return p;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#endif /* TLC_BENCHMARKS_HARNESS_H */
