// Attention on the GPU as one flash-attention kernel.
#ifndef TLC_TARGETS_GPU_FLASHATTENTION_H
#define TLC_TARGETS_GPU_FLASHATTENTION_H

#include "TL/TLDialect.h"

namespace tlc {

/// Emits `op` (on buffers) as one flash-attention launch (kernel `kernel` of gpu.module
/// `module`) and erases it: a workgroup per block of query rows of one batch point, stepping
/// over the keys with Q, K, V and the probabilities staged through at most
/// `workgroupMemoryBytes` of workgroup memory and an online softmax per row; the Sq x Sk
/// scores are never formed. Fails with an error at the op when no tile fits the memory or the
/// batch exceeds one grid dimension.
mlir::LogicalResult mapFlashAttention(tl::FusedAttentionOp op, mlir::FlatSymbolRefAttr module,
                                      mlir::FlatSymbolRefAttr kernel,
                                      int64_t workgroupMemoryBytes);

} // namespace tlc

#endif // TLC_TARGETS_GPU_FLASHATTENTION_H
