// Attention on the GPU as one flash-attention kernel (tl.fused_attention on buffers).
//
// A workgroup owns `bq` query rows of one batch point (grid x: row blocks, grid y: the batch).
// It stages its rows of Q, scaled, once into workgroup memory (transposed, Q^T [D][bq]), then
// steps over the keys `bk` at a time: each step stages K^T [D][bk] and V [bk][Dv], computes the
// bq x bk scores in registers, applies the causal and additive masks, and updates each row's
// running maximum m, the sum l of exp(score - m) and the unnormalized output acc, rescaling
// them by exp(m_old - m_new) (the online softmax); the probabilities go through workgroup
// memory (P^T [bk][bq]) into acc += P V. The threads form rowGroups x colGroups: a thread owns
// rows r + i * rowGroups (i < tm), score columns c + j * colGroups and output columns
// c + j * colGroups, so the threads sharing a row meet in workgroup memory for its maximum
// (each step) and its sum (once, at the end). Causal attention stops at the block's last row.
#include "targets/gpu/FlashAttention.h"

#include "targets/gpu/KernelLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace tlc;

namespace {

constexpr int64_t kThreads = 128;

/// A tile: bq query rows per workgroup, bk keys per step, tm rows per thread.
struct FlashTile {
  int64_t bq, bk, tm;
  int64_t rowGroups() const { return bq / tm; }
  int64_t colGroups() const { return kThreads / rowGroups(); }
};

/// The workgroup arrays of one tile at head dimensions d (Q, K) and dv (V): element counts and
/// row strides. Rows of the transposed arrays are padded by one element so a warp's column
/// stores spread over the banks.
struct FlashArrays {
  int64_t qStride, kStride, pStride;
  int64_t q, k, v, p, partial;
  FlashArrays(const FlashTile &t, int64_t d, int64_t dv)
      : qStride(t.bq + 1), kStride(t.bk + 1), pStride(t.bq + 1), q(d * qStride),
        k(d * kStride), v(t.bk * dv), p(t.bk * pStride), partial(t.colGroups() * t.bq) {}
  int64_t bytes() const { return 4 * (q + k + v + p + partial); }
};

/// Workgroups that keep a large GPU busy (an H100 has 132 multiprocessors).
constexpr int64_t kBusyWorkgroups = 128;

/// The largest tile whose arrays fit `limit` bytes and that still gives `kBusyWorkgroups`
/// workgroups for `rows` query rows at `batch` batch points; else the smallest that fits (a
/// short sequence: more, smaller workgroups).
std::optional<FlashTile> pickTile(int64_t d, int64_t dv, int64_t rows, int64_t batch,
                                  int64_t limit) {
  std::optional<FlashTile> fits;
  for (FlashTile t : {FlashTile{64, 32, 4}, FlashTile{32, 32, 2}, FlashTile{16, 16, 1}}) {
    if (FlashArrays(t, d, dv).bytes() > limit)
      continue;
    if (llvm::divideCeil(rows, t.bq) * batch >= kBusyWorkgroups)
      return t;
    fits = t;
  }
  return fits;
}

class FlashAttentionEmitter : tlc::KernelEmitterBase {
public:
  FlashAttentionEmitter(OpBuilder &b, tl::FusedAttentionOp op, const FlashTile &tile,
                        const FlashArrays &arrays, gpu::LaunchOp launch)
      : KernelEmitterBase(b, op.getLoc()), op(op), tile(tile), qStride(arrays.qStride),
        kStride(arrays.kStride), pStride(arrays.pStride), launch(launch) {
    auto q = cast<MemRefType>(op.getQuery().getType());
    int64_t rank = q.getRank();
    batchShape.assign(q.getShape().drop_back(2).begin(), q.getShape().drop_back(2).end());
    sq = q.getDimSize(rank - 2);
    d = q.getDimSize(rank - 1);
    sk = cast<MemRefType>(op.getKey().getType()).getDimSize(rank - 2);
    dv = cast<MemRefType>(op.getValue().getType()).getDimSize(rank - 1);
    tn = tile.bk / tile.colGroups();
    tv = llvm::divideCeil(dv, tile.colGroups());
  }

  void emit() {
    IRMapping views;
    query = tlc::cloneViewChain(b, op.getQuery(), views);
    key = tlc::cloneViewChain(b, op.getKey(), views);
    value = tlc::cloneViewChain(b, op.getValue(), views);
    if (op.getMask())
      mask = tlc::cloneViewChain(b, op.getMask(), views);
    out = tlc::cloneViewChain(b, op.getInit(), views);
    ValueRange shared = launch.getWorkgroupAttributions();
    qShared = shared[0];
    kShared = shared[1];
    vShared = shared[2];
    pShared = shared[3];
    partial = shared[4];

    Value tid = launch.getThreadIds().x;
    threadRow = arith::DivUIOp::create(b, loc, tid, index(tile.colGroups()));
    threadCol = arith::RemUIOp::create(b, loc, tid, index(tile.colGroups()));
    rowStart = arith::MulIOp::create(b, loc, launch.getBlockIds().x, index(tile.bq));
    SmallVector<unsigned> dims = llvm::to_vector(llvm::seq<unsigned>(0, batchShape.size()));
    batch.assign(batchShape.size(), Value());
    if (!batchShape.empty())
      for (auto [dim, v] : tlc::delinearize(b, loc, launch.getBlockIds().y, dims, batchShape))
        batch[dim] = v;

    stageQuery();
    // Keys past the block's last row are masked out of every row of a causal block.
    Value keyEnd = index(sk);
    if (op.getCausal())
      keyEnd = arith::MinUIOp::create(b, loc, keyEnd, add(rowStart, index(tile.bq)));
    SmallVector<Value> init;
    Value negInf = floatConst(-std::numeric_limits<double>::infinity());
    Value zero = floatConst(0.0);
    init.append(tile.tm, negInf);                // m
    init.append(tile.tm, zero);                  // l (this thread's columns)
    init.append(tile.tm * tv, zero);             // acc
    auto loop = scf::ForOp::create(b, loc, index(0), keyEnd, index(tile.bk), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      ValueRange args = loop.getRegionIterArgs();
      scf::YieldOp::create(b, loc, step(loop.getInductionVar(), args));
    }
    finish(loop.getResults());
  }

private:
  Value floatConst(double v) { return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)); }
  Value load(Value memref, Value at) { return memref::LoadOp::create(b, loc, memref, at); }
  void store(Value v, Value memref, Value at) { memref::StoreOp::create(b, loc, v, memref, at); }
  void barrier() { gpu::BarrierOp::create(b, loc); }

  /// Element (row, col) of a [batch..., rows, cols] operand at this workgroup's batch point.
  Value loadOperand(Value memref, Value row, Value col) {
    SmallVector<Value> indices(batch);
    indices.append({row, col});
    return memref::LoadOp::create(b, loc, memref, indices);
  }

  /// This thread's row i within the block, and the query row it is.
  Value localRow(int64_t i) { return add(threadRow, index(i * tile.rowGroups())); }
  /// This thread's column j within a step's keys or the output's columns.
  Value localCol(int64_t j) { return add(threadCol, index(j * tile.colGroups())); }

  /// Cooperative copy of a rows x cols block: element e of the block (row-major, consecutive
  /// threads on consecutive columns: coalesced global reads) goes through `copy(row, col)`.
  void cooperatively(int64_t rows, int64_t cols,
                     llvm::function_ref<void(Value row, Value col)> copy) {
    int64_t count = rows * cols;
    Value tid = launch.getThreadIds().x;
    for (int64_t first = 0; first < count; first += kThreads) {
      Value e = add(tid, index(first));
      OpBuilder::InsertionGuard guard(b);
      if (first + kThreads > count) {
        auto inside = scf::IfOp::create(b, loc, below(e, count), /*withElseRegion=*/false);
        b.setInsertionPointToStart(&inside.getThenRegion().front());
      }
      copy(arith::DivUIOp::create(b, loc, e, index(cols)),
           arith::RemUIOp::create(b, loc, e, index(cols)));
    }
  }

  /// The block's query rows, times the scale, into Q^T (rows past Sq: zeros).
  void stageQuery() {
    Value scale = floatConst(op.getScale().convertToDouble());
    Value zero = floatConst(0.0);
    cooperatively(tile.bq, d, [&](Value row, Value col) {
      Value global = add(rowStart, row);
      Value x = loadOperand(query, clampBelow(global, sq), col);
      x = arith::MulFOp::create(b, loc, x, scale);
      x = arith::SelectOp::create(b, loc, below(global, sq), x, zero);
      store(x, qShared, add(mul(col, qStride), row));
    });
  }

  /// The step's keys into K^T and values into V (keys past Sk: zeros, so their zero
  /// probabilities never meet a NaN).
  void stageKeys(Value k0) {
    Value zero = floatConst(0.0);
    cooperatively(tile.bk, d, [&](Value row, Value col) {
      Value global = add(k0, row);
      Value x = loadOperand(key, clampBelow(global, sk), col);
      x = arith::SelectOp::create(b, loc, below(global, sk), x, zero);
      store(x, kShared, add(mul(col, kStride), row));
    });
    cooperatively(tile.bk, dv, [&](Value row, Value col) {
      Value global = add(k0, row);
      Value x = loadOperand(value, clampBelow(global, sk), col);
      x = arith::SelectOp::create(b, loc, below(global, sk), x, zero);
      store(x, vShared, add(mul(row, dv), col));
    });
  }

  /// `body(i, values)` for i in [0, n), `unroll` copies per iteration of an scf.for (the
  /// remainder inline after it), threading `values`.
  SmallVector<Value>
  unrolledLoop(int64_t n, int64_t unroll, SmallVector<Value> values,
               llvm::function_ref<SmallVector<Value>(Value, ArrayRef<Value>)> body) {
    int64_t main = n / unroll * unroll;
    if (main > 0) {
      auto loop = scf::ForOp::create(b, loc, index(0), index(main), index(unroll), values);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> current(loop.getRegionIterArgs());
      for (int64_t u = 0; u < unroll; ++u)
        current = body(add(loop.getInductionVar(), index(u)), current);
      scf::YieldOp::create(b, loc, current);
      values.assign(loop.getResults().begin(), loop.getResults().end());
    }
    for (int64_t i = main; i < n; ++i)
      values = body(index(i), values);
    return values;
  }

  /// The additive mask at query row `row` and key `col` (both in range), broadcast to the
  /// scores [batch..., Sq, Sk] from the right.
  Value maskAt(Value row, Value col) {
    auto type = cast<MemRefType>(mask.getType());
    SmallVector<Value> scoreIndex(batch);
    scoreIndex.append({row, col});
    int64_t offset = static_cast<int64_t>(scoreIndex.size()) - type.getRank();
    SmallVector<Value> indices;
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      indices.push_back(type.getDimSize(dim) == 1 ? index(0) : scoreIndex[offset + dim]);
    return memref::LoadOp::create(b, loc, mask, indices);
  }

  /// One step over keys [k0, k0 + bk): returns the new m, l and acc.
  SmallVector<Value> step(Value k0, ValueRange args) {
    SmallVector<Value> m(args.take_front(tile.tm)), l(args.slice(tile.tm, tile.tm));
    SmallVector<Value> acc(args.drop_front(2 * tile.tm));
    barrier(); // the previous step has read K, V and P
    stageKeys(k0);
    barrier();

    // Scores: (scale Q) K^T over the head dimension.
    SmallVector<Value> scores(tile.tm * tn, floatConst(0.0));
    scores = unrolledLoop(d, 4, scores, [&](Value dd, ArrayRef<Value> s) {
      SmallVector<Value> next(s);
      SmallVector<Value> qv, kv;
      for (int64_t i = 0; i < tile.tm; ++i)
        qv.push_back(load(qShared, add(mul(dd, qStride), localRow(i))));
      for (int64_t j = 0; j < tn; ++j)
        kv.push_back(load(kShared, add(mul(dd, kStride), localCol(j))));
      for (int64_t i = 0; i < tile.tm; ++i)
        for (int64_t j = 0; j < tn; ++j)
          next[i * tn + j] = arith::AddFOp::create(
              b, loc, next[i * tn + j], arith::MulFOp::create(b, loc, qv[i], kv[j]));
      return next;
    });

    // Masks, and each row's maximum over this thread's columns into the partials.
    Value negInf = floatConst(-std::numeric_limits<double>::infinity());
    for (int64_t i = 0; i < tile.tm; ++i) {
      Value row = add(rowStart, localRow(i));
      Value rowMax = negInf;
      for (int64_t j = 0; j < tn; ++j) {
        Value col = add(k0, localCol(j));
        Value valid = below(col, sk);
        if (op.getCausal())
          valid = arith::AndIOp::create(
              b, loc, valid, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, col, row));
        Value &s = scores[i * tn + j];
        if (mask)
          s = arith::AddFOp::create(b, loc, s, maskAt(clampBelow(row, sq), clampBelow(col, sk)));
        s = arith::SelectOp::create(b, loc, valid, s, negInf);
        rowMax = arith::MaximumFOp::create(b, loc, rowMax, s);
      }
      store(rowMax, partial, add(mul(threadCol, tile.bq), localRow(i)));
    }
    barrier();

    // The online softmax: new maxima, rescaled sums and accumulators, probabilities into P^T.
    SmallVector<Value> result;
    SmallVector<Value> newL;
    Value zero = floatConst(0.0);
    for (int64_t i = 0; i < tile.tm; ++i) {
      Value newM = m[i];
      for (int64_t c = 0; c < tile.colGroups(); ++c)
        newM = arith::MaximumFOp::create(b, loc, newM,
                                         load(partial, add(index(c * tile.bq), localRow(i))));
      result.push_back(newM);
      // A row with every key so far masked out keeps m = -inf: exponents relative to 0 then
      // give zero probabilities instead of NaN (-inf - -inf).
      Value isInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, newM, negInf);
      Value base = arith::SelectOp::create(b, loc, isInf, zero, newM);
      Value alpha = math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, m[i], base));
      Value sum = arith::MulFOp::create(b, loc, l[i], alpha);
      for (int64_t j = 0; j < tn; ++j) {
        Value p = math::ExpOp::create(
            b, loc, arith::SubFOp::create(b, loc, scores[i * tn + j], base));
        sum = arith::AddFOp::create(b, loc, sum, p);
        store(p, pShared, add(mul(localCol(j), pStride), localRow(i)));
      }
      newL.push_back(sum);
      for (int64_t j = 0; j < tv; ++j)
        acc[i * tv + j] = arith::MulFOp::create(b, loc, acc[i * tv + j], alpha);
    }
    llvm::append_range(result, newL);
    barrier();

    // acc += P V over the step's keys (columns past Dv read the last one; never stored).
    SmallVector<Value> cols;
    for (int64_t j = 0; j < tv; ++j)
      cols.push_back(clampBelow(localCol(j), dv));
    acc = unrolledLoop(tile.bk, 4, acc, [&](Value kk, ArrayRef<Value> a) {
      SmallVector<Value> next(a);
      SmallVector<Value> pv, vv;
      for (int64_t i = 0; i < tile.tm; ++i)
        pv.push_back(load(pShared, add(mul(kk, pStride), localRow(i))));
      for (int64_t j = 0; j < tv; ++j)
        vv.push_back(load(vShared, add(mul(kk, dv), cols[j])));
      for (int64_t i = 0; i < tile.tm; ++i)
        for (int64_t j = 0; j < tv; ++j)
          next[i * tv + j] = arith::AddFOp::create(
              b, loc, next[i * tv + j], arith::MulFOp::create(b, loc, pv[i], vv[j]));
      return next;
    });
    llvm::append_range(result, acc);
    return result;
  }

  /// Each row's sum over its threads, then out = acc / l for the rows and columns in range.
  void finish(ValueRange results) {
    ValueRange l = results.slice(tile.tm, tile.tm);
    ValueRange acc = results.drop_front(2 * tile.tm);
    // The last step's readers of the partials passed the barrier before P V.
    for (int64_t i = 0; i < tile.tm; ++i)
      store(l[i], partial, add(mul(threadCol, tile.bq), localRow(i)));
    barrier();
    for (int64_t i = 0; i < tile.tm; ++i) {
      Value sum = floatConst(0.0);
      for (int64_t c = 0; c < tile.colGroups(); ++c)
        sum = arith::AddFOp::create(b, loc, sum,
                                    load(partial, add(index(c * tile.bq), localRow(i))));
      Value row = add(rowStart, localRow(i));
      for (int64_t j = 0; j < tv; ++j) {
        Value col = localCol(j);
        Value inside = arith::AndIOp::create(b, loc, below(row, sq), below(col, dv));
        auto guard = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&guard.getThenRegion().front());
        SmallVector<Value> indices(batch);
        indices.append({row, col});
        memref::StoreOp::create(b, loc, arith::DivFOp::create(b, loc, acc[i * tv + j], sum),
                                out, indices);
      }
    }
  }

  tl::FusedAttentionOp op;
  const FlashTile &tile;
  int64_t qStride, kStride, pStride; // the workgroup arrays' row strides
  gpu::LaunchOp launch;
  SmallVector<int64_t> batchShape;
  int64_t sq = 0, d = 0, sk = 0, dv = 0, tn = 0, tv = 0;
  Value query, key, value, mask, out;
  Value qShared, kShared, vShared, pShared, partial;
  Value threadRow, threadCol, rowStart;
  SmallVector<Value> batch;
};

} // namespace

LogicalResult tlc::mapFlashAttention(tl::FusedAttentionOp op, FlatSymbolRefAttr module,
                                     FlatSymbolRefAttr kernel, int64_t workgroupMemoryBytes) {
  auto q = cast<MemRefType>(op.getQuery().getType());
  auto v = cast<MemRefType>(op.getValue().getType());
  int64_t rank = q.getRank();
  int64_t d = q.getDimSize(rank - 1), dv = v.getDimSize(rank - 1), sq = q.getDimSize(rank - 2);
  if (!q.getElementType().isF32())
    return op.emitError() << "the GPU attention kernel takes f32, not " << q.getElementType();
  int64_t batchCount = 1;
  for (int64_t extent : q.getShape().drop_back(2))
    batchCount *= extent;
  std::optional<FlashTile> tile = pickTile(d, dv, sq, batchCount, workgroupMemoryBytes);
  if (!tile)
    return op.emitError() << "attention with head dimensions " << d << " and " << dv
                          << " does not fit this target's " << workgroupMemoryBytes
                          << " bytes of workgroup memory";
  if (batchCount > kMaxGridDim || llvm::divideCeil(sq, tile->bq) > kMaxGridDim)
    return op.emitError() << "attention over " << batchCount << " batch points of " << sq
                          << " queries needs more workgroups than one GPU launch has";
  OpBuilder b(op);
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  FlashArrays arrays(*tile, d, dv);
  SmallVector<Type> shared;
  for (int64_t count : {arrays.q, arrays.k, arrays.v, arrays.p, arrays.partial})
    shared.push_back(
        MemRefType::get({count}, b.getF32Type(), MemRefLayoutAttrInterface(), workgroup));
  auto launch = createKernelLaunch(b, op.getLoc(), {llvm::divideCeilSigned(sq, tile->bq), batchCount, 1},
                                   kThreads, shared, module, kernel);
  FlashAttentionEmitter(b, op, *tile, arrays, launch).emit();
  op->erase();
  return success();
}
