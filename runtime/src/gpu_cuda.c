/* The CUDA backend: the driver API from libcuda.so.1 loaded at run time, PTX JIT-compiled on load.
 */
#include "gpu_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few driver API types and values used, as cuda.h (CUDA 13) declares them; no toolkit is
 * needed to build. Values are ABI of the driver and never change. */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef int CUjit_option;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DEFAULT = 0,
};

/* Above this, dynamic shared memory must be opted into per function. */
#define TLC_CUDA_DEFAULT_DYNAMIC_SHARED (48u * 1024u)
#define TLC_CUDA_JIT_LOG_SIZE 4096

/* Entry points and the exported symbol each comes from: the versioned names cuda.h maps the
 * plain ones to (cuMemAlloc -> cuMemAlloc_v2, ...), so the ABI is the 64-bit one. */
#define TLC_CUDA_FUNCTIONS(X)                                                                      \
  X(cuInit, "cuInit", (unsigned flags))                                                            \
  X(cuDriverGetVersion, "cuDriverGetVersion", (int *version))                                      \
  X(cuDeviceGetCount, "cuDeviceGetCount", (int *count))                                            \
  X(cuDeviceGet, "cuDeviceGet", (CUdevice * device, int ordinal))                                  \
  X(cuDeviceGetName, "cuDeviceGetName", (char *name, int length, CUdevice device))                 \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", (int *value, int attribute, CUdevice device))    \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext * ctx, CUdevice device))      \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice device))                  \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext ctx))                                      \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext * ctx))                                      \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx",                                                      \
    (CUmodule * module, const void *image, unsigned count, CUjit_option *options, void **values))  \
  X(cuModuleUnload, "cuModuleUnload", (CUmodule module))                                           \
  X(cuModuleGetFunction, "cuModuleGetFunction",                                                    \
    (CUfunction * function, CUmodule module, const char *name))                                    \
  X(cuFuncSetAttribute, "cuFuncSetAttribute", (CUfunction function, int attribute, int value))     \
  X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr * pointer, size_t size))                             \
  X(cuMemFree, "cuMemFree_v2", (CUdeviceptr pointer))                                              \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2",                                                     \
    (CUdeviceptr dst, const void *src, size_t size, CUstream stream))                              \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2",                                                     \
    (void *dst, CUdeviceptr src, size_t size, CUstream stream))                                    \
  X(cuStreamCreate, "cuStreamCreate", (CUstream * stream, unsigned flags))                         \
  X(cuStreamDestroy, "cuStreamDestroy_v2", (CUstream stream))                                      \
  X(cuStreamSynchronize, "cuStreamSynchronize", (CUstream stream))                                 \
  X(cuLaunchKernel, "cuLaunchKernel",                                                              \
    (CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,   \
     unsigned shared, CUstream stream, void **params, void **extra))                               \
  X(cuEventCreate, "cuEventCreate", (CUevent * event, unsigned flags))                             \
  X(cuEventDestroy, "cuEventDestroy_v2", (CUevent event))                                          \
  X(cuEventRecord, "cuEventRecord", (CUevent event, CUstream stream))                              \
  X(cuEventSynchronize, "cuEventSynchronize", (CUevent event))                                     \
  X(cuEventElapsedTime, "cuEventElapsedTime", (float *ms, CUevent start, CUevent end))             \
  X(cuGetErrorName, "cuGetErrorName", (CUresult error, const char **name))                         \
  X(cuGetErrorString, "cuGetErrorString", (CUresult error, const char **text))

#define TLC_CUDA_DECLARE(name, symbol, params) CUresult(*name) params;

typedef struct tlc_cuda_context {
  void *library;
  TLC_CUDA_FUNCTIONS(TLC_CUDA_DECLARE)
  CUdevice device;
  CUcontext context; /* the device's primary context, shared with the CUDA runtime */
  int retained;
  CUstream stream;
  int cc_major, cc_minor, driver_version;
} tlc_cuda_context;

typedef struct tlc_cuda_model {
  CUmodule module;
  CUfunction *functions;
  CUevent start, stop;
  int timed;             /* a run has recorded the events */
  CUevent *marks;        /* profiled runs: one after each kernel (created on the first) */
  int profiled;          /* the last run recorded the marks */
  CUdeviceptr *pointers; /* per-run scratch: one per argument */
  void **params;         /* &pointers[i], as cuLaunchKernel wants them */
} tlc_cuda_model;

/* "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)". */
static void describe(const tlc_cuda_context *cu, CUresult result, char *out, size_t size) {
  const char *name = NULL, *text = NULL;
  if (cu->cuGetErrorName)
    cu->cuGetErrorName(result, &name);
  if (cu->cuGetErrorString)
    cu->cuGetErrorString(result, &text);
  if (name)
    snprintf(out, size, "%s (%s)", name, text ? text : "no description");
  else
    snprintf(out, size, "CUDA error %d", result);
}

static tlc_status cuda_fail(tlc_gpu_context *ctx, tlc_status status, const char *what,
                            CUresult result) {
  char words[256];
  describe(ctx->impl, result, words, sizeof words);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    status = TLC_STATUS_OUT_OF_MEMORY;
  return tlc_gpu_fail(ctx, status, "%s failed: %s", what, words);
}

/* Every call runs with the context current and leaves the caller's current context as it was
 * (an application may use the CUDA runtime or another library on the same thread). */
static tlc_status enter(tlc_gpu_context *ctx) {
  tlc_cuda_context *cu = ctx->impl;
  CUresult result = cu->cuCtxPushCurrent(cu->context);
  return result == CUDA_SUCCESS ? TLC_STATUS_OK
                                : cuda_fail(ctx, TLC_STATUS_INTERNAL, "cuCtxPushCurrent", result);
}

static tlc_status leave(tlc_gpu_context *ctx, tlc_status status) {
  tlc_cuda_context *cu = ctx->impl;
  CUcontext popped = NULL;
  cu->cuCtxPopCurrent(&popped);
  return status;
}

/* ---- Context ------------------------------------------------------------------------------- */

static void cuda_context_destroy(tlc_gpu_context *ctx);

static tlc_status open_driver(tlc_gpu_context *ctx, tlc_cuda_context *cu) {
  char why[512];
  cu->library = tlc_gpu_library_open("libcuda.so.1", why, sizeof why);
  if (!cu->library)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "no CUDA driver: libcuda.so.1 could not be loaded (%s)", why);
#define TLC_CUDA_LOAD(name, symbol, params)                                                        \
  tlc_gpu_library_symbol(cu->library, symbol, &cu->name);                                          \
  if (!cu->name)                                                                                   \
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,                                               \
                        "the CUDA driver (libcuda.so.1) has no %s: it is too old", symbol);
  TLC_CUDA_FUNCTIONS(TLC_CUDA_LOAD)
#undef TLC_CUDA_LOAD
  return TLC_STATUS_OK;
}

static tlc_status open_device(tlc_gpu_context *ctx, tlc_cuda_context *cu, int device_index) {
  CUresult result = cu->cuInit(0);
  if (result == CUDA_ERROR_NO_DEVICE)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED, "no CUDA device: the driver sees no GPU");
  if (result == CUDA_ERROR_STUB_LIBRARY)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "no CUDA driver: libcuda.so.1 is the toolkit's stub library, not a driver");
  if (result != CUDA_SUCCESS)
    return cuda_fail(ctx, TLC_STATUS_UNSUPPORTED, "no usable CUDA driver: cuInit", result);
  cu->cuDriverGetVersion(&cu->driver_version);
  int count = 0;
  result = cu->cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS)
    return cuda_fail(ctx, TLC_STATUS_UNSUPPORTED, "cuDeviceGetCount", result);
  if (device_index >= count)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "no CUDA device %d: %d device(s) found (TLC_GPU_DEVICE picks one)",
                        device_index, count);
  result = cu->cuDeviceGet(&cu->device, device_index);
  if (result != CUDA_SUCCESS)
    return cuda_fail(ctx, TLC_STATUS_UNSUPPORTED, "cuDeviceGet", result);
  if (cu->cuDeviceGetName(ctx->device_name, (int)sizeof ctx->device_name, cu->device) !=
      CUDA_SUCCESS)
    snprintf(ctx->device_name, sizeof ctx->device_name, "CUDA device %d", device_index);
  cu->cuDeviceGetAttribute(&cu->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, cu->device);
  cu->cuDeviceGetAttribute(&cu->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, cu->device);
  result = cu->cuDevicePrimaryCtxRetain(&cu->context, cu->device);
  if (result != CUDA_SUCCESS)
    return cuda_fail(ctx, TLC_STATUS_UNSUPPORTED, "cuDevicePrimaryCtxRetain", result);
  cu->retained = 1;
  tlc_status status = enter(ctx);
  if (status != TLC_STATUS_OK)
    return status;
  /* Non-blocking: the legacy default stream of other code in the process does not serialize
   * with the model's work. */
  result = cu->cuStreamCreate(&cu->stream, CU_STREAM_NON_BLOCKING);
  if (result != CUDA_SUCCESS)
    status = cuda_fail(ctx, TLC_STATUS_INTERNAL, "cuStreamCreate", result);
  return leave(ctx, status);
}

static tlc_status cuda_context_create(tlc_gpu_context *ctx, int device_index) {
  tlc_cuda_context *cu = calloc(1, sizeof *cu);
  if (!cu)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  ctx->impl = cu;
  tlc_status status = open_driver(ctx, cu);
  if (status == TLC_STATUS_OK)
    status = open_device(ctx, cu, device_index);
  if (status != TLC_STATUS_OK)
    cuda_context_destroy(ctx);
  return status;
}

static void cuda_context_destroy(tlc_gpu_context *ctx) {
  tlc_cuda_context *cu = ctx->impl;
  if (!cu)
    return;
  if (cu->stream && enter(ctx) == TLC_STATUS_OK) {
    cu->cuStreamSynchronize(cu->stream);
    cu->cuStreamDestroy(cu->stream);
    leave(ctx, TLC_STATUS_OK);
  }
  if (cu->retained)
    cu->cuDevicePrimaryCtxRelease(cu->device);
  tlc_gpu_library_close(cu->library);
  free(cu);
  ctx->impl = NULL;
}

static tlc_status cuda_synchronize(tlc_gpu_context *ctx) {
  tlc_cuda_context *cu = ctx->impl;
  tlc_status status = enter(ctx);
  if (status != TLC_STATUS_OK)
    return status;
  /* Errors of kernels already launched (an illegal address, ...) surface here. */
  CUresult result = cu->cuStreamSynchronize(cu->stream);
  if (result != CUDA_SUCCESS)
    status =
        cuda_fail(ctx, TLC_STATUS_INTERNAL, "waiting for the GPU (cuStreamSynchronize)", result);
  return leave(ctx, status);
}

/* ---- Buffers ------------------------------------------------------------------------------- */

static tlc_status cuda_buffer_create(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer) {
  tlc_cuda_context *cu = ctx->impl;
  tlc_status status = enter(ctx);
  if (status != TLC_STATUS_OK)
    return status;
  CUdeviceptr pointer = 0;
  CUresult result = cu->cuMemAlloc(&pointer, buffer->size);
  if (result != CUDA_SUCCESS) {
    char what[96];
    snprintf(what, sizeof what, "cuMemAlloc(%zu bytes)", buffer->size);
    status = cuda_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, what, result);
  }
  buffer->handle = pointer;
  return leave(ctx, status);
}

static void cuda_buffer_destroy(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer) {
  tlc_cuda_context *cu = ctx->impl;
  if (enter(ctx) != TLC_STATUS_OK)
    return;
  /* cuMemFree does not wait for kernels still using the memory. */
  cu->cuStreamSynchronize(cu->stream);
  cu->cuMemFree((CUdeviceptr)buffer->handle);
  leave(ctx, TLC_STATUS_OK);
}

static tlc_status cuda_buffer_upload(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer, size_t offset,
                                     const void *src, size_t size) {
  tlc_cuda_context *cu = ctx->impl;
  tlc_status status = enter(ctx);
  if (status != TLC_STATUS_OK)
    return status;
  /* On the model's stream: after the runs before it; then waited for, as `src` is the
   * caller's (pageable) memory. */
  CUresult result =
      cu->cuMemcpyHtoDAsync((CUdeviceptr)buffer->handle + offset, src, size, cu->stream);
  if (result == CUDA_SUCCESS)
    result = cu->cuStreamSynchronize(cu->stream);
  if (result != CUDA_SUCCESS)
    status =
        cuda_fail(ctx, TLC_STATUS_INTERNAL, "tlc_gpu_buffer_upload (cuMemcpyHtoDAsync)", result);
  return leave(ctx, status);
}

static tlc_status cuda_buffer_download(tlc_gpu_context *ctx, const tlc_gpu_buffer *buffer,
                                       size_t offset, void *dst, size_t size) {
  tlc_cuda_context *cu = ctx->impl;
  tlc_status status = enter(ctx);
  if (status != TLC_STATUS_OK)
    return status;
  CUresult result =
      cu->cuMemcpyDtoHAsync(dst, (CUdeviceptr)buffer->handle + offset, size, cu->stream);
  if (result == CUDA_SUCCESS)
    result = cu->cuStreamSynchronize(cu->stream);
  if (result != CUDA_SUCCESS)
    status =
        cuda_fail(ctx, TLC_STATUS_INTERNAL, "tlc_gpu_buffer_download (cuMemcpyDtoHAsync)", result);
  return leave(ctx, status);
}

/* ---- Programs ------------------------------------------------------------------------------ */

static void cuda_model_release(tlc_gpu_model *model) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_cuda_context *cu = ctx->impl;
  tlc_cuda_model *m = model->impl;
  if (!m)
    return;
  if (enter(ctx) == TLC_STATUS_OK) {
    cu->cuStreamSynchronize(cu->stream); /* its kernels may still run */
    if (m->start)
      cu->cuEventDestroy(m->start);
    if (m->stop)
      cu->cuEventDestroy(m->stop);
    for (uint32_t k = 0; m->marks && k < model->program.num_kernels; ++k)
      if (m->marks[k])
        cu->cuEventDestroy(m->marks[k]);
    if (m->module)
      cu->cuModuleUnload(m->module);
    leave(ctx, TLC_STATUS_OK);
  }
  free(m->functions);
  free(m->marks);
  free(m->pointers);
  free(m->params);
  free(m);
  model->impl = NULL;
}

/* The driver's refusal of a PTX in words: which PTX, which GPU and driver, and the JIT log. */
static tlc_status ptx_rejected(tlc_gpu_context *ctx, const tlc_gpu_program *p, CUresult result,
                               const char *log) {
  tlc_cuda_context *cu = ctx->impl;
  char words[256];
  describe(cu, result, words, sizeof words);
  char gpu[384];
  snprintf(gpu, sizeof gpu, "%s (sm_%d%d), driver %d.%d", ctx->device_name, cu->cc_major,
           cu->cc_minor, cu->driver_version / 1000, cu->driver_version % 1000 / 10);
  const char *target = p->target && *p->target ? p->target : "unknown target";
  const char *why = "the driver could not compile it";
  switch (result) {
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    why = "the PTX is newer than this driver supports; update the NVIDIA driver or compile with "
          "an older --ptx-version";
    break;
  case CUDA_ERROR_INVALID_PTX:
    why = "the driver's PTX compiler rejected it (a .target newer than the GPU, or invalid PTX)";
    break;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_IMAGE:
    why = "it holds no code this GPU can run; compile for this GPU's sm_ version";
    break;
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_JIT_COMPILATION_DISABLED:
    why = "this driver cannot JIT-compile PTX (its PTX compiler is missing or disabled)";
    break;
  }
  return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                      "program '%s': the PTX (%s) does not load on %s: %s. cuModuleLoadDataEx: "
                      "%s. JIT log: %s",
                      p->name, target, gpu, why, words, log && *log ? log : "(empty)");
}

static tlc_status load(tlc_gpu_model *model, const tlc_gpu_program *program) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_cuda_context *cu = ctx->impl;
  tlc_cuda_model *m = model->impl;
  const tlc_gpu_program *p = &model->program;
  /* The driver reads PTX up to its NUL; the header promises one after code_size bytes. */
  const char *ptx = program->code;
  if (ptx[program->code_size] != '\0')
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s': its PTX is not NUL-terminated at code_size (%llu)", p->name,
                        (unsigned long long)program->code_size);
  char error_log[TLC_CUDA_JIT_LOG_SIZE] = "", info_log[TLC_CUDA_JIT_LOG_SIZE] = "";
  CUjit_option options[4] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                             CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[4] = {error_log, (void *)(uintptr_t)sizeof error_log, info_log,
                     (void *)(uintptr_t)sizeof info_log};
  CUresult result = cu->cuModuleLoadDataEx(&m->module, ptx, 4, options, values);
  error_log[sizeof error_log - 1] = info_log[sizeof info_log - 1] = '\0';
  if (result != CUDA_SUCCESS) {
    m->module = NULL;
    if (result == CUDA_ERROR_OUT_OF_MEMORY)
      return cuda_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "cuModuleLoadDataEx", result);
    return ptx_rejected(ctx, p, result, *error_log ? error_log : info_log);
  }
  for (uint32_t k = 0; k < p->num_kernels; ++k) {
    const tlc_gpu_kernel *kernel = &p->kernels[k];
    result = cu->cuModuleGetFunction(&m->functions[k], m->module, kernel->name);
    if (result == CUDA_ERROR_NOT_FOUND)
      return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                          "program '%s': kernel '%s' is not an .entry of its PTX", p->name,
                          kernel->name);
    if (result != CUDA_SUCCESS)
      return cuda_fail(ctx, TLC_STATUS_INTERNAL, "cuModuleGetFunction", result);
    if (kernel->shared_bytes > TLC_CUDA_DEFAULT_DYNAMIC_SHARED) {
      result =
          cu->cuFuncSetAttribute(m->functions[k], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 (int)kernel->shared_bytes);
      if (result != CUDA_SUCCESS) {
        char what[256];
        snprintf(what, sizeof what,
                 "program '%s': kernel '%s' asks for %u bytes of dynamic shared memory; "
                 "cuFuncSetAttribute",
                 p->name, kernel->name, kernel->shared_bytes);
        return cuda_fail(ctx, TLC_STATUS_UNSUPPORTED, what, result);
      }
    }
  }
  result = cu->cuEventCreate(&m->start, CU_EVENT_DEFAULT);
  if (result == CUDA_SUCCESS)
    result = cu->cuEventCreate(&m->stop, CU_EVENT_DEFAULT);
  if (result != CUDA_SUCCESS)
    return cuda_fail(ctx, TLC_STATUS_INTERNAL, "cuEventCreate", result);
  return TLC_STATUS_OK;
}

static tlc_status cuda_model_load(tlc_gpu_model *model, const tlc_gpu_program *program) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_cuda_model *m = calloc(1, sizeof *m);
  if (!m)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  model->impl = m;
  uint32_t n = model->program.num_kernels, args = model->num_args;
  m->functions = calloc(n ? n : 1, sizeof *m->functions);
  m->pointers = calloc(args ? args : 1, sizeof *m->pointers);
  m->params = calloc(args ? args : 1, sizeof *m->params);
  tlc_status status = enter(ctx);
  if (status == TLC_STATUS_OK) {
    if (!m->functions || !m->pointers || !m->params)
      status = tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
    else
      status = load(model, program);
    leave(ctx, status);
  }
  if (status != TLC_STATUS_OK)
    cuda_model_release(model);
  return status;
}

static tlc_status cuda_model_run(tlc_gpu_model *model, tlc_gpu_buffer *const *args) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_cuda_context *cu = ctx->impl;
  tlc_cuda_model *m = model->impl;
  const tlc_gpu_program *p = &model->program;
  tlc_status status = enter(ctx);
  if (status != TLC_STATUS_OK)
    return status;
  m->timed = 0; /* until this run's stop event is recorded */
  m->profiled = 0;
  if (model->profiling && !m->marks) {
    m->marks = calloc(p->num_kernels ? p->num_kernels : 1, sizeof *m->marks);
    if (!m->marks)
      return leave(ctx, tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory"));
    for (uint32_t k = 0; k < p->num_kernels; ++k) {
      CUresult made = cu->cuEventCreate(&m->marks[k], CU_EVENT_DEFAULT);
      if (made != CUDA_SUCCESS)
        return leave(ctx, cuda_fail(ctx, TLC_STATUS_INTERNAL, "cuEventCreate", made));
    }
  }
  CUresult result = cu->cuEventRecord(m->start, cu->stream);
  uint32_t slot = 0;
  for (uint32_t k = 0; k < p->num_kernels && result == CUDA_SUCCESS; ++k) {
    const tlc_gpu_kernel *kernel = &p->kernels[k];
    /* Bare-pointer kernels: one pointer per argument, to the first byte of its range.
     * cuLaunchKernel copies the values, so the scratch is reused by the next launch. */
    for (uint32_t a = 0; a < kernel->num_args; ++a, ++slot) {
      m->pointers[slot] = (CUdeviceptr)args[slot]->handle + kernel->args[a].offset;
      m->params[slot] = &m->pointers[slot];
    }
    result = cu->cuLaunchKernel(
        m->functions[k], kernel->grid[0], kernel->grid[1], kernel->grid[2], kernel->block[0],
        kernel->block[1], kernel->block[2], kernel->shared_bytes, cu->stream,
        kernel->num_args ? &m->params[slot - kernel->num_args] : NULL, NULL);
    if (result != CUDA_SUCCESS) {
      char what[256];
      snprintf(what, sizeof what,
               "program '%s': launching kernel '%s' (grid %ux%ux%u, block %ux%ux%u, %u bytes of "
               "dynamic shared memory) with cuLaunchKernel",
               p->name, kernel->name, kernel->grid[0], kernel->grid[1], kernel->grid[2],
               kernel->block[0], kernel->block[1], kernel->block[2], kernel->shared_bytes);
      return leave(ctx, cuda_fail(ctx, TLC_STATUS_INTERNAL, what, result));
    }
    if (model->profiling)
      result = cu->cuEventRecord(m->marks[k], cu->stream);
  }
  if (result == CUDA_SUCCESS)
    result = cu->cuEventRecord(m->stop, cu->stream);
  if (result != CUDA_SUCCESS)
    return leave(ctx, cuda_fail(ctx, TLC_STATUS_INTERNAL, "cuEventRecord", result));
  m->timed = 1;
  m->profiled = model->profiling;
  return leave(ctx, TLC_STATUS_OK);
}

static tlc_status cuda_model_kernel_times(tlc_gpu_model *model, double *ms, size_t count) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_cuda_context *cu = ctx->impl;
  tlc_cuda_model *m = model->impl;
  if (!m->timed || !m->profiled)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "tlc_gpu_model_kernel_times(%s): the last run was not profiled "
                        "(tlc_gpu_model_set_profiling before it)",
                        model->program.name);
  tlc_status status = enter(ctx);
  if (status != TLC_STATUS_OK)
    return status;
  CUresult result = cu->cuEventSynchronize(m->stop);
  for (size_t k = 0; k < count && result == CUDA_SUCCESS; ++k) {
    float elapsed = 0;
    result = cu->cuEventElapsedTime(&elapsed, k ? m->marks[k - 1] : m->start, m->marks[k]);
    ms[k] = elapsed;
  }
  if (result != CUDA_SUCCESS)
    return leave(ctx, cuda_fail(ctx, TLC_STATUS_INTERNAL,
                                "timing the last run's kernels (cuEventElapsedTime)", result));
  return leave(ctx, TLC_STATUS_OK);
}

static double cuda_model_last_run_ms(tlc_gpu_model *model) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_cuda_context *cu = ctx->impl;
  tlc_cuda_model *m = model->impl;
  if (!m->timed || enter(ctx) != TLC_STATUS_OK)
    return -1.0;
  float ms = -1.0f;
  CUresult result = cu->cuEventSynchronize(m->stop);
  if (result == CUDA_SUCCESS)
    result = cu->cuEventElapsedTime(&ms, m->start, m->stop);
  if (result != CUDA_SUCCESS) {
    cuda_fail(ctx, TLC_STATUS_INTERNAL, "timing the last run (cuEventElapsedTime)", result);
    ms = -1.0f;
  }
  leave(ctx, TLC_STATUS_OK);
  return ms;
}

const tlc_gpu_backend_ops tlc_gpu_cuda_ops = {
    .name = "CUDA",
    .context_create = cuda_context_create,
    .context_destroy = cuda_context_destroy,
    .buffer_create = cuda_buffer_create,
    .buffer_destroy = cuda_buffer_destroy,
    .buffer_upload = cuda_buffer_upload,
    .buffer_download = cuda_buffer_download,
    .synchronize = cuda_synchronize,
    .model_load = cuda_model_load,
    .model_release = cuda_model_release,
    .model_run = cuda_model_run,
    .model_last_run_ms = cuda_model_last_run_ms,
    .model_kernel_times = cuda_model_kernel_times,
};
