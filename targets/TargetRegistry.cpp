// The registry of code generation targets.
#include "targets/Target.h"

#include "targets/cpu/CPUTarget.h"
#include "targets/cuda/CUDATarget.h"
#include "targets/vulkan/VulkanTarget.h"
#ifdef TLC_HAVE_METAL_TARGET
#include "targets/metal/MetalTarget.h"
#endif

#include <mutex>

using namespace tlc;

static std::vector<std::unique_ptr<Target>> &registry() {
  static std::vector<std::unique_ptr<Target>> targets;
  return targets;
}

void tlc::registerTarget(std::unique_ptr<Target> target) {
  registry().push_back(std::move(target));
}

void tlc::registerAllTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerCPUTargets();
    registerTarget(createCUDATarget());
    registerTarget(createVulkanTarget());
#ifdef TLC_HAVE_METAL_TARGET // built when SPIRV-Cross's C API is found (targets/CMakeLists.txt)
    registerTarget(createMetalTarget());
#endif
  });
}

const Target *tlc::lookupTarget(llvm::StringRef name) {
  for (const auto &t : registry())
    if (t->getName() == name)
      return t.get();
  return nullptr;
}

std::vector<const Target *> tlc::getRegisteredTargets() {
  std::vector<const Target *> out;
  for (const auto &t : registry())
    out.push_back(t.get());
  return out;
}
