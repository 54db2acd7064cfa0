/* The Vulkan backend's program half: SPIR-V checks, compute pipelines, recording and timing runs.
 */
#include "gpu_vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tlc_vk_kernel {
  VkDescriptorSetLayout set_layout;
  VkPipelineLayout layout;
  VkPipeline pipeline;
} tlc_vk_kernel;

typedef struct tlc_vk_model {
  tlc_vk_kernel *kernels;
  uint32_t num_sets;            /* kernels with arguments: one descriptor set each per run */
  tlc_vk_submission *free_list; /* finished runs, reused by the next ones */
  double last_ms;               /* of the last retired run; negative before one */
  double *kernel_ms;            /* of the last retired run when it was profiled */
  int last_profiled;
  uint64_t *ticks;              /* 2 + one per kernel: a retired run's timestamps */
  /* Per-run scratch, sized at load. */
  VkDescriptorSetLayout *set_layouts;
  VkDescriptorSet *sets;
  VkDescriptorBufferInfo *infos;
  VkWriteDescriptorSet *writes;
} tlc_vk_model;

/* ---- SPIR-V: the entry points, read before the driver sees the module ---------------------- */

enum {
  SPV_MAGIC = 0x07230203,
  SPV_OP_ENTRY_POINT = 15,
  SPV_OP_EXECUTION_MODE = 16,
  SPV_EXECUTION_MODEL_GLCOMPUTE = 5,
  SPV_EXECUTION_MODE_LOCAL_SIZE = 17,
};

/* What the module says about entry point `name`; a driver given a name its module lacks may
 * crash rather than fail, so this is checked here first. */
typedef struct spv_entry {
  int found;
  uint32_t model, id;
  int has_local_size;
  uint32_t local_size[3];
} spv_entry;

static spv_entry find_entry(const uint32_t *words, size_t count, const char *name, char *names,
                            size_t names_size) {
  spv_entry entry = {0};
  if (names_size)
    names[0] = '\0';
  for (size_t i = 5; i < count;) {
    uint32_t length = words[i] >> 16, op = words[i] & 0xffff;
    if (length == 0 || i + length > count)
      break;
    if (op == SPV_OP_ENTRY_POINT && length >= 4) {
      const char *literal = (const char *)&words[i + 3];
      size_t max = (length - 3) * 4;
      size_t n = 0;
      while (n < max && literal[n])
        ++n;
      size_t used = strlen(names);
      if (n < max && used + n + 3 < names_size)
        snprintf(names + used, names_size - used, "%s%s", used ? ", " : "", literal);
      if (n < max && strcmp(literal, name) == 0 && !entry.found) {
        entry.found = 1;
        entry.model = words[i + 1];
        entry.id = words[i + 2];
      }
    }
    if (op == SPV_OP_EXECUTION_MODE && length >= 6 && entry.found && words[i + 1] == entry.id &&
        words[i + 2] == SPV_EXECUTION_MODE_LOCAL_SIZE) {
      entry.has_local_size = 1;
      memcpy(entry.local_size, &words[i + 3], sizeof entry.local_size);
    }
    i += length;
  }
  return entry;
}

/* What the device cannot run, found at load with the limit named, instead of a pipeline that
 * fails or, worse, runs wrongly (lavapipe runs oversized workgroups). */
static tlc_status check_kernel(tlc_gpu_context *ctx, const tlc_gpu_program *p,
                               const tlc_gpu_kernel *k, const uint32_t *words, size_t count) {
  const tlc_vk_context *vk = ctx->impl;
  const VkPhysicalDeviceLimits *limits = &vk->properties.limits;
  char names[512];
  spv_entry entry = find_entry(words, count, k->name, names, sizeof names);
  if (!entry.found)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s': kernel '%s' is not an entry point of its SPIR-V (entry "
                        "points: %s)",
                        p->name, k->name, names[0] ? names : "none");
  if (entry.model != SPV_EXECUTION_MODEL_GLCOMPUTE)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s': entry point '%s' is not a GLCompute shader (execution "
                        "model %u; Vulkan needs the Shader capability, not Kernel)",
                        p->name, k->name, entry.model);
  if (entry.has_local_size &&
      (entry.local_size[0] != k->block[0] || entry.local_size[1] != k->block[1] ||
       entry.local_size[2] != k->block[2]))
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s': kernel '%s' has block %ux%ux%u in the table but LocalSize "
                        "%ux%ux%u in its SPIR-V",
                        p->name, k->name, k->block[0], k->block[1], k->block[2],
                        entry.local_size[0], entry.local_size[1], entry.local_size[2]);
  uint64_t invocations = (uint64_t)k->block[0] * k->block[1] * k->block[2];
  for (int d = 0; d < 3; ++d)
    if (k->block[d] > limits->maxComputeWorkGroupSize[d] ||
        k->grid[d] > limits->maxComputeWorkGroupCount[d])
      return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                          "program '%s': kernel '%s' (grid %ux%ux%u, block %ux%ux%u) exceeds %s's "
                          "limits in dimension %d (block %u, grid %u)",
                          p->name, k->name, k->grid[0], k->grid[1], k->grid[2], k->block[0],
                          k->block[1], k->block[2], ctx->device_name, d,
                          limits->maxComputeWorkGroupSize[d], limits->maxComputeWorkGroupCount[d]);
  if (invocations > limits->maxComputeWorkGroupInvocations)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "program '%s': kernel '%s' has %llu invocations per workgroup; %s allows "
                        "%u",
                        p->name, k->name, (unsigned long long)invocations, ctx->device_name,
                        limits->maxComputeWorkGroupInvocations);
  if (k->num_args > limits->maxPerStageDescriptorStorageBuffers)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "program '%s': kernel '%s' has %u storage buffers; %s allows %u per stage",
                        p->name, k->name, k->num_args, ctx->device_name,
                        limits->maxPerStageDescriptorStorageBuffers);
  for (uint32_t a = 0; a < k->num_args; ++a) {
    const tlc_gpu_arg *arg = &k->args[a];
    if (arg->offset % limits->minStorageBufferOffsetAlignment != 0)
      return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                          "program '%s': kernel '%s' argument %u is bound at offset %llu; %s needs "
                          "multiples of %llu",
                          p->name, k->name, a, (unsigned long long)arg->offset, ctx->device_name,
                          (unsigned long long)limits->minStorageBufferOffsetAlignment);
    if (arg->size > limits->maxStorageBufferRange)
      return tlc_gpu_fail(
          ctx, TLC_STATUS_UNSUPPORTED,
          "program '%s': kernel '%s' argument %u binds %llu bytes; %s binds at most "
          "%u bytes per storage buffer",
          p->name, k->name, a, (unsigned long long)arg->size, ctx->device_name,
          limits->maxStorageBufferRange);
  }
  return TLC_STATUS_OK;
}

/* ---- Load and release ---------------------------------------------------------------------- */

static void destroy_submission(tlc_vk_context *vk, tlc_vk_submission *s) {
  if (s->commands)
    vk->vkFreeCommandBuffers(vk->device, vk->command_pool, 1, &s->commands);
  if (s->fence)
    vk->vkDestroyFence(vk->device, s->fence, NULL);
  if (s->descriptors)
    vk->vkDestroyDescriptorPool(vk->device, s->descriptors, NULL);
  if (s->timestamps)
    vk->vkDestroyQueryPool(vk->device, s->timestamps, NULL);
  free(s);
}

void tlc_vk_model_release(tlc_gpu_model *model) {
  tlc_vk_model *m = model->impl;
  if (!m)
    return;
  tlc_vk_context *vk = model->ctx->impl;
  tlc_vk_wait_all(model->ctx); /* puts this model's runs on its free list */
  while (m->free_list) {
    tlc_vk_submission *s = m->free_list;
    m->free_list = s->next;
    destroy_submission(vk, s);
  }
  if (m->kernels)
    for (uint32_t k = 0; k < model->program.num_kernels; ++k) {
      tlc_vk_kernel *kernel = &m->kernels[k];
      if (kernel->pipeline)
        vk->vkDestroyPipeline(vk->device, kernel->pipeline, NULL);
      if (kernel->layout)
        vk->vkDestroyPipelineLayout(vk->device, kernel->layout, NULL);
      if (kernel->set_layout)
        vk->vkDestroyDescriptorSetLayout(vk->device, kernel->set_layout, NULL);
    }
  free(m->kernels);
  free(m->kernel_ms);
  free(m->ticks);
  free(m->set_layouts);
  free(m->sets);
  free(m->infos);
  free(m->writes);
  free(m);
  model->impl = NULL;
}

/* The set layout (one storage buffer per argument, binding = position), pipeline layout and
 * pipeline of kernel `k`. */
static tlc_status make_pipeline(tlc_gpu_model *model, uint32_t k, VkShaderModule module) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_vk_context *vk = ctx->impl;
  tlc_vk_model *m = model->impl;
  const tlc_gpu_kernel *kernel = &model->program.kernels[k];
  tlc_vk_kernel *out = &m->kernels[k];
  VkDescriptorSetLayoutBinding *bindings =
      calloc(kernel->num_args ? kernel->num_args : 1, sizeof *bindings);
  if (!bindings)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  for (uint32_t a = 0; a < kernel->num_args; ++a)
    bindings[a] =
        (VkDescriptorSetLayoutBinding){.binding = a,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .descriptorCount = 1,
                                       .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  VkDescriptorSetLayoutCreateInfo set_info = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = kernel->num_args,
      .pBindings = bindings};
  VkResult result = vk->vkCreateDescriptorSetLayout(vk->device, &set_info, NULL, &out->set_layout);
  free(bindings);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkCreateDescriptorSetLayout", result);
  VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                            .setLayoutCount = 1,
                                            .pSetLayouts = &out->set_layout};
  result = vk->vkCreatePipelineLayout(vk->device, &layout_info, NULL, &out->layout);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkCreatePipelineLayout", result);
  VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = kernel->name},
      .layout = out->layout};
  result = vk->vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &info, NULL, &out->pipeline);
  if (result != VK_SUCCESS) {
    out->pipeline = VK_NULL_HANDLE;
    char what[256];
    snprintf(what, sizeof what, "program '%s': vkCreateComputePipelines for kernel '%s'",
             model->program.name, kernel->name);
    return tlc_vk_fail(ctx, TLC_STATUS_UNSUPPORTED, what, result);
  }
  return TLC_STATUS_OK;
}

static tlc_status load(tlc_gpu_model *model, const tlc_gpu_program *program) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_vk_context *vk = ctx->impl;
  const tlc_gpu_program *p = &model->program;
  if (program->code_size % 4 != 0 || program->code_size < 20)
    return tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                        "program '%s': its SPIR-V is %llu bytes, not a module of 32-bit words",
                        p->name, (unsigned long long)program->code_size);
  /* A copy: the driver and the parser want uint32_t alignment the caller need not give. */
  size_t count = (size_t)(program->code_size / 4);
  uint32_t *words = malloc((size_t)program->code_size);
  if (!words)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  memcpy(words, program->code, (size_t)program->code_size);
  tlc_status status = TLC_STATUS_OK;
  if (words[0] != SPV_MAGIC)
    status =
        tlc_gpu_fail(ctx, TLC_STATUS_INVALID_ARGUMENT,
                     "program '%s': its code is not SPIR-V (first word 0x%08x)", p->name, words[0]);
  for (uint32_t k = 0; k < p->num_kernels && status == TLC_STATUS_OK; ++k)
    status = check_kernel(ctx, p, &p->kernels[k], words, count);
  VkShaderModule module = VK_NULL_HANDLE;
  if (status == TLC_STATUS_OK) {
    VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                     .codeSize = (size_t)program->code_size,
                                     .pCode = words};
    VkResult result = vk->vkCreateShaderModule(vk->device, &info, NULL, &module);
    if (result != VK_SUCCESS) {
      module = VK_NULL_HANDLE;
      status = tlc_vk_fail(ctx, TLC_STATUS_UNSUPPORTED, "vkCreateShaderModule", result);
    }
  }
  for (uint32_t k = 0; k < p->num_kernels && status == TLC_STATUS_OK; ++k)
    status = make_pipeline(model, k, module);
  if (module) /* the pipelines keep what they need */
    vk->vkDestroyShaderModule(vk->device, module, NULL);
  free(words);
  return status;
}

tlc_status tlc_vk_model_load(tlc_gpu_model *model, const tlc_gpu_program *program) {
  tlc_gpu_context *ctx = model->ctx;
  uint32_t n = model->program.num_kernels;
  tlc_vk_model *m = calloc(1, sizeof *m);
  if (!m)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  model->impl = m;
  m->last_ms = -1.0;
  for (uint32_t k = 0; k < n; ++k)
    m->num_sets += model->program.kernels[k].num_args > 0;
  m->kernels = calloc(n ? n : 1, sizeof *m->kernels);
  m->kernel_ms = calloc(n ? n : 1, sizeof *m->kernel_ms);
  m->ticks = calloc(2 + n, sizeof *m->ticks);
  m->set_layouts = calloc(n ? n : 1, sizeof *m->set_layouts);
  m->sets = calloc(n ? n : 1, sizeof *m->sets);
  m->writes = calloc(n ? n : 1, sizeof *m->writes);
  m->infos = calloc(model->num_args ? model->num_args : 1, sizeof *m->infos);
  tlc_status status = TLC_STATUS_OK;
  if (!m->kernels || !m->kernel_ms || !m->ticks || !m->set_layouts || !m->sets || !m->writes || !m->infos)
    status = tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  if (status == TLC_STATUS_OK)
    status = load(model, program);
  status = tlc_vk_finish(ctx, status);
  if (status != TLC_STATUS_OK)
    tlc_vk_model_release(model);
  return status;
}

/* ---- Runs ---------------------------------------------------------------------------------- */

void tlc_vk_submission_retire(tlc_gpu_context *ctx, tlc_vk_submission *s) {
  tlc_vk_context *vk = ctx->impl;
  tlc_vk_model *m = s->model->impl;
  uint64_t mask = vk->timestamp_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << vk->timestamp_bits) - 1;
  double tick_ms = vk->properties.limits.timestampPeriod * 1e-6;
  /* Queries: the start, the end, then one after each kernel of a profiled run. */
  uint32_t n = s->model->program.num_kernels, count = s->profiled ? 2 + n : 2;
  int read = s->timestamps &&
             vk->vkGetQueryPoolResults(vk->device, s->timestamps, 0, count,
                                       count * sizeof *m->ticks, m->ticks, sizeof *m->ticks,
                                       VK_QUERY_RESULT_64_BIT) == VK_SUCCESS;
  if (read)
    m->last_ms = (double)((m->ticks[1] - m->ticks[0]) & mask) * tick_ms;
  /* Kernel k ran from the timestamp before its own (the start for kernel 0). */
  m->last_profiled = read && s->profiled;
  for (uint32_t k = 0; m->last_profiled && k < n; ++k)
    m->kernel_ms[k] = (double)((m->ticks[2 + k] - m->ticks[k ? 1 + k : 0]) & mask) * tick_ms;
  s->next = m->free_list;
  m->free_list = s;
}

/* A finished run of this model to reuse, or new objects sized for the model. */
static tlc_status take_submission(tlc_gpu_model *model, tlc_vk_submission **out) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_vk_context *vk = ctx->impl;
  tlc_vk_model *m = model->impl;
  tlc_vk_submission *s = m->free_list;
  if (s) {
    m->free_list = s->next;
    s->next = NULL;
    VkResult result = vk->vkResetFences(vk->device, 1, &s->fence);
    if (result == VK_SUCCESS)
      result = vk->vkResetDescriptorPool(vk->device, s->descriptors, 0);
    if (result != VK_SUCCESS) {
      destroy_submission(vk, s);
      return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "reusing a run's objects", result);
    }
    *out = s;
    return TLC_STATUS_OK;
  }
  s = calloc(1, sizeof *s);
  if (!s)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  s->model = model;
  VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = vk->command_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
  VkResult result = vk->vkAllocateCommandBuffers(vk->device, &alloc, &s->commands);
  const char *what = "vkAllocateCommandBuffers";
  if (result == VK_SUCCESS) {
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    result = vk->vkCreateFence(vk->device, &fence, NULL, &s->fence);
    what = "vkCreateFence";
  }
  if (result == VK_SUCCESS) {
    VkDescriptorPoolSize size = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 .descriptorCount = model->num_args ? model->num_args : 1};
    VkDescriptorPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                       .maxSets = m->num_sets ? m->num_sets : 1,
                                       .poolSizeCount = 1,
                                       .pPoolSizes = &size};
    result = vk->vkCreateDescriptorPool(vk->device, &pool, NULL, &s->descriptors);
    what = "vkCreateDescriptorPool";
  }
  if (result == VK_SUCCESS && vk->timestamp_bits) {
    VkQueryPoolCreateInfo queries = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                     .queryCount = 2 + model->program.num_kernels};
    result = vk->vkCreateQueryPool(vk->device, &queries, NULL, &s->timestamps);
    what = "vkCreateQueryPool";
  }
  if (result != VK_SUCCESS) {
    destroy_submission(vk, s);
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, what, result);
  }
  *out = s;
  return TLC_STATUS_OK;
}

static void barrier(tlc_vk_context *vk, VkCommandBuffer commands, VkPipelineStageFlags src_stages,
                    VkAccessFlags src_access, VkPipelineStageFlags dst_stages,
                    VkAccessFlags dst_access) {
  VkMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                       .srcAccessMask = src_access,
                       .dstAccessMask = dst_access};
  vk->vkCmdPipelineBarrier(commands, src_stages, dst_stages, 0, 1, &b, 0, NULL, 0, NULL);
}

/* Points each kernel's set at this run's byte ranges. */
static tlc_status bind_arguments(tlc_gpu_model *model, tlc_vk_submission *s,
                                 tlc_gpu_buffer *const *args) {
  tlc_vk_context *vk = model->ctx->impl;
  tlc_vk_model *m = model->impl;
  const tlc_gpu_program *p = &model->program;
  if (m->num_sets == 0)
    return TLC_STATUS_OK;
  uint32_t set = 0;
  for (uint32_t k = 0; k < p->num_kernels; ++k)
    if (p->kernels[k].num_args)
      m->set_layouts[set++] = m->kernels[k].set_layout;
  VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = s->descriptors,
                                       .descriptorSetCount = m->num_sets,
                                       .pSetLayouts = m->set_layouts};
  VkResult result = vk->vkAllocateDescriptorSets(vk->device, &alloc, m->sets);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(model->ctx, TLC_STATUS_INTERNAL, "vkAllocateDescriptorSets", result);
  uint32_t slot = 0;
  set = 0;
  for (uint32_t k = 0; k < p->num_kernels; ++k) {
    const tlc_gpu_kernel *kernel = &p->kernels[k];
    if (!kernel->num_args)
      continue;
    for (uint32_t a = 0; a < kernel->num_args; ++a) {
      const tlc_vk_buffer *b = args[slot + a]->impl;
      /* The range in whole 32-bit words: SPIR-V without 8-bit storage reads booleans and bytes
       * as words, and a word past the range reads as 0 (lavapipe: the last two of 30 booleans
       * were false). Buffers are allocated in whole words (vk_buffer_create). */
      m->infos[slot + a] = (VkDescriptorBufferInfo){.buffer = b->buffer,
                                                    .offset = kernel->args[a].offset,
                                                    .range = (kernel->args[a].size + 3) & ~3ull};
    }
    /* One write fills bindings 0..n-1: each holds one descriptor, so the update runs on into
     * the following bindings. */
    m->writes[set] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                            .dstSet = m->sets[set],
                                            .dstBinding = 0,
                                            .descriptorCount = kernel->num_args,
                                            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                            .pBufferInfo = &m->infos[slot]};
    slot += kernel->num_args;
    ++set;
  }
  vk->vkUpdateDescriptorSets(vk->device, m->num_sets, m->writes, 0, NULL);
  return TLC_STATUS_OK;
}

static tlc_status record(tlc_gpu_model *model, tlc_vk_submission *s) {
  tlc_vk_context *vk = model->ctx->impl;
  tlc_vk_model *m = model->impl;
  const tlc_gpu_program *p = &model->program;
  VkCommandBuffer c = s->commands;
  VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkResult result = vk->vkBeginCommandBuffer(c, &begin); /* resets a reused buffer */
  if (result != VK_SUCCESS)
    return tlc_vk_fail(model->ctx, TLC_STATUS_INTERNAL, "vkBeginCommandBuffer", result);
  /* Runs are not waited for, and consecutive runs share the workspace (and maybe inputs and
   * outputs): order this run after earlier runs and copies in the queue. */
  barrier(vk, c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  s->profiled = s->timestamps && model->profiling;
  if (s->timestamps) {
    vk->vkCmdResetQueryPool(c, s->timestamps, 0, 2 + p->num_kernels);
    /* At the compute stage, so it waits for earlier runs and times this one alone. */
    vk->vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, s->timestamps, 0);
  }
  uint32_t set = 0;
  for (uint32_t k = 0; k < p->num_kernels; ++k) {
    const tlc_gpu_kernel *kernel = &p->kernels[k];
    if (k > 0) /* each kernel reads what the ones before it wrote */
      barrier(vk, c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
              VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vk->vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, m->kernels[k].pipeline);
    if (kernel->num_args)
      vk->vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, m->kernels[k].layout, 0, 1,
                                  &m->sets[set++], 0, NULL);
    vk->vkCmdDispatch(c, kernel->grid[0], kernel->grid[1], kernel->grid[2]);
    if (s->profiled) /* once this kernel has run (the next one waits for it anyway) */
      vk->vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, s->timestamps, 2 + k);
  }
  if (s->timestamps)
    vk->vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s->timestamps, 1);
  /* Results visible to mapped reads after the fence, and to staging copies. */
  barrier(vk, c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
          VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
  result = vk->vkEndCommandBuffer(c);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(model->ctx, TLC_STATUS_INTERNAL, "vkEndCommandBuffer", result);
  return TLC_STATUS_OK;
}

tlc_status tlc_vk_model_run(tlc_gpu_model *model, tlc_gpu_buffer *const *args) {
  tlc_gpu_context *ctx = model->ctx;
  tlc_vk_context *vk = ctx->impl;
  tlc_vk_retire_finished(ctx); /* recycles finished runs' objects; never waits */
  tlc_vk_submission *s = NULL;
  tlc_status status = take_submission(model, &s);
  if (status == TLC_STATUS_OK)
    status = bind_arguments(model, s, args);
  if (status == TLC_STATUS_OK)
    status = record(model, s);
  if (status == TLC_STATUS_OK) {
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                           .commandBufferCount = 1,
                           .pCommandBuffers = &s->commands};
    VkResult result = vk->vkQueueSubmit(vk->queue, 1, &submit, s->fence);
    if (result != VK_SUCCESS)
      status = tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkQueueSubmit", result);
  }
  if (status != TLC_STATUS_OK) {
    if (s) /* not submitted: nothing in flight uses it */
      destroy_submission(vk, s);
    return tlc_vk_finish(ctx, status);
  }
  if (vk->in_flight_tail)
    vk->in_flight_tail->next = s;
  else
    vk->in_flight = s;
  vk->in_flight_tail = s;
  return tlc_vk_finish(ctx, TLC_STATUS_OK);
}

tlc_status tlc_vk_model_kernel_times(tlc_gpu_model *model, double *ms, size_t count) {
  tlc_vk_model *m = model->impl;
  tlc_status status = tlc_vk_finish(model->ctx, tlc_vk_wait_all(model->ctx));
  if (status != TLC_STATUS_OK)
    return status;
  if (!m->last_profiled)
    return tlc_gpu_fail(model->ctx, TLC_STATUS_UNSUPPORTED,
                        "tlc_gpu_model_kernel_times(%s): the last run was not profiled "
                        "(tlc_gpu_model_set_profiling before it; the queue must write timestamps)",
                        model->program.name);
  for (size_t k = 0; k < count; ++k)
    ms[k] = m->kernel_ms[k];
  return TLC_STATUS_OK;
}

double tlc_vk_model_last_run_ms(tlc_gpu_model *model) {
  tlc_vk_context *vk = model->ctx->impl;
  tlc_vk_model *m = model->impl;
  if (!vk->timestamp_bits)
    return -1.0;
  /* "The last completed run": the one just submitted, once it has finished. */
  if (tlc_vk_finish(model->ctx, tlc_vk_wait_all(model->ctx)) != TLC_STATUS_OK)
    return -1.0;
  return m->last_ms;
}
