/* The thread pool behind generated parallel loops: one contiguous share per thread, idle
 * threads take from the others' shares, the caller joins. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT (Linux); implies POSIX 2008 */
#include "tlc/runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TLC_MAX_THREADS 256
#define TLC_PIECES_PER_SHARE 16

/* How long a worker keeps polling for the next job, and the caller for the workers to finish,
 * before sleeping on a condition variable (TLC_SPIN_US overrides it; 0 always sleeps).
 * Generated code launches many short parallel loops back to back (a 1M-float add takes ~60 us
 * on two threads), and a futex wake-up costs tens of microseconds in a VM, so a thread that
 * just finished polls briefly instead of sleeping. */
#define TLC_DEFAULT_SPIN_US 200L

static long spin_ns_from_env(void) {
  const char *env = getenv("TLC_SPIN_US");
  if (env && *env) {
    char *end;
    long v = strtol(env, &end, 10);
    if (*end == 0 && v >= 0 && v <= 1000000)
      return v * 1000;
  }
  return TLC_DEFAULT_SPIN_US * 1000;
}

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

/* Polls `ready(arg)` for up to `spin_ns`; returns whether it became true. Past the first
 * thousand polls (a few microseconds) it also yields now and then: on an oversubscribed
 * machine the thread it waits for may be queued behind it on this core. */
static int spin_until(int (*ready)(void *), void *arg, long spin_ns) {
  if (spin_ns <= 0)
    return ready(arg);
  long long deadline = 0;
  for (unsigned i = 0;; ++i) {
    if (ready(arg))
      return 1;
    if ((i & 63) == 63) {
      long long t = monotonic_ns();
      if (!deadline)
        deadline = t + spin_ns;
      else if (t >= deadline)
        return 0;
      if (i >= 1024)
        sched_yield();
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

/* One thread's share of a job: iterations [next, end), taken `grain` at a time by its owner
 * and, once the owner's own share is done, by the others. One cache line each. */
struct tlc_share {
  _Atomic int64_t next;
  int64_t end;
  char pad[64 - 2 * sizeof(int64_t)];
};

/* The job word: generation << 17 | closed << 16 | number of workers that joined. */
#define JOB_CLOSED ((uint64_t)1 << 16)
#define JOB_JOINED_MASK ((uint64_t)0xffff)
#define JOB_GENERATION(s) ((s) >> 17)

struct tlc_thread_pool {
  const tlc_allocator *allocator;
  int num_threads; /* including the calling thread */
  long spin_ns;    /* how long to poll before sleeping */
  struct tlc_worker *workers;
  struct tlc_share *shares; /* num_threads of them */
  pthread_mutex_t lock;     /* guards the sleeper flags; pairs with the two conditions */
  pthread_cond_t wake;      /* a new job or shutdown */
  pthread_cond_t done;      /* the last joined worker finished */
  pthread_mutex_t busy;     /* held by the thread running a parallel_for on this pool */
  _Atomic uint64_t job;     /* published with a release store after the job fields */
  _Atomic int finished;     /* joined workers done with the current job */
  _Atomic int shutdown;
  int sleeping_workers; /* under `lock`: workers waiting on `wake` */
  int caller_sleeping;  /* under `lock`: the caller waits on `done` */
  /* The current job (written by the caller before it publishes `job`). */
  tlc_parallel_body body;
  void *ctx;
  int parts;
  int64_t grain;
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

/* Runs the current job's iterations: first this thread's own share (so consecutive loops
 * over the same data keep it in the same core's caches), then whatever the others have not
 * taken yet. Which thread runs an iteration never changes what it computes, so the results
 * do not depend on the thread count or on scheduling. */
static void run_shares(tlc_thread_pool *pool, int self) {
  int parts = pool->parts;
  for (int k = 0; k < parts; ++k) {
    struct tlc_share *share = &pool->shares[(self + k) % parts];
    for (;;) {
      int64_t begin = atomic_fetch_add_explicit(&share->next, pool->grain, memory_order_relaxed);
      if (begin >= share->end)
        break;
      int64_t end = begin + pool->grain < share->end ? begin + pool->grain : share->end;
      pool->body(pool->ctx, begin, end);
    }
  }
}

struct job_wait {
  tlc_thread_pool *pool;
  uint64_t seen; /* the last generation this worker looked at */
};

static int new_job_or_shutdown(void *p) {
  const struct job_wait *w = p;
  return JOB_GENERATION(atomic_load_explicit(&w->pool->job, memory_order_acquire)) != w->seen ||
         atomic_load_explicit(&w->pool->shutdown, memory_order_acquire);
}

struct join_wait {
  tlc_thread_pool *pool;
  int joined;
};

static int joined_finished(void *p) {
  const struct join_wait *w = p;
  return atomic_load(&w->pool->finished) == w->joined;
}

static void *worker_main(void *p) {
  const struct tlc_worker *self = p;
  tlc_thread_pool *pool = self->pool;
  struct job_wait wait = {pool, 0};
  tlc_in_parallel_region = 1;
  for (;;) {
    if (!spin_until(new_job_or_shutdown, &wait, pool->spin_ns)) {
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
    /* Join the job unless the caller has already closed it (it ran out of iterations while
     * this thread was waking up): a closed job is never touched, so the caller need not wait
     * for a worker that was descheduled. */
    uint64_t state = atomic_load_explicit(&pool->job, memory_order_acquire);
    wait.seen = JOB_GENERATION(state);
    int joined = 0;
    while (!(state & JOB_CLOSED) && JOB_GENERATION(state) == wait.seen)
      if (atomic_compare_exchange_weak(&pool->job, &state, state + 1)) {
        joined = 1;
        break;
      }
    if (!joined)
      continue;
    run_shares(pool, self->index % pool->parts);
    int finished = atomic_fetch_add(&pool->finished, 1) + 1;
    state = atomic_load(&pool->job);
    if ((state & JOB_CLOSED) && (int)(state & JOB_JOINED_MASK) == finished) {
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
  long cores = 0;
#ifdef __linux__
  /* The cores this process may run on (taskset, a container's cpuset), not all online ones:
   * more threads than that would take turns on the same cores at every parallel loop. */
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
    cores = CPU_COUNT(&allowed);
#endif
  if (cores < 1)
    cores = sysconf(_SC_NPROCESSORS_ONLN);
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
  pool->spin_ns = spin_ns_from_env();
  pthread_mutex_init(&pool->lock, NULL);
  pthread_mutex_init(&pool->busy, NULL);
  pthread_cond_init(&pool->wake, NULL);
  pthread_cond_init(&pool->done, NULL);
  if (num_threads > 1) {
    pool->workers =
        allocator->alloc(allocator->user, sizeof(struct tlc_worker) * (size_t)num_threads, 64);
    pool->shares =
        allocator->alloc(allocator->user, sizeof(struct tlc_share) * (size_t)num_threads, 64);
    if (!pool->workers || !pool->shares) {
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
  if (pool->shares && allocator->free)
    allocator->free(allocator->user, pool->shares);
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
  pool->parts = parts;
  /* Sixteen pieces per share: the last piece a thread takes is one nobody can help with, so
   * the others wait up to its length at the end of the loop. With four (one piece a quarter of
   * a share) the caller of a 1M-float add at 2 threads (64 chunks of ~1 us) waited ~5% of its
   * time for the worker, ~1.5% with sixteen (perf). Generated loops have at most ~64
   * iterations of >= 16K elements each (tlc-parallelize-loops), so taking one (an atomic add
   * on the share's own cache line) costs nothing next to running it. */
  pool->grain = n / parts / TLC_PIECES_PER_SHARE > 1 ? n / parts / TLC_PIECES_PER_SHARE : 1;
  for (int t = 0; t < parts; ++t) {
    int64_t begin, end;
    partition(n, parts, t, &begin, &end);
    atomic_store_explicit(&pool->shares[t].next, begin, memory_order_relaxed);
    pool->shares[t].end = end;
  }
  atomic_store_explicit(&pool->finished, 0, memory_order_relaxed);
  uint64_t generation = JOB_GENERATION(atomic_load_explicit(&pool->job, memory_order_relaxed));
  atomic_store_explicit(&pool->job, (generation + 1) << 17, memory_order_release);
  pthread_mutex_lock(&pool->lock);
  if (pool->sleeping_workers)
    pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->lock);

  tlc_in_parallel_region = 1;
  run_shares(pool, 0);
  tlc_in_parallel_region = 0;

  /* No worker may join from now on; wait for those that did. */
  struct join_wait wait = {pool, 0};
  wait.joined = (int)(atomic_fetch_or(&pool->job, JOB_CLOSED) & JOB_JOINED_MASK);
  if (!spin_until(joined_finished, &wait, pool->spin_ns)) {
    pthread_mutex_lock(&pool->lock);
    pool->caller_sleeping = 1;
    while (!joined_finished(&wait))
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
