/* Machine ceilings for the benchmark harness: fp32 FMA peak and STREAM-like bandwidth.
 *
 *   bench-peak fma THREADS REPEATS            prints GFLOP/s of each run, one per line
 *   bench-peak stream BYTES THREADS REPEATS   prints GB/s of each run (a[i] = b[i] + s*c[i] over
 *                                             three arrays totalling BYTES, 3 x 4 bytes/element)
 *   bench-peak vnni THREADS REPEATS           prints GOP/s (2 per multiply-add) of uint8 x int8
 *                                             dot products into int32 (AVX-512 VNNI vpdpbusd);
 *                                             exits 3 where the build does not target VNNI
 *
 * Built with -O2 -march=native (or the target's flags): the FMA loop uses the widest vectors the
 * compiler allows, with enough independent accumulators to cover the FMA latency. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__AVX512VNNI__)
#include <immintrin.h>
#endif

#if defined(__AVX512F__)
#define VEC_BYTES 64
#elif defined(__AVX__)
#define VEC_BYTES 32
#else
#define VEC_BYTES 16
#endif
typedef float vf __attribute__((vector_size(VEC_BYTES)));
#define LANES (VEC_BYTES / 4)
#define ACCS 12
#define FMA_ITERS 20000000L

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void *fma_worker(void *arg) {
  float *out = arg;
  vf acc[ACCS], m, a;
  for (int i = 0; i < LANES; ++i) {
    m[i] = 0.999999f;
    a[i] = 1e-7f;
  }
  for (int j = 0; j < ACCS; ++j)
    acc[j] = m * (float)j;
  for (long it = 0; it < FMA_ITERS; ++it) {
#pragma GCC unroll 16
    for (int j = 0; j < ACCS; ++j)
      acc[j] = acc[j] * m + a; /* contracted to one FMA */
    __asm__ volatile("" : "+x"(m)); /* keep m from being folded into the loop */
  }
  float s = 0;
  for (int j = 0; j < ACCS; ++j)
    for (int i = 0; i < LANES; ++i)
      s += acc[j][i];
  *out = s;
  return NULL;
}

#if defined(__AVX512VNNI__)
/* The int8 ceiling the quantized contractions are measured against: 64 multiply-adds per
 * instruction (16 lanes x 4 byte pairs), as many independent accumulators as the FMA loop. */
static void *vnni_worker(void *arg) {
  int *out = arg;
  __m512i acc[ACCS], a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(-2);
  for (int j = 0; j < ACCS; ++j)
    acc[j] = _mm512_set1_epi32(j);
  for (long it = 0; it < FMA_ITERS; ++it) {
#pragma GCC unroll 16
    for (int j = 0; j < ACCS; ++j)
      acc[j] = _mm512_dpbusd_epi32(acc[j], a, b);
    __asm__ volatile("" : "+v"(a)); /* keep a from being folded into the loop */
  }
  int s = 0;
  for (int j = 0; j < ACCS; ++j)
    s += _mm512_reduce_add_epi32(acc[j]);
  *out = s;
  return NULL;
}
#endif

struct stream_job {
  float *a, *b, *c;
  size_t n;
  int reps;
};

static void *stream_worker(void *arg) {
  struct stream_job *job = arg;
  const float s = 3.0f;
  for (int r = 0; r < job->reps; ++r) {
    for (size_t i = 0; i < job->n; ++i)
      job->a[i] = job->b[i] + s * job->c[i];
    __asm__ volatile("" ::: "memory");
  }
  return NULL;
}

static void run_threads(int threads, void *(*fn)(void *), void *args, size_t arg_size) {
  pthread_t tids[64];
  for (int t = 1; t < threads; ++t)
    pthread_create(&tids[t], NULL, fn, (char *)args + t * arg_size);
  fn(args);
  for (int t = 1; t < threads; ++t)
    pthread_join(tids[t], NULL);
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "fma") == 0) {
    int threads = atoi(argv[2]), repeats = atoi(argv[3]);
    if (threads < 1 || threads > 64)
      return 2;
    float sink[64 * 16];
    for (int r = 0; r < repeats; ++r) {
      double t0 = now();
      run_threads(threads, fma_worker, sink, 16 * sizeof(float));
      double t = now() - t0;
      printf("%.3f\n", 2.0 * ACCS * LANES * FMA_ITERS * threads / t / 1e9);
    }
    return sink[0] == 12345.f; /* keep the results alive */
  }
  if (argc >= 4 && strcmp(argv[1], "vnni") == 0) {
#if defined(__AVX512VNNI__)
    int threads = atoi(argv[2]), repeats = atoi(argv[3]);
    if (threads < 1 || threads > 64)
      return 2;
    int sink[64 * 16];
    for (int r = 0; r < repeats; ++r) {
      double t0 = now();
      run_threads(threads, vnni_worker, sink, 16 * sizeof(int));
      double t = now() - t0;
      printf("%.3f\n", 2.0 * 64 * ACCS * FMA_ITERS * threads / t / 1e9);
    }
    return sink[0] == 12345; /* keep the results alive */
#else
    fprintf(stderr, "bench-peak: built without AVX-512 VNNI\n");
    return 3;
#endif
  }
  if (argc >= 5 && strcmp(argv[1], "stream") == 0) {
    size_t bytes = strtoull(argv[2], NULL, 10);
    int threads = atoi(argv[3]), repeats = atoi(argv[4]);
    if (threads < 1 || threads > 64)
      return 2;
    size_t n = bytes / 12 / 16 * 16;
    float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4),
          *c = aligned_alloc(64, n * 4);
    if (!a || !b || !c)
      return 1;
    struct stream_job jobs[64];
    /* Small working sets repeat inside one launch so thread start-up does not dominate. */
    int reps = bytes >= (256u << 20) ? 1 : (int)((256u << 20) / bytes);
    size_t chunk = (n / threads + 15) / 16 * 16;
    for (int t = 0; t < threads; ++t) {
      size_t lo = t * chunk < n ? t * chunk : n, hi = lo + chunk < n ? lo + chunk : n;
      jobs[t] = (struct stream_job){a + lo, b + lo, c + lo, hi - lo, reps};
    }
    for (size_t i = 0; i < n; ++i) {
      a[i] = 0;
      b[i] = (float)(i & 1023);
      c[i] = 1.0f;
    }
    run_threads(threads, stream_worker, jobs, sizeof(struct stream_job)); /* warm-up */
    for (int r = 0; r < repeats; ++r) {
      double t0 = now();
      run_threads(threads, stream_worker, jobs, sizeof(struct stream_job));
      double t = now() - t0;
      printf("%.3f\n", 12.0 * n * reps / t / 1e9);
    }
    free(a);
    free(b);
    free(c);
    return 0;
  }
  fprintf(stderr, "usage: bench-peak fma|vnni THREADS REPEATS | stream BYTES THREADS REPEATS\n");
  return 2;
}
