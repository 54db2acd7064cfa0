// 3-D (volume, NCDHW) convolution and pooling as compositions of the 2-D tl ops, so video
// models reach the same CPU/GPU convolution and pooling strategies as images.
#ifndef TLC_COMPILER_ONNX_VOLUMEWINDOWS_H
#define TLC_COMPILER_ONNX_VOLUMEWINDOWS_H

#include "NodeContext.h"

namespace tlc::onnx_import {

/// A 3-D convolution of `x` (N x C x D x H x W) with `filter` (F x C/groups x KD x KH x KW)
/// and an optional `bias` (F). `strides`, `dilations`: [d, h, w]; `pads`: ONNX order
/// [d0, h0, w0, d1, h1, w1]. The depth window is unfolded into channels: each output depth
/// slice becomes one image whose channels are the KD input slices it reads (per group), and
/// one tl.conv2d over those N*OD images computes the whole contraction (K = C/g*KD*KH*KW).
/// `weights`, when not null, is the filter's value known at compile time (not a trainable
/// parameter): it is then rearranged on the host.
mlir::FailureOr<mlir::Value> conv3dAsConv2d(NodeContext &cx, mlir::Value x, mlir::Value filter,
                                            mlir::DenseElementsAttr weights, mlir::Value bias,
                                            llvm::ArrayRef<int64_t> strides,
                                            llvm::ArrayRef<int64_t> pads,
                                            llvm::ArrayRef<int64_t> dilations, int64_t groups);

/// A 3-D max or average pool of `x` (N x C x D x H x W), window attributes as above. Both are
/// separable exactly: a box window is a window over (H, W) followed by one over D, max of
/// maxes is the max, and the averaging divisor (valid elements, or the window clipped to the
/// padded input) is the product of the per-axis counts.
mlir::FailureOr<mlir::Value>
pool3dAsPool2d(NodeContext &cx, mlir::Value x, bool average, llvm::ArrayRef<int64_t> kernel,
               llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
               llvm::ArrayRef<int64_t> dilations, bool ceilMode, bool countIncludePad);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_VOLUMEWINDOWS_H
