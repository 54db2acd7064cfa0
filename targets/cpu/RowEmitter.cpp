// The vector loops of tlc-vectorize-rows (see VectorizeRows.cpp for what they compute): per
// row, whole-vector steps and a masked tail; a reduction's accumulators folded pairwise, across
// lanes and into the output; the next row prefetched as the row goes (nextRowOf).
#include "targets/cpu/RowEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using tlc::RowPlan;

namespace {

/// The start of the row after a row operand in the buffer it is a view of.
struct NextRow {
  Value root;
  SmallVector<Value> indices; // of column 0 of the next row in `root`
  unsigned columnDim;         // the dimension of `root` the row's columns walk, unit stride
};

/// The position of kept dimension `dim` of a subview's result in its source.
unsigned sourceDim(memref::SubViewOp view, unsigned dim) {
  llvm::SmallBitVector dropped = view.getDroppedDims();
  unsigned kept = 0, d = 0;
  for (; d < dropped.size(); ++d)
    if (!dropped.test(d) && kept++ == dim)
      break;
  return d;
}

/// Mechanism: for a `row` that is one row of a 2-D buffer (a rank-reducing memref.subview
/// taking [1, N] at row i) viewed through any chain of further subviews with unit strides
/// along the row, where column 0 of row i + 1 lies in the chain's root buffer, the row index
/// clamped to the root's last row (which then refers to itself). std::nullopt for other
/// operands. Built once per row: the indices are resolved with upstream's subview folding.
std::optional<NextRow> nextRowOf(OpBuilder &b, Location loc, Value row) {
  auto view = row.getDefiningOp<memref::SubViewOp>();
  if (!view || view.getSourceType().getRank() != 2 || view.getType().getRank() != 1 ||
      !view.getDroppedDims().test(0))
    return std::nullopt;
  SmallVector<memref::SubViewOp> chain = {view};
  for (auto parent = view.getSource().getDefiningOp<memref::SubViewOp>(); parent;
       parent = parent.getSource().getDefiningOp<memref::SubViewOp>())
    chain.push_back(parent);
  unsigned rowDim = 0, columnDim = 1;
  for (memref::SubViewOp v : chain) {
    if (v != view) {
      rowDim = sourceDim(v, rowDim);
      columnDim = sourceDim(v, columnDim);
    }
    std::optional<int64_t> stride = getConstantIntValue(v.getMixedStrides()[columnDim]);
    if (!stride || *stride != 1)
      return std::nullopt;
  }
  Value root = chain.back().getSource();
  auto rootType = cast<MemRefType>(root.getType());
  if (rootType.isDynamicDim(rowDim))
    return std::nullopt;
  IRRewriter rewriter(b);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> indices;
  affine::resolveIndicesIntoOpWithOffsetsAndStrides(rewriter, loc, view.getMixedOffsets(),
                                                    view.getMixedStrides(), view.getDroppedDims(),
                                                    ValueRange{zero}, indices);
  indices[0] = arith::AddIOp::create(b, loc, indices[0], arith::ConstantIndexOp::create(b, loc, 1));
  for (memref::SubViewOp parent : llvm::drop_begin(chain)) {
    SmallVector<Value> resolved;
    affine::resolveIndicesIntoOpWithOffsetsAndStrides(rewriter, loc, parent.getMixedOffsets(),
                                                      parent.getMixedStrides(),
                                                      parent.getDroppedDims(), indices, resolved);
    indices = std::move(resolved);
  }
  Value last = arith::ConstantIndexOp::create(b, loc, rootType.getDimSize(rowDim) - 1);
  indices[rowDim] = arith::MinSIOp::create(b, loc, indices[rowDim], last);
  return NextRow{root, std::move(indices), columnDim};
}

/// Emits the vector loops replacing one op.
class RowEmitter {
public:
  RowEmitter(linalg::GenericOp op, const RowPlan &plan, int64_t lanes, int64_t accumulators)
      : op(op), plan(plan), lanes(lanes), accumulators(accumulators), loc(op.getLoc()) {}

  void emit(OpBuilder &b) {
    SmallVector<Range, 4> ranges =
        cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
    SmallVector<Value> lbs, ubs, steps;
    for (unsigned d = 0; d < plan.inner; ++d) {
      lbs.push_back(index(b, 0));
      ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ranges[d].size));
      steps.push_back(index(b, 1));
    }
    scf::buildLoopNest(b, loc, lbs, ubs, steps,
                       [&](OpBuilder &nb, Location, ValueRange ivs) { emitRow(nb, ivs); });
  }

private:
  linalg::GenericOp op;
  const RowPlan &plan;
  int64_t lanes, accumulators;
  Location loc;
  SmallVector<Value> outerIvs;
  // Per operand: the value read once per row, or null.
  SmallVector<Value> rowScalars;
  // Per operand, with plan.prefetchNextRow: where its next row starts, if it is a row.
  SmallVector<std::optional<NextRow>> nextRows;

  Value index(OpBuilder &b, int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  VectorType vectorOf(Type t) { return VectorType::get({lanes}, t); }

  Type elementType(unsigned operand) {
    return cast<MemRefType>(op->getOperand(operand).getType()).getElementType();
  }

  /// The operand's indices at column `k` of the current row.
  SmallVector<Value> indices(OpBuilder &b, unsigned operand, Value k) {
    AffineMap map = op.getIndexingMapsArray()[operand];
    SmallVector<Value> result;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        result.push_back(dim.getPosition() == plan.inner ? k : outerIvs[dim.getPosition()]);
      else
        result.push_back(index(b, cast<AffineConstantExpr>(expr).getValue()));
    }
    return result;
  }

  /// The vector operands at column `k`: whole vectors, or the first `valid` lanes (a masked
  /// load, zero elsewhere) when `mask` is set.
  SmallVector<Value> load(OpBuilder &b, Value k, Value mask) {
    SmallVector<Value> values(op->getNumOperands());
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      if (!plan.isVector[i])
        continue;
      if (i >= op.getNumDpsInputs() &&
          op.getMatchingBlockArgument(&op->getOpOperand(i)).use_empty())
        continue; // an output that is only written
      Value base = op->getOperand(i);
      VectorType type = vectorOf(elementType(i));
      if (mask) {
        Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
        values[i] = vector::MaskedLoadOp::create(b, loc, type, base, indices(b, i, k), mask, zero);
      } else {
        values[i] = vector::LoadOp::create(b, loc, type, base, indices(b, i, k));
      }
    }
    return values;
  }

  /// The scalar body on vectors: `args` holds one vector per block argument.
  SmallVector<Value> body(OpBuilder &b, ArrayRef<Value> args) {
    return bodies(b, {SmallVector<Value>(args)}).front();
  }

  /// The scalar body on several independent vector steps at once, op by op (each op for
  /// every step before the next op), so their dependence chains interleave in the emitted
  /// code: `argSets` holds one vector per block argument for each step.
  SmallVector<SmallVector<Value>> bodies(OpBuilder &b, ArrayRef<SmallVector<Value>> argSets) {
    Block *block = op.getBlock();
    SmallVector<IRMapping> maps(argSets.size());
    for (auto [map, args] : llvm::zip(maps, argSets))
      for (auto [arg, v] : llvm::zip(block->getArguments(), args))
        map.map(arg, v);
    for (Operation &bodyOp : block->without_terminator()) {
      for (IRMapping &map : maps) {
        auto lookup = [&](Value v) -> Value {
          if (Value mapped = map.lookupOrNull(v))
            return mapped;
          return vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v); // from above
        };
        if (matchPattern(&bodyOp, m_Constant())) {
          Operation *scalar = b.clone(bodyOp);
          map.map(bodyOp.getResult(0), lookup(scalar->getResult(0)));
          continue;
        }
        if (Value combined = numCombine(b, bodyOp, lookup)) {
          map.map(bodyOp.getResult(0), combined);
          continue;
        }
        IRMapping operands;
        for (Value v : bodyOp.getOperands())
          operands.map(v, lookup(v));
        Operation *vectorOp = b.clone(bodyOp, operands);
        for (OpResult r : vectorOp->getResults())
          r.setType(vectorOf(r.getType()));
        map.map(bodyOp.getResults(), vectorOp->getResults());
      }
    }
    SmallVector<SmallVector<Value>> yields;
    for (IRMapping &map : maps) {
      SmallVector<Value> values;
      for (Value v : block->getTerminator()->getOperands()) {
        Value mapped = map.lookupOrNull(v);
        values.push_back(mapped ? mapped
                                : vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v));
      }
      yields.push_back(std::move(values));
    }
    return yields;
  }

  /// A float maxnumf/minnumf combiner `acc = maxnum(acc, x)` as `x > acc ? x : acc` (`<` for
  /// min): one vmaxps/vminps on x86 where maxnumf needs a NaN fix-up after it. The two agree
  /// because the vector accumulators start at -inf (+inf) and a compare with a NaN is false,
  /// so they never become NaN and a NaN `x` leaves them, as maxnum does; the last step into
  /// the output's initial value, known not to be NaN (plan.selectCombine), is maxnumf itself.
  /// Returns null for any other op.
  Value numCombine(OpBuilder &b, Operation &bodyOp, function_ref<Value(Value)> lookup) {
    if (!plan.reduction || !isa<arith::MaxNumFOp, arith::MinNumFOp>(bodyOp))
      return Value();
    auto accOutput = [&](Value v) -> std::optional<unsigned> {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != op.getBlock() || arg.getArgNumber() < op.getNumDpsInputs())
        return std::nullopt;
      return arg.getArgNumber() - op.getNumDpsInputs();
    };
    auto isAcc = [&](Value v) { return accOutput(v).has_value(); };
    Value lhs = bodyOp.getOperand(0), rhs = bodyOp.getOperand(1);
    if (isAcc(lhs) == isAcc(rhs) || !plan.selectCombine[*accOutput(isAcc(lhs) ? lhs : rhs)])
      return Value();
    Value acc = lookup(isAcc(lhs) ? lhs : rhs), x = lookup(isAcc(lhs) ? rhs : lhs);
    return selectExtreme(b, isa<arith::MaxNumFOp>(bodyOp), x, acc);
  }

  /// `x > y ? x : y` for a maximum (`<` for a minimum): one vmaxps/vminps on x86.
  Value selectExtreme(OpBuilder &b, bool max, Value x, Value y) {
    auto pred = max ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
    Value take = arith::CmpFOp::create(b, loc, pred, x, y);
    return arith::SelectOp::create(b, loc, take, x, y);
  }

  /// Combines two partial results of output `o`; compare-and-select maxnumf/minnumf partials
  /// are never NaN (see numCombine), so a compare-and-select combines them exactly.
  Value combine(OpBuilder &b, unsigned o, Value x, Value y) {
    vector::CombiningKind kind = plan.kinds[o];
    if (!plan.selectCombine[o])
      return vector::makeArithReduction(b, loc, kind, x, y);
    return selectExtreme(b, kind == vector::CombiningKind::MAXNUMF, x, y);
  }

  /// Block-argument values for one vector step: loaded vectors, row scalars broadcast, and
  /// for a reduction the accumulators `accs` (one per output, null for a per-column output)
  /// in place of the reduced outputs.
  SmallVector<Value> bodyArgs(OpBuilder &b, ArrayRef<Value> loaded, ArrayRef<Value> accs) {
    SmallVector<Value> args;
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      bool isOutput = i >= op.getNumDpsInputs();
      if (plan.reduction && isOutput && !plan.isVector[i])
        args.push_back(accs[i - op.getNumDpsInputs()]);
      else if (loaded[i])
        args.push_back(loaded[i]);
      else if (plan.isVector[i]) // an output that is only written: its argument is unused
        args.push_back(arith::ConstantOp::create(b, loc, vectorOf(elementType(i)),
                                                 b.getZeroAttr(vectorOf(elementType(i)))));
      else
        args.push_back(
            vector::BroadcastOp::create(b, loc, vectorOf(elementType(i)), rowScalars[i]));
    }
    return args;
  }

  /// With plan.prefetchNextRow: prefetches column `k` of the following row of each row
  /// operand (for writing, if it is an output), so the next row's misses overlap this row's
  /// compute; one prefetch per vector step, which is one cache line for 16 f32 lanes.
  void prefetchNextRow(OpBuilder &b, Value k) {
    for (auto [i, next] : llvm::enumerate(nextRows)) {
      if (!next)
        continue;
      SmallVector<Value> indices(next->indices);
      indices[next->columnDim] = arith::AddIOp::create(b, loc, indices[next->columnDim], k);
      memref::PrefetchOp::create(b, loc, next->root, indices,
                                 /*isWrite=*/i >= static_cast<size_t>(op.getNumDpsInputs()),
                                 /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  }

  void emitRow(OpBuilder &b, ValueRange ivs) {
    outerIvs.assign(ivs.begin(), ivs.end());
    rowScalars.assign(op->getNumOperands(), Value());
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (!plan.isVector[i])
        rowScalars[i] = memref::LoadOp::create(b, loc, op->getOperand(i), indices(b, i, {}));
    nextRows.assign(op->getNumOperands(), std::nullopt);
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (plan.prefetchNextRow && plan.isVector[i])
        nextRows[i] = nextRowOf(b, loc, op->getOperand(i));
    if (plan.reduction)
      emitReductionRow(b);
    else
      emitElementwiseRow(b);
  }

  void emitElementwiseRow(OpBuilder &b) {
    int64_t full = plan.extent / lanes * lanes, rest = plan.extent - full;
    auto step = [&](OpBuilder &nb, Value k, Value mask) {
      if (!mask)
        prefetchNextRow(nb, k);
      SmallVector<Value> results = body(nb, bodyArgs(nb, load(nb, k, mask), {}));
      for (auto [i, v] : llvm::enumerate(results))
        storeColumn(nb, i, k, mask, v);
    };
    if (full) // a row shorter than a vector (plan.extent < lanes) is only its masked step
      scf::ForOp::create(b, loc, index(b, 0), index(b, full), index(b, lanes), ValueRange{},
                         [&](OpBuilder &nb, Location, Value k, ValueRange) {
                           step(nb, k, Value());
                           scf::YieldOp::create(nb, loc);
                         });
    if (rest)
      step(b, index(b, full), tailMask(b, rest));
  }

  Value tailMask(OpBuilder &b, int64_t valid) {
    return vector::CreateMaskOp::create(b, loc, VectorType::get({lanes}, b.getI1Type()),
                                        ValueRange{index(b, valid)});
  }

  bool isPerColumn(unsigned o) { return plan.isVector[op.getNumDpsInputs() + o]; }

  /// Stores a per-column output's vector at column `k` (masked in the tail).
  void storeColumn(OpBuilder &b, unsigned o, Value k, Value mask, Value v) {
    unsigned operand = op.getNumDpsInputs() + o;
    Value base = op->getOperand(operand);
    if (mask)
      vector::MaskedStoreOp::create(b, loc, base, indices(b, operand, k), mask, v);
    else
      vector::StoreOp::create(b, loc, v, base, indices(b, operand, k));
  }

  /// accs[o * accumulators + u]: accumulator u of output o, each at its identity (null for
  /// per-column outputs).
  SmallVector<Value> initialAccumulators(OpBuilder &b) {
    SmallVector<Value> accs;
    for (unsigned o = 0; o < op.getNumDpsInits(); ++o) {
      if (isPerColumn(o)) {
        accs.append(accumulators, Value());
        continue;
      }
      VectorType type = vectorOf(plan.identities[o].getType());
      Value identity = arith::ConstantOp::create(
          b, loc, type, DenseElementsAttr::get(type, ArrayRef<Attribute>(plan.identities[o])));
      accs.append(accumulators, identity);
    }
    return accs;
  }

  /// Reduction steps at columns `ks`, step i into accumulators `us[i]` of `state`, their
  /// bodies interleaved (see bodies); per-column outputs are stored as they go.
  void reductionSteps(OpBuilder &b, ArrayRef<Value> ks, Value mask, ArrayRef<unsigned> us,
                      MutableArrayRef<Value> state) {
    unsigned numOut = op.getNumDpsInits();
    SmallVector<SmallVector<Value>> currents, argSets;
    for (auto [k, u] : llvm::zip(ks, us)) {
      if (!mask)
        prefetchNextRow(b, k);
      SmallVector<Value> current;
      for (unsigned o = 0; o < numOut; ++o)
        current.push_back(state[o * accumulators + u]);
      argSets.push_back(bodyArgs(b, load(b, k, mask), current));
      currents.push_back(std::move(current));
    }
    SmallVector<SmallVector<Value>> nexts = bodies(b, argSets);
    for (auto [k, u, current, next] : llvm::zip(ks, us, currents, nexts)) {
      for (unsigned o = 0; o < numOut; ++o) {
        Value v = next[o];
        if (isPerColumn(o)) {
          storeColumn(b, o, k, mask, v);
          continue;
        }
        if (mask) // lanes past the row keep their accumulator
          v = arith::SelectOp::create(b, loc, mask, v, current[o]);
        state[o * accumulators + u] = v;
      }
    }
  }

  /// The loop over blocks of `accumulators` whole vectors up to column `unrolled`, one step
  /// into each accumulator per iteration; only the accumulators are loop-carried.
  void emitUnrolledSteps(OpBuilder &b, int64_t unrolled, MutableArrayRef<Value> accs) {
    auto carried = [&](ArrayRef<Value> all) {
      SmallVector<Value> live;
      for (Value v : all)
        if (v)
          live.push_back(v);
      return live;
    };
    auto uncarry = [&](ValueRange live, MutableArrayRef<Value> all) {
      unsigned i = 0;
      for (Value &v : all)
        if (v)
          v = live[i++];
    };
    auto loop = scf::ForOp::create(
        b, loc, index(b, 0), index(b, unrolled), index(b, lanes * accumulators), carried(accs),
        [&](OpBuilder &nb, Location, Value k, ValueRange args) {
          SmallVector<Value> state(accs);
          uncarry(args, state);
          SmallVector<Value> ks;
          SmallVector<unsigned> us;
          for (int64_t u = 0; u < accumulators; ++u) {
            ks.push_back(arith::AddIOp::create(nb, loc, k, index(nb, u * lanes)));
            us.push_back(u);
          }
          reductionSteps(nb, ks, Value(), us, state);
          scf::YieldOp::create(nb, loc, carried(state));
        });
    uncarry(loop.getResults(), accs);
  }

  /// Folds output `o`'s accumulators `partial` pairwise, then across lanes, into the output's
  /// current value, and stores it.
  void storeReducedRow(OpBuilder &b, unsigned o, SmallVector<Value> partial) {
    while (partial.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < partial.size(); i += 2)
        next.push_back(combine(b, o, partial[i], partial[i + 1]));
      if (partial.size() % 2)
        next.push_back(partial.back());
      partial = std::move(next);
    }
    unsigned operand = op.getNumDpsInputs() + o;
    bool isFloat = isa<FloatType>(plan.identities[o].getType());
    Value result;
    if (plan.selectCombine[o] && llvm::isPowerOf2_64(lanes)) {
      // Across lanes by halves, each a compare-and-select (vector.reduction <maxnumf> is a
      // serial chain of scalar maxima with NaN checks on x86), then into the row's value
      // with maxnumf itself.
      Value v = partial[0];
      for (int64_t n = lanes / 2; n >= 1; n /= 2) {
        Value low = vector::ExtractStridedSliceOp::create(b, loc, v, {0}, {n}, {1});
        Value high = vector::ExtractStridedSliceOp::create(b, loc, v, {n}, {n}, {1});
        v = combine(b, o, low, high);
      }
      Value lane = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0});
      result = vector::makeArithReduction(b, loc, plan.kinds[o], lane, rowScalars[operand]);
    } else {
      auto reassoc = arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::reassoc);
      result =
          vector::ReductionOp::create(b, loc, plan.kinds[o], partial[0], rowScalars[operand],
                                      isFloat ? reassoc.getValue() : arith::FastMathFlags::none);
    }
    memref::StoreOp::create(b, loc, result, op->getOperand(operand), indices(b, operand, {}));
  }

  void emitReductionRow(OpBuilder &b) {
    int64_t block = lanes * accumulators;
    int64_t unrolled = plan.extent / block * block;
    int64_t full = plan.extent / lanes * lanes, rest = plan.extent - full;
    SmallVector<Value> accs = initialAccumulators(b);
    if (unrolled > 0)
      emitUnrolledSteps(b, unrolled, accs);
    // Whole vectors left after the unrolled loop (fewer than `accumulators`), then the tail.
    for (int64_t k = unrolled, u = 0; k < full; k += lanes, ++u)
      reductionSteps(b, {index(b, k)}, Value(), {static_cast<unsigned>(u)}, accs);
    if (rest)
      reductionSteps(b, {index(b, full)}, tailMask(b, rest), {0u}, accs);
    for (unsigned o = 0; o < op.getNumDpsInits(); ++o)
      if (!isPerColumn(o))
        storeReducedRow(b, o,
                        SmallVector<Value>(accs.begin() + o * accumulators,
                                           accs.begin() + (o + 1) * accumulators));
  }
};

} // namespace

void tlc::emitVectorRows(OpBuilder &b, linalg::GenericOp op, const RowPlan &plan, int64_t lanes,
                         int64_t accumulators) {
  RowEmitter(op, plan, lanes, accumulators).emit(b);
}
