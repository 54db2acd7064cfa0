/* A stand-in libcuda.so.1 for machines without a GPU: host memory as device memory, the two test
 * kernels emulated, PTX errors imitated. It checks how libtlcrt drives the driver API (entry
 * points, context push/pop, launch parameters, frees), not CUDA itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum {
  SUCCESS = 0,
  INVALID_VALUE = 1,
  INVALID_CONTEXT = 201,
  INVALID_PTX = 218,
  UNSUPPORTED_PTX_VERSION = 222,
  NOT_FOUND = 500,
};

/* A test double may keep globals: one process, one fake GPU. */
static int depth;    /* contexts pushed and not yet popped */
static int retained; /* primary context references */
static long live;    /* allocations, modules, streams and events not yet freed */
static int primary;  /* the primary context's identity (its address is its handle) */

#define NEED_CONTEXT()                                                                             \
  do {                                                                                             \
    if (depth <= 0)                                                                                \
      return INVALID_CONTEXT;                                                                      \
  } while (0)

/* The checks the test reads back with dlsym. */
int fake_cuda_depth(void) { return depth; }
int fake_cuda_retained(void) { return retained; }
long fake_cuda_live(void) { return live; }

CUresult cuInit(unsigned flags) { return flags == 0 ? SUCCESS : INVALID_VALUE; }
CUresult cuDriverGetVersion(int *v) {
  *v = 13000;
  return SUCCESS;
}
CUresult cuDeviceGetCount(int *n) {
  *n = 1;
  return SUCCESS;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return ordinal == 0 ? SUCCESS : INVALID_VALUE;
}
CUresult cuDeviceGetName(char *name, int length, int d) {
  (void)d;
  snprintf(name, (size_t)length, "Fake GPU (host memory)");
  return SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int d) {
  (void)d;
  *value = attribute == 75 ? 8 : 0; /* sm_80 */
  return SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int d) {
  (void)d;
  ++retained;
  *ctx = &primary;
  return SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(int d) {
  (void)d;
  --retained;
  return SUCCESS;
}
CUresult cuCtxPushCurrent_v2(void *ctx) {
  if (ctx != &primary)
    return INVALID_CONTEXT;
  ++depth;
  return SUCCESS;
}
CUresult cuCtxPopCurrent_v2(void **ctx) {
  if (depth <= 0)
    return INVALID_CONTEXT;
  --depth;
  if (ctx)
    *ctx = &primary;
  return SUCCESS;
}

typedef struct fake_module {
  int has_mul, has_add;
} fake_module;
enum { KERNEL_MUL = 1, KERNEL_ADD = 2 };

CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned count, int *options,
                            void **values) {
  NEED_CONTEXT();
  const char *ptx = image;
  char *error_log = NULL;
  size_t error_size = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (options[i] == 5)
      error_log = values[i];
    if (options[i] == 6)
      error_size = (size_t)(uintptr_t)values[i];
  }
  CUresult result = SUCCESS;
  if (strstr(ptx, ".version 99")) {
    result = UNSUPPORTED_PTX_VERSION;
    if (error_log && error_size)
      snprintf(error_log, error_size,
               "ptxas fatal   : Unsupported .version 99.9; current version is '9.0'");
  } else if (!strstr(ptx, ".version") || strstr(ptx, "frobnicate")) {
    result = INVALID_PTX;
    if (error_log && error_size)
      snprintf(error_log, error_size,
               "ptxas application ptx input, line 4; error   : Not a name of any known "
               "instruction: 'frobnicate'");
  }
  if (result != SUCCESS)
    return result;
  fake_module *m = calloc(1, sizeof *m);
  m->has_mul = strstr(ptx, ".entry mul(") != NULL;
  m->has_add = strstr(ptx, ".entry add(") != NULL;
  ++live;
  *module = m;
  return SUCCESS;
}
CUresult cuModuleUnload(void *module) {
  NEED_CONTEXT();
  free(module);
  --live;
  return SUCCESS;
}
CUresult cuModuleGetFunction(void **f, void *module, const char *name) {
  NEED_CONTEXT();
  fake_module *m = module;
  static const int kernels[] = {KERNEL_MUL, KERNEL_ADD};
  if (m->has_mul && strcmp(name, "mul") == 0)
    *f = (void *)&kernels[0];
  else if (m->has_add && strcmp(name, "add") == 0)
    *f = (void *)&kernels[1];
  else
    return NOT_FOUND;
  return SUCCESS;
}
CUresult cuFuncSetAttribute(void *f, int attribute, int value) {
  (void)f;
  return attribute == 8 && value <= 227 * 1024 ? SUCCESS : INVALID_VALUE;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size) {
  NEED_CONTEXT();
  if (size == 0)
    return INVALID_VALUE;
  *p = (CUdeviceptr)(uintptr_t)malloc(size);
  ++live;
  return SUCCESS;
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  NEED_CONTEXT();
  free((void *)(uintptr_t)p);
  --live;
  return SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *stream) {
  NEED_CONTEXT();
  (void)stream;
  memcpy((void *)(uintptr_t)dst, src, n);
  return SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *stream) {
  NEED_CONTEXT();
  (void)stream;
  memcpy(dst, (const void *)(uintptr_t)src, n);
  return SUCCESS;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  NEED_CONTEXT();
  *stream = malloc(1);
  ++live;
  return flags == 1 ? SUCCESS : INVALID_VALUE;
}
CUresult cuStreamDestroy_v2(void *stream) {
  NEED_CONTEXT();
  free(stream);
  --live;
  return SUCCESS;
}
CUresult cuStreamSynchronize(void *stream) {
  NEED_CONTEXT();
  (void)stream;
  return SUCCESS;
}

/* The two kernels of two_kernels.ptx, run block by block, thread by thread, on the pointers
 * the launch passed: so a wrong pointer, offset or grid gives wrong numbers. */
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void *stream, void **params, void **extra) {
  NEED_CONTEXT();
  (void)stream;
  if (!params || extra || gy != 1 || gz != 1 || by != 1 || bz != 1 || shared != 0 || bx > 1024)
    return INVALID_VALUE;
  const CUdeviceptr p0 = *(CUdeviceptr *)params[0], p1 = *(CUdeviceptr *)params[1],
                    p2 = *(CUdeviceptr *)params[2];
  for (unsigned block = 0; block < gx; ++block)
    for (unsigned thread = 0; thread < bx; ++thread) {
      unsigned i = block * bx + thread;
      if (i >= 1000)
        continue;
      const float *x = (const float *)(uintptr_t)p0, *y = (const float *)(uintptr_t)p1;
      float *z = (float *)(uintptr_t)p2;
      if (*(const int *)f == KERNEL_MUL) {
        float product = x[i] * y[i];
        z[i + 64] = product;
      } else {
        z[i] = x[i] + y[i];
      }
    }
  return SUCCESS;
}

/* Events hold the fake clock when recorded: each record advances it by 0.125 ms, as if the
 * stream ran a kernel of that length between two records. */
static float fake_clock_ms;

CUresult cuEventCreate(void **event, unsigned flags) {
  NEED_CONTEXT();
  (void)flags;
  *event = calloc(1, sizeof(float));
  ++live;
  return SUCCESS;
}
CUresult cuEventDestroy_v2(void *event) {
  NEED_CONTEXT();
  free(event);
  --live;
  return SUCCESS;
}
CUresult cuEventRecord(void *event, void *stream) {
  NEED_CONTEXT();
  (void)stream;
  fake_clock_ms += 0.125f;
  *(float *)event = fake_clock_ms;
  return SUCCESS;
}
CUresult cuEventSynchronize(void *event) {
  NEED_CONTEXT();
  (void)event;
  return SUCCESS;
}
CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
  NEED_CONTEXT();
  *ms = *(float *)end - *(float *)start;
  return SUCCESS;
}
CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case INVALID_PTX:
    *name = "CUDA_ERROR_INVALID_PTX";
    return SUCCESS;
  case UNSUPPORTED_PTX_VERSION:
    *name = "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    return SUCCESS;
  case NOT_FOUND:
    *name = "CUDA_ERROR_NOT_FOUND";
    return SUCCESS;
  case INVALID_CONTEXT:
    *name = "CUDA_ERROR_INVALID_CONTEXT";
    return SUCCESS;
  }
  *name = NULL;
  return INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == INVALID_PTX ? "a PTX JIT compilation failed"
          : error == UNSUPPORTED_PTX_VERSION
              ? "the provided PTX was compiled with an unsupported toolchain."
              : "fake error";
  return SUCCESS;
}
