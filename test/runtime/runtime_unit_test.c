/* Unit tests for libtlcrt: every public function, its edge cases and its error statuses. */
#define _POSIX_C_SOURCE 200809L
#include "tlc/runtime.h"
#include <pthread.h>
#include <stdatomic.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

#define CHECK_STR(got, expected)                                                                   \
  do {                                                                                             \
    const char *got_ = (got);                                                                      \
    if (got_ == NULL || strcmp(got_, (expected)) != 0) {                                           \
      fprintf(stderr, "%s:%d: FAILED: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #got, \
              got_ ? got_ : "(null)", (expected));                                                 \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

static int is_aligned(const void *p, size_t alignment) {
  return (uintptr_t)p % alignment == 0;
}

/* ---- version and ABI ---------------------------------------------------------------------- */

static void test_version(void) {
  CHECK(tlc_abi_version() == TLC_ABI_VERSION);
  CHECK(TLC_ABI_VERSION == 1);
  const char *v = tlc_version_string();
  CHECK(v != NULL);
#ifdef TLC_EXPECTED_VERSION
  CHECK_STR(v, TLC_EXPECTED_VERSION);
#endif
  /* "MAJOR.MINOR.PATCH": digits separated by exactly two dots. */
  int dots = 0, ok = v != NULL && v[0] != '\0';
  for (const char *c = v ? v : ""; *c; ++c) {
    if (*c == '.')
      ++dots;
    else if (*c < '0' || *c > '9')
      ok = 0;
  }
  CHECK(ok && dots == 2);
}

static void test_check_abi(void) {
  CHECK_STATUS(tlc_check_abi(TLC_ABI_VERSION), TLC_STATUS_OK);
  CHECK_STATUS(tlc_check_abi(TLC_ABI_VERSION + 1), TLC_STATUS_ABI_MISMATCH);
  CHECK_STATUS(tlc_check_abi(TLC_ABI_VERSION - 1), TLC_STATUS_ABI_MISMATCH);
  CHECK_STATUS(tlc_check_abi(0), TLC_STATUS_ABI_MISMATCH);
  CHECK_STATUS(tlc_check_abi(-1), TLC_STATUS_ABI_MISMATCH);
}

/* ---- status strings ----------------------------------------------------------------------- */

static void test_status_strings(void) {
  CHECK(TLC_STATUS_OK == 0);
  CHECK_STR(tlc_status_string(TLC_STATUS_OK), "ok");
  CHECK_STR(tlc_status_string(TLC_STATUS_INVALID_ARGUMENT), "invalid argument");
  CHECK_STR(tlc_status_string(TLC_STATUS_OUT_OF_MEMORY), "out of memory");
  CHECK_STR(tlc_status_string(TLC_STATUS_ABI_MISMATCH),
            "ABI version mismatch between model and runtime");
  CHECK_STR(tlc_status_string(TLC_STATUS_UNSUPPORTED), "unsupported");
  CHECK_STR(tlc_status_string(TLC_STATUS_INTERNAL), "internal error");
  CHECK_STR(tlc_status_string((tlc_status)6), "unknown status");
  CHECK_STR(tlc_status_string((tlc_status)-1), "unknown status");
  CHECK_STR(tlc_status_string((tlc_status)1000000), "unknown status");

  /* Every known status has its own message. */
  for (int a = TLC_STATUS_OK; a <= TLC_STATUS_INTERNAL; ++a)
    for (int b = a + 1; b <= TLC_STATUS_INTERNAL; ++b)
      CHECK(strcmp(tlc_status_string((tlc_status)a), tlc_status_string((tlc_status)b)) != 0);
}

/* ---- dtypes ------------------------------------------------------------------------------- */

static void test_dtypes(void) {
  static const struct {
    tlc_dtype dtype;
    const char *name;
    size_t size;
  } expected[] = {
      {TLC_DTYPE_F32, "f32", 4}, {TLC_DTYPE_F64, "f64", 8},  {TLC_DTYPE_F16, "f16", 2},
      {TLC_DTYPE_BF16, "bf16", 2}, {TLC_DTYPE_I32, "i32", 4}, {TLC_DTYPE_I64, "i64", 8},
      {TLC_DTYPE_I1, "i1", 1},   {TLC_DTYPE_I8, "i8", 1},    {TLC_DTYPE_U8, "u8", 1},
      {TLC_DTYPE_I16, "i16", 2}, {TLC_DTYPE_U16, "u16", 2},  {TLC_DTYPE_U32, "u32", 4},
  };
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
    CHECK((int)expected[i].dtype == (int)i); /* enum values are ABI: 0..11 in this order */
    CHECK_STR(tlc_dtype_name(expected[i].dtype), expected[i].name);
    CHECK(tlc_dtype_size(expected[i].dtype) == expected[i].size);
  }
  /* The sizes match the C element types the generated ABI documents. */
  CHECK(tlc_dtype_size(TLC_DTYPE_F32) == sizeof(float));
  CHECK(tlc_dtype_size(TLC_DTYPE_F64) == sizeof(double));
  CHECK(tlc_dtype_size(TLC_DTYPE_F16) == sizeof(uint16_t));
  CHECK(tlc_dtype_size(TLC_DTYPE_BF16) == sizeof(uint16_t));
  CHECK(tlc_dtype_size(TLC_DTYPE_I32) == sizeof(int32_t));
  CHECK(tlc_dtype_size(TLC_DTYPE_I64) == sizeof(int64_t));
  CHECK(tlc_dtype_size(TLC_DTYPE_I1) == sizeof(uint8_t));
  CHECK(tlc_dtype_size(TLC_DTYPE_I8) == sizeof(int8_t));
  CHECK(tlc_dtype_size(TLC_DTYPE_U16) == sizeof(uint16_t));
  CHECK(tlc_dtype_size(TLC_DTYPE_U32) == sizeof(uint32_t));

  CHECK_STR(tlc_dtype_name((tlc_dtype)12), "?");
  CHECK_STR(tlc_dtype_name((tlc_dtype)-1), "?");
  CHECK_STR(tlc_dtype_name((tlc_dtype)12345), "?");
  CHECK(tlc_dtype_size((tlc_dtype)12) == 0);
  CHECK(tlc_dtype_size((tlc_dtype)-1) == 0);
  CHECK(tlc_dtype_size((tlc_dtype)12345) == 0);
}

/* ---- allocators and workspaces ------------------------------------------------------------ */

static void test_default_allocator(void) {
  const tlc_allocator *a = tlc_default_allocator();
  CHECK(a != NULL);
  if (!a)
    return;
  CHECK(a->alloc != NULL && a->free != NULL);
  CHECK(tlc_default_allocator() == a);
  /* Odd sizes and various power-of-two alignments, including ones below sizeof(void*). */
  static const size_t sizes[] = {1, 3, 63, 64, 65, 1000, 4096};
  static const size_t aligns[] = {1, 2, 8, 16, 64, 128, 4096};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    for (size_t j = 0; j < sizeof aligns / sizeof aligns[0]; ++j) {
      unsigned char *p = a->alloc(a->user, sizes[i], aligns[j]);
      CHECK(p != NULL);
      if (!p)
        continue;
      CHECK(is_aligned(p, aligns[j]));
      memset(p, 0xAB, sizes[i]); /* the whole requested size is writable (ASan would notice) */
      a->free(a->user, p);
    }
  }
  /* An impossible request fails cleanly instead of wrapping around. */
  CHECK(a->alloc(a->user, SIZE_MAX, 64) == NULL);
  CHECK(a->alloc(a->user, SIZE_MAX - 10, 64) == NULL);
}

static void test_workspace_default(void) {
  static const size_t sizes[] = {1, 17, 64, 100, 1 << 20};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    void *ws = (void *)&ws; /* poisoned: must be overwritten */
    CHECK_STATUS(tlc_workspace_alloc(NULL, sizes[i], &ws), TLC_STATUS_OK);
    CHECK(ws != NULL);
    CHECK(is_aligned(ws, TLC_BUFFER_ALIGNMENT));
    CHECK(TLC_BUFFER_ALIGNMENT == 64);
    if (ws)
      memset(ws, 0, sizes[i]);
    tlc_workspace_free(NULL, ws);
  }
  /* The default allocator passed explicitly behaves the same as NULL. */
  void *ws = NULL;
  CHECK_STATUS(tlc_workspace_alloc(tlc_default_allocator(), 256, &ws), TLC_STATUS_OK);
  CHECK(ws != NULL && is_aligned(ws, 64));
  tlc_workspace_free(tlc_default_allocator(), ws);

  /* Zero size: OK and NULL; freeing NULL is a no-op. */
  ws = (void *)&ws;
  CHECK_STATUS(tlc_workspace_alloc(NULL, 0, &ws), TLC_STATUS_OK);
  CHECK(ws == NULL);
  tlc_workspace_free(NULL, NULL);

  /* Too big for any machine. */
  ws = (void *)&ws;
  CHECK_STATUS(tlc_workspace_alloc(NULL, SIZE_MAX, &ws), TLC_STATUS_OUT_OF_MEMORY);
  CHECK(ws == NULL);

  /* No place to store the result. */
  CHECK_STATUS(tlc_workspace_alloc(NULL, 64, NULL), TLC_STATUS_INVALID_ARGUMENT);
}

typedef struct counting_state {
  int allocs, frees;
  size_t last_size, last_alignment;
  void *last_ptr;
  int fail;                  /* return NULL from alloc */
  int misalign;              /* return a pointer off the requested alignment */
  unsigned char pool[256 + 64]; /* backing store for misaligned blocks */
} counting_state;

static void *counting_alloc(void *user, size_t size, size_t alignment) {
  counting_state *s = user;
  ++s->allocs;
  s->last_size = size;
  s->last_alignment = alignment;
  if (s->fail)
    return NULL;
  if (s->misalign) {
    unsigned char *p = s->pool;
    while (is_aligned(p, 64))
      ++p; /* first byte in the pool that is not 64-aligned */
    s->last_ptr = p;
    return p;
  }
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  s->last_ptr = aligned_alloc(alignment, rounded);
  return s->last_ptr;
}

static void counting_free(void *user, void *ptr) {
  counting_state *s = user;
  ++s->frees;
  if (!s->misalign)
    free(ptr);
}

static void test_workspace_custom_allocator(void) {
  counting_state state;
  memset(&state, 0, sizeof state);
  tlc_allocator a = {counting_alloc, counting_free, &state};

  void *ws = NULL;
  CHECK_STATUS(tlc_workspace_alloc(&a, 1000, &ws), TLC_STATUS_OK);
  CHECK(state.allocs == 1 && state.frees == 0);
  CHECK(state.last_size == 1000);
  CHECK(state.last_alignment == TLC_BUFFER_ALIGNMENT);
  CHECK(ws == state.last_ptr);
  CHECK(is_aligned(ws, 64));
  tlc_workspace_free(&a, ws);
  CHECK(state.allocs == 1 && state.frees == 1);

  /* Zero size never calls the allocator; freeing NULL never calls free. */
  ws = (void *)&ws;
  CHECK_STATUS(tlc_workspace_alloc(&a, 0, &ws), TLC_STATUS_OK);
  CHECK(ws == NULL);
  tlc_workspace_free(&a, NULL);
  CHECK(state.allocs == 1 && state.frees == 1);

  /* A failing allocator is reported as out of memory. */
  state.fail = 1;
  ws = (void *)&ws;
  CHECK_STATUS(tlc_workspace_alloc(&a, 128, &ws), TLC_STATUS_OUT_OF_MEMORY);
  CHECK(ws == NULL);
  CHECK(state.allocs == 2 && state.frees == 1);
  state.fail = 0;

  /* A misaligned block is refused and handed back to the allocator. */
  state.misalign = 1;
  ws = (void *)&ws;
  CHECK_STATUS(tlc_workspace_alloc(&a, 128, &ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK(ws == NULL);
  CHECK(state.allocs == 3 && state.frees == 2);
  state.misalign = 0;

  /* An allocator without an alloc function is an invalid argument, not a crash. */
  tlc_allocator no_alloc = {NULL, counting_free, &state};
  ws = (void *)&ws;
  CHECK_STATUS(tlc_workspace_alloc(&no_alloc, 64, &ws), TLC_STATUS_INVALID_ARGUMENT);
  CHECK(ws == NULL);
  CHECK(state.allocs == 3 && state.frees == 2);

  /* An allocator without a free function: freeing is a no-op (e.g. an arena released at once). */
  tlc_allocator no_free = {counting_alloc, NULL, &state};
  ws = NULL;
  CHECK_STATUS(tlc_workspace_alloc(&no_free, 64, &ws), TLC_STATUS_OK);
  CHECK(state.allocs == 4);
  tlc_workspace_free(&no_free, ws);
  CHECK(state.frees == 2);
  free(ws);
}

/* A parallel body that records which part ran each iteration and nests a parallel_for. */
struct par_ctx {
  int *hits;
  int64_t nested_calls;
};

static void nested_body(void *ctx, int64_t begin, int64_t end) {
  /* Nested calls must complete (serially inside a parallel region) without deadlock. */
  (void)ctx;
  (void)begin;
  (void)end;
}

static void count_body(void *ctx, int64_t begin, int64_t end) {
  struct par_ctx *c = ctx;
  for (int64_t i = begin; i < end; ++i)
    c->hits[i]++;
  if (begin == 0)
    tlc_parallel_for(nested_body, c, 3);
}

/* Sleeps 1 ms in every part but the caller's: longer than the pool's polling window, so the
 * caller waits for the workers on the condition variable. */
static void slow_body(void *ctx, int64_t begin, int64_t end) {
  struct par_ctx *c = ctx;
  if (begin != 0) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  for (int64_t i = begin; i < end; ++i)
    c->hits[i]++;
}

/* The pool's slow paths: workers that went to sleep between jobs (a gap longer than their
 * polling window) are woken for the next one, and a caller that finishes its part first
 * sleeps until the last worker is done. */
static void test_thread_pool_sleeping(void) {
  enum { N = 97 };
  static int hits[N];
  struct par_ctx c = {hits, 0};
  tlc_thread_pool *pool = NULL;
  CHECK(tlc_thread_pool_create(NULL, 3, &pool) == TLC_STATUS_OK && pool);
  for (int rep = 0; rep < 4; ++rep) {
    struct timespec gap = {0, 5000000};
    nanosleep(&gap, NULL);
    tlc_thread_pool_run(pool, rep % 2 ? slow_body : count_body, &c, N);
  }
  int ok = 1;
  for (int i = 0; i < N; ++i)
    ok &= hits[i] == 4;
  CHECK(ok);
  tlc_thread_pool_destroy(pool);
}

/* Records the thread of every iteration; a worker sleeps 2 ms in the first iteration it
 * takes, as if descheduled. */
struct steal_ctx {
  pthread_t caller;
  int by_caller[8];
  int hits[8];
};

static void steal_body(void *ctx, int64_t begin, int64_t end) {
  struct steal_ctx *c = ctx;
  int caller = pthread_equal(pthread_self(), c->caller);
  if (!caller) {
    struct timespec ms = {0, 2000000};
    nanosleep(&ms, NULL);
  }
  for (int64_t i = begin; i < end; ++i) {
    c->hits[i]++;
    c->by_caller[i] = caller;
  }
}

/* A slow worker's share is taken over by the caller: every iteration runs once, and the caller
 * runs some of the second half (the worker's share) instead of waiting for it. */
static void test_thread_pool_stealing(void) {
  tlc_thread_pool *pool = NULL;
  CHECK(tlc_thread_pool_create(NULL, 2, &pool) == TLC_STATUS_OK && pool);
  struct steal_ctx c;
  memset(&c, 0, sizeof c);
  c.caller = pthread_self();
  tlc_thread_pool_run(pool, steal_body, &c, 8);
  int once = 1, stolen = 0;
  for (int i = 0; i < 8; ++i) {
    once &= c.hits[i] == 1;
    stolen |= i >= 4 && c.by_caller[i];
  }
  CHECK(once);
  CHECK(stolen);
  tlc_thread_pool_destroy(pool);
}

/* Records the longest piece (iterations per body call) a thread took. */
struct piece_ctx {
  _Atomic int64_t longest;
  _Atomic int64_t iterations;
};

static void piece_body(void *ctx, int64_t begin, int64_t end) {
  struct piece_ctx *c = ctx;
  int64_t len = end - begin, seen = atomic_load(&c->longest);
  while (len > seen && !atomic_compare_exchange_weak(&c->longest, &seen, len))
    ;
  atomic_fetch_add(&c->iterations, len);
}

/* Shares are taken in pieces of a sixteenth, so the piece no other thread can help with at
 * the end of a loop is short: 64 iterations on 2 threads go 2 at a time. */
static void test_thread_pool_pieces(void) {
  tlc_thread_pool *pool = NULL;
  CHECK(tlc_thread_pool_create(NULL, 2, &pool) == TLC_STATUS_OK && pool);
  struct piece_ctx c;
  atomic_init(&c.longest, 0);
  atomic_init(&c.iterations, 0);
  tlc_thread_pool_run(pool, piece_body, &c, 64);
  CHECK(atomic_load(&c.iterations) == 64);
  CHECK(atomic_load(&c.longest) == 2);
  tlc_thread_pool_destroy(pool);
}

static void test_thread_pool(void) {
  enum { N = 1001 };
  static int hits[N];
  struct par_ctx c = {hits, 0};
  for (int threads = 1; threads <= 4; ++threads) {
    tlc_thread_pool *pool = NULL;
    CHECK(tlc_thread_pool_create(NULL, threads, &pool) == TLC_STATUS_OK && pool);
    CHECK(tlc_thread_pool_size(pool) == threads);
    memset(hits, 0, sizeof hits);
    for (int rep = 0; rep < 50; ++rep)
      tlc_thread_pool_run(pool, count_body, &c, N);
    int ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= hits[i] == 50; /* every iteration exactly once per run */
    CHECK(ok);
    /* Bound pools serve tlc_parallel_for; unbinding goes back to the default pool. */
    CHECK(tlc_thread_pool_bind(pool) == NULL);
    memset(hits, 0, sizeof hits);
    tlc_parallel_for(count_body, &c, N);
    ok = 1;
    for (int i = 0; i < N; ++i)
      ok &= hits[i] == 1;
    CHECK(ok);
    CHECK(tlc_thread_pool_bind(NULL) == pool);
    tlc_thread_pool_destroy(pool);
  }
  memset(hits, 0, sizeof hits);
  tlc_parallel_for(count_body, &c, N); /* the lazily created default pool */
  CHECK(hits[0] == 1 && hits[N - 1] == 1);
  CHECK(tlc_thread_pool_default() != NULL);
  tlc_parallel_for(count_body, &c, 0); /* empty: no call */
  CHECK(tlc_thread_pool_create(NULL, 1, NULL) == TLC_STATUS_INVALID_ARGUMENT);
  CHECK(tlc_default_num_threads() >= 1);
  tlc_thread_pool_destroy(NULL);
}

#if defined(__x86_64__) || defined(__aarch64__)
_Float16 __truncsfbf2(float x);

/* bf16_support.c: float -> bfloat16 bits, rounded to nearest even (against a table worked out
 * by hand from the IEEE encodings), NaN quiet. */
static void test_truncsfbf2(void) {
  static const struct {
    uint32_t in;
    uint16_t out;
  } cases[] = {
      {0x3f800000u, 0x3f80}, /* 1.0 */
      {0x3f808000u, 0x3f80}, /* 1 + 2^-8: a tie, to the even 1.0 */
      {0x3f818000u, 0x3f82}, /* 1 + 3 * 2^-8: a tie, to the even 1 + 2^-6 */
      {0x3f808001u, 0x3f81}, /* just above the tie: up */
      {0xc0200000u, 0xc020}, /* -2.5 */
      {0x7f7fffffu, 0x7f80}, /* FLT_MAX rounds to infinity */
      {0x00010001u, 0x0001}, /* a subnormal */
      {0xff800000u, 0xff80}, /* -infinity */
      {0x7fa00001u, 0x7fe0}, /* a signaling NaN becomes quiet, payload truncated */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    float x;
    memcpy(&x, &cases[i].in, sizeof x);
    _Float16 h = __truncsfbf2(x);
    uint16_t got;
    memcpy(&got, &h, sizeof got);
    if (got != cases[i].out)
      fprintf(stderr, "__truncsfbf2(0x%08x) = 0x%04x, expected 0x%04x\n", (unsigned)cases[i].in,
              (unsigned)got, (unsigned)cases[i].out);
    CHECK(got == cases[i].out);
  }
}
#endif

int main(void) {
#if defined(__x86_64__) || defined(__aarch64__)
  test_truncsfbf2();
#endif
  test_version();
  test_check_abi();
  test_status_strings();
  test_dtypes();
  test_default_allocator();
  test_workspace_default();
  test_workspace_custom_allocator();
  test_thread_pool();
  test_thread_pool_sleeping();
  test_thread_pool_stealing();
  test_thread_pool_pieces();
  if (failures) {
    fprintf(stderr, "runtime-unit: %d check(s) FAILED\n", failures);
    return 1;
  }
  printf("runtime-unit: all checks passed (libtlcrt %s, ABI %d)\n", tlc_version_string(),
         tlc_abi_version());
  return 0;
}
