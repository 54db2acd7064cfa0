/* Runs the examples/attention.tl model (as "attn") with the C allocator interposed and counts
 * allocator calls made while attn_run executes: the generated code must make none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tlc/runtime.h>
#include "attn.h"

#include "alloc_counter.h"

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
  printf("probe: %ld allocator calls\n", alloc_calls);

  alloc_calls = 0;
  counting = 1;
  tlc_status st = attn_run(x, out, ws);
  st |= attn_run(x, out, ws);
  counting = 0;
  printf("attn_run: status %d, %ld allocator calls, workspace %zu bytes\n", (int)st, alloc_calls,
         (size_t)ATTN_WORKSPACE_SIZE);
  tlc_workspace_free(NULL, ws);
  free(x);
  free(out);
  return st != TLC_STATUS_OK || alloc_calls != 0;
}
