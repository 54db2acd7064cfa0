// Shape rules of the tl neural-network ops (conv, pooling, gather, pad), shared by their
// verifiers and the model importers.
#ifndef TLC_DIALECTS_TL_NNSHAPES_H
#define TLC_DIALECTS_TL_NNSHAPES_H

#include "TL/Shapes.h"

namespace tlc::tl {

/// Output extent of one sliding-window axis: `in` padded by `padBegin`/`padEnd`, a window of
/// `kernel` taps `dilation` apart, moved by `stride`. With `ceilMode` the count rounds up, but
/// a window must start inside the input or the leading padding. Returns -1 if no window fits.
int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride, int64_t padBegin,
                         int64_t padEnd, int64_t dilation, bool ceilMode);

/// Checks 2-D window attributes (kernel/strides/dilations of size 2 and positive, pads of
/// size 4 and non-negative) and returns the `[OH, OW]` output extents of an `H x W` input.
llvm::FailureOr<llvm::SmallVector<int64_t>>
window2DOutputShape(llvm::ArrayRef<int64_t> hw, llvm::ArrayRef<int64_t> kernel,
                    llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
                    llvm::ArrayRef<int64_t> dilations, bool ceilMode, EmitErrorFn emitError);

/// Result type of tl.conv2d (input NCHW, filter F x C/groups x KH x KW).
llvm::FailureOr<mlir::RankedTensorType>
conv2dType(mlir::RankedTensorType input, mlir::RankedTensorType filter,
           llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
           llvm::ArrayRef<int64_t> dilations, int64_t groups, EmitErrorFn emitError);

/// The most taps (window elements) of a tl.quantized_conv2d: uint8 x int8 products summed
/// exactly in i32 (255 x 128 x taps < 2^31).
constexpr int64_t kMaxExactInt8Taps = 65793;

/// Result type of tl.gather of `indices` along `axis` (may be negative) of `input`.
llvm::FailureOr<mlir::RankedTensorType> gatherType(mlir::RankedTensorType input,
                                                   mlir::RankedTensorType indices,
                                                   int64_t axis, EmitErrorFn emitError);

/// Result type of tl.pad with `pads` (rank leading then rank trailing amounts, non-negative).
llvm::FailureOr<mlir::RankedTensorType> padType(mlir::RankedTensorType input,
                                                llvm::ArrayRef<int64_t> pads,
                                                EmitErrorFn emitError);

} // namespace tlc::tl

#endif // TLC_DIALECTS_TL_NNSHAPES_H
