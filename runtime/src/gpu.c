/* tlc/gpu.h's backend-independent half: argument and program checks, messages, backend dispatch. */
#define _POSIX_C_SOURCE 200809L
#include "gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#define TLC_GPU_HAVE_DLOPEN 1
#endif

/* The compiler's side of the ABI is written against these layouts (tlc::targets mirror them);
 * a change here must bump TLC_GPU_ABI_VERSION. */
_Static_assert(sizeof(tlc_gpu_arg) == 24, "tlc_gpu_arg layout is ABI");
_Static_assert(sizeof(tlc_gpu_constant) == 16, "tlc_gpu_constant layout is ABI");
_Static_assert(TLC_GPU_BINDING_ALIGNMENT % 4 == 0, "bindings hold 32-bit words");

tlc_status tlc_gpu_fail(tlc_gpu_context *ctx, tlc_status status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(ctx->error, sizeof ctx->error, format, args);
  va_end(args);
  return status;
}

void *tlc_gpu_library_open(const char *name, char *error, size_t error_size) {
#ifdef TLC_GPU_HAVE_DLOPEN
  void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!library && error && error_size) {
    const char *why = dlerror();
    snprintf(error, error_size, "%s", why ? why : "unknown reason");
  }
  return library;
#else
  if (error && error_size)
    snprintf(error, error_size, "%s: no dynamic loading on this platform", name);
  return NULL;
#endif
}

void tlc_gpu_library_close(void *library) {
#ifdef TLC_GPU_HAVE_DLOPEN
  if (library)
    dlclose(library);
#else
  (void)library;
#endif
}

void tlc_gpu_library_symbol(void *library, const char *name, void *out_function_pointer) {
  void *symbol = NULL;
#ifdef TLC_GPU_HAVE_DLOPEN
  symbol = dlsym(library, name);
#else
  (void)library;
  (void)name;
#endif
  memcpy(out_function_pointer, &symbol, sizeof symbol);
}

static const char *backend_name(uint32_t backend) {
  switch (backend) {
  case TLC_GPU_BACKEND_CUDA:
    return "CUDA";
  case TLC_GPU_BACKEND_VULKAN:
    return "Vulkan";
  case TLC_GPU_BACKEND_METAL:
    return "Metal";
  }
  return "unknown";
}

static void copy_message(char *message, size_t message_size, const char *text) {
  if (message && message_size)
    snprintf(message, message_size, "%s", text);
}

/* TLC_GPU_DEVICE, when set, replaces the caller's index; -1 (and a message) if it is not one. */
static int device_index_from_env(int device_index, char *message, size_t message_size) {
  const char *env = getenv("TLC_GPU_DEVICE");
  if (!env || !*env)
    return device_index;
  char *end = NULL;
  long value = strtol(env, &end, 10);
  if (*end != '\0' || value < 0 || value > 1000000) {
    char text[160];
    snprintf(text, sizeof text, "TLC_GPU_DEVICE='%.64s' is not a device index (0, 1, ...)", env);
    copy_message(message, message_size, text);
    return -1;
  }
  return (int)value;
}

tlc_status tlc_gpu_context_create(tlc_gpu_backend backend, int device_index,
                                  tlc_gpu_context **out_ctx, char *message, size_t message_size) {
  copy_message(message, message_size, "");
  if (!out_ctx) {
    copy_message(message, message_size, "tlc_gpu_context_create: out_ctx is NULL");
    return TLC_STATUS_INVALID_ARGUMENT;
  }
  *out_ctx = NULL;
  const tlc_gpu_backend_ops *ops = NULL;
  switch (backend) {
  case TLC_GPU_BACKEND_CUDA:
    ops = &tlc_gpu_cuda_ops;
    break;
  case TLC_GPU_BACKEND_VULKAN:
#ifdef TLC_GPU_HAVE_VULKAN
    ops = &tlc_gpu_vulkan_ops;
    break;
#else
    copy_message(message, message_size,
                 "this libtlcrt was built without the Vulkan headers (libvulkan-dev)");
    return TLC_STATUS_UNSUPPORTED;
#endif
  case TLC_GPU_BACKEND_METAL:
#ifdef __APPLE__
    copy_message(message, message_size, "the Metal launcher is not part of this libtlcrt yet");
#else
    copy_message(message, message_size, "Metal runs on Apple platforms only");
#endif
    return TLC_STATUS_UNSUPPORTED;
  default: {
    char text[96];
    snprintf(text, sizeof text, "tlc_gpu_context_create: %d is not a tlc_gpu_backend",
             (int)backend);
    copy_message(message, message_size, text);
    return TLC_STATUS_INVALID_ARGUMENT;
  }
  }
  if (device_index < 0) {
    copy_message(message, message_size, "tlc_gpu_context_create: device_index is negative");
    return TLC_STATUS_INVALID_ARGUMENT;
  }
  device_index = device_index_from_env(device_index, message, message_size);
  if (device_index < 0)
    return TLC_STATUS_INVALID_ARGUMENT;

  tlc_gpu_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) {
    copy_message(message, message_size, "tlc_gpu_context_create: out of host memory");
    return TLC_STATUS_OUT_OF_MEMORY;
  }
  ctx->ops = ops;
  ctx->backend = backend;
  tlc_status status = ops->context_create(ctx, device_index);
  if (status != TLC_STATUS_OK) {
    copy_message(message, message_size, ctx->error);
    free(ctx);
    return status;
  }
  *out_ctx = ctx;
  return TLC_STATUS_OK;
}

void tlc_gpu_context_destroy(tlc_gpu_context *ctx) {
  if (!ctx)
    return;
  ctx->ops->context_destroy(ctx);
  free(ctx);
}

const char *tlc_gpu_last_error(const tlc_gpu_context *ctx) { return ctx ? ctx->error : ""; }

const char *tlc_gpu_device_name(const tlc_gpu_context *ctx) { return ctx ? ctx->device_name : ""; }

tlc_gpu_backend tlc_gpu_context_backend(const tlc_gpu_context *ctx) {
  return ctx ? ctx->backend : (tlc_gpu_backend)0;
}

/* ---- Buffers ------------------------------------------------------------------------------- */

tlc_status tlc_gpu_buffer_create(tlc_gpu_context *ctx, size_t size, tlc_gpu_buffer **out_buffer) {
  if (!ctx)
    return TLC_STATUS_INVALID_ARGUMENT;
  if (!out_buffer)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "tlc_gpu_buffer_create: out_buffer is NULL");
  *out_buffer = NULL;
  tlc_gpu_buffer *buffer = calloc(1, sizeof *buffer);
  if (!buffer)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "tlc_gpu_buffer_create: out of host memory");
  buffer->ctx = ctx;
  buffer->size = size;
  tlc_status status = size ? ctx->ops->buffer_create(ctx, buffer) : TLC_STATUS_OK;
  if (status != TLC_STATUS_OK) {
    free(buffer);
    return status;
  }
  *out_buffer = buffer;
  return TLC_STATUS_OK;
}

void tlc_gpu_buffer_destroy(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer) {
  if (!ctx || !buffer)
    return;
  if (buffer->size)
    ctx->ops->buffer_destroy(ctx, buffer);
  free(buffer);
}

size_t tlc_gpu_buffer_size(const tlc_gpu_buffer *buffer) { return buffer ? buffer->size : 0; }

/* The checks upload and download share; `what` names the call in the message. */
static tlc_status check_copy(tlc_gpu_context *ctx, const tlc_gpu_buffer *buffer, size_t offset,
                             const void *host, size_t size, const char *what) {
  if (!buffer)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT, "%s: buffer is NULL", what);
  if (buffer->ctx != ctx)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "%s: the buffer belongs to another context", what);
  if (!host && size)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT, "%s: the host pointer is NULL", what);
  if (offset > buffer->size || size > buffer->size - offset)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "%s: bytes [%zu, %zu + %zu) are outside the buffer of %zu bytes", what,
                        offset, offset, size, buffer->size);
  return TLC_STATUS_OK;
}

tlc_status tlc_gpu_buffer_upload(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer, size_t offset,
                                 const void *src, size_t size) {
  if (!ctx)
    return TLC_STATUS_INVALID_ARGUMENT;
  tlc_status status = check_copy(ctx, buffer, offset, src, size, "tlc_gpu_buffer_upload");
  if (status != TLC_STATUS_OK || size == 0)
    return status;
  return ctx->ops->buffer_upload(ctx, buffer, offset, src, size);
}

tlc_status tlc_gpu_buffer_download(tlc_gpu_context *ctx, const tlc_gpu_buffer *buffer,
                                   size_t offset, void *dst, size_t size) {
  if (!ctx)
    return TLC_STATUS_INVALID_ARGUMENT;
  tlc_status status = check_copy(ctx, buffer, offset, dst, size, "tlc_gpu_buffer_download");
  if (status != TLC_STATUS_OK)
    return status;
  /* An empty download still waits, as the header promises ("a download after a run sees its
   * results"). */
  if (size == 0)
    return ctx->ops->synchronize(ctx);
  return ctx->ops->buffer_download(ctx, buffer, offset, dst, size);
}

tlc_status tlc_gpu_synchronize(tlc_gpu_context *ctx) {
  if (!ctx)
    return TLC_STATUS_INVALID_ARGUMENT;
  return ctx->ops->synchronize(ctx);
}

/* ---- Programs ------------------------------------------------------------------------------ */

static const char *or_unnamed(const char *name) { return name && *name ? name : "(unnamed)"; }

/* The declared size of the buffer an argument binds, or a message on `ctx` if it has none. */
static tlc_status declared_size(tlc_gpu_context *ctx, const tlc_gpu_program *p, uint32_t k,
                                uint32_t a, const tlc_gpu_arg *arg, uint64_t *out_size) {
  const char *kernel = p->kernels[k].name;
  switch (arg->kind) {
  case TLC_GPU_ARG_INPUT:
    if (arg->index < p->num_inputs) {
      *out_size = p->input_sizes[arg->index];
      return TLC_STATUS_OK;
    }
    break;
  case TLC_GPU_ARG_OUTPUT:
    if (arg->index < p->num_outputs) {
      *out_size = p->output_sizes[arg->index];
      return TLC_STATUS_OK;
    }
    break;
  case TLC_GPU_ARG_WORKSPACE:
    if (arg->index == 0 && p->workspace_size > 0) {
      if (arg->offset % TLC_GPU_BINDING_ALIGNMENT != 0)
        return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                            "program '%s': kernel '%s' argument %u binds the workspace at offset "
                            "%llu, not a multiple of TLC_GPU_BINDING_ALIGNMENT (%d)",
                            or_unnamed(p->name), kernel, a, (unsigned long long)arg->offset,
                            TLC_GPU_BINDING_ALIGNMENT);
      *out_size = p->workspace_size;
      return TLC_STATUS_OK;
    }
    if (arg->index == 0)
      return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                          "program '%s': kernel '%s' argument %u binds the workspace, but the "
                          "program's workspace_size is 0",
                          or_unnamed(p->name), kernel, a);
    break;
  case TLC_GPU_ARG_CONSTANT:
    if (arg->index < p->num_constants) {
      *out_size = p->constants[arg->index].size;
      return TLC_STATUS_OK;
    }
    break;
  default:
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s': kernel '%s' argument %u has unknown kind %u",
                        or_unnamed(p->name), kernel, a, arg->kind);
  }
  static const char *const kinds[] = {"input", "output", "workspace", "constant"};
  return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                      "program '%s': kernel '%s' argument %u names %s %u, which does not exist",
                      or_unnamed(p->name), kernel, a, kinds[arg->kind], arg->index);
}

/* Everything about a program that does not depend on the device: so the backends can trust
 * the table, and a broken table is reported here, once, in the same words for every backend. */
static tlc_status check_program(tlc_gpu_context *ctx, const tlc_gpu_program *p) {
  if (p->abi_version != TLC_GPU_ABI_VERSION)
    return tlc_gpu_fail(ctx, TLC_STATUS_ABI_MISMATCH,
                        "program '%s' uses GPU ABI version %u; this runtime implements version %d "
                        "(recompile the model with a matching tlc)",
                        or_unnamed(p->name), p->abi_version, TLC_GPU_ABI_VERSION);
  if (p->backend != (uint32_t)ctx->backend)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s' is a %s program (%s); this context runs %s",
                        or_unnamed(p->name), backend_name(p->backend),
                        p->target ? p->target : "no target", backend_name(ctx->backend));
  const char *name = or_unnamed(p->name);
  if (!p->code || p->code_size == 0)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT, "program '%s' has no code", name);
  if ((p->num_kernels && !p->kernels) || (p->num_inputs && !p->input_sizes) ||
      (p->num_outputs && !p->output_sizes) || (p->num_constants && !p->constants))
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s': a table with a nonzero count is NULL", name);
  for (uint32_t c = 0; c < p->num_constants; ++c)
    if (p->constants[c].size && !p->constants[c].data)
      return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                          "program '%s': constant %u has %llu bytes but no data", name, c,
                          (unsigned long long)p->constants[c].size);
  for (uint32_t k = 0; k < p->num_kernels; ++k) {
    const tlc_gpu_kernel *kernel = &p->kernels[k];
    if (!kernel->name || !*kernel->name)
      return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT, "program '%s': kernel %u has no name",
                          name, k);
    for (int d = 0; d < 3; ++d)
      if (kernel->grid[d] == 0 || kernel->block[d] == 0)
        return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                            "program '%s': kernel '%s' has grid %ux%ux%u, block %ux%ux%u (every "
                            "extent must be at least 1)",
                            name, kernel->name, kernel->grid[0], kernel->grid[1], kernel->grid[2],
                            kernel->block[0], kernel->block[1], kernel->block[2]);
    if (kernel->num_args && !kernel->args)
      return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                          "program '%s': kernel '%s' has %u arguments but args is NULL", name,
                          kernel->name, kernel->num_args);
    for (uint32_t a = 0; a < kernel->num_args; ++a) {
      const tlc_gpu_arg *arg = &kernel->args[a];
      uint64_t size = 0;
      tlc_status status = declared_size(ctx, p, k, a, arg, &size);
      if (status != TLC_STATUS_OK)
        return status;
      /* An empty binding has no Vulkan descriptor (range 0 is invalid), so none is allowed. */
      if (arg->size == 0 || arg->offset > size || arg->size > size - arg->offset)
        return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                            "program '%s': kernel '%s' argument %u binds bytes [%llu, %llu + %llu) "
                            "of a buffer of %llu bytes (must be a nonempty range inside it)",
                            name, kernel->name, a, (unsigned long long)arg->offset,
                            (unsigned long long)arg->offset, (unsigned long long)arg->size,
                            (unsigned long long)size);
    }
  }
  return TLC_STATUS_OK;
}

static char *copy_string(const char *s) {
  if (!s)
    s = "";
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (copy)
    memcpy(copy, s, n);
  return copy;
}

static void *copy_array(const void *src, size_t count, size_t size) {
  if (count == 0)
    return NULL;
  void *copy = malloc(count * size);
  if (copy)
    memcpy(copy, src, count * size);
  return copy;
}

/* Frees what copy_program and the generic part of load made; safe on a partial model. */
static void free_model(tlc_gpu_model *model) {
  tlc_gpu_program *p = &model->program;
  if (p->kernels) {
    for (uint32_t k = 0; k < p->num_kernels; ++k)
      free((void *)p->kernels[k].name);
    free((void *)p->kernels[0].args); /* one array for all kernels' args */
  }
  free((void *)p->kernels);
  free((void *)p->name);
  free((void *)p->target);
  free((void *)p->input_sizes);
  free((void *)p->output_sizes);
  if (model->constants)
    for (uint32_t c = 0; c < p->num_constants; ++c)
      tlc_gpu_buffer_destroy(model->ctx, model->constants[c]);
  free(model->constants);
  free(model->arg_buffers);
  free(model);
}

static tlc_status copy_program(tlc_gpu_model *model, const tlc_gpu_program *src) {
  tlc_gpu_program *p = &model->program;
  *p = *src;
  p->code = NULL;
  p->constants = NULL;
  p->kernels = NULL;
  p->input_sizes = copy_array(src->input_sizes, src->num_inputs, sizeof(uint64_t));
  p->output_sizes = copy_array(src->output_sizes, src->num_outputs, sizeof(uint64_t));
  p->name = copy_string(or_unnamed(src->name));
  p->target = copy_string(src->target);
  uint32_t num_args = 0;
  for (uint32_t k = 0; k < src->num_kernels; ++k)
    num_args += src->kernels[k].num_args;
  model->num_args = num_args;
  tlc_gpu_arg *args = calloc(num_args ? num_args : 1, sizeof *args);
  tlc_gpu_kernel *kernels = src->num_kernels ? calloc(src->num_kernels, sizeof *kernels) : NULL;
  model->arg_buffers = calloc(num_args ? num_args : 1, sizeof *model->arg_buffers);
  int ok = args && model->arg_buffers && p->name && p->target && (kernels || !src->num_kernels) &&
           (p->input_sizes || !src->num_inputs) && (p->output_sizes || !src->num_outputs);
  if (kernels) {
    tlc_gpu_arg *next = args;
    for (uint32_t k = 0; k < src->num_kernels; ++k) {
      kernels[k] = src->kernels[k];
      kernels[k].name = copy_string(src->kernels[k].name);
      ok = ok && kernels[k].name;
      kernels[k].args = next;
      if (next && src->kernels[k].num_args)
        memcpy(next, src->kernels[k].args, src->kernels[k].num_args * sizeof *next);
      if (next)
        next += src->kernels[k].num_args;
    }
    p->kernels = kernels;
  } else {
    free(args);
  }
  return ok ? TLC_STATUS_OK : TLC_STATUS_OUT_OF_MEMORY;
}

tlc_status tlc_gpu_model_load(tlc_gpu_context *ctx, const tlc_gpu_program *program,
                              tlc_gpu_model **out_model) {
  if (!ctx)
    return TLC_STATUS_INVALID_ARGUMENT;
  if (!out_model || !program)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT, "tlc_gpu_model_load: %s is NULL",
                        program ? "out_model" : "program");
  *out_model = NULL;
  tlc_status status = check_program(ctx, program);
  if (status != TLC_STATUS_OK)
    return status;
  tlc_gpu_model *model = calloc(1, sizeof *model);
  if (!model)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "tlc_gpu_model_load: out of host memory");
  model->ctx = ctx;
  status = copy_program(model, program);
  if (status != TLC_STATUS_OK) {
    free_model(model);
    return tlc_gpu_fail(ctx, status, "tlc_gpu_model_load: out of host memory");
  }
  /* Constants go to the device once, here; runs only bind them. */
  if (program->num_constants) {
    model->constants = calloc(program->num_constants, sizeof *model->constants);
    if (!model->constants) {
      free_model(model);
      return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "tlc_gpu_model_load: out of host memory");
    }
  }
  for (uint32_t c = 0; c < program->num_constants; ++c) {
    const tlc_gpu_constant *constant = &program->constants[c];
    status = tlc_gpu_buffer_create(ctx, (size_t)constant->size, &model->constants[c]);
    if (status == TLC_STATUS_OK)
      status = tlc_gpu_buffer_upload(ctx, model->constants[c], 0, constant->data,
                                     (size_t)constant->size);
    if (status != TLC_STATUS_OK) {
      free_model(model);
      return status; /* the backend's message names the failing call */
    }
  }
  status = ctx->ops->model_load(model, program);
  if (status != TLC_STATUS_OK) {
    free_model(model);
    return status;
  }
  *out_model = model;
  return TLC_STATUS_OK;
}

void tlc_gpu_model_release(tlc_gpu_model *model) {
  if (!model)
    return;
  model->ctx->ops->model_release(model);
  free_model(model);
}

/* One model buffer of a run: present, on this context, and at least as large as the program
 * says. `what` is "input", "output" or "workspace". */
static tlc_status check_run_buffer(tlc_gpu_model *model, const tlc_gpu_buffer *buffer,
                                   const char *what, uint32_t index, uint64_t needed) {
  tlc_gpu_context *ctx = model->ctx;
  const char *name = model->program.name;
  if (!buffer)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "tlc_gpu_model_run(%s): %s %u is NULL (the program needs %llu bytes)", name,
                        what, index, (unsigned long long)needed);
  if (buffer->ctx != ctx)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "tlc_gpu_model_run(%s): %s %u belongs to another context", name, what,
                        index);
  if (buffer->size < needed)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "tlc_gpu_model_run(%s): %s %u is %zu bytes; the program needs %llu", name,
                        what, index, buffer->size, (unsigned long long)needed);
  return TLC_STATUS_OK;
}

tlc_status tlc_gpu_model_run(tlc_gpu_model *model, tlc_gpu_buffer *const *inputs,
                             tlc_gpu_buffer *const *outputs, tlc_gpu_buffer *workspace) {
  if (!model)
    return TLC_STATUS_INVALID_ARGUMENT;
  tlc_gpu_context *ctx = model->ctx;
  const tlc_gpu_program *p = &model->program;
  if ((p->num_inputs && !inputs) || (p->num_outputs && !outputs))
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "tlc_gpu_model_run(%s): %s is NULL but the program has %u", p->name,
                        inputs || !p->num_inputs ? "outputs" : "inputs",
                        inputs || !p->num_inputs ? p->num_outputs : p->num_inputs);
  tlc_status status = TLC_STATUS_OK;
  for (uint32_t i = 0; i < p->num_inputs && status == TLC_STATUS_OK; ++i)
    status = check_run_buffer(model, inputs[i], "input", i, p->input_sizes[i]);
  for (uint32_t i = 0; i < p->num_outputs && status == TLC_STATUS_OK; ++i)
    status = check_run_buffer(model, outputs[i], "output", i, p->output_sizes[i]);
  if (status == TLC_STATUS_OK && p->workspace_size)
    status = check_run_buffer(model, workspace, "workspace", 0, p->workspace_size);
  if (status != TLC_STATUS_OK)
    return status;

  uint32_t slot = 0;
  for (uint32_t k = 0; k < p->num_kernels; ++k)
    for (uint32_t a = 0; a < p->kernels[k].num_args; ++a) {
      const tlc_gpu_arg *arg = &p->kernels[k].args[a];
      tlc_gpu_buffer *buffer = NULL;
      switch (arg->kind) {
      case TLC_GPU_ARG_INPUT:
        buffer = inputs[arg->index];
        break;
      case TLC_GPU_ARG_OUTPUT:
        buffer = outputs[arg->index];
        break;
      case TLC_GPU_ARG_WORKSPACE:
        buffer = workspace;
        break;
      default:
        buffer = model->constants[arg->index];
        break;
      }
      model->arg_buffers[slot++] = buffer;
    }
  return ctx->ops->model_run(model, model->arg_buffers);
}

double tlc_gpu_model_last_run_ms(tlc_gpu_model *model) {
  return model ? model->ctx->ops->model_last_run_ms(model) : -1.0;
}

tlc_status tlc_gpu_model_set_profiling(tlc_gpu_model *model, int enabled) {
  if (!model)
    return TLC_STATUS_INVALID_ARGUMENT;
  model->profiling = enabled != 0;
  return TLC_STATUS_OK;
}

tlc_status tlc_gpu_model_kernel_times(tlc_gpu_model *model, double *ms, size_t count) {
  if (!model)
    return TLC_STATUS_INVALID_ARGUMENT;
  if (!ms && count)
    return tlc_gpu_fail(model->ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "tlc_gpu_model_kernel_times(%s): ms is NULL", model->program.name);
  if (count > model->program.num_kernels)
    count = model->program.num_kernels;
  return model->ctx->ops->model_kernel_times(model, ms, count);
}
