/* Allocation of the aligned workspace arena a compiled model runs in. */
#include "tlc/runtime.h"

#include <stdint.h>

tlc_status tlc_workspace_alloc(const tlc_allocator *allocator, size_t size, void **out_workspace) {
  if (out_workspace == NULL)
    return TLC_STATUS_INVALID_ARGUMENT;
  *out_workspace = NULL;
  if (allocator == NULL)
    allocator = tlc_default_allocator();
  if (allocator->alloc == NULL)
    return TLC_STATUS_INVALID_ARGUMENT;
  /* Models whose memory plan needs no arena report size 0 and accept a NULL workspace. */
  if (size == 0)
    return TLC_STATUS_OK;
  void *ptr = allocator->alloc(allocator->user, size, TLC_BUFFER_ALIGNMENT);
  if (ptr == NULL)
    return TLC_STATUS_OUT_OF_MEMORY;
  /* Generated code may assume the arena's alignment (its memory plan places buffers at aligned
   * offsets), so a misaligned block from a custom allocator would fail later, far from its
   * cause: refuse it here instead. */
  if ((uintptr_t)ptr % TLC_BUFFER_ALIGNMENT != 0) {
    if (allocator->free != NULL)
      allocator->free(allocator->user, ptr);
    return TLC_STATUS_INVALID_ARGUMENT;
  }
  *out_workspace = ptr;
  return TLC_STATUS_OK;
}

void tlc_workspace_free(const tlc_allocator *allocator, void *workspace) {
  if (workspace == NULL)
    return;
  if (allocator == NULL)
    allocator = tlc_default_allocator();
  if (allocator->free != NULL)
    allocator->free(allocator->user, workspace);
}
