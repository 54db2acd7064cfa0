/* libtlcrt: the small C runtime that tlc-generated model objects and the apps linking them share. */
#ifndef TLC_RUNTIME_H
#define TLC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "tlc/cpu_features.h" /* CPU features and run-time variant dispatch */

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI between generated code and this runtime. Bump on any incompatible change; generated
 * headers record the version they were compiled against (NAME_ABI_VERSION). */
#define TLC_ABI_VERSION 1

/* Required alignment, in bytes, of every workspace and of every buffer passed to a model. */
#define TLC_BUFFER_ALIGNMENT 64

typedef enum tlc_status {
  TLC_STATUS_OK = 0,
  TLC_STATUS_INVALID_ARGUMENT = 1, /* e.g. a NULL buffer or workspace */
  TLC_STATUS_OUT_OF_MEMORY = 2,
  TLC_STATUS_ABI_MISMATCH = 3,     /* object compiled against another TLC_ABI_VERSION */
  TLC_STATUS_UNSUPPORTED = 4,
  TLC_STATUS_INTERNAL = 5
} tlc_status;

/* Element types of model inputs and outputs, as the generated NAME_*_DTYPE macros name them. */
typedef enum tlc_dtype {
  TLC_DTYPE_F32 = 0,
  TLC_DTYPE_F64 = 1,
  TLC_DTYPE_F16 = 2,  /* IEEE half, passed as uint16_t bits */
  TLC_DTYPE_BF16 = 3, /* bfloat16, passed as uint16_t bits */
  TLC_DTYPE_I32 = 4,
  TLC_DTYPE_I64 = 5,
  TLC_DTYPE_I1 = 6,   /* bool, one byte per element (0 or 1) */
  TLC_DTYPE_I8 = 7,   /* the narrow and unsigned integers of ONNX models */
  TLC_DTYPE_U8 = 8,
  TLC_DTYPE_I16 = 9,
  TLC_DTYPE_U16 = 10,
  TLC_DTYPE_U32 = 11
} tlc_dtype;

/* A caller-supplied allocator. `alloc` returns memory aligned to `alignment` (a power of two) or
 * NULL; `user` is passed back unchanged. */
typedef struct tlc_allocator {
  void *(*alloc)(void *user, size_t size, size_t alignment);
  void (*free)(void *user, void *ptr);
  void *user;
} tlc_allocator;

/* The ABI version this runtime library was built with. */
int tlc_abi_version(void);

/* The runtime's version string, e.g. "0.1.0". */
const char *tlc_version_string(void);

/* A static, human-readable message for a status code (never NULL). */
const char *tlc_status_string(tlc_status status);

/* Name ("f32", "bf16", ...) and element size in bytes of a dtype; "?"/0 for unknown values. */
const char *tlc_dtype_name(tlc_dtype dtype);
size_t tlc_dtype_size(tlc_dtype dtype);

/* Checks that a generated model's ABI version matches this runtime. */
tlc_status tlc_check_abi(int model_abi_version);

/* The default allocator (aligned_alloc/free from libc). */
const tlc_allocator *tlc_default_allocator(void);

/* Allocates a workspace of `size` bytes aligned to TLC_BUFFER_ALIGNMENT with `allocator` (NULL
 * means the default). A zero size yields *out_workspace == NULL and TLC_STATUS_OK without calling
 * the allocator. On failure *out_workspace is NULL: TLC_STATUS_OUT_OF_MEMORY when the allocator
 * returns NULL; TLC_STATUS_INVALID_ARGUMENT when out_workspace or allocator->alloc is NULL, or
 * when the allocator returns a misaligned block (which is then freed). */
tlc_status tlc_workspace_alloc(const tlc_allocator *allocator, size_t size, void **out_workspace);

/* Frees a workspace from tlc_workspace_alloc with the same allocator; NULL is a no-op. */
void tlc_workspace_free(const tlc_allocator *allocator, void *workspace);

/* ---- Threads ---------------------------------------------------------------------------------
 * Generated code runs its outer parallel loops through tlc_parallel_for. Each call splits the
 * iterations [0, n) into one contiguous share per pool thread (the caller is one of them); a
 * thread done with its share takes iterations another has not started, and the call returns
 * when all are done. Iterations are independent, so results do not depend on the thread count
 * or on which thread ran what. Between calls, threads poll for TLC_SPIN_US microseconds
 * (default 200; 0: never) before sleeping. The pool used is the one bound to the calling thread
 * with tlc_thread_pool_bind, or else the default pool, created on first use with
 * tlc_default_num_threads() threads. */

/* Runs iterations [begin, end) of a parallel loop; `ctx` holds the loop's captured values. */
typedef void (*tlc_parallel_body)(void *ctx, int64_t begin, int64_t end);

typedef struct tlc_thread_pool tlc_thread_pool;

/* TLC_NUM_THREADS if set to a positive number, else the number of cores the process may run
 * on (its CPU affinity on Linux: taskset, a container's cpuset; elsewhere the online cores). */
int tlc_default_num_threads(void);

/* Creates a pool of `num_threads` threads including the caller (num_threads - 1 workers);
 * num_threads <= 0 means tlc_default_num_threads(). `allocator` NULL means the default. */
tlc_status tlc_thread_pool_create(const tlc_allocator *allocator, int num_threads,
                                  tlc_thread_pool **out_pool);

/* Joins the workers and frees the pool; NULL is a no-op. No call may be running on it. */
void tlc_thread_pool_destroy(tlc_thread_pool *pool);

/* Number of threads, including the caller (1 for NULL). */
int tlc_thread_pool_size(const tlc_thread_pool *pool);

/* Makes `pool` the one models called from this thread use (NULL: back to the default pool);
 * returns the previously bound pool. A pool of size 1 makes model calls single-threaded. */
tlc_thread_pool *tlc_thread_pool_bind(tlc_thread_pool *pool);

/* The lazily created process-wide default pool (NULL if it could not be created). */
tlc_thread_pool *tlc_thread_pool_default(void);

/* Runs body over [0, n) on `pool` (NULL: serially on the caller). Nested calls from inside a
 * body, and calls while another thread is using the same pool, run serially. */
void tlc_thread_pool_run(tlc_thread_pool *pool, tlc_parallel_body body, void *ctx, int64_t n);

/* The entry point generated code calls: tlc_thread_pool_run on the bound or default pool. */
void tlc_parallel_for(tlc_parallel_body body, void *ctx, int64_t n);

/* ---- Profiling ------------------------------------------------------------------------------*/
/* Monotonic nanoseconds. A model compiled with `tlc --profile` adds each kernel's elapsed time
 * to NAME_profile_ns[k] on every run (see its header and docs/usage.md; tlc-run --profile
 * prints the table). */
uint64_t tlc_profile_clock(void);

#ifdef __cplusplus
}
#endif

#endif /* TLC_RUNTIME_H */
