/* The thread pool behind generated parallel loops: static contiguous partitions, caller joins. */
#define _POSIX_C_SOURCE 200809L
#include "tlc/runtime.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TLC_MAX_THREADS 256

/* How long a worker keeps polling for the next job, and the caller for the workers to finish,
 * before sleeping on a condition variable. Generated code launches many short parallel loops
 * back to back (a 1M-float add takes ~60 us on two threads), and a futex wake-up costs tens of
 * microseconds in a VM, so a thread that just finished polls briefly instead of sleeping. */
#define TLC_SPIN_NS 200000L

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static long long monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Polls `ready(arg)` for up to TLC_SPIN_NS; returns whether it became true. */
static int spin_until(int (*ready)(void *), void *arg) {
  long long deadline = 0;
  for (unsigned i = 0;; ++i) {
    if (ready(arg))
      return 1;
    if ((i & 63) == 63) {
      long long t = monotonic_ns();
      if (!deadline)
        deadline = t + TLC_SPIN_NS;
      else if (t >= deadline)
        return 0;
    }
    cpu_relax();
  }
}

/* A worker thread and what it needs to know; lives in the pool (no allocation at thread start,
 * so nothing allocates once a pool exists). */
struct tlc_worker {
  pthread_t thread;
  tlc_thread_pool *pool;
  int index;
};

struct tlc_thread_pool {
  const tlc_allocator *allocator;
  int num_threads; /* including the calling thread */
  struct tlc_worker *workers;
  pthread_mutex_t lock;    /* guards the sleeper counts; pairs with the two conditions */
  pthread_cond_t wake;     /* a new job or shutdown */
  pthread_cond_t done;     /* the last worker finished the job */
  pthread_mutex_t busy;    /* held by the thread running a parallel_for on this pool */
  /* Published with release stores after the job fields; polled by spinning threads. */
  _Atomic unsigned long generation;
  _Atomic int pending;
  _Atomic int shutdown;
  int sleeping_workers;    /* under `lock`: workers waiting on `wake` */
  int caller_sleeping;     /* under `lock`: the caller waits on `done` */
  /* The current job (written by the caller before it bumps `generation`). */
  tlc_parallel_body body;
  void *ctx;
  int64_t n;
  int parts;
};

/* [begin, end) of part `t` of `parts` over n iterations: contiguous, sizes differ by at most
 * one, the same for every run with the same part count. */
static void partition(int64_t n, int parts, int t, int64_t *begin, int64_t *end) {
  int64_t q = n / parts, r = n % parts;
  *begin = t * q + (t < r ? t : r);
  *end = *begin + q + (t < r ? 1 : 0);
}

/* Set while a pool thread (worker or participating caller) runs a body: nested parallel_for
 * calls then run serially instead of waiting on a pool that is already busy. */
static _Thread_local int tlc_in_parallel_region;
static _Thread_local tlc_thread_pool *tlc_bound_pool;

struct generation_wait {
  tlc_thread_pool *pool;
  unsigned long seen;
};

static int new_job_or_shutdown(void *p) {
  const struct generation_wait *w = p;
  return atomic_load_explicit(&w->pool->generation, memory_order_acquire) != w->seen ||
         atomic_load_explicit(&w->pool->shutdown, memory_order_acquire);
}

static int job_finished(void *p) {
  tlc_thread_pool *pool = p;
  return atomic_load_explicit(&pool->pending, memory_order_acquire) == 0;
}

static void *worker_main(void *p) {
  const struct tlc_worker *self = p;
  tlc_thread_pool *pool = self->pool;
  struct generation_wait wait = {pool, 0};
  tlc_in_parallel_region = 1;
  for (;;) {
    if (!spin_until(new_job_or_shutdown, &wait)) {
      /* The caller reads `sleeping_workers` under the lock after publishing a job, so a job
       * published before this check is seen here and one published after it gets a wake-up. */
      pthread_mutex_lock(&pool->lock);
      ++pool->sleeping_workers;
      while (!new_job_or_shutdown(&wait))
        pthread_cond_wait(&pool->wake, &pool->lock);
      --pool->sleeping_workers;
      pthread_mutex_unlock(&pool->lock);
    }
    if (atomic_load_explicit(&pool->shutdown, memory_order_acquire))
      break;
    wait.seen = atomic_load_explicit(&pool->generation, memory_order_acquire);
    if (self->index < pool->parts) {
      int64_t begin, end;
      partition(pool->n, pool->parts, self->index, &begin, &end);
      if (begin < end)
        pool->body(pool->ctx, begin, end);
    }
    if (atomic_fetch_sub_explicit(&pool->pending, 1, memory_order_acq_rel) == 1) {
      pthread_mutex_lock(&pool->lock);
      if (pool->caller_sleeping)
        pthread_cond_signal(&pool->done);
      pthread_mutex_unlock(&pool->lock);
    }
  }
  return NULL;
}

int tlc_default_num_threads(void) {
  const char *env = getenv("TLC_NUM_THREADS");
  if (env && *env) {
    long v = strtol(env, NULL, 10);
    if (v >= 1)
      return v > TLC_MAX_THREADS ? TLC_MAX_THREADS : (int)v;
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1)
    cores = 1;
  return cores > TLC_MAX_THREADS ? TLC_MAX_THREADS : (int)cores;
}

tlc_status tlc_thread_pool_create(const tlc_allocator *allocator, int num_threads,
                                  tlc_thread_pool **out_pool) {
  if (!out_pool)
    return TLC_STATUS_INVALID_ARGUMENT;
  *out_pool = NULL;
  if (!allocator)
    allocator = tlc_default_allocator();
  if (!allocator->alloc)
    return TLC_STATUS_INVALID_ARGUMENT;
  if (num_threads <= 0)
    num_threads = tlc_default_num_threads();
  if (num_threads > TLC_MAX_THREADS)
    num_threads = TLC_MAX_THREADS;
  tlc_thread_pool *pool = allocator->alloc(allocator->user, sizeof *pool, 64);
  if (!pool)
    return TLC_STATUS_OUT_OF_MEMORY;
  memset(pool, 0, sizeof *pool);
  pool->allocator = allocator;
  pool->num_threads = num_threads;
  pthread_mutex_init(&pool->lock, NULL);
  pthread_mutex_init(&pool->busy, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->done, NULL);
  if (num_threads > 1) {
    pool->workers =
        allocator->alloc(allocator->user, sizeof(struct tlc_worker) * (size_t)num_threads, 64);
    if (!pool->workers) {
      pool->num_threads = 1;
      tlc_thread_pool_destroy(pool);
      return TLC_STATUS_OUT_OF_MEMORY;
    }
    for (int t = 1; t < num_threads; ++t) {
      struct tlc_worker *worker = &pool->workers[t];
      worker->pool = pool;
      worker->index = t;
      if (pthread_create(&worker->thread, NULL, worker_main, worker) != 0) {
        pool->num_threads = t; /* destroy joins the ones started */
        tlc_thread_pool_destroy(pool);
        return TLC_STATUS_OUT_OF_MEMORY;
      }
    }
  }
  *out_pool = pool;
  return TLC_STATUS_OK;
}

void tlc_thread_pool_destroy(tlc_thread_pool *pool) {
  if (!pool)
    return;
  pthread_mutex_lock(&pool->lock);
  atomic_store_explicit(&pool->shutdown, 1, memory_order_release);
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);
  for (int t = 1; t < pool->num_threads; ++t)
    pthread_join(pool->workers[t].thread, NULL);
  if (tlc_bound_pool == pool)
    tlc_bound_pool = NULL;
  pthread_cond_destroy(&pool->wake);
  pthread_cond_destroy(&pool->done);
  pthread_mutex_destroy(&pool->lock);
  pthread_mutex_destroy(&pool->busy);
  const tlc_allocator *allocator = pool->allocator;
  if (pool->workers && allocator->free)
    allocator->free(allocator->user, pool->workers);
  if (allocator->free)
    allocator->free(allocator->user, pool);
}

int tlc_thread_pool_size(const tlc_thread_pool *pool) { return pool ? pool->num_threads : 1; }

tlc_thread_pool *tlc_thread_pool_bind(tlc_thread_pool *pool) {
  tlc_thread_pool *previous = tlc_bound_pool;
  tlc_bound_pool = pool;
  return previous;
}

/* The process-wide pool used when the calling thread has none bound: created on first use
 * with tlc_default_num_threads() threads and kept for the life of the process. */
static tlc_thread_pool *default_pool;
static pthread_once_t default_pool_once = PTHREAD_ONCE_INIT;

static void create_default_pool(void) {
  if (tlc_thread_pool_create(NULL, 0, &default_pool) != TLC_STATUS_OK)
    default_pool = NULL; /* parallel_for then runs serially */
}

tlc_thread_pool *tlc_thread_pool_default(void) {
  pthread_once(&default_pool_once, create_default_pool);
  return default_pool;
}

void tlc_thread_pool_run(tlc_thread_pool *pool, tlc_parallel_body body, void *ctx, int64_t n) {
  if (n <= 0)
    return;
  int parts = pool ? pool->num_threads : 1;
  if (parts > n)
    parts = (int)n;
  /* Serial when there is nothing to split, when called from inside a parallel body, or when
   * another thread is using this pool; the iterations are independent, so the result is the
   * same whichever way they are split. */
  if (parts <= 1 || tlc_in_parallel_region || pthread_mutex_trylock(&pool->busy) != 0) {
    body(ctx, 0, n);
    return;
  }
  pool->body = body;
  pool->ctx = ctx;
  pool->n = n;
  pool->parts = parts;
  atomic_store_explicit(&pool->pending, pool->num_threads - 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&pool->generation, 1, memory_order_release);
  pthread_mutex_lock(&pool->lock);
  if (pool->sleeping_workers)
    pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);

  int64_t begin, end;
  partition(n, parts, 0, &begin, &end);
  tlc_in_parallel_region = 1;
  body(ctx, begin, end);
  tlc_in_parallel_region = 0;

  if (!spin_until(job_finished, pool)) {
    pthread_mutex_lock(&pool->lock);
    pool->caller_sleeping = 1;
    while (!job_finished(pool))
      pthread_cond_wait(&pool->done, &pool->lock);
    pool->caller_sleeping = 0;
    pthread_mutex_unlock(&pool->lock);
  }
  pthread_mutex_unlock(&pool->busy);
}

void tlc_parallel_for(tlc_parallel_body body, void *ctx, int64_t n) {
  tlc_thread_pool *pool = tlc_bound_pool;
  if (!pool && n > 1 && !tlc_in_parallel_region)
    pool = tlc_thread_pool_default();
  tlc_thread_pool_run(pool, body, ctx, n);
}
