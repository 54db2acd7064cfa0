/* Interposes the C allocator and counts the calls made while `counting` is set (dynamically
 * linked programs only: a static libc defines these itself). Shared by the no-malloc test and
 * run_e2e.py's harness: the generated code must not allocate. */
#ifndef TLC_TEST_ALLOC_COUNTER_H
#define TLC_TEST_ALLOC_COUNTER_H
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
static volatile int counting;
static volatile long alloc_calls;
void *malloc(size_t n) { if (counting) alloc_calls++; return __libc_malloc(n); }
void *calloc(size_t n, size_t m) { if (counting) alloc_calls++; return __libc_calloc(n, m); }
void *realloc(void *p, size_t n) { if (counting) alloc_calls++; return __libc_realloc(p, n); }
void free(void *p) { if (counting && p) alloc_calls++; __libc_free(p); }
void *aligned_alloc(size_t a, size_t n) { if (counting) alloc_calls++; return __libc_memalign(a, n); }
void *memalign(size_t a, size_t n) { if (counting) alloc_calls++; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  if (counting) alloc_calls++;
  *out = __libc_memalign(a, n);
  return *out ? 0 : 12;
}

#endif /* TLC_TEST_ALLOC_COUNTER_H */
