// ConvTranspose as stride-1 convolutions, one per output phase (the positions congruent
// modulo the strides), interleaved: no multiply-adds on inserted zeros.
#ifndef TLC_COMPILER_ONNX_TRANSPOSEDCONVOLUTION_H
#define TLC_COMPILER_ONNX_TRANSPOSEDCONVOLUTION_H

#include "NodeContext.h"

namespace tlc::onnx_import {

/// The window of a 2-D or 3-D transposed convolution (1-D ones are 2-D over a height of 1).
/// `pads` are ONNX's [begin..., end...] (possibly made negative by output_shape: a crop).
struct TransposedWindow {
  llvm::SmallVector<int64_t> strides, pads, dilations, outputPadding;
  int64_t groups = 1;
};

/// ConvTranspose of `x` (N x Cin x S...) with `w` (Cin x Cout/groups x K...), `weights` its
/// value when known at compile time (then every sub-filter is a constant), and an optional
/// `bias` (Cout). Along each axis output o = i*s + k*d - pad_begin, so the outputs of phase
/// r = o mod s read the taps k with (r + pad_begin - k*d) divisible by s, at input offsets
/// spaced d/gcd(s, d) apart: a stride-1 convolution of x (cropped or padded) with those taps
/// reversed. The phases' outputs are interleaved by concatenating along unit axes and
/// merging, then cropped to the output size.
mlir::FailureOr<mlir::Value> transposedConvolution(NodeContext &cx, mlir::Value x, mlir::Value w,
                                                   mlir::DenseElementsAttr weights,
                                                   mlir::Value bias,
                                                   const TransposedWindow &window);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_TRANSPOSEDCONVOLUTION_H
