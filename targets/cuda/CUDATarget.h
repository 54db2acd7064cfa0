// The CUDA target (PTX kernels run through libtlcrt's CUDA driver launcher).
#ifndef TLC_TARGETS_CUDA_CUDATARGET_H
#define TLC_TARGETS_CUDA_CUDATARGET_H

#include "targets/Target.h"

#include <string>

namespace tlc {
std::unique_ptr<Target> createCUDATarget();
/// The PTX ISA version tlc emits for `gpu` ("sm_80": "7.0"), "" for an unknown one.
std::string cudaPTXVersion(llvm::StringRef gpu);
} // namespace tlc

#endif // TLC_TARGETS_CUDA_CUDATARGET_H
