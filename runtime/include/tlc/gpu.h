/* libtlcrt's GPU half: devices, device buffers, and running tlc-compiled GPU programs. */
#ifndef TLC_GPU_H
#define TLC_GPU_H

#include "tlc/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The program ABI between tlc's GPU targets and this runtime ------------------------------
 * A model compiled with --target=cuda|vulkan|metal holds one `tlc_gpu_program` (NAME_program):
 * its kernels' code, the kernel table and the constants (weights) the kernels read. A run
 * launches the kernels in table order on one queue/stream; each kernel argument is one buffer
 * binding: a byte range of a model input, output, the workspace or a constant. Bump
 * TLC_GPU_ABI_VERSION on any incompatible change of these structs. */
#define TLC_GPU_ABI_VERSION 1

/* Byte offsets of bindings into the workspace are multiples of this (Vulkan's
 * minStorageBufferOffsetAlignment is at most 256 on every implementation). */
#define TLC_GPU_BINDING_ALIGNMENT 256

typedef enum tlc_gpu_backend {
  TLC_GPU_BACKEND_CUDA = 1,   /* code: PTX text, NUL-terminated */
  TLC_GPU_BACKEND_VULKAN = 2, /* code: SPIR-V words */
  TLC_GPU_BACKEND_METAL = 3   /* code: MSL source text, NUL-terminated */
} tlc_gpu_backend;

typedef enum tlc_gpu_buffer_kind {
  TLC_GPU_ARG_INPUT = 0,     /* index: model input */
  TLC_GPU_ARG_OUTPUT = 1,    /* index: model output */
  TLC_GPU_ARG_WORKSPACE = 2, /* index: 0 */
  TLC_GPU_ARG_CONSTANT = 3   /* index: into tlc_gpu_program.constants */
} tlc_gpu_buffer_kind;

/* One kernel argument: bytes [offset, offset + size) of the buffer (kind, index). CUDA kernels
 * get a pointer to `offset`; Vulkan kernels a storage buffer at descriptor set 0, binding =
 * argument position, bound to that range; Metal kernels buffer(argument position). */
typedef struct tlc_gpu_arg {
  uint32_t kind;  /* tlc_gpu_buffer_kind */
  uint32_t index;
  uint64_t offset;
  uint64_t size;
} tlc_gpu_arg;

typedef struct tlc_gpu_kernel {
  const char *name;       /* entry point in the program's code */
  uint32_t grid[3];       /* workgroups (CUDA blocks) */
  uint32_t block[3];      /* threads per workgroup; must match the code's declared size */
  uint32_t shared_bytes;  /* dynamic shared memory (CUDA); 0 when all of it is static */
  uint32_t num_args;
  const tlc_gpu_arg *args;
} tlc_gpu_kernel;

typedef struct tlc_gpu_constant {
  const void *data;
  uint64_t size; /* bytes */
} tlc_gpu_constant;

typedef struct tlc_gpu_program {
  uint32_t abi_version; /* TLC_GPU_ABI_VERSION */
  uint32_t backend;     /* tlc_gpu_backend */
  const char *name;     /* the model's name */
  const void *code;
  uint64_t code_size;   /* bytes (SPIR-V: 4 x words; text: excluding the NUL) */
  const char *target;   /* "sm_80 ptx 7.0", "vulkan 1.1 (SPIR-V 1.3)": for messages */
  uint32_t num_kernels;
  const tlc_gpu_kernel *kernels;
  uint32_t num_inputs;
  const uint64_t *input_sizes;  /* bytes each */
  uint32_t num_outputs;
  const uint64_t *output_sizes; /* bytes each */
  uint64_t workspace_size;      /* bytes; may be 0 */
  uint32_t num_constants;
  const tlc_gpu_constant *constants;
} tlc_gpu_program;

/* ---- Devices and buffers ----------------------------------------------------------------------
 * The drivers are loaded at run time (dlopen of libcuda.so.1 / libvulkan.so.1), so nothing GPU
 * is needed to build or link. Every failure returns a status and leaves a message (the driver's
 * words, a PTX JIT log) readable with tlc_gpu_last_error; none aborts the process. A context is
 * used from one thread at a time. */
typedef struct tlc_gpu_context tlc_gpu_context;
typedef struct tlc_gpu_buffer tlc_gpu_buffer;
typedef struct tlc_gpu_model tlc_gpu_model;

/* Opens device `device_index` (0: the first; TLC_GPU_DEVICE overrides) of `backend`. Without a
 * driver or a device: TLC_STATUS_UNSUPPORTED, *out_ctx NULL, and the reason in `message` (may be
 * NULL; `message_size` bytes, always NUL-terminated) since there is no context to ask. */
tlc_status tlc_gpu_context_create(tlc_gpu_backend backend, int device_index,
                                  tlc_gpu_context **out_ctx, char *message, size_t message_size);
/* Waits for outstanding work and releases everything the context owns; NULL is a no-op. */
void tlc_gpu_context_destroy(tlc_gpu_context *ctx);
/* The message of the last failed call on `ctx` ("" if none); valid until the next call. */
const char *tlc_gpu_last_error(const tlc_gpu_context *ctx);
/* The device's name (e.g. "NVIDIA H100", "llvmpipe (LLVM 15.0.6, 256 bits)"). */
const char *tlc_gpu_device_name(const tlc_gpu_context *ctx);
tlc_gpu_backend tlc_gpu_context_backend(const tlc_gpu_context *ctx);

/* A device buffer of `size` bytes (0 allowed: a valid empty buffer). */
tlc_status tlc_gpu_buffer_create(tlc_gpu_context *ctx, size_t size, tlc_gpu_buffer **out_buffer);
void tlc_gpu_buffer_destroy(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer);
size_t tlc_gpu_buffer_size(const tlc_gpu_buffer *buffer);
/* Copies between host memory and bytes [offset, offset + size) of a buffer; they wait for
 * earlier work on the context, so a download after a run sees its results. */
tlc_status tlc_gpu_buffer_upload(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer, size_t offset,
                                 const void *src, size_t size);
tlc_status tlc_gpu_buffer_download(tlc_gpu_context *ctx, const tlc_gpu_buffer *buffer,
                                   size_t offset, void *dst, size_t size);
/* Waits until all submitted work of the context has finished. */
tlc_status tlc_gpu_synchronize(tlc_gpu_context *ctx);

/* ---- Programs --------------------------------------------------------------------------------*/
/* Loads a program on the context: checks its ABI version and backend, compiles or loads its
 * code (a PTX the driver rejects: TLC_STATUS_UNSUPPORTED with the JIT log), uploads its
 * constants once. */
tlc_status tlc_gpu_model_load(tlc_gpu_context *ctx, const tlc_gpu_program *program,
                              tlc_gpu_model **out_model);
void tlc_gpu_model_release(tlc_gpu_model *model);
/* Enqueues one run: every kernel in order on the context's queue, no host synchronization in
 * between; returns once submitted (tlc_gpu_synchronize or a download waits for it). Buffers are
 * checked against the program's sizes (too small: TLC_STATUS_INVALID_ARGUMENT); `workspace` may
 * be NULL when the program's workspace_size is 0. */
tlc_status tlc_gpu_model_run(tlc_gpu_model *model, tlc_gpu_buffer *const *inputs,
                             tlc_gpu_buffer *const *outputs, tlc_gpu_buffer *workspace);
/* Device time of the last completed run in milliseconds (GPU timestamps), or a negative value
 * when the device cannot time. */
double tlc_gpu_model_last_run_ms(tlc_gpu_model *model);
/* Per-kernel timing, off by default: while on, each run also records a device timestamp after
 * every kernel (a small cost per kernel), which tlc_gpu_model_kernel_times reads. */
tlc_status tlc_gpu_model_set_profiling(tlc_gpu_model *model, int enabled);
/* The device time of each kernel of the last completed run, in milliseconds and kernel-table
 * order, into ms[0 .. min(count, num_kernels)); waits for the run. TLC_STATUS_UNSUPPORTED (with
 * a message) when that run was not profiled or the device cannot time. */
tlc_status tlc_gpu_model_kernel_times(tlc_gpu_model *model, double *ms, size_t count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TLC_GPU_H */
