// Winograd's minimal filtering F(2x2, 3x3) (Lavin and Gray, "Fast Algorithms for Convolutional
// Neural Networks", 2016), shared by the CPU and GPU lowerings of 3x3 stride-1 convolutions:
// which convolutions qualify, the filter transform (done at compile time) and the arithmetic of
// the input and output transforms.
#ifndef TLC_PASSES_WINOGRAD_H
#define TLC_PASSES_WINOGRAD_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <array>

namespace tlc {

/// Input tile side of F(2x2, 3x3) (its output tiles are 2x2) and the products per tile.
inline constexpr int64_t kWinogradTile = 4;
inline constexpr int64_t kWinogradProducts = kWinogradTile * kWinogradTile;

/// Whether `op` is a 3x3 convolution at stride and dilation 1 of f32 values whose input is
/// already padded (output + 2 in both image dimensions), whose filter is a constant and whose
/// output starts as zeros: what the Winograd lowerings take.
bool isWinogradConvolution(mlir::linalg::Conv2DNchwFchwOp op);

/// U[a * 4 + b, f, c] = (G g[f, c] G^T)[a, b] for a constant filter g [F, C, 3, 3]: computed in
/// double and rounded once; [16, F, C] f32.
mlir::DenseElementsAttr winogradFilter(mlir::DenseElementsAttr filter);

/// The rows of B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1] applied to (d0, d1, d2, d3): one
/// step of the input transform B^T d B, down a tile's columns or along its rows.
std::array<mlir::Value, kWinogradTile> winogradInputRows(mlir::OpBuilder &b, mlir::Location loc,
                                                         mlir::Value d0, mlir::Value d1,
                                                         mlir::Value d2, mlir::Value d3);

/// The rows of A^T = [1 1 1 0; 0 1 -1 -1] applied to (m0, m1, m2, m3): one step of the output
/// transform A^T m A.
std::array<mlir::Value, 2> winogradOutputRows(mlir::OpBuilder &b, mlir::Location loc,
                                              mlir::Value m0, mlir::Value m1, mlir::Value m2,
                                              mlir::Value m3);

} // namespace tlc

#endif // TLC_PASSES_WINOGRAD_H
