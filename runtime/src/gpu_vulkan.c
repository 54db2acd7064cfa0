/* The Vulkan backend's device half: loader, instance, device, queue, buffers, transfers, waits. */
#define _POSIX_C_SOURCE 200809L
#include "gpu_vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Transfers through the staging buffer go in chunks of at most this, so uploading a large
 * weight does not double its footprint in host-visible memory. */
#define TLC_VK_STAGING_MAX ((VkDeviceSize)16 << 20)

const char *tlc_vk_result_name(VkResult result) {
  switch (result) {
#define TLC_VK_CASE(r)                                                                             \
  case r:                                                                                          \
    return #r;
    TLC_VK_CASE(VK_SUCCESS)
    TLC_VK_CASE(VK_NOT_READY)
    TLC_VK_CASE(VK_TIMEOUT)
    TLC_VK_CASE(VK_INCOMPLETE)
    TLC_VK_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    TLC_VK_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    TLC_VK_CASE(VK_ERROR_INITIALIZATION_FAILED)
    TLC_VK_CASE(VK_ERROR_DEVICE_LOST)
    TLC_VK_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    TLC_VK_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    TLC_VK_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    TLC_VK_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    TLC_VK_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    TLC_VK_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    TLC_VK_CASE(VK_ERROR_FRAGMENTED_POOL)
    TLC_VK_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    TLC_VK_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef TLC_VK_CASE
  default:
    return "VK_ERROR_UNKNOWN";
  }
}

tlc_status tlc_vk_fail(tlc_gpu_context *ctx, tlc_status status, const char *what, VkResult result) {
  if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
    status = TLC_STATUS_OUT_OF_MEMORY;
  return tlc_gpu_fail(ctx, status, "%s failed: %s (%d)", what, tlc_vk_result_name(result),
                      (int)result);
}

tlc_status tlc_vk_finish(tlc_gpu_context *ctx, tlc_status status) {
  tlc_vk_context *vk = ctx->impl;
  if (!vk || vk->validation_messages == vk->validation_reported)
    return status;
  unsigned fresh = vk->validation_messages - vk->validation_reported;
  vk->validation_reported = vk->validation_messages;
  if (status != TLC_STATUS_OK)
    return status; /* keep the call's own message */
  return tlc_gpu_fail(ctx, TLC_STATUS_INTERNAL,
                      "the Vulkan validation layer reported %u message(s) (TLC_VULKAN_VALIDATE=1); "
                      "the first so far: %s",
                      fresh, vk->validation_first);
}

/* Counts and prints what the validation layer says, so a test can fail on any message. */
static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  /* The loader's general warnings are chatter (e.g. that VK_INSTANCE_LAYERS added a layer). */
  if (!(types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
      severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    return VK_FALSE;
  tlc_vk_context *vk = user;
  const char *text = data && data->pMessage ? data->pMessage : "(no text)";
  fprintf(stderr, "tlc: Vulkan validation %s: %s\n",
          severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning", text);
  if (vk->validation_messages++ == 0)
    snprintf(vk->validation_first, sizeof vk->validation_first, "%s", text);
  return VK_FALSE;
}

static int env_is_one(const char *name) {
  const char *value = getenv(name);
  return value && strcmp(value, "1") == 0;
}

static int has_layer(tlc_vk_context *vk, const char *name) {
  uint32_t count = 0;
  if (vk->vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS || count == 0)
    return 0;
  VkLayerProperties *layers = calloc(count, sizeof *layers);
  int found = 0;
  if (layers && vk->vkEnumerateInstanceLayerProperties(&count, layers) >= VK_SUCCESS)
    for (uint32_t i = 0; i < count && !found; ++i)
      found = strcmp(layers[i].layerName, name) == 0;
  free(layers);
  return found;
}

/* ---- Context ------------------------------------------------------------------------------- */

static void vk_context_destroy(tlc_gpu_context *ctx);

static tlc_status load_loader(tlc_gpu_context *ctx, tlc_vk_context *vk) {
  char why[512];
  vk->library = tlc_gpu_library_open("libvulkan.so.1", why, sizeof why);
  if (!vk->library)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "no Vulkan loader: libvulkan.so.1 could not be loaded (%s); install "
                        "libvulkan1 and a driver (mesa-vulkan-drivers for the CPU's lavapipe)",
                        why);
  tlc_gpu_library_symbol(vk->library, "vkGetInstanceProcAddr", &vk->vkGetInstanceProcAddr);
  if (!vk->vkGetInstanceProcAddr)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "libvulkan.so.1 has no vkGetInstanceProcAddr: not a Vulkan loader");
#define TLC_VK_LOAD_GLOBAL(name)                                                                   \
  vk->name = (PFN_##name)vk->vkGetInstanceProcAddr(VK_NULL_HANDLE, #name);                         \
  if (!vk->name)                                                                                   \
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED, "the Vulkan loader lacks " #name);
  TLC_VK_GLOBAL_FUNCTIONS(TLC_VK_LOAD_GLOBAL)
#undef TLC_VK_LOAD_GLOBAL
  vk->vkEnumerateInstanceVersion = (PFN_vkEnumerateInstanceVersion)vk->vkGetInstanceProcAddr(
      VK_NULL_HANDLE, "vkEnumerateInstanceVersion");
  uint32_t version = VK_API_VERSION_1_0;
  if (vk->vkEnumerateInstanceVersion)
    vk->vkEnumerateInstanceVersion(&version);
  if (version < VK_API_VERSION_1_1)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "the Vulkan loader implements Vulkan %u.%u; tlc needs 1.1",
                        VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version));
  return TLC_STATUS_OK;
}

static tlc_status create_instance(tlc_gpu_context *ctx, tlc_vk_context *vk) {
  int validate = env_is_one("TLC_VULKAN_VALIDATE");
  const char *layer = "VK_LAYER_KHRONOS_validation";
  const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  if (validate && !has_layer(vk, layer))
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "TLC_VULKAN_VALIDATE=1 but %s is not installed (vulkan-validationlayers)",
                        layer);
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "libtlcrt",
                           .pEngineName = "tlc",
                           .apiVersion = VK_API_VERSION_1_1};
  /* Chained into the instance's create info too, so the layer's messages about the instance's
   * own creation and destruction (leaked objects) are counted as well. */
  VkDebugUtilsMessengerCreateInfoEXT messenger = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
      .pfnUserCallback = on_validation_message,
      .pUserData = vk};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pNext = validate ? &messenger : NULL,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = validate ? 1 : 0,
                               .ppEnabledLayerNames = &layer,
                               .enabledExtensionCount = validate ? 1 : 0,
                               .ppEnabledExtensionNames = &extension};
  VkResult result = vk->vkCreateInstance(&info, NULL, &vk->instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "no Vulkan 1.1 driver: vkCreateInstance failed with "
                        "VK_ERROR_INCOMPATIBLE_DRIVER (install mesa-vulkan-drivers for lavapipe, "
                        "or a GPU driver)");
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_UNSUPPORTED, "vkCreateInstance", result);
#define TLC_VK_LOAD_INSTANCE(name)                                                                 \
  vk->name = (PFN_##name)vk->vkGetInstanceProcAddr(vk->instance, #name);                           \
  if (!vk->name)                                                                                   \
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED, "the Vulkan instance lacks " #name);
  TLC_VK_INSTANCE_FUNCTIONS(TLC_VK_LOAD_INSTANCE)
#undef TLC_VK_LOAD_INSTANCE
  if (validate) {
    vk->vkCreateDebugUtilsMessengerEXT =
        (PFN_vkCreateDebugUtilsMessengerEXT)vk->vkGetInstanceProcAddr(
            vk->instance, "vkCreateDebugUtilsMessengerEXT");
    vk->vkDestroyDebugUtilsMessengerEXT =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vk->vkGetInstanceProcAddr(
            vk->instance, "vkDestroyDebugUtilsMessengerEXT");
    if (!vk->vkCreateDebugUtilsMessengerEXT || !vk->vkDestroyDebugUtilsMessengerEXT)
      return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                          "TLC_VULKAN_VALIDATE=1 but VK_EXT_debug_utils has no entry points");
    result = vk->vkCreateDebugUtilsMessengerEXT(vk->instance, &messenger, NULL, &vk->messenger);
    if (result != VK_SUCCESS)
      return tlc_vk_fail(ctx, TLC_STATUS_UNSUPPORTED, "vkCreateDebugUtilsMessengerEXT", result);
  }
  return TLC_STATUS_OK;
}

static tlc_status pick_device(tlc_gpu_context *ctx, tlc_vk_context *vk, int device_index) {
  uint32_t count = 0;
  VkResult result = vk->vkEnumeratePhysicalDevices(vk->instance, &count, NULL);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_UNSUPPORTED, "vkEnumeratePhysicalDevices", result);
  if (count == 0)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "no Vulkan device: the loader found no driver with a device (install "
                        "mesa-vulkan-drivers for the CPU's lavapipe, or a GPU driver)");
  if ((uint32_t)device_index >= count)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "no Vulkan device %d: %u device(s) found (TLC_GPU_DEVICE picks one)",
                        device_index, count);
  VkPhysicalDevice *devices = calloc(count, sizeof *devices);
  if (!devices)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  result = vk->vkEnumeratePhysicalDevices(vk->instance, &count, devices);
  if (result >= VK_SUCCESS && (uint32_t)device_index < count)
    vk->physical = devices[device_index];
  free(devices);
  if (!vk->physical)
    return tlc_vk_fail(ctx, TLC_STATUS_UNSUPPORTED, "vkEnumeratePhysicalDevices", result);
  vk->vkGetPhysicalDeviceProperties(vk->physical, &vk->properties);
  vk->vkGetPhysicalDeviceMemoryProperties(vk->physical, &vk->memory);
  snprintf(ctx->device_name, sizeof ctx->device_name, "%s", vk->properties.deviceName);
  if (vk->properties.apiVersion < VK_API_VERSION_1_1)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "Vulkan device %d (%s) supports Vulkan %u.%u; tlc needs 1.1", device_index,
                        ctx->device_name, VK_API_VERSION_MAJOR(vk->properties.apiVersion),
                        VK_API_VERSION_MINOR(vk->properties.apiVersion));
  return TLC_STATUS_OK;
}

static tlc_status create_device(tlc_gpu_context *ctx, tlc_vk_context *vk) {
  uint32_t count = 0;
  vk->vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &count, NULL);
  VkQueueFamilyProperties *families = calloc(count ? count : 1, sizeof *families);
  if (!families)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  vk->vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &count, families);
  uint32_t family = UINT32_MAX;
  for (uint32_t i = 0; i < count && family == UINT32_MAX; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      family = i;
  if (family != UINT32_MAX)
    vk->timestamp_bits = families[family].timestampValidBits;
  free(families);
  if (family == UINT32_MAX)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED, "Vulkan device %s has no compute queue",
                        ctx->device_name);
  vk->queue_family = family;

  /* Generated SPIR-V declares Int64 (64-bit indices) and Float64 when a model uses them; enable
   * what the device has so such modules load, and let the pipeline fail where it lacks them. */
  VkPhysicalDeviceFeatures supported, enabled;
  memset(&enabled, 0, sizeof enabled);
  vk->vkGetPhysicalDeviceFeatures(vk->physical, &supported);
  enabled.shaderInt64 = supported.shaderInt64;
  enabled.shaderFloat64 = supported.shaderFloat64;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &priority};
  VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &queue,
                             .pEnabledFeatures = &enabled};
  VkResult result = vk->vkCreateDevice(vk->physical, &info, NULL, &vk->device);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_UNSUPPORTED, "vkCreateDevice", result);
#define TLC_VK_LOAD_DEVICE(name)                                                                   \
  vk->name = (PFN_##name)vk->vkGetDeviceProcAddr(vk->device, #name);                               \
  if (!vk->name)                                                                                   \
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED, "the Vulkan device lacks " #name);
  TLC_VK_DEVICE_FUNCTIONS(TLC_VK_LOAD_DEVICE)
#undef TLC_VK_LOAD_DEVICE
  vk->vkGetDeviceQueue(vk->device, family, 0, &vk->queue);

  VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = family};
  result = vk->vkCreateCommandPool(vk->device, &pool, NULL, &vk->command_pool);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkCreateCommandPool", result);
  VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = vk->command_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
  result = vk->vkAllocateCommandBuffers(vk->device, &alloc, &vk->transfer_commands);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkAllocateCommandBuffers", result);
  VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  result = vk->vkCreateFence(vk->device, &fence, NULL, &vk->transfer_fence);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkCreateFence", result);
  return TLC_STATUS_OK;
}

static tlc_status vk_context_create(tlc_gpu_context *ctx, int device_index) {
  tlc_vk_context *vk = calloc(1, sizeof *vk);
  if (!vk)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  ctx->impl = vk;
  vk->force_staging = env_is_one("TLC_VULKAN_FORCE_STAGING");
  tlc_status status = load_loader(ctx, vk);
  if (status == TLC_STATUS_OK)
    status = create_instance(ctx, vk);
  if (status == TLC_STATUS_OK)
    status = pick_device(ctx, vk, device_index);
  if (status == TLC_STATUS_OK)
    status = create_device(ctx, vk);
  status = tlc_vk_finish(ctx, status);
  if (status != TLC_STATUS_OK) {
    vk_context_destroy(ctx); /* handles the half-made context */
    return status;
  }
  return TLC_STATUS_OK;
}

static void vk_context_destroy(tlc_gpu_context *ctx) {
  tlc_vk_context *vk = ctx->impl;
  if (!vk)
    return;
  /* Creation may have stopped anywhere, even between loading two entry points. */
  if (vk->device && vk->vkDestroyDevice) {
    if (vk->vkDeviceWaitIdle)
      vk->vkDeviceWaitIdle(vk->device);
    if (vk->in_flight)
      tlc_vk_wait_all(ctx);
    if (vk->staging) {
      vk->vkDestroyBuffer(vk->device, vk->staging, NULL);
      vk->vkFreeMemory(vk->device, vk->staging_memory, NULL);
    }
    if (vk->transfer_fence)
      vk->vkDestroyFence(vk->device, vk->transfer_fence, NULL);
    if (vk->command_pool)
      vk->vkDestroyCommandPool(vk->device, vk->command_pool, NULL); /* frees its buffers */
    vk->vkDestroyDevice(vk->device, NULL);
  }
  if (vk->messenger)
    vk->vkDestroyDebugUtilsMessengerEXT(vk->instance, vk->messenger, NULL);
  if (vk->instance && vk->vkDestroyInstance)
    vk->vkDestroyInstance(vk->instance, NULL);
  tlc_gpu_library_close(vk->library);
  free(vk);
  ctx->impl = NULL;
}

/* ---- Waiting for runs ---------------------------------------------------------------------- */

tlc_status tlc_vk_wait_all(tlc_gpu_context *ctx) {
  tlc_vk_context *vk = ctx->impl;
  while (vk->in_flight) {
    tlc_vk_submission *s = vk->in_flight;
    VkResult result = vk->vkWaitForFences(vk->device, 1, &s->fence, VK_TRUE, UINT64_MAX);
    if (result != VK_SUCCESS)
      return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "waiting for a run (vkWaitForFences)", result);
    vk->in_flight = s->next;
    tlc_vk_submission_retire(ctx, s);
  }
  vk->in_flight_tail = NULL;
  return TLC_STATUS_OK;
}

void tlc_vk_retire_finished(tlc_gpu_context *ctx) {
  tlc_vk_context *vk = ctx->impl;
  while (vk->in_flight && vk->vkGetFenceStatus(vk->device, vk->in_flight->fence) == VK_SUCCESS) {
    tlc_vk_submission *s = vk->in_flight;
    vk->in_flight = s->next;
    tlc_vk_submission_retire(ctx, s);
  }
  if (!vk->in_flight)
    vk->in_flight_tail = NULL;
}

static tlc_status vk_synchronize(tlc_gpu_context *ctx) {
  return tlc_vk_finish(ctx, tlc_vk_wait_all(ctx));
}

/* ---- Buffers ------------------------------------------------------------------------------- */

/* The first memory type allowed by `bits` that has all of `required` and none of `excluded`. */
static uint32_t find_memory_type(const tlc_vk_context *vk, uint32_t bits,
                                 VkMemoryPropertyFlags required, VkMemoryPropertyFlags excluded) {
  for (uint32_t i = 0; i < vk->memory.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = vk->memory.memoryTypes[i].propertyFlags;
    if ((bits & (1u << i)) && (flags & required) == required && !(flags & excluded))
      return i;
  }
  return UINT32_MAX;
}

/* Makes a buffer with its own memory. `host` asks for host-visible, coherent memory (staging);
 * otherwise device memory: VRAM the host cannot see where there is such (a discrete GPU: the
 * host-visible part of VRAM is small and slow to read back), else the device-local memory the
 * host can map (integrated GPUs, lavapipe), which is then mapped for direct copies. */
static tlc_status make_buffer(tlc_gpu_context *ctx, VkDeviceSize size, int host,
                              tlc_vk_buffer *out) {
  tlc_vk_context *vk = ctx->impl;
  const VkMemoryPropertyFlags visible =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkResult result = vk->vkCreateBuffer(vk->device, &info, NULL, &out->buffer);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkCreateBuffer", result);
  VkMemoryRequirements needs;
  vk->vkGetBufferMemoryRequirements(vk->device, out->buffer, &needs);
  uint32_t type = UINT32_MAX;
  if (host) {
    type =
        find_memory_type(vk, needs.memoryTypeBits, visible | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0);
    if (type == UINT32_MAX)
      type = find_memory_type(vk, needs.memoryTypeBits, visible, 0);
  } else {
    type = find_memory_type(vk, needs.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    if (type == UINT32_MAX)
      type = find_memory_type(vk, needs.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
    if (type == UINT32_MAX)
      type = find_memory_type(vk, needs.memoryTypeBits, 0, 0);
  }
  if (type == UINT32_MAX)
    return tlc_gpu_fail(ctx, TLC_STATUS_UNSUPPORTED,
                        "Vulkan device %s has no memory type for a %s buffer", ctx->device_name,
                        host ? "host-visible staging" : "storage");
  VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = needs.size,
                                .memoryTypeIndex = type};
  result = vk->vkAllocateMemory(vk->device, &alloc, NULL, &out->memory);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "vkAllocateMemory", result);
  result = vk->vkBindBufferMemory(vk->device, out->buffer, out->memory, 0);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkBindBufferMemory", result);
  int mappable = (vk->memory.memoryTypes[type].propertyFlags & visible) == visible;
  if (mappable && (host || !vk->force_staging)) {
    result = vk->vkMapMemory(vk->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map);
    if (result != VK_SUCCESS)
      return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkMapMemory", result);
  }
  return TLC_STATUS_OK;
}

static void free_buffer(tlc_vk_context *vk, tlc_vk_buffer *b) {
  if (b->buffer)
    vk->vkDestroyBuffer(vk->device, b->buffer, NULL);
  if (b->memory)
    vk->vkFreeMemory(vk->device, b->memory, NULL); /* unmaps */
}

static tlc_status vk_buffer_create(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer) {
  tlc_vk_buffer *b = calloc(1, sizeof *b);
  if (!b)
    return tlc_gpu_fail(ctx, TLC_STATUS_OUT_OF_MEMORY, "out of host memory");
  /* Whole 32-bit words: kernels address bytes and booleans through the word holding them
   * (the descriptor ranges round up the same way). */
  tlc_status status = make_buffer(ctx, (buffer->size + 3) & ~(VkDeviceSize)3, 0, b);
  if (status != TLC_STATUS_OK) {
    free_buffer(ctx->impl, b);
    free(b);
    return tlc_vk_finish(ctx, status);
  }
  buffer->impl = b;
  return tlc_vk_finish(ctx, TLC_STATUS_OK);
}

static void vk_buffer_destroy(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer) {
  tlc_vk_buffer *b = buffer->impl;
  /* A run in flight may still read it. */
  tlc_vk_wait_all(ctx);
  free_buffer(ctx->impl, b);
  free(b);
}

/* Grows the staging buffer to min(size, TLC_VK_STAGING_MAX) bytes. */
static tlc_status reserve_staging(tlc_gpu_context *ctx, VkDeviceSize size) {
  tlc_vk_context *vk = ctx->impl;
  if (size > TLC_VK_STAGING_MAX)
    size = TLC_VK_STAGING_MAX;
  if (vk->staging_size >= size)
    return TLC_STATUS_OK;
  tlc_vk_buffer old = {vk->staging, vk->staging_memory, vk->staging_map};
  free_buffer(vk, &old);
  vk->staging = VK_NULL_HANDLE;
  vk->staging_memory = VK_NULL_HANDLE;
  vk->staging_size = 0;
  tlc_vk_buffer fresh = {0};
  tlc_status status = make_buffer(ctx, size, 1, &fresh);
  if (status != TLC_STATUS_OK) {
    free_buffer(vk, &fresh);
    return status;
  }
  vk->staging = fresh.buffer;
  vk->staging_memory = fresh.memory;
  vk->staging_map = fresh.map;
  vk->staging_size = size;
  return TLC_STATUS_OK;
}

/* Copies `size` bytes between the staging buffer and bytes at `offset` of `device` and waits.
 * The barriers order the copy after earlier runs' writes and make it visible to later runs and
 * to the host. */
static tlc_status staging_copy(tlc_gpu_context *ctx, VkBuffer device, VkDeviceSize offset,
                               VkDeviceSize size, int to_device) {
  tlc_vk_context *vk = ctx->impl;
  VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkResult result = vk->vkBeginCommandBuffer(vk->transfer_commands, &begin);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkBeginCommandBuffer", result);
  VkMemoryBarrier before = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
  vk->vkCmdPipelineBarrier(vk->transfer_commands,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &before, 0, NULL, 0, NULL);
  VkBufferCopy region = {
      .srcOffset = to_device ? 0 : offset, .dstOffset = to_device ? offset : 0, .size = size};
  vk->vkCmdCopyBuffer(vk->transfer_commands, to_device ? vk->staging : device,
                      to_device ? device : vk->staging, 1, &region);
  VkMemoryBarrier after = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                                            VK_ACCESS_SHADER_WRITE_BIT};
  vk->vkCmdPipelineBarrier(vk->transfer_commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                           &after, 0, NULL, 0, NULL);
  result = vk->vkEndCommandBuffer(vk->transfer_commands);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkEndCommandBuffer", result);
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &vk->transfer_commands};
  result = vk->vkQueueSubmit(vk->queue, 1, &submit, vk->transfer_fence);
  if (result != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "vkQueueSubmit (buffer copy)", result);
  result = vk->vkWaitForFences(vk->device, 1, &vk->transfer_fence, VK_TRUE, UINT64_MAX);
  VkResult reset = vk->vkResetFences(vk->device, 1, &vk->transfer_fence);
  if (result != VK_SUCCESS || reset != VK_SUCCESS)
    return tlc_vk_fail(ctx, TLC_STATUS_INTERNAL, "waiting for a buffer copy",
                       result != VK_SUCCESS ? result : reset);
  return TLC_STATUS_OK;
}

static tlc_status vk_buffer_upload(tlc_gpu_context *ctx, tlc_gpu_buffer *buffer, size_t offset,
                                   const void *src, size_t size) {
  tlc_vk_context *vk = ctx->impl;
  tlc_vk_buffer *b = buffer->impl;
  /* A run in flight may read or write these bytes. */
  tlc_status status = tlc_vk_wait_all(ctx);
  if (status == TLC_STATUS_OK && b->map)
    memcpy((char *)b->map + offset, src, size);
  if (status == TLC_STATUS_OK && !b->map)
    status = reserve_staging(ctx, size);
  for (size_t done = 0; status == TLC_STATUS_OK && !b->map && done < size;) {
    size_t chunk = size - done < vk->staging_size ? size - done : (size_t)vk->staging_size;
    memcpy(vk->staging_map, (const char *)src + done, chunk);
    status = staging_copy(ctx, b->buffer, offset + done, chunk, 1);
    done += chunk;
  }
  return tlc_vk_finish(ctx, status);
}

static tlc_status vk_buffer_download(tlc_gpu_context *ctx, const tlc_gpu_buffer *buffer,
                                     size_t offset, void *dst, size_t size) {
  tlc_vk_context *vk = ctx->impl;
  const tlc_vk_buffer *b = buffer->impl;
  tlc_status status = tlc_vk_wait_all(ctx);
  if (status == TLC_STATUS_OK && b->map)
    memcpy(dst, (const char *)b->map + offset, size);
  if (status == TLC_STATUS_OK && !b->map)
    status = reserve_staging(ctx, size);
  for (size_t done = 0; status == TLC_STATUS_OK && !b->map && done < size;) {
    size_t chunk = size - done < vk->staging_size ? size - done : (size_t)vk->staging_size;
    status = staging_copy(ctx, b->buffer, offset + done, chunk, 0);
    if (status == TLC_STATUS_OK)
      memcpy((char *)dst + done, vk->staging_map, chunk);
    done += chunk;
  }
  return tlc_vk_finish(ctx, status);
}

const tlc_gpu_backend_ops tlc_gpu_vulkan_ops = {
    .name = "Vulkan",
    .context_create = vk_context_create,
    .context_destroy = vk_context_destroy,
    .buffer_create = vk_buffer_create,
    .buffer_destroy = vk_buffer_destroy,
    .buffer_upload = vk_buffer_upload,
    .buffer_download = vk_buffer_download,
    .synchronize = vk_synchronize,
    .model_load = tlc_vk_model_load,
    .model_release = tlc_vk_model_release,
    .model_run = tlc_vk_model_run,
    .model_last_run_ms = tlc_vk_model_last_run_ms,
    .model_kernel_times = tlc_vk_model_kernel_times,
};
