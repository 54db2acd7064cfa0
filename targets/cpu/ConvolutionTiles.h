// 2-D convolutions as a parallel loop over output tiles, each building its own im2col block
// right before contracting it with the filter (tlc-lower-convolutions).
#ifndef TLC_TARGETS_CPU_CONVOLUTIONTILES_H
#define TLC_TARGETS_CPU_CONVOLUTIONTILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace tlc {

/// The static sizes of a 2-D convolution: output [n, f, oh, ow], input channels c, filter
/// window kh x kw, strides and dilations, and `groups` (each of f / groups filters reads c /
/// groups channels).
struct ConvShape {
  int64_t n, f, oh, ow, c, kh, kw;
  llvm::SmallVector<int64_t> strides, dilations;
  mlir::Type elementType;
  int64_t groups = 1;
};
ConvShape getConvShape(mlir::linalg::Conv2DNchwFchwOp op);
ConvShape getConvShape(mlir::linalg::Conv2DNgchwGfchwOp op);

/// The values of a strides or dilations attribute.
llvm::SmallVector<int64_t> convAttrValues(mlir::DenseIntElementsAttr attr);

/// The multiply-accumulate body `acc + x * w` of a contraction generic.
void buildMacBody(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args);

/// A linalg.generic `init += lhs * rhs` over `iterators` through `maps` (lhs, rhs, init);
/// returns its result.
mlir::Value buildMacGeneric(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                            mlir::Value rhs, mlir::Value init, llvm::ArrayRef<mlir::AffineMap> maps,
                            llvm::ArrayRef<mlir::utils::IteratorType> iterators);

/// The loop over a convolution's output tiles: one scf.forall of `images * rowBlocks`
/// iterations carrying `dest` (the thread pool and the per-iteration buffer bound take
/// one-dimensional loops); tile t is image t / rowBlocks, row block t % rowBlocks, its first
/// output row `rowBlock * rows`. The builder is left before the loop's terminator.
struct ConvTileLoop {
  mlir::scf::ForallOp forall;
  mlir::Value outArg;
  mlir::OpFoldResult image, rowBlock, firstRow;
};
ConvTileLoop buildConvTileLoop(mlir::RewriterBase &rewriter, mlir::Location loc, int64_t images,
                               int64_t rowBlocks, int64_t rows, mlir::Value dest);

/// The input [N, C, H, W] as [N, C, SH, SW, HP, WP] stride phases: phase (a, b) holds rows a,
/// a + SH, ... and columns b, b + SW, ... of `input`, `hp` x `wp` of them (rows and columns past
/// the input's end are zeros). A tap at window offset (y, x) then reads phase (y % SH, x % SW)
/// from row y / SH and column x / SW on, with unit stride.
mlir::Value stridePhases(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input, int64_t sh,
                         int64_t sw, int64_t hp, int64_t wp);

/// A parallel identity-map linalg.generic copying `from` into `into` (same shape).
mlir::Value copyRows(mlir::OpBuilder &b, mlir::Location loc, mlir::Value from, mlir::Value into);

/// Policy: the share of `slots`-wide rounds that `tiles` tiles fill, 1 when they split evenly
/// (with no more tiles than slots, rounds of two: an even count). A loop of tiles runs as `slots`
/// slots of contiguous chunks (tlc-bound-forall-replicas), so a multiple of `slots` tiles splits
/// evenly over any thread count dividing it (14 tiles split 7:7 over two threads, but 4:4:3:3 over
/// four).
double slotBalance(int64_t tiles, int64_t slots);

/// Policy: the output rows per tile for `batch` images of `outH` x `outW` output pixels and
/// `depth` (C*KH*KW) im2col rows: a divisor of `outH` (static tile shapes) whose pixel count
/// (rows x outW) stays within 2 x `pixels` and whose im2col block (4-byte elements) within
/// `blockBytes` (it must stay in L2 next to the filter), scored by the lanes it fills in the 32-wide register tiles times how evenly
/// its tiles spread over `slots` parallel slots (tlc-bound-forall-replicas) and so over the
/// threads; the pixel count nearest `pixels` among equals.
int64_t chooseConvTileRows(int64_t batch, int64_t outH, int64_t outW, int64_t depth,
                           int64_t pixels, int64_t blockBytes, int64_t slots);

/// Mechanism: rewrites `op` (static NCHW/FCHW shapes, one float type) as a one-dimensional
/// scf.forall over tiles of `rows` output rows (all channels) of one image. Each tile copies
/// the input windows it needs into a [C, KH, KW, rows, OW] block, one unit-stride
/// [rows, OW] copy (a linalg.generic) per channel and filter tap, and contracts the filter
/// [F, C*KH*KW] with it into its output slice. A strided
/// convolution first splits the input into its stride phases (a linalg.transpose), so every
/// tap reads unit-stride rows. Each tile contracts straight into its output slice (whole
/// rows, so [F, rows * OW] with unit-stride rows). A constant-filled init (zeros) is not
/// filled up front: each tile fills its own slice right before its contraction, and
/// tlc-tile-contractions moves that fill into the register tiles, which then start from zero
/// in registers (no memset of the output, no separate accumulator to copy out).
mlir::LogicalResult lowerConvToTiles(mlir::RewriterBase &rewriter,
                                     mlir::linalg::Conv2DNchwFchwOp op, int64_t rows);

/// `grouped` with its group axis `axis` and the following axis merged (a grouped
/// convolution's [N, G, C/G, H, W] input as [N, C, H, W] with axis 1, its [G, F/G, C/G, KH,
/// KW] filter as [F, C/G, KH, KW] with axis 0): the source of an expand_shape that split
/// them, else a collapse_shape.
mlir::Value ungroupChannels(mlir::OpBuilder &b, mlir::Location loc, mlir::Value grouped,
                            unsigned axis);

/// Whether `op` can take lowerConvWinograd: a 3x3 window at stride and dilation 1 over an f32
/// input padded to the output's size plus 2 (each output pixel's whole window is in the
/// input), a constant filter, and a zero-filled output.
bool canLowerConvWinograd(mlir::linalg::Conv2DNchwFchwOp op);

/// Policy input: the estimated speed-up of lowerConvWinograd over the im2col contraction for
/// `shape`: 2.25x fewer multiply-adds (less where the 2x2 tiles overhang an odd output), times
/// the share of `lanes`-wide register-tile columns the N * TH * TW tiles fill, over the share
/// the OH * OW pixels fill.
double winogradGain(const ConvShape &shape, int64_t lanes);

/// Mechanism: rewrites `op` (canLowerConvWinograd) by Winograd's F(2x2, 3x3): the filter
/// transformed at compile time to U [16, F, C]; the input split into its 2x2 stride phases and
/// transformed tile by tile (16 unit-stride planes in, 16 out) into V [16, C, N * TH * TW]; one
/// contraction M = U V batched over the 16 products; the output transform into the four
/// [N, F, TH, TW] phase planes of the output, interleaved into rows (and cropped for odd sizes).
/// With `filterStorage` (bf16, f16) U is stored in that type, rounded to nearest even, and the
/// products extend it: a mixed-precision convolution's filter, which its f32 transform does
/// not fit exactly. With `transformStorage` V is likewise rounded to that type (so the products
/// may take the bf16 dot products).
mlir::LogicalResult lowerConvWinograd(mlir::RewriterBase &rewriter,
                                      mlir::linalg::Conv2DNchwFchwOp op,
                                      mlir::Type filterStorage = nullptr,
                                      mlir::Type transformStorage = nullptr);

/// Erases `value`'s producer when nothing uses it, then likewise each of its operands'
/// producers (the padding a lowering replaced, a fill it no longer reads).
void eraseDeadProducers(mlir::RewriterBase &rewriter, mlir::Value value);

/// Mechanism: rewrites grouped `op` (tiles of `rows` output rows, which must divide the
/// output height) through `build`, which lowers it over its operands without the group axis
/// (ungroupChannels: input [N, C, H, W], filter [F, C/G, KH, KW]) into `dest` [N, F, OH, OW]
/// and returns the result. A filled init becomes a tensor.empty `dest` and its `fillValue`
/// (each tile fills its own part), any other init is `dest` itself with no `fillValue`. The
/// result is viewed back as [N, G, F/G, OH, OW]; the fill and the grouped input view are
/// erased when left unused.
mlir::LogicalResult
lowerUngrouped(mlir::RewriterBase &rewriter, mlir::linalg::Conv2DNgchwGfchwOp op, int64_t rows,
               llvm::function_ref<mlir::Value(mlir::Value input, mlir::Value filter,
                                              mlir::Value dest, mlir::Value fillValue)>
                   build);

/// Mechanism: lowerConvToTiles for a grouped convolution (conv_2d_ngchw_gfchw, 1 < groups
/// < channels): each tile copies the same [C, KH, KW, rows, OW] block, viewed as [G,
/// C/G*KH*KW, rows * OW], and contracts it group by group with the filter [G, F/G,
/// C/G*KH*KW] into its output slice viewed as [G, F/G, rows * OW] (one linalg.generic over
/// (g, m, p, k), g a batch dimension).
mlir::LogicalResult lowerGroupedConvToTiles(mlir::RewriterBase &rewriter,
                                            mlir::linalg::Conv2DNgchwGfchwOp op, int64_t rows);

/// Whether `op` can be lowered by lowerConvToDirectTiles: stride 1, a window wider than 1x1,
/// an input exactly as large as the window sweep needs (padding already applied) and a
/// constant-filled (linalg.fill) output.
bool canLowerConvDirect(mlir::linalg::Conv2DNchwFchwOp op);

/// Policy: the output rows per direct tile (a divisor of `outH`) for `batch` images of
/// `outH` x `outW` outputs over input rows of pitch `inW`: most useful lanes (real output
/// pixels over the `align`-wide register tiles the row-pitch pixel range fills) times an even
/// spread over `slots`, with at most 4 x `pixels` pixels and an input window (rows plus two,
/// `windowBytesPerRow` bytes each) within `blockBytes`, the fewest rows among equals. A tile
/// that copies `copiedExtraRows` rows more than its output rows (a row-phase tile:
/// ceil(KH / SH) - 1) is scored times rows / (rows + copiedExtraRows), its share of copied
/// rows that are not copied again by the next tile.
int64_t chooseDirectConvRows(int64_t batch, int64_t outH, int64_t outW, int64_t inW,
                             int64_t windowBytesPerRow, int64_t pixels, int64_t blockBytes,
                             int64_t slots, int64_t align, int64_t copiedExtraRows = 0);

/// Mechanism: rewrites `op` (canLowerConvDirect) as a one-dimensional scf.forall over tiles
/// of `rows` output rows of one image that read the input in place: each channel's image
/// flattened to one pixel row, a tile's output pixels counted over the input's row pitch W
/// (q = r * W + w), so tap (y, x) of pixel q reads input pixel q + y * DH * W + x * DW. The
/// tile contracts the filter [F, C, KH, KW] with its input window into a filled [F, q]
/// accumulator (one linalg.generic over (m, q, c, y, x); tlc-view-window-operands makes its
/// window operand a strided view once on buffers), then copies the [F, rows, OW] part of it
/// (the W - OW columns past each row's end are computed and dropped) into the output. The
/// pixel range q is rounded up to a multiple of `pixelAlign` (the register tile width: no
/// partial register tile); the rows that rounding reads past an image are added below it
/// (the padding's fill rebuilt taller, or a zero-filled copy of an unpadded input).
mlir::LogicalResult lowerConvToDirectTiles(mlir::RewriterBase &rewriter,
                                           mlir::linalg::Conv2DNchwFchwOp op, int64_t rows,
                                           int64_t pixelAlign);

/// canLowerConvDirect and lowerConvToDirectTiles for a grouped convolution: each tile
/// contracts group by group, one linalg.generic over (g, m, q, c, y, x) reading the filter [G,
/// F/G, C/G, KH, KW] and its window [G, C/G, span], into a [G, F/G, q] accumulator.
bool canLowerGroupedConvDirect(mlir::linalg::Conv2DNgchwGfchwOp op);
mlir::LogicalResult lowerGroupedConvToDirectTiles(mlir::RewriterBase &rewriter,
                                                  mlir::linalg::Conv2DNgchwGfchwOp op, int64_t rows,
                                                  int64_t pixelAlign);

/// Whether `op` can be lowered by lowerConvToRowPhaseTiles: a stride other than 1, dilation 1,
/// a window wider than 1x1 and a constant-filled (linalg.fill) output.
bool canLowerConvPhases(mlir::linalg::Conv2DNchwFchwOp op);

/// Policy: the pixels per block of a lowerConvToRowPhaseTiles tile of `pixels` output pixels
/// and `f` filters: the largest multiple of `align` (at least `align`, at most `pixels`) whose
/// [f, block] output part (4-byte elements) fits in `blockBytes` (it should stay in L1 from one
/// row-phase group's contraction to the next).
int64_t choosePhaseBlockPixels(int64_t f, int64_t pixels, int64_t align, int64_t blockBytes);

/// Mechanism: rewrites `op` (canLowerConvPhases) as a parallel loop over tiles of `rows`
/// output rows whose output stays at its own row pitch (no accumulator copy): the input is
/// split once into its stride phases (stridePhases); each tile copies, per row phase py and
/// column tap x, the [C, rows + ceil(KH / SH) - 1, OW] rows of phase (py, x % SW) from column
/// x / SW on into X[C, SH, KW, rows', OW] (SH * KW row copies against KH * KW for im2col),
/// and accumulates into its output [F, rows * OW] one contraction per row-phase group (phases
/// with the same number of row taps): over (c, (phase rows), a, x), reading
/// X[c, py, x, p + a * OW] (output pixel p = r * OW + j, tap (SH * a + py, x)) with the
/// sub-filters packed [F, C, (phase rows), a, KW] (at compile time for a constant filter).
/// The tile runs over blocks of `block` pixels (the last one smaller when `block` does not
/// divide rows * OW), filling each and accumulating every group into it before the next.
mlir::LogicalResult lowerConvToRowPhaseTiles(mlir::RewriterBase &rewriter,
                                             mlir::linalg::Conv2DNchwFchwOp op, int64_t rows,
                                             int64_t block);

} // namespace tlc

#endif // TLC_TARGETS_CPU_CONVOLUTIONTILES_H
