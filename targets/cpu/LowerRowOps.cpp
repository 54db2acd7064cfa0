// Row-wise lowering of softmax, log_softmax and layer_norm over the trailing axes: the input
// is viewed as [rows, N]; an scf.forall over rows (independent iterations: the thread pool
// takes them after bufferization) runs a few 1-D linalg ops on each row: row reductions into
// per-row scalars and one elementwise write. A row stays in the L1 cache between them, so the
// whole op reads its input once and writes its output once; tlc-vectorize-rows then turns each
// 1-D op into full-width vector loops. Per-row statistics accumulate in f32 for f16/bf16
// inputs. Each row's first pass reads it from memory and the later ones work in L1, so
// softmax's compute-bound exp pass also prefetches the next row of its input and output
// (kPrefetchNextRowAttr): the next row's misses then overlap this row's arithmetic.
// layer_norm's passes are too short for that (prefetching in them measured slower). With
// enough rows per chunk, each op takes its first statistic (the row maximum, layer_norm's sum)
// a row ahead, in the last pass over the previous row (software pipelining); f32 softmax goes
// further, to one pass per row that also writes the previous row's output. Ops over
// a non-trailing axis (softmax along a strided axis) are left to the generic patterns of
// tl-lower-to-linalg, as are dynamically shaped ones.
#include "passes/LinalgBuilders.h"
#include "passes/Passes.h"
#include "targets/cpu/CPUPasses.h"

#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tlc;
namespace s = tlc::tl::scalar;

namespace {

/// Per-row 1-D ops on the row's slices. `ct` is the type statistics are computed in.
struct RowBuilder {
  OpBuilder &b;
  Location loc;
  Type et, ct;
  int64_t n;
  MLIRContext *ctx;

  AffineMap full() { return AffineMap::getMultiDimIdentityMap(1, ctx); }
  AffineMap scalar() { return AffineMap::get(1, 0, {}, ctx); }

  /// The indexing maps of `rowInputs` (whole rows) followed by `extras` (0-D tensors read
  /// once per row, or rows).
  SmallVector<AffineMap> inputMaps(ValueRange rowInputs, ValueRange extras) {
    SmallVector<AffineMap> maps(rowInputs.size(), full());
    for (Value e : extras)
      maps.push_back(cast<RankedTensorType>(e.getType()).getRank() == 0 ? scalar() : full());
    return maps;
  }

  Value toCompute(OpBuilder &nb, Location l, Value v) { return s::convert(nb, l, v, ct); }

  /// Reduces the row into the 0-D `acc` (filled with `identity` first): `acc = combine(acc,
  /// f(row[k], extras...))`, where `extras` are 0-D tensors read once per row.
  Value reduce(Value acc, double identity, ValueRange rowInputs, ValueRange extras,
               function_ref<Value(OpBuilder &, Location, Value, ValueRange)> combine) {
    Value init =
        linalg::FillOp::create(b, loc, s::constant(b, loc, ct, identity), acc).getResult(0);
    SmallVector<Value> ins(rowInputs);
    ins.append(extras.begin(), extras.end());
    SmallVector<AffineMap> maps = inputMaps(rowInputs, extras);
    maps.push_back(scalar());
    return linalg::GenericOp::create(b, loc, init.getType(), ins, ValueRange{init}, maps,
                                     {utils::IteratorType::reduction},
                                     [&](OpBuilder &nb, Location l, ValueRange args) {
                                       linalg::YieldOp::create(
                                           nb, l, combine(nb, l, args.back(), args.drop_back()));
                                     })
        .getResult(0);
  }

  /// A reduction of rowPass into the 0-D `acc`, filled with `identity` first.
  struct Reduction {
    Value acc;
    double identity;
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine;
  };

  /// One pass over rows: `f(rowInputs[k]..., extras..., outs[k]...)` (extras 0-D, read once
  /// per row, or rows; `f` sees the current elements of the output rows last) returns one
  /// value per row of `outs`, written there, then one term per reduction, combined into it:
  /// `acc = combine(acc, term)`. Returns the new output rows and the reduced values.
  std::pair<SmallVector<Value>, SmallVector<Value>>
  rowPass(ValueRange outs, ArrayRef<Reduction> reductions, ValueRange rowInputs, ValueRange extras,
          function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> f) {
    SmallVector<Value> inits(outs);
    for (const Reduction &r : reductions)
      inits.push_back(
          linalg::FillOp::create(b, loc, s::constant(b, loc, ct, r.identity), r.acc).getResult(0));
    SmallVector<Value> ins(rowInputs);
    ins.append(extras.begin(), extras.end());
    SmallVector<AffineMap> maps = inputMaps(rowInputs, extras);
    maps.append(outs.size(), full());
    maps.append(reductions.size(), scalar());
    size_t numIns = ins.size(), numOuts = outs.size();
    auto op = linalg::GenericOp::create(
        b, loc, ValueRange(inits).getTypes(), ins, inits, maps, {utils::IteratorType::reduction},
        [&](OpBuilder &nb, Location l, ValueRange args) {
          SmallVector<Value> yields = f(nb, l, args.take_front(numIns + numOuts));
          for (auto [i, r] : llvm::enumerate(reductions))
            yields[numOuts + i] = r.combine(nb, l, args[numIns + numOuts + i], yields[numOuts + i]);
          linalg::YieldOp::create(nb, l, yields);
        });
    SmallVector<Value> rowsOut(op.getResults().take_front(numOuts));
    return {rowsOut, SmallVector<Value>(op.getResults().drop_front(numOuts))};
  }

  /// One pass writing `v = f(rowInputs[k]..., extras..., out[k])` into the row `out` (`f`
  /// sees the output's current element last, for in-place updates) and reducing
  /// `term(rowInputs[k]..., extras..., v)` into the 0-D `acc` (filled with `identity` first):
  /// `acc = combine(acc, term)`. Extras are 0-D (read once per row) or rows. Returns {the new
  /// row, the reduced value}.
  std::pair<Value, Value>
  writeAndReduce(Value out, Value acc, double identity, ValueRange rowInputs, ValueRange extras,
                 function_ref<Value(OpBuilder &, Location, ValueRange)> f,
                 function_ref<Value(OpBuilder &, Location, ValueRange, Value)> term,
                 function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
    size_t numIns = rowInputs.size() + extras.size();
    auto [rows, reduced] =
        rowPass(out, {{acc, identity, combine}}, rowInputs, extras,
                [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
                  Value v = f(nb, l, args);
                  return {v, term(nb, l, args.take_front(numIns), v)};
                });
    return {rows[0], reduced[0]};
  }

  /// Writes `f(extras...)` of the 0-D `extras` into the 0-D `out` (a per-row scalar).
  Value scalarOp(Value out, ValueRange extras,
                 function_ref<Value(OpBuilder &, Location, ValueRange)> f) {
    SmallVector<AffineMap> maps(extras.size() + 1, AffineMap::get(0, 0, {}, ctx));
    return linalg::GenericOp::create(b, loc, out.getType(), extras, ValueRange{out}, maps,
                                     ArrayRef<utils::IteratorType>{},
                                     [&](OpBuilder &nb, Location l, ValueRange args) {
                                       linalg::YieldOp::create(nb, l, f(nb, l, args.drop_back()));
                                     })
        .getResult(0);
  }

  /// Writes `f(rowInputs[k]..., extras...)` into the row `out`; `f` also sees the output's
  /// current element last (for in-place updates).
  Value write(Value out, ValueRange rowInputs, ValueRange extras,
              function_ref<Value(OpBuilder &, Location, ValueRange)> f) {
    SmallVector<Value> ins(rowInputs);
    ins.append(extras.begin(), extras.end());
    SmallVector<AffineMap> maps = inputMaps(rowInputs, extras);
    maps.push_back(full());
    return linalg::GenericOp::create(b, loc, out.getType(), ins, ValueRange{out}, maps,
                                     {utils::IteratorType::parallel},
                                     [&](OpBuilder &nb, Location l, ValueRange args) {
                                       linalg::YieldOp::create(nb, l, f(nb, l, args));
                                     })
        .getResult(0);
  }
};

/// Policy: the pass producing `rowValue` (a row or a statistic of the per-row linalg ops)
/// prefetches the following row of its row operands while it runs. Used for softmax's exp
/// pass: 1024x1024 f32 at 1 thread, 0.24 -> 0.17 ms (softmax), 0.235 -> 0.195 ms
/// (log_softmax, whose write pass prefetching instead gave 0.208); layer_norm's write pass
/// prefetching made it slower (0.160 -> 0.171 ms at 2048x768).
void prefetchNextRowDuring(Value rowValue) {
  Operation *op = rowValue.getDefiningOp();
  op->setAttr(kPrefetchNextRowAttr, UnitAttr::get(op->getContext()));
}

/// The per-row body: receives the row of the input, the row after it, the row of the output,
/// one 0-D scratch tensor per statistic and the row's carried statistic; returns the new output
/// row and the next row's carried statistic. Without a prologue nothing is carried (the row
/// after and the carried statistic are null, the returned statistic ignored). With one, the
/// loop is software-pipelined: one statistic of each row is computed a row ahead, the
/// prologue computing it for a chunk's first row (from that row and the scratch statistics);
/// the matrix's last row is its own row after.
using RowPrologueFn = function_ref<Value(RowBuilder &, Value, ValueRange)>;
using RowBodyFn =
    function_ref<std::pair<Value, Value>(RowBuilder &, Value, Value, Value, ValueRange, Value)>;

/// What a chunk's loop sees: its builder (inside the scf.forall), the chunk's first row and
/// row count, the chunk of the output to update, one 0-D scratch tensor per statistic, and
/// `rowAt(builder, r)`, row r of the input matrix. Returns the updated chunk.
struct Chunk {
  OpBuilder &b;
  Value start;
  OpFoldResult size;
  Value out;
  SmallVector<Value> stats;
  function_ref<Value(OpBuilder &, Value)> rowAt;
};
using ChunkBodyFn = function_ref<Value(Chunk &)>;

/// Mechanism: `input` ([..., N] collapsed to [R, N]) chunk by chunk, producing a tensor of
/// `input`'s type: an scf.forall over chunks of at most `perChunk` rows, each updating its
/// chunk of the output (`body`). The per-row statistics are 0-D tensors created once per chunk
/// (one buffer per chunk after bufferization, reused by its rows), so the workspace grows with
/// the number of chunks, not of rows.
Value buildChunkLoop(OpBuilder &b, Location loc, Value input, int64_t rows, int64_t n, Type ct,
                     unsigned numStats, int64_t perChunk, ChunkBodyFn body) {
  auto type = cast<RankedTensorType>(input.getType());
  Type et = type.getElementType();
  auto matrixType = RankedTensorType::get({rows, n}, et);
  Value matrix = reshapeTensor(b, loc, input, matrixType);
  Value init = tensor::EmptyOp::create(b, loc, matrixType.getShape(), et);
  int64_t chunks = llvm::divideCeil(rows, perChunk);
  auto forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(chunks)},
                                      ValueRange{init}, std::nullopt);
  OpBuilder nb = OpBuilder::atBlockBegin(forall.getBody());
  auto cst = [&](OpBuilder &ib, int64_t v) { return arith::ConstantIndexOp::create(ib, loc, v); };
  OpFoldResult one = nb.getIndexAttr(1), zero = nb.getIndexAttr(0);
  Value start = arith::MulIOp::create(nb, loc, forall.getInductionVars()[0], cst(nb, perChunk));
  // The last chunk may be shorter: min(perChunk, rows - start) rows.
  OpFoldResult size = nb.getIndexAttr(perChunk);
  if (rows % perChunk != 0)
    size = arith::MinSIOp::create(nb, loc, cst(nb, perChunk),
                                  arith::SubIOp::create(nb, loc, cst(nb, rows), start))
               .getResult();
  SmallVector<OpFoldResult> chunkOffsets = {start, zero}, chunkSizes = {size, nb.getIndexAttr(n)},
                            unitStrides = {one, one};
  Value shared = forall.getRegionIterArgs()[0];
  Value chunk =
      tensor::ExtractSliceOp::create(nb, loc, shared, chunkOffsets, chunkSizes, unitStrides);
  SmallVector<Value> stats;
  for (unsigned i = 0; i < numStats; ++i)
    stats.push_back(tensor::EmptyOp::create(nb, loc, ArrayRef<int64_t>{}, ct));
  auto rowType = RankedTensorType::get({n}, et);
  SmallVector<OpFoldResult> rowSizes = {one, nb.getIndexAttr(n)};
  auto rowAt = [&](OpBuilder &rb, Value r) -> Value {
    return tensor::ExtractSliceOp::create(rb, loc, rowType, matrix, ArrayRef<OpFoldResult>{r, zero},
                                          rowSizes, unitStrides);
  };
  Chunk c{nb, start, size, chunk, stats, rowAt};
  Value result = body(c);
  nb.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(nb, loc, result, shared, chunkOffsets, chunkSizes,
                                        unitStrides);
  return reshapeTensor(b, loc, forall.getResult(0), type);
}

/// Row `i` of `chunk` (rows of `n`).
Value chunkRow(OpBuilder &b, Location loc, Value chunk, OpFoldResult i, int64_t n) {
  auto rowType = RankedTensorType::get({n}, getElementTypeOrSelf(chunk.getType()));
  return tensor::ExtractSliceOp::create(
      b, loc, rowType, chunk, ArrayRef<OpFoldResult>{i, b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(n)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}
/// `chunk` with `row` as its row `i`.
Value insertChunkRow(OpBuilder &b, Location loc, Value row, Value chunk, OpFoldResult i,
                     int64_t n) {
  return tensor::InsertSliceOp::create(
      b, loc, row, chunk, ArrayRef<OpFoldResult>{i, b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(n)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// Row `r + 1` of the input, clamped to its last row (`rows - 1`), which is its own next row.
Value nextRowIndex(OpBuilder &b, Location loc, Value r, int64_t rows) {
  return arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, r, arith::ConstantIndexOp::create(b, loc, 1)),
      arith::ConstantIndexOp::create(b, loc, rows - 1));
}

/// Mechanism: `input` row by row (see buildChunkLoop): each chunk an scf.for over its rows
/// that runs `body` on each row and updates the chunk of the output in place, after
/// `prologue` if given (see RowBodyFn).
Value buildRowLoop(OpBuilder &b, Location loc, Value input, int64_t rows, int64_t n, Type ct,
                   unsigned numStats, int64_t perChunk, RowBodyFn body,
                   RowPrologueFn prologue = nullptr) {
  Type et = cast<RankedTensorType>(input.getType()).getElementType();
  return buildChunkLoop(b, loc, input, rows, n, ct, numStats, perChunk, [&](Chunk &c) {
    SmallVector<Value> inits = {c.out};
    if (prologue) {
      RowBuilder rb{c.b, loc, et, ct, n, b.getContext()};
      inits.push_back(prologue(rb, c.rowAt(c.b, c.start), c.stats));
    }
    auto cst = [&](OpBuilder &ib, int64_t v) { return arith::ConstantIndexOp::create(ib, loc, v); };
    auto loop = scf::ForOp::create(
        c.b, loc, cst(c.b, 0), getValueOrCreateConstantIndexOp(c.b, loc, c.size), cst(c.b, 1),
        inits, [&](OpBuilder &lb, Location, Value i, ValueRange args) {
          Value r = arith::AddIOp::create(lb, loc, c.start, i);
          Value inRow = c.rowAt(lb, r), nextRow, carried;
          if (prologue) {
            nextRow = c.rowAt(lb, nextRowIndex(lb, loc, r, rows));
            carried = args[1];
          }
          Value outRow = chunkRow(lb, loc, args[0], i, n);
          RowBuilder rb{lb, loc, et, ct, n, b.getContext()};
          auto [newRow, nextCarried] = body(rb, inRow, nextRow, outRow, c.stats, carried);
          SmallVector<Value> yields = {insertChunkRow(lb, loc, newRow, args[0], i, n)};
          if (prologue)
            yields.push_back(nextCarried);
          scf::YieldOp::create(lb, loc, yields);
        });
    return loop.getResult(0);
  });
}

/// Policy: the row view of an op normalizing over axes [axis, rank), if it has static shape.
std::optional<std::pair<int64_t, int64_t>> rowShape(RankedTensorType type, int64_t axis) {
  if (!type.hasStaticShape() || type.getRank() == 0)
    return std::nullopt;
  int64_t rows = 1, n = 1;
  for (int64_t d = 0; d < type.getRank(); ++d)
    (d < axis ? rows : n) *= type.getDimSize(d);
  if (rows == 0 || n == 0)
    return std::nullopt;
  return std::make_pair(rows, n);
}

/// Policy: rows per parallel chunk. At most 64 chunks (enough for the thread pool to balance,
/// few per-chunk statistics buffers).
int64_t rowsPerChunk(int64_t rows) { return llvm::divideCeil(rows, std::min<int64_t>(rows, 64)); }

/// Policy: layer_norm's and f32 softmax's rows are software-pipelined (see LowerLayerNormRows,
/// LowerSoftmaxRows) from this many rows per chunk on; each chunk then takes one statistic of
/// one row more than it writes.
constexpr int64_t kMinPipelinedRows = 8;

/// f16/bf16 statistics in f32; f32/f64 in their own type.
Type computeType(Type et) {
  return et.getIntOrFloatBitWidth() < 32 ? Float32Type::get(et.getContext()) : et;
}

/// Mechanism: f32/f64 softmax over rows with one walk per row (software-pipelined two rows
/// deep): the pass over row i computes exp(x_i - m_i) into a row-sized scratch tensor and sums
/// it, writes the previous row's output as its exponentials (read from the scratch at the same
/// column, before they are replaced) times 1 / sum_{i-1}, and takes the next row's maximum
/// m_{i+1}. So each output row is written once, by the compute-bound exp loop, instead of
/// written and then rescaled by a loop of its own. A chunk's first row (after its maximum)
/// only fills the scratch; its last row is written after the loop. The carried maximum and sum
/// are refilled in place: the pass reads -m_i and 1 / sum_{i-1} from their own 0-D tensors.
/// The scratch row is one per chunk (workspace: chunks x N elements).
Value buildFusedSoftmax(OpBuilder &b, Location loc, Value input, int64_t rows, int64_t n, Type ct,
                        int64_t perChunk) {
  Type et = cast<RankedTensorType>(input.getType()).getElementType();
  MLIRContext *ctx = b.getContext();
  auto maxOf = [](OpBuilder &nb, Location l, Value acc, Value v) -> Value {
    return arith::MaxNumFOp::create(nb, l, acc, v);
  };
  auto add = [](OpBuilder &nb, Location l, Value acc, Value v) { return s::add(nb, l, acc, v); };
  // exp(x + -m): the argument is <= 0 (or NaN), so the fast exp needs no overflow clamp.
  auto expShifted = [](OpBuilder &nb, Location l, Value x, Value negMax) {
    Value e = s::exp(nb, l, s::add(nb, l, x, negMax));
    e.getDefiningOp()->setAttr(kExpNonPositiveArgAttr, nb.getUnitAttr());
    return e;
  };
  double lowest = -std::numeric_limits<double>::infinity();
  return buildChunkLoop(b, loc, input, rows, n, ct, 4, perChunk, [&](Chunk &ch) {
    // stats: the carried maximum, the carried sum, -maximum, 1 / sum.
    Value maxAcc = ch.stats[0], sumAcc = ch.stats[1], negAcc = ch.stats[2], invAcc = ch.stats[3];
    auto negate = [&](RowBuilder &rb, Value m) {
      return rb.scalarOp(negAcc, {m}, [](OpBuilder &nb, Location l, ValueRange a) {
        return arith::NegFOp::create(nb, l, a[0]).getResult();
      });
    };
    auto inverse = [&](RowBuilder &rb, Value sum) {
      return rb.scalarOp(invAcc, {sum}, [&](OpBuilder &nb, Location l, ValueRange a) {
        return s::div(nb, l, s::constant(nb, l, ct, 1.0), a[0]);
      });
    };
    RowBuilder cb{ch.b, loc, et, ct, n, ctx};
    auto cst = [&](OpBuilder &ib, int64_t v) { return arith::ConstantIndexOp::create(ib, loc, v); };
    // The chunk's first row: its maximum, then its exponentials into the scratch row, summed,
    // with the next row's maximum.
    Value first = ch.rowAt(ch.b, ch.start);
    Value m0 = cb.reduce(maxAcc, lowest, first, {},
                         [&](OpBuilder &nb, Location l, Value acc, ValueRange a) {
                           return maxOf(nb, l, acc, a[0]);
                         });
    Value neg0 = negate(cb, m0);
    Value next0 = ch.rowAt(ch.b, nextRowIndex(ch.b, loc, ch.start, rows));
    Value scratch = tensor::EmptyOp::create(ch.b, loc, ArrayRef<int64_t>{n}, ct);
    auto [rows0, reduced0] =
        cb.rowPass(scratch, {{sumAcc, 0.0, add}, {m0, lowest, maxOf}}, {first, next0}, {neg0},
                   [&](OpBuilder &nb, Location l, ValueRange a) -> SmallVector<Value> {
                     Value e = expShifted(nb, l, a[0], a[2]);
                     return {e, e, a[1]};
                   });
    prefetchNextRowDuring(rows0[0]);
    Value size = getValueOrCreateConstantIndexOp(ch.b, loc, ch.size);
    auto loop = scf::ForOp::create(
        ch.b, loc, cst(ch.b, 1), size, cst(ch.b, 1),
        ValueRange{ch.out, rows0[0], reduced0[1], reduced0[0]},
        [&](OpBuilder &lb, Location, Value i, ValueRange args) {
          RowBuilder rb{lb, loc, et, ct, n, ctx};
          Value r = arith::AddIOp::create(lb, loc, ch.start, i);
          Value x = ch.rowAt(lb, r), next = ch.rowAt(lb, nextRowIndex(lb, loc, r, rows));
          Value prevIndex = arith::SubIOp::create(lb, loc, i, cst(lb, 1));
          Value neg = negate(rb, args[2]), inv = inverse(rb, args[3]);
          // a = {x, next, -m, 1 / sum_prev, scratch (the previous row's exponentials), the
          // previous output row}.
          auto [newRows, reduced] =
              rb.rowPass(ValueRange{args[1], chunkRow(lb, loc, args[0], prevIndex, n)},
                         {{args[3], 0.0, add}, {args[2], lowest, maxOf}}, {x, next}, {neg, inv},
                         [&](OpBuilder &nb, Location l, ValueRange a) -> SmallVector<Value> {
                           Value e = expShifted(nb, l, a[0], a[2]);
                           return {e, s::mul(nb, l, a[4], a[3]), e, a[1]};
                         });
          prefetchNextRowDuring(newRows[0]);
          Value updated = insertChunkRow(lb, loc, newRows[1], args[0], prevIndex, n);
          scf::YieldOp::create(lb, loc, ValueRange{updated, newRows[0], reduced[1], reduced[0]});
        });
    // The chunk's last row, from the scratch, after the loop.
    Value last = arith::SubIOp::create(ch.b, loc, size, cst(ch.b, 1));
    Value inv = inverse(cb, loop.getResult(3));
    Value lastRow =
        cb.write(chunkRow(ch.b, loc, loop.getResult(0), last, n), loop.getResult(1), {inv},
                 [](OpBuilder &nb, Location l, ValueRange a) { return s::mul(nb, l, a[0], a[1]); });
    return insertChunkRow(ch.b, loc, lastRow, loop.getResult(0), last, n);
  });
}

/// softmax: m = max(x) (ignoring NaN); out = exp(x - m) and s = sum(out) in one pass;
/// out *= 1 / s. For f16/bf16 the sum is taken over the f32 exponentials (recomputed), not
/// over their rounded values.
/// log_softmax: m = max(x); s = sum(exp(x - m)); out = (x - m) - log s.
/// With enough rows per chunk (f32/f64) both take the maximum a row ahead, in the last pass
/// over the previous row: softmax in its one pass per row (buildFusedSoftmax), log_softmax in
/// its write pass (the pipelined body below).
template <typename SoftmaxLike, bool isLog>
struct LowerSoftmaxRows : OpRewritePattern<SoftmaxLike> {
  LowerSoftmaxRows(MLIRContext *ctx) : OpRewritePattern<SoftmaxLike>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(SoftmaxLike op, PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    int64_t axis = op.getNormalizedAxis();
    if (axis != type.getRank() - 1)
      return failure(); // a strided axis: the generic lowering
    auto shape = rowShape(type, axis);
    if (!shape)
      return failure();
    Type et = type.getElementType(), ct = computeType(et);
    bool sameType = et == ct;
    auto lowest = -std::numeric_limits<double>::infinity();
    auto c = [](RowBuilder &rb, OpBuilder &nb, Location l, Value v) {
      return rb.toCompute(nb, l, v);
    };
    // maxnumf (NaN-ignoring, which vectorizes to one vmaxps per vector) is enough: a NaN in the
    // row still makes its exp(x - m), so the sum and every output, NaN.
    auto maxOf = [](OpBuilder &nb, Location l, Value acc, Value v) -> Value {
      return arith::MaxNumFOp::create(nb, l, acc, v);
    };
    auto rowMax = [&](RowBuilder &rb, Value acc, Value x) {
      return rb.reduce(acc, lowest, x, {}, [&](OpBuilder &nb, Location l, Value a, ValueRange v) {
        return maxOf(nb, l, a, c(rb, nb, l, v[0]));
      });
    };
    auto shifted = [&](RowBuilder &rb, OpBuilder &nb, Location l, Value xv, Value mv) {
      return s::sub(nb, l, c(rb, nb, l, xv), mv);
    };
    // exp(x - m) with m the row's maximum: the argument is <= 0 (or NaN), so the fast exp needs
    // no overflow clamp.
    auto expShifted = [&](RowBuilder &rb, OpBuilder &nb, Location l, Value xv, Value mv) {
      Value e = s::exp(nb, l, shifted(rb, nb, l, xv, mv));
      e.getDefiningOp()->setAttr(kExpNonPositiveArgAttr, nb.getUnitAttr());
      return e;
    };
    // exp(x - m) written into `out` and summed into the 0-D `sumAcc` in one pass over the row.
    auto expAndSum = [&](RowBuilder &rb, Value x, Value m, Value out, Value sumAcc) {
      auto [exps, sum] = rb.writeAndReduce(
          out, sumAcc, 0.0, x, {m},
          [&](OpBuilder &nb, Location l, ValueRange a) {
            return expShifted(rb, nb, l, a[0], a[1]);
          },
          [&](OpBuilder &, Location, ValueRange, Value v) { return v; },
          [&](OpBuilder &nb, Location l, Value acc, Value v) { return s::add(nb, l, acc, v); });
      prefetchNextRowDuring(exps);
      return std::make_pair(exps, sum);
    };
    // sum(exp(x - m)) over the row into the 0-D `sumAcc` (log_softmax; f16/bf16 softmax).
    auto sumOfExps = [&](RowBuilder &rb, Value x, Value m, Value sumAcc) {
      Value sum =
          rb.reduce(sumAcc, 0.0, x, {m}, [&](OpBuilder &nb, Location l, Value acc, ValueRange a) {
            return s::add(nb, l, acc, expShifted(rb, nb, l, a[0], a[1]));
          });
      prefetchNextRowDuring(sum);
      return sum;
    };
    // log_softmax's (x - m) - log(sum) (subtracting m first keeps it exact where x is near
    // m), from x - m.
    auto logSoftmax = [&](RowBuilder &rb, OpBuilder &nb, Location l, Value d, Value sum) {
      return s::convert(nb, l, s::sub(nb, l, d, s::log(nb, l, sum)), rb.et);
    };
    // `exps` (the output row) times 1 / sum, from its current element `e`.
    auto scaled = [&](OpBuilder &nb, Location l, Value e, Value sum) {
      return s::mul(nb, l, e, s::div(nb, l, s::constant(nb, l, ct, 1.0), sum));
    };
    int64_t perChunk = rowsPerChunk(shape->first);
    Value result;
    if (sameType && perChunk >= kMinPipelinedRows && !isLog) {
      rewriter.replaceOp(op, buildFusedSoftmax(rewriter, op.getLoc(), op.getInput(), shape->first,
                                               shape->second, ct, perChunk));
      return success();
    }
    if (sameType && perChunk >= kMinPipelinedRows) {
      // log_softmax, software-pipelined: the write pass also takes the next row's maximum, so
      // the row is walked twice instead of three times, and the next row's loads overlap that
      // pass's stores. The carried maximum is overwritten in place with the next row's; the
      // write pass reads its negation from its own 0-D tensor.
      result = buildRowLoop(
          rewriter, op.getLoc(), op.getInput(), shape->first, shape->second, ct, 3, perChunk,
          [&](RowBuilder &rb, Value x, Value next, Value out, ValueRange stats,
              Value m) -> std::pair<Value, Value> {
            Value sum = sumOfExps(rb, x, m, stats[1]);
            // -m in its own 0-D tensor (x + -m rounds as x - m does; a plain copy would fold
            // away).
            Value negMax = rb.scalarOp(stats[2], {m}, [](OpBuilder &nb, Location l, ValueRange a) {
              return arith::NegFOp::create(nb, l, a[0]).getResult();
            });
            // a = {next, x, -m, sum, out}.
            return rb.writeAndReduce(
                out, m, lowest, {next, x}, {negMax, sum},
                [&](OpBuilder &nb, Location l, ValueRange a) {
                  return logSoftmax(rb, nb, l, s::add(nb, l, c(rb, nb, l, a[1]), a[2]), a[3]);
                },
                [&](OpBuilder &nb, Location l, ValueRange a, Value) { return c(rb, nb, l, a[0]); },
                maxOf);
          },
          [&](RowBuilder &rb, Value first, ValueRange stats) {
            return rowMax(rb, stats[0], first);
          });
      rewriter.replaceOp(op, result);
      return success();
    }
    result = buildRowLoop(
        rewriter, op.getLoc(), op.getInput(), shape->first, shape->second, ct, 2, perChunk,
        [&](RowBuilder &rb, Value x, Value, Value out, ValueRange stats,
            Value) -> std::pair<Value, Value> {
          Value m = rowMax(rb, stats[0], x);
          if (isLog || !sameType) {
            Value sum = sumOfExps(rb, x, m, stats[1]);
            Value row = rb.write(out, x, {m, sum}, [&](OpBuilder &nb, Location l, ValueRange a) {
              if (isLog)
                return logSoftmax(rb, nb, l, shifted(rb, nb, l, a[0], a[1]), a[2]);
              Value v = s::div(nb, l, expShifted(rb, nb, l, a[0], a[1]), a[2]);
              return s::convert(nb, l, v, rb.et);
            });
            return {row, Value()};
          }
          auto [exps, sum] = expAndSum(rb, x, m, out, stats[1]);
          Value row = rb.write(exps, {}, {sum}, [&](OpBuilder &nb, Location l, ValueRange a) {
            return scaled(nb, l, a[1], a[0]);
          });
          return {row, Value()};
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// layer_norm: sum = sum(x); sq = sum((x - mean)^2) (two passes over the cached row, not
/// E[x^2] - mean^2, which cancels); out = (x - mean) * rsqrt(sq / N + eps) * scale + bias.
/// With enough rows per chunk the sum is taken a row ahead, in the pass writing the previous
/// row (2048x768 at 1 thread: 0.164 -> 0.151 ms; prefetching the next row instead measured
/// slower, and shifted single-pass statistics lost two digits on rows whose first element is
/// an outlier).
struct LowerLayerNormRows : OpRewritePattern<tl::LayerNormOp> {
  LowerLayerNormRows(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(tl::LayerNormOp op, PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    auto shape = rowShape(type, op.getNormalizedAxis());
    if (!shape)
      return failure();
    Location loc = op.getLoc();
    int64_t n = shape->second;
    Type et = type.getElementType(), ct = computeType(et);
    auto paramType = [&](Value v) {
      return RankedTensorType::get({n}, cast<RankedTensorType>(v.getType()).getElementType());
    };
    Value scale = reshapeTensor(rewriter, loc, op.getScale(), paramType(op.getScale()));
    Value bias = reshapeTensor(rewriter, loc, op.getBias(), paramType(op.getBias()));
    double inv = 1.0 / static_cast<double>(n), eps = op.getEpsilon().convertToDouble();
    auto c = [&](RowBuilder &rb, OpBuilder &nb, Location l, Value v) {
      return rb.toCompute(nb, l, v);
    };
    auto rowSum = [&](RowBuilder &rb, Value acc, Value x) {
      return rb.reduce(acc, 0.0, x, {}, [&](OpBuilder &nb, Location l, Value a, ValueRange v) {
        return s::add(nb, l, a, c(rb, nb, l, v[0]));
      });
    };
    // (x - mean) * rsqrt(sq / N + eps) * scale + bias, from a = {x, mean, sq, scale, bias}.
    auto normalize = [&](RowBuilder &rb, OpBuilder &nb, Location l, ValueRange a) {
      Value var = s::add(nb, l, s::mul(nb, l, a[2], s::constant(nb, l, ct, inv)),
                         s::constant(nb, l, ct, eps));
      Value d = s::sub(nb, l, c(rb, nb, l, a[0]), a[1]);
      Value norm = s::mul(nb, l, d, math::RsqrtOp::create(nb, l, var));
      Value v = s::add(nb, l, s::mul(nb, l, norm, c(rb, nb, l, a[3])), c(rb, nb, l, a[4]));
      return s::convert(nb, l, v, rb.et);
    };
    // The mean into its own 0-D tensor; then sum((x - mean)^2) over the cached row.
    auto meanAndSquares = [&](RowBuilder &rb, Value x, Value sum, ValueRange stats) {
      Value mean = rb.scalarOp(stats[2], {sum}, [&](OpBuilder &nb, Location l, ValueRange a) {
        return s::mul(nb, l, a[0], s::constant(nb, l, ct, inv));
      });
      Value sq = rb.reduce(stats[1], 0.0, x, {mean},
                           [&](OpBuilder &nb, Location l, Value acc, ValueRange a) {
                             Value d = s::sub(nb, l, c(rb, nb, l, a[0]), a[1]);
                             return s::add(nb, l, acc, s::mul(nb, l, d, d));
                           });
      return std::make_pair(mean, sq);
    };
    int64_t perChunk = rowsPerChunk(shape->first);
    Value result;
    if (perChunk >= kMinPipelinedRows) {
      // Software-pipelined: the last pass also sums the next row, so its loads overlap the
      // write's stores, and the carried sum is overwritten in place with the next row's (the
      // mean, which that pass reads, has its own 0-D tensor).
      result = buildRowLoop(
          rewriter, loc, op.getInput(), shape->first, n, ct, 3, perChunk,
          [&](RowBuilder &rb, Value x, Value next, Value out, ValueRange stats,
              Value sum) -> std::pair<Value, Value> {
            auto [mean, sq] = meanAndSquares(rb, x, sum, stats);
            return rb.writeAndReduce(
                out, sum, 0.0, {x, next}, {mean, sq, scale, bias},
                [&](OpBuilder &nb, Location l, ValueRange a) {
                  return normalize(rb, nb, l, {a[0], a[2], a[3], a[4], a[5]});
                },
                [&](OpBuilder &nb, Location l, ValueRange a, Value) { return c(rb, nb, l, a[1]); },
                [&](OpBuilder &nb, Location l, Value acc, Value v) {
                  return s::add(nb, l, acc, v);
                });
          },
          [&](RowBuilder &rb, Value first, ValueRange stats) {
            return rowSum(rb, stats[0], first);
          });
    } else {
      // Few rows per chunk: each chunk would sum one row too many; three passes per row.
      result = buildRowLoop(rewriter, loc, op.getInput(), shape->first, n, ct, 3, perChunk,
                            [&](RowBuilder &rb, Value x, Value, Value out, ValueRange stats,
                                Value) -> std::pair<Value, Value> {
                              auto [mean, sq] =
                                  meanAndSquares(rb, x, rowSum(rb, stats[0], x), stats);
                              Value row = rb.write(out, x, {mean, sq, scale, bias},
                                                   [&](OpBuilder &nb, Location l, ValueRange a) {
                                                     return normalize(rb, nb, l, a.drop_back());
                                                   });
                              return {row, Value()};
                            });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tlc::populateTLRowOpsToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerSoftmaxRows<tl::SoftmaxOp, false>, LowerSoftmaxRows<tl::LogSoftmaxOp, true>,
               LowerLayerNormRows>(patterns.getContext());
}
