// The Vulkan target (SPIR-V kernels run through libtlcrt's Vulkan launcher).
#ifndef TLC_TARGETS_VULKAN_VULKANTARGET_H
#define TLC_TARGETS_VULKAN_VULKANTARGET_H

#include "targets/Target.h"

namespace tlc {
std::unique_ptr<Target> createVulkanTarget();
} // namespace tlc

#endif // TLC_TARGETS_VULKAN_VULKANTARGET_H
