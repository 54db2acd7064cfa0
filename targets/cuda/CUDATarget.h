// The CUDA target (PTX kernels run through libtlcrt's CUDA driver launcher).
#ifndef TLC_TARGETS_CUDA_CUDATARGET_H
#define TLC_TARGETS_CUDA_CUDATARGET_H

#include "targets/Target.h"

namespace tlc {
std::unique_ptr<Target> createCUDATarget();
} // namespace tlc

#endif // TLC_TARGETS_CUDA_CUDATARGET_H
