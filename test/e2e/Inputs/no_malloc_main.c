/* Runs the examples/attention.tl model (as "attn") with the C allocator interposed and counts
 * allocator calls made while attn_run executes: the generated code must make none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlc/runtime.h>
#include "attn.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
static volatile int counting;
static volatile long calls;
void *malloc(size_t n) { if (counting) calls++; return __libc_malloc(n); }
void *calloc(size_t n, size_t m) { if (counting) calls++; return __libc_calloc(n, m); }
void *realloc(void *p, size_t n) { if (counting) calls++; return __libc_realloc(p, n); }
void free(void *p) { if (counting && p) calls++; __libc_free(p); }
void *aligned_alloc(size_t a, size_t n) { if (counting) calls++; return __libc_memalign(a, n); }
void *memalign(size_t a, size_t n) { if (counting) calls++; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  if (counting) calls++;
  *out = __libc_memalign(a, n);
  return *out ? 0 : 12;
}

int main(void) {
  size_t nx = ATTN_INPUT_X_NUMEL, no = ATTN_OUTPUT_OUT_NUMEL;
  float *x = aligned_alloc(TLC_BUFFER_ALIGNMENT, (nx * 4 + 63) / 64 * 64);
  float *out = aligned_alloc(TLC_BUFFER_ALIGNMENT, (no * 4 + 63) / 64 * 64);
  for (size_t i = 0; i < nx; ++i)
    x[i] = (float)((i * 7919) % 13) / 13.0f - 0.5f;
  void *ws = NULL;
  if (tlc_workspace_alloc(NULL, ATTN_WORKSPACE_SIZE, &ws) != TLC_STATUS_OK)
    return 2;

  /* The runtime creates its default thread pool (used by the model's parallel loops) on first
   * use: a one-time set-up an application does at start-up (or it binds a pool of its own),
   * not part of a run. */
  (void)tlc_thread_pool_default();

  /* The counter itself works: one malloc and one free inside the window are seen. */
  counting = 1;
  void *probe = malloc(16);
  free(probe);
  counting = 0;
  printf("probe: %ld allocator calls\n", calls);

  calls = 0;
  counting = 1;
  tlc_status st = attn_run(x, out, ws);
  st |= attn_run(x, out, ws);
  counting = 0;
  printf("attn_run: status %d, %ld allocator calls, workspace %zu bytes\n", (int)st, calls,
         (size_t)ATTN_WORKSPACE_SIZE);
  tlc_workspace_free(NULL, ws);
  free(x);
  free(out);
  return st != TLC_STATUS_OK || calls != 0;
}
