// Rematerialization of forward values for backward graphs (see Rematerialize.h), and
// tlc-drop-remat-barriers.
#include "passes/Rematerialize.h"

#include "passes/Passes.h"

#include "TL/TLDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace tlc {
#define GEN_PASS_DEF_TLCDROPREMATBARRIERS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

std::string RematPolicy::str() const {
  switch (kind) {
  case None:
    return "none";
  case Cheap:
    return "cheap";
  case Segments:
    return "segments=" + std::to_string(segments);
  }
  return "";
}

std::string tlc::parseRematPolicy(StringRef text, RematPolicy &policy) {
  if (text == "none") {
    policy = {RematPolicy::None, 0};
    return "";
  }
  if (text == "cheap") {
    policy = {RematPolicy::Cheap, 0};
    return "";
  }
  unsigned n = 0;
  if (text.consume_front("segments=") && !text.getAsInteger(10, n) && n >= 2 && n <= 100000) {
    policy = {RematPolicy::Segments, n};
    return "";
  }
  return "expected none, cheap or segments=N with N >= 2";
}

namespace {

int64_t numElements(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  return t && t.hasStaticShape() ? t.getNumElements() : 0;
}

int64_t bytesOf(Value v) {
  auto t = dyn_cast<ShapedType>(v.getType());
  if (!t || !t.hasStaticShape())
    return 0;
  return t.getNumElements() * int64_t((t.getElementTypeBitWidth() + 7) / 8);
}

int64_t flopsOf(Operation *op) {
  if (auto cost = dyn_cast<tl::CostOpInterface>(op))
    return cost.getFlopCount();
  int64_t n = 0;
  for (Value r : op->getResults())
    n += numElements(r);
  return n;
}

/// Not a contraction, and at most 16 operations per result element: elementwise math,
/// broadcasts, shape ops, short reductions.
bool isCheap(Operation *op) {
  if (isa<tl::EinsumOp, tl::Conv2DOp, tl::AttentionOp>(op))
    return false;
  int64_t elements = 0;
  for (Value r : op->getResults())
    elements += numElements(r);
  return flopsOf(op) <= 16 * std::max<int64_t>(elements, 1);
}

/// Values every op can read for free: constants.
bool isFree(Operation *op) { return op->hasTrait<OpTrait::ConstantLike>(); }

bool canClone(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) && !isa<tl::RematBarrierOp>(op);
}

DictionaryAttr describeValue(Builder &b, Value v) {
  return b.getDictionaryAttr({b.getNamedAttr("loc", LocationAttr(v.getLoc())),
                              b.getNamedAttr("type", TypeAttr::get(v.getType())),
                              b.getNamedAttr("bytes", b.getI64IntegerAttr(bytesOf(v)))});
}

/// The checkpoint candidates: forward values that alone cross a cut between two forward ops
/// (every other value read after the cut is defined after it, or is free), in forward order,
/// each with the cumulative bytes of the saved values defined up to it.
struct CutPoint {
  Value value;
  int64_t savedBytesBefore;
};

SmallVector<CutPoint> findCutPoints(ArrayRef<Operation *> forward,
                                    const llvm::DenseMap<Operation *, int64_t> &index,
                                    const llvm::SetVector<Value> &saved) {
  int64_t n = forward.size();
  // Per cut i (after forward[i]): how many values cross it, and the sum of their ids (the id
  // of the one value when one crosses).
  SmallVector<int64_t> count(n + 1, 0), idSum(n + 1, 0);
  SmallVector<Value> values{Value()};
  SmallVector<int64_t> savedBytes(n, 0);
  for (auto [i, op] : llvm::enumerate(forward))
    for (Value r : op->getResults()) {
      if (saved.contains(r))
        savedBytes[i] += bytesOf(r);
      int64_t last = i;
      for (Operation *user : r.getUsers())
        if (auto it = index.find(user); it != index.end())
          last = std::max(last, it->second);
      if (last == int64_t(i))
        continue;
      int64_t id = values.size();
      values.push_back(r);
      count[i] += 1;
      count[last] -= 1;
      idSum[i] += id;
      idSum[last] -= id;
    }
  SmallVector<CutPoint> cuts;
  llvm::DenseSet<Value> seen;
  int64_t crossing = 0, ids = 0, cumulative = 0;
  for (int64_t i = 0; i + 1 < n; ++i) {
    crossing += count[i];
    ids += idSum[i];
    cumulative += savedBytes[i];
    if (crossing == 1 && seen.insert(values[ids]).second)
      cuts.push_back({values[ids], cumulative});
  }
  return cuts;
}

/// `segments - 1` cut points whose cumulative saved bytes are nearest to equal shares.
llvm::DenseSet<Value> chooseCheckpoints(ArrayRef<CutPoint> cuts, unsigned segments,
                                        int64_t totalSaved) {
  llvm::DenseSet<Value> chosen;
  size_t next = 0;
  for (unsigned j = 1; j < segments && next < cuts.size(); ++j) {
    double target = double(totalSaved) * j / segments;
    size_t best = next;
    for (size_t c = next; c < cuts.size(); ++c)
      if (std::abs(double(cuts[c].savedBytesBefore) - target) <
          std::abs(double(cuts[best].savedBytesBefore) - target))
        best = c;
    chosen.insert(cuts[best].value);
    next = best + 1;
  }
  return chosen;
}

int64_t intField(DictionaryAttr d, StringRef name) {
  auto a = d ? d.getAs<IntegerAttr>(name) : IntegerAttr();
  return a ? a.getInt() : 0;
}

} // namespace

void tlc::rematerialize(Operation *func, Block &block, Operation *backwardBegin,
                        Operation *backwardEnd, const RematPolicy &policy) {
  llvm::DenseMap<Operation *, int64_t> position;
  int64_t p = 0;
  for (Operation &op : block)
    position[&op] = p++;
  int64_t begin = position[backwardBegin], end = position[backwardEnd];
  auto inBackward = [&](Operation *user) {
    Operation *op = block.findAncestorOpInBlock(*user);
    if (!op)
      return false;
    int64_t at = position.lookup(op);
    return at >= begin && at < end;
  };

  SmallVector<Operation *> forward, backward;
  int64_t flops = 0;
  for (Operation &op : block) {
    int64_t at = position[&op];
    if (at >= end)
      break;
    if (at >= begin) {
      backward.push_back(&op);
      flops += flopsOf(&op);
      continue;
    }
    if (isFree(&op) || op.getNumResults() == 0)
      continue;
    forward.push_back(&op);
    flops += flopsOf(&op);
  }
  // The saved values: forward values the backward ops read.
  llvm::SetVector<Value> saved;
  int64_t totalSaved = 0;
  for (Operation *op : forward)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), inBackward)) {
        saved.insert(r);
        totalSaved += bytesOf(r);
      }
  llvm::DenseMap<Operation *, int64_t> forwardIndex;
  for (auto [i, op] : llvm::enumerate(forward))
    forwardIndex[op] = i;
  SmallVector<CutPoint> cuts = findCutPoints(forward, forwardIndex, saved);

  // The kept values: the policy's choice, then every saved value that cannot be recomputed
  // from kept ones (in forward order, so a value kept by force is available to later ones).
  llvm::DenseSet<Value> kept;
  if (policy.kind == RematPolicy::None)
    kept.insert(saved.begin(), saved.end());
  else if (policy.kind == RematPolicy::Cheap) {
    for (Value v : saved)
      if (!isCheap(v.getDefiningOp()))
        kept.insert(v);
  } else {
    kept = chooseCheckpoints(cuts, policy.segments, totalSaved);
  }
  llvm::DenseSet<Value> recomputable;
  auto available = [&](Value v) {
    Operation *def = v.getDefiningOp();
    return !def || isFree(def) || kept.contains(v) || recomputable.contains(v);
  };
  for (Operation *op : forward) {
    bool can = canClone(op) && (policy.kind != RematPolicy::Cheap || isCheap(op)) &&
               llvm::all_of(op->getOperands(), available);
    for (Value r : op->getResults()) {
      if (kept.contains(r))
        continue;
      if (can)
        recomputable.insert(r);
      else if (saved.contains(r))
        kept.insert(r);
    }
  }

  // Clones, created before the first backward op that needs them (directly or through
  // another clone), in forward order; they read kept values and arguments through barriers.
  // The recomputable values are exactly those to clone: forward results that are not kept.
  auto needsClone = [&](Value v) { return recomputable.contains(v); };
  IRMapping clones;
  llvm::DenseMap<Value, Value> barriers;
  llvm::SetVector<Value> checkpoints; // kept values read by clones
  int64_t extraFlops = 0;
  Builder attrs(func->getContext());
  for (Operation *user : backward) {
    SmallVector<Operation *> needed, stack;
    llvm::DenseSet<Operation *> seen;
    for (Value v : user->getOperands())
      if (needsClone(v) && !clones.contains(v))
        stack.push_back(v.getDefiningOp());
    while (!stack.empty()) {
      Operation *op = stack.pop_back_val();
      if (!seen.insert(op).second)
        continue;
      needed.push_back(op);
      for (Value v : op->getOperands())
        if (needsClone(v) && !clones.contains(v))
          stack.push_back(v.getDefiningOp());
    }
    llvm::sort(needed, [&](Operation *a, Operation *b) {
      return forwardIndex.lookup(a) < forwardIndex.lookup(b);
    });
    OpBuilder b(user);
    for (Operation *op : needed) {
      for (Value v : op->getOperands()) {
        if (clones.contains(v) || (v.getDefiningOp() && isFree(v.getDefiningOp())))
          continue;
        Value &barrier = barriers[v];
        if (!barrier) {
          barrier = tl::RematBarrierOp::create(b, v.getLoc(), v);
          if (v.getDefiningOp())
            checkpoints.insert(v);
        }
        clones.map(v, barrier);
      }
      b.clone(*op, clones);
      extraFlops += flopsOf(op);
    }
    for (OpOperand &operand : user->getOpOperands())
      if (needsClone(operand.get()))
        operand.set(clones.lookup(operand.get()));
  }

  // The record: merged with the one of an earlier loss of the function.
  auto old = func->getAttrOfType<DictionaryAttr>(kRematAttr);
  SmallVector<Attribute> keptList, recomputedList;
  if (old) {
    if (auto a = old.getAs<ArrayAttr>("kept"))
      keptList.assign(a.begin(), a.end());
    if (auto a = old.getAs<ArrayAttr>("recomputed"))
      recomputedList.assign(a.begin(), a.end());
  }
  for (Value v : saved)
    (kept.contains(v) ? keptList : recomputedList).push_back(describeValue(attrs, v));
  for (Value v : checkpoints)
    if (!saved.contains(v))
      keptList.push_back(describeValue(attrs, v));
  func->setAttr(kRematAttr,
                attrs.getDictionaryAttr(
                    {attrs.getNamedAttr("policy", attrs.getStringAttr(policy.str())),
                     attrs.getNamedAttr("cut_points", attrs.getI64IntegerAttr(
                                                          intField(old, "cut_points") +
                                                          int64_t(cuts.size()))),
                     attrs.getNamedAttr("flops", attrs.getI64IntegerAttr(
                                                     intField(old, "flops") + flops)),
                     attrs.getNamedAttr("extra_flops", attrs.getI64IntegerAttr(
                                                           intField(old, "extra_flops") +
                                                           extraFlops)),
                     attrs.getNamedAttr("kept", attrs.getArrayAttr(keptList)),
                     attrs.getNamedAttr("recomputed", attrs.getArrayAttr(recomputedList))}));
}

namespace {
struct TLCDropRematBarriers : tlc::impl::TLCDropRematBarriersBase<TLCDropRematBarriers> {
  void runOnOperation() override {
    getOperation().walk([](tl::RematBarrierOp op) {
      op.getResult().replaceAllUsesWith(op.getInput());
      op.erase();
    });
  }
};
} // namespace
