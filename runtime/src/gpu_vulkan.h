/* The Vulkan backend's shared state: its entry points (loaded at run time), context, buffers, runs.
 */
#ifndef TLC_GPU_VULKAN_H
#define TLC_GPU_VULKAN_H

#define VK_NO_PROTOTYPES /* every entry point comes from vkGetInstanceProcAddr */
#include <vulkan/vulkan.h>

#include "gpu_internal.h"

/* Entry points by the level they are loaded at; X(name) expands once per function. */
#define TLC_VK_GLOBAL_FUNCTIONS(X)                                                                 \
  X(vkCreateInstance)                                                                              \
  X(vkEnumerateInstanceLayerProperties)                                                            \
  X(vkEnumerateInstanceExtensionProperties)

#define TLC_VK_INSTANCE_FUNCTIONS(X)                                                               \
  X(vkDestroyInstance)                                                                             \
  X(vkEnumeratePhysicalDevices)                                                                    \
  X(vkGetPhysicalDeviceProperties)                                                                 \
  X(vkGetPhysicalDeviceFeatures)                                                                   \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                      \
  X(vkGetPhysicalDeviceMemoryProperties)                                                           \
  X(vkCreateDevice)                                                                                \
  X(vkGetDeviceProcAddr)

#define TLC_VK_DEVICE_FUNCTIONS(X)                                                                 \
  X(vkDestroyDevice)                                                                               \
  X(vkGetDeviceQueue)                                                                              \
  X(vkDeviceWaitIdle)                                                                              \
  X(vkCreateBuffer)                                                                                \
  X(vkDestroyBuffer)                                                                               \
  X(vkGetBufferMemoryRequirements)                                                                 \
  X(vkAllocateMemory)                                                                              \
  X(vkFreeMemory)                                                                                  \
  X(vkBindBufferMemory)                                                                            \
  X(vkMapMemory)                                                                                   \
  X(vkUnmapMemory)                                                                                 \
  X(vkCreateShaderModule)                                                                          \
  X(vkDestroyShaderModule)                                                                         \
  X(vkCreateDescriptorSetLayout)                                                                   \
  X(vkDestroyDescriptorSetLayout)                                                                  \
  X(vkCreatePipelineLayout)                                                                        \
  X(vkDestroyPipelineLayout)                                                                       \
  X(vkCreateComputePipelines)                                                                      \
  X(vkDestroyPipeline)                                                                             \
  X(vkCreateDescriptorPool)                                                                        \
  X(vkDestroyDescriptorPool)                                                                       \
  X(vkResetDescriptorPool)                                                                         \
  X(vkAllocateDescriptorSets)                                                                      \
  X(vkUpdateDescriptorSets)                                                                        \
  X(vkCreateCommandPool)                                                                           \
  X(vkDestroyCommandPool)                                                                          \
  X(vkAllocateCommandBuffers)                                                                      \
  X(vkFreeCommandBuffers)                                                                          \
  X(vkBeginCommandBuffer)                                                                          \
  X(vkEndCommandBuffer)                                                                            \
  X(vkResetCommandBuffer)                                                                          \
  X(vkCmdBindPipeline)                                                                             \
  X(vkCmdBindDescriptorSets)                                                                       \
  X(vkCmdDispatch)                                                                                 \
  X(vkCmdPipelineBarrier)                                                                          \
  X(vkCmdCopyBuffer)                                                                               \
  X(vkCmdResetQueryPool)                                                                           \
  X(vkCmdWriteTimestamp)                                                                           \
  X(vkCreateQueryPool)                                                                             \
  X(vkDestroyQueryPool)                                                                            \
  X(vkGetQueryPoolResults)                                                                         \
  X(vkCreateFence)                                                                                 \
  X(vkDestroyFence)                                                                                \
  X(vkResetFences)                                                                                 \
  X(vkWaitForFences)                                                                               \
  X(vkGetFenceStatus)                                                                              \
  X(vkQueueSubmit)

#define TLC_VK_DECLARE(name) PFN_##name name;

/* One run in flight (or, once finished, kept on its model's free list for the next run). */
typedef struct tlc_vk_submission {
  struct tlc_vk_submission *next;
  tlc_gpu_model *model;
  VkCommandBuffer commands;
  VkFence fence;
  VkDescriptorPool descriptors; /* the run's sets: they name this run's buffers */
  VkQueryPool timestamps;       /* VK_NULL_HANDLE when the queue cannot time; 2 + one per
                                   kernel (start, end, after each kernel) */
  int profiled;                 /* the run wrote the per-kernel timestamps */
} tlc_vk_submission;

typedef struct tlc_vk_context {
  void *library;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion;
  PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT;
  PFN_vkDestroyDebugUtilsMessengerEXT vkDestroyDebugUtilsMessengerEXT;
  TLC_VK_GLOBAL_FUNCTIONS(TLC_VK_DECLARE)
  TLC_VK_INSTANCE_FUNCTIONS(TLC_VK_DECLARE)
  TLC_VK_DEVICE_FUNCTIONS(TLC_VK_DECLARE)

  VkInstance instance;
  VkDebugUtilsMessengerEXT messenger;
  /* TLC_VULKAN_VALIDATE=1: messages the validation layer sent, and how many a call has already
   * turned into a failed status. */
  unsigned validation_messages, validation_reported;
  char validation_first[1024];

  VkPhysicalDevice physical;
  VkPhysicalDeviceProperties properties;
  VkPhysicalDeviceMemoryProperties memory;
  VkDevice device;
  VkQueue queue;
  uint32_t queue_family;
  uint32_t timestamp_bits; /* 0: the queue cannot write timestamps */
  int force_staging;       /* TLC_VULKAN_FORCE_STAGING=1: test the staging path on any device */
  VkCommandPool command_pool;

  tlc_vk_submission *in_flight, *in_flight_tail; /* submission order */

  /* Host-visible bounce buffer for buffers the host cannot map (discrete GPUs' VRAM). */
  VkBuffer staging;
  VkDeviceMemory staging_memory;
  void *staging_map;
  VkDeviceSize staging_size;
  VkCommandBuffer transfer_commands;
  VkFence transfer_fence;
} tlc_vk_context;

typedef struct tlc_vk_buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *map; /* NULL: reached through the staging buffer */
} tlc_vk_buffer;

/* "VK_ERROR_DEVICE_LOST" etc. */
const char *tlc_vk_result_name(VkResult result);
/* Fails with `status` and "what: VK_...". */
tlc_status tlc_vk_fail(tlc_gpu_context *ctx, tlc_status status, const char *what, VkResult result);
/* Turns validation messages that arrived during a call into its failed status. */
tlc_status tlc_vk_finish(tlc_gpu_context *ctx, tlc_status status);
/* Waits for every run in flight and retires it (timestamps read, resources kept for reuse). */
tlc_status tlc_vk_wait_all(tlc_gpu_context *ctx);
/* Retires the runs that have finished, without waiting. */
void tlc_vk_retire_finished(tlc_gpu_context *ctx);

/* gpu_vulkan_model.c */
tlc_status tlc_vk_model_load(tlc_gpu_model *model, const tlc_gpu_program *program);
void tlc_vk_model_release(tlc_gpu_model *model);
tlc_status tlc_vk_model_run(tlc_gpu_model *model, tlc_gpu_buffer *const *args);
double tlc_vk_model_last_run_ms(tlc_gpu_model *model);
tlc_status tlc_vk_model_kernel_times(tlc_gpu_model *model, double *ms, size_t count);
/* Called when a run's fence has signaled: reads its timestamps, hands it back to its model. */
void tlc_vk_submission_retire(tlc_gpu_context *ctx, tlc_vk_submission *submission);

#endif /* TLC_GPU_VULKAN_H */
