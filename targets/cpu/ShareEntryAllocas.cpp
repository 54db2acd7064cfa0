// tlc-share-entry-allocas: the stack buffers a function allocates at its top level (the packed
// operand panels of the contractions that run on the calling thread) share one frame buffer,
// each at an offset that no buffer live at the same time overlaps.
#include "passes/MemoryPlan.h"
#include "targets/cpu/CPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tlc {
#define GEN_PASS_DEF_TLCSHAREENTRYALLOCAS
#include "targets/cpu/CPUPasses.h.inc"
} // namespace tlc

using namespace mlir;

namespace {

/// The first and last positions of the top-level ops using `value` (through views). False when
/// a use is not inside the block (it cannot be).
bool liveRange(Value value, Block &block, const DenseMap<Operation *, int64_t> &position,
               int64_t &first, int64_t &last) {
  for (OpOperand &use : value.getUses()) {
    Operation *top = block.findAncestorOpInBlock(*use.getOwner());
    if (!top || isa<func::ReturnOp>(top))
      return false;
    int64_t at = position.lookup(top);
    first = std::min(first, at);
    last = std::max(last, at);
    auto view = dyn_cast<ViewLikeOpInterface>(use.getOwner());
    if (view && view.getViewSource() == value)
      for (Value result : use.getOwner()->getResults())
        if (!liveRange(result, block, position, first, last))
          return false;
  }
  return true;
}

struct TLCShareEntryAllocasPass
    : tlc::impl::TLCShareEntryAllocasBase<TLCShareEntryAllocasPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &block = func.getBody().front();
    DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : block)
      position[&op] = index++;
    // Each buffer's bytes live over the positions of the top-level ops using it.
    SmallVector<memref::AllocaOp> allocas;
    SmallVector<tlc::BufferInterval> intervals;
    for (auto alloca : block.getOps<memref::AllocaOp>()) {
      MemRefType type = alloca.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !alloca.getDynamicSizes().empty() || !alloca.getSymbolOperands().empty() ||
          type.getMemorySpace() || !type.getElementType().isIntOrFloat() ||
          alloca.getAlignment().value_or(1) > kAlignment)
        continue;
      tlc::BufferInterval interval;
      interval.size =
          type.getNumElements() * llvm::divideCeil(type.getElementTypeBitWidth(), 8);
      interval.start = index;
      interval.end = -1;
      if (interval.size == 0 ||
          !liveRange(alloca, block, position, interval.start, interval.end) ||
          interval.end < 0)
        continue;
      allocas.push_back(alloca);
      intervals.push_back(interval);
    }
    if (allocas.size() < 2)
      return;
    // The workspace's placement (tlc-plan-workspace): largest first, best fit among the
    // buffers live at the same time.
    tlc::ArenaPlacement placement = tlc::placeGreedyBySize(intervals, kAlignment);
    OpBuilder b(&block, block.begin());
    Location loc = func.getLoc();
    auto frameType = MemRefType::get({placement.arenaSize}, b.getI8Type());
    Value frame = memref::AllocaOp::create(b, loc, frameType, b.getI64IntegerAttr(kAlignment));
    for (auto [alloca, offset] : llvm::zip_equal(allocas, placement.offsets)) {
      b.setInsertionPoint(alloca);
      Value at = arith::ConstantIndexOp::create(b, loc, offset);
      Value view =
          memref::ViewOp::create(b, alloca.getLoc(), alloca.getType(), frame, at, ValueRange{});
      alloca.replaceAllUsesWith(view);
      alloca.erase();
    }
  }

  static constexpr int64_t kAlignment = 64;
};

} // namespace
