// The Metal target (MSL translated from the Vulkan target's SPIR-V; launched on Apple only).
#ifndef TLC_TARGETS_METAL_METALTARGET_H
#define TLC_TARGETS_METAL_METALTARGET_H

#include "targets/Target.h"

namespace tlc {
std::unique_ptr<Target> createMetalTarget();
} // namespace tlc

#endif // TLC_TARGETS_METAL_METALTARGET_H
