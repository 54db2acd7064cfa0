// Static memory planning mechanism: buffer live ranges, in-place candidates, arena placement.
#include "passes/MemoryPlan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <limits>

using namespace mlir;

namespace tlc {

ArenaPlacement placeGreedyBySize(ArrayRef<BufferInterval> buffers, int64_t alignment) {
  ArenaPlacement result;
  result.offsets.assign(buffers.size(), 0);
  SmallVector<unsigned> order;
  for (unsigned i = 0, e = buffers.size(); i < e; ++i)
    order.push_back(i);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    if (buffers[a].size != buffers[b].size)
      return buffers[a].size > buffers[b].size;
    return buffers[a].start < buffers[b].start;
  });
  SmallVector<unsigned> placed;
  for (unsigned i : order) {
    int64_t size = alignTo(buffers[i].size, alignment);
    // The blocks already placed that are live at the same time, by offset.
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (unsigned j : placed)
      if (buffers[i].overlaps(buffers[j]))
        busy.push_back({result.offsets[j], alignTo(buffers[j].size, alignment)});
    llvm::sort(busy);
    int64_t cursor = 0, best = -1, bestGap = std::numeric_limits<int64_t>::max();
    for (auto [offset, bytes] : busy) {
      int64_t gap = offset - cursor;
      if (gap >= size && gap < bestGap) {
        best = cursor;
        bestGap = gap;
      }
      cursor = std::max(cursor, offset + bytes);
    }
    if (best < 0)
      best = cursor;
    result.offsets[i] = best;
    result.arenaSize = std::max(result.arenaSize, best + size);
    placed.push_back(i);
  }
  return result;
}

ArenaPlacement placeSequentially(ArrayRef<BufferInterval> buffers, int64_t alignment) {
  ArenaPlacement result;
  for (const BufferInterval &b : buffers) {
    result.offsets.push_back(result.arenaSize);
    result.arenaSize += alignTo(b.size, alignment);
  }
  return result;
}

int64_t peakLiveBytes(ArrayRef<BufferInterval> buffers, int64_t alignment) {
  // The maximum is reached at some buffer's start.
  int64_t peak = 0;
  for (const BufferInterval &at : buffers) {
    int64_t live = 0;
    for (const BufferInterval &b : buffers)
      if (b.start <= at.start && at.start <= b.end)
        live += alignTo(b.size, alignment);
    peak = std::max(peak, live);
  }
  return peak;
}

namespace {

LogicalResult checkPlaceable(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape())
    return alloc.emitOpError("cannot be placed in the workspace: its shape must be static");
  if (!type.getLayout().isIdentity())
    return alloc.emitOpError("cannot be placed in the workspace: its layout must be the identity");
  if (type.getMemorySpace())
    return alloc.emitOpError() << "cannot be placed in the workspace: it is in memory space "
                               << type.getMemorySpace() << ", not the default one";
  return success();
}

/// Bytes a buffer of `type` occupies, from the data layout (i1 takes a byte per element).
int64_t bufferBytes(const DataLayout &layout, MemRefType type) {
  return type.getNumElements() * static_cast<int64_t>(layout.getTypeSize(type.getElementType()));
}

} // namespace

FailureOr<BufferLiveness> computeBufferLiveness(func::FuncOp func, const DataLayout &layout) {
  BufferLiveness result;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("cannot be memory-planned: its body must be a single block");
  Block &block = func.getBody().front();
  DenseMap<Operation *, int64_t> position;
  for (Operation &op : block) {
    position[&op] = result.topLevel.size();
    result.topLevel.push_back(&op);
  }
  auto pointOf = [&](Operation *op) {
    while (op->getBlock() != &block)
      op = op->getParentOp();
    return position.lookup(op);
  };
  const int64_t lastPoint = static_cast<int64_t>(result.topLevel.size()) - 1;

  bool ok = true;
  func.walk([&](memref::AllocOp alloc) {
    if (failed(checkPlaceable(alloc)))
      ok = false;
    else
      result.allocs.push_back(alloc);
  });
  if (!ok)
    return failure();

  for (memref::AllocOp alloc : result.allocs) {
    SmallVector<Value> worklist = {alloc.getResult()};
    llvm::SmallDenseSet<Value, 8> seen(worklist.begin(), worklist.end());
    auto addAlias = [&](Value v) {
      if (isa<BaseMemRefType>(v.getType()) && seen.insert(v).second)
        worklist.push_back(v);
    };
    int64_t start = std::numeric_limits<int64_t>::max(), end = -1;
    SmallVector<Value> aliases;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      aliases.push_back(v);
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (isa<memref::DeallocOp>(user))
          continue;
        // Any memref the user derives from the buffer, or passes into its regions or out of
        // its parent (yield), may alias it.
        for (Value r : user->getResults())
          addAlias(r);
        for (Region &region : user->getRegions())
          for (Block &b : region)
            for (BlockArgument arg : b.getArguments())
              addAlias(arg);
        if (user->hasTrait<OpTrait::IsTerminator>() && user->getParentOp() != func)
          for (Value r : user->getParentOp()->getResults())
            addAlias(r);
        if (isa<func::ReturnOp, CallOpInterface>(user)) {
          end = lastPoint;
          start = std::min(start, pointOf(user));
          continue;
        }
        // A pure op that only derives a view touches no memory itself.
        bool onlyView = isMemoryEffectFree(user) && user->getNumRegions() == 0 &&
                        llvm::any_of(user->getResultTypes(),
                                     [](Type t) { return isa<BaseMemRefType>(t); });
        if (onlyView)
          continue;
        int64_t p = pointOf(user);
        start = std::min(start, p);
        end = std::max(end, p);
      }
    }
    if (end < 0) // never accessed
      start = end = pointOf(alloc);
    result.intervals.push_back({bufferBytes(layout, alloc.getType()), start, end});
    result.aliases.push_back(std::move(aliases));
  }
  return result;
}

void extendInputsThroughEpilogues(BufferLiveness &liveness) {
  DenseMap<Value, unsigned> owner;
  for (auto [i, aliases] : llvm::enumerate(liveness.aliases))
    for (Value alias : aliases)
      owner[alias] = i;
  int64_t points = static_cast<int64_t>(liveness.topLevel.size());
  for (int64_t p = 0; p < points; ++p) {
    auto contraction = dyn_cast<linalg::LinalgOp>(liveness.topLevel[p]);
    if (!contraction || contraction.getNumReductionLoops() == 0)
      continue;
    int64_t q = p + 1;
    while (q < points && (isMemoryEffectFree(liveness.topLevel[q]) ||
                          isa<linalg::FillOp, memref::AllocOp, memref::DeallocOp>(
                              liveness.topLevel[q])))
      ++q;
    auto epilogue = q < points ? dyn_cast<linalg::LinalgOp>(liveness.topLevel[q]) : nullptr;
    if (!epilogue || epilogue.getNumParallelLoops() != epilogue.getNumLoops())
      continue;
    for (Value input : contraction.getDpsInputs()) {
      auto it = owner.find(input);
      if (it != owner.end() && liveness.intervals[it->second].end == p)
        liveness.intervals[it->second].end = q;
    }
  }
}

SmallVector<std::pair<unsigned, unsigned>> findInPlaceReuse(const BufferLiveness &liveness) {
  SmallVector<std::pair<unsigned, unsigned>> pairs;
  DenseMap<Value, unsigned> allocIndex;
  for (auto [i, alloc] : llvm::enumerate(liveness.allocs))
    allocIndex[const_cast<memref::AllocOp &>(alloc).getResult()] = i;
  llvm::SmallDenseSet<unsigned> givenAway;
  for (auto [point, op] : llvm::enumerate(liveness.topLevel)) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
        linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
      continue;
    for (OpOperand &out : linalgOp.getDpsInitsMutable()) {
      auto outIt = allocIndex.find(out.get());
      if (outIt == allocIndex.end() ||
          liveness.intervals[outIt->second].start != static_cast<int64_t>(point) ||
          linalgOp.payloadUsesValueFromOperand(&out))
        continue;
      AffineMap outMap = linalgOp.getMatchingIndexingMap(&out);
      if (!outMap.isPermutation())
        continue;
      for (OpOperand *in : linalgOp.getDpsInputOperands()) {
        auto inIt = allocIndex.find(in->get());
        if (inIt == allocIndex.end() || givenAway.contains(inIt->second))
          continue;
        unsigned inIdx = inIt->second;
        if (liveness.intervals[inIdx].end != static_cast<int64_t>(point) ||
            linalgOp.getMatchingIndexingMap(in) != outMap ||
            liveness.intervals[inIdx].size != liveness.intervals[outIt->second].size ||
            cast<MemRefType>(in->get().getType()).getShape() !=
                cast<MemRefType>(out.get().getType()).getShape())
          continue;
        // No other operand may see the input's storage.
        const SmallVector<Value> &inAliases = liveness.aliases[inIdx];
        bool shared = llvm::any_of(op->getOpOperands(), [&](OpOperand &other) {
          return &other != in && llvm::is_contained(inAliases, other.get());
        });
        if (shared)
          continue;
        pairs.push_back({outIt->second, inIdx});
        givenAway.insert(inIdx);
        break;
      }
    }
  }
  return pairs;
}

SmallVector<std::pair<unsigned, memref::CopyOp>>
findForwardableOutputCopies(func::FuncOp func, const BufferLiveness &liveness) {
  SmallVector<std::pair<unsigned, memref::CopyOp>> result;
  Block &block = func.getBody().front();
  DenseMap<Operation *, int64_t> position;
  for (auto [i, op] : llvm::enumerate(liveness.topLevel))
    position[op] = i;
  auto pointOf = [&](Operation *op) {
    while (op->getBlock() != &block)
      op = op->getParentOp();
    return position.lookup(op);
  };
  llvm::SmallDenseSet<Value> taken;
  for (auto [i, aliases] : llvm::enumerate(liveness.aliases)) {
    memref::AllocOp alloc = liveness.allocs[i];
    for (Value v : aliases) {
      // Only reshapes of the alloc keep its row-major element order.
      Value chain = v;
      while (chain != alloc.getResult() && chain.getDefiningOp() &&
             isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(chain.getDefiningOp()))
        chain = chain.getDefiningOp()->getOperand(0);
      if (chain != alloc.getResult())
        continue;
      memref::CopyOp copy;
      for (Operation *user : v.getUsers())
        if (auto c = dyn_cast<memref::CopyOp>(user); c && c.getSource() == v)
          copy = c;
      // A copy that must run last (the output may be an input's memory: tlc-alias-state-outputs)
      // is not forwarded.
      if (!copy || copy->getBlock() != &block || copy->hasAttr(kCopyLastAttr))
        continue;
      auto arg = dyn_cast<BlockArgument>(copy.getTarget());
      auto argType = dyn_cast<MemRefType>(copy.getTarget().getType());
      int64_t point = position.lookup(copy);
      if (!arg || arg.getOwner() != &block || taken.contains(arg) || !argType ||
          !argType.getLayout().isIdentity() || argType.getRank() == 0 ||
          alloc.getType().getRank() == 0 || liveness.intervals[i].end != point ||
          argType.getElementType() != alloc.getType().getElementType() ||
          argType.getNumElements() != alloc.getType().getNumElements())
        continue;
      if (llvm::any_of(arg.getUsers(), [&](Operation *u) { return pointOf(u) < point; }))
        continue;
      taken.insert(arg);
      result.push_back({static_cast<unsigned>(i), copy});
      break;
    }
  }
  return result;
}

} // namespace tlc
