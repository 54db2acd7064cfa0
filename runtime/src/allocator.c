/* The default allocator: C11 aligned_alloc/free behind the tlc_allocator interface. */
#include "tlc/runtime.h"

#include <stdint.h>
#include <stdlib.h>

static void *default_alloc(void *user, size_t size, size_t alignment) {
  (void)user;
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  /* C11 requires the size of aligned_alloc to be a multiple of the alignment. */
  if (size > SIZE_MAX - (alignment - 1))
    return NULL;
  size_t rounded = (size + alignment - 1) & ~(alignment - 1);
  return aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
}

static void default_free(void *user, void *ptr) {
  (void)user;
  free(ptr);
}

/* Read-only: the runtime keeps no mutable global state. */
static const tlc_allocator kDefaultAllocator = {default_alloc, default_free, NULL};

const tlc_allocator *tlc_default_allocator(void) { return &kDefaultAllocator; }
