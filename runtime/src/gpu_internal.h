/* What gpu.c (the backend-independent half of tlc/gpu.h) shares with the CUDA and Vulkan backends.
 */
#ifndef TLC_GPU_INTERNAL_H
#define TLC_GPU_INTERNAL_H

#include "tlc/gpu.h"

#include <stdarg.h>

/* Room for a driver's words plus a PTX JIT log. */
#define TLC_GPU_ERROR_SIZE 8192

/* A backend fills `impl` (and `device_name`) and reports failures with tlc_gpu_fail. gpu.c has
 * already checked every argument, the program and the buffers' sizes before calling in. */
typedef struct tlc_gpu_backend_ops {
  const char *name; /* "CUDA", "Vulkan": for messages */
  /* On failure frees what it made and leaves ctx->impl NULL. */
  tlc_status (*context_create)(tlc_gpu_context *ctx, int device_index);
  void (*context_destroy)(tlc_gpu_context *ctx);
  tlc_status (*buffer_create)(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer);
  void (*buffer_destroy)(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer);
  tlc_status (*buffer_upload)(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer, size_t offset,
                              const void *src, size_t size);
  tlc_status (*buffer_download)(tlc_gpu_context *ctx, const tlc_gpu_buffer *buffer, size_t offset,
                                void *dst, size_t size);
  tlc_status (*synchronize)(tlc_gpu_context *ctx);
  /* Compiles model->program's code; the constants are already in model->constants. On failure
   * frees what it made and leaves model->impl NULL. */
  tlc_status (*model_load)(tlc_gpu_model *model, const tlc_gpu_program *program);
  void (*model_release)(tlc_gpu_model *model);
  /* args[i]: the buffer of the i-th argument in kernel-table order (kernel 0's args, then
   * kernel 1's, ...); each range is already known to lie inside its buffer. */
  tlc_status (*model_run)(tlc_gpu_model *model, tlc_gpu_buffer *const *args);
  double (*model_last_run_ms)(tlc_gpu_model *model);
  /* Kernel times of the last completed run (model->profiling was set when it ran); `count` is
   * at most the number of kernels. */
  tlc_status (*model_kernel_times)(tlc_gpu_model *model, double *ms, size_t count);
} tlc_gpu_backend_ops;

struct tlc_gpu_context {
  const tlc_gpu_backend_ops *ops;
  tlc_gpu_backend backend;
  void *impl;
  char device_name[256];
  char error[TLC_GPU_ERROR_SIZE];
};

struct tlc_gpu_buffer {
  tlc_gpu_context *ctx;
  size_t size;
  void *impl;      /* Vulkan: its buffer, memory and mapping */
  uint64_t handle; /* CUDA: the CUdeviceptr (0 for an empty buffer) */
};

/* The model keeps its own copy of the kernel table and sizes, so a program built at run time
 * (tests, JITs) may go away after tlc_gpu_model_load; code and constants are not kept. */
struct tlc_gpu_model {
  tlc_gpu_context *ctx;
  tlc_gpu_program program; /* code == NULL, constants == NULL; names and tables owned */
  uint32_t num_args;       /* all kernels' arguments together */
  tlc_gpu_buffer **constants;
  tlc_gpu_buffer **arg_buffers; /* num_args: the run's resolved bindings */
  int profiling;                /* runs time each kernel (tlc_gpu_model_set_profiling) */
  void *impl;
};

/* Formats the message of a failed call into ctx->error and returns `status`. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
tlc_status
tlc_gpu_fail(tlc_gpu_context *ctx, tlc_status status, const char *format, ...);

/* dlopen/dlsym behind one name so the backends need no platform #ifs. On failure `error` (may
 * be NULL) receives the loader's reason. dlsym's object pointer is converted to a function
 * pointer through memcpy, which ISO C (and -Wpedantic) accepts. */
void *tlc_gpu_library_open(const char *name, char *error, size_t error_size);
void tlc_gpu_library_close(void *library);
void tlc_gpu_library_symbol(void *library, const char *name, void *out_function_pointer);

/* The backends; NULL where a backend is not built in. */
extern const tlc_gpu_backend_ops tlc_gpu_cuda_ops;
extern const tlc_gpu_backend_ops tlc_gpu_vulkan_ops;

#endif /* TLC_GPU_INTERNAL_H */
