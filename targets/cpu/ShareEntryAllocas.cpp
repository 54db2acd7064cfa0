// tlc-share-entry-allocas: the stack buffers a function allocates at its top level (the packed
// operand panels of the contractions that run on the calling thread) share one frame buffer,
// each at an offset that no buffer live at the same time overlaps.
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

/// One top-level alloca: its byte size and the positions (in the function's block) of the
/// first and last top-level op that uses it or a view of it.
struct Slot {
  memref::AllocaOp alloca;
  int64_t bytes = 0, first = 0, last = 0, offset = 0;
};

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
    SmallVector<Slot> slots;
    for (auto alloca : block.getOps<memref::AllocaOp>()) {
      MemRefType type = alloca.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !alloca.getDynamicSizes().empty() || !alloca.getSymbolOperands().empty() ||
          type.getMemorySpace() || !type.getElementType().isIntOrFloat() ||
          alloca.getAlignment().value_or(1) > kAlignment)
        continue;
      Slot slot;
      slot.alloca = alloca;
      slot.bytes = llvm::alignTo(
          type.getNumElements() * llvm::divideCeil(type.getElementTypeBitWidth(), 8), kAlignment);
      slot.first = index;
      slot.last = -1;
      if (slot.bytes == 0 || !liveRange(alloca, block, position, slot.first, slot.last) ||
          slot.last < 0)
        continue;
      slots.push_back(slot);
    }
    if (slots.size() < 2)
      return;
    // Largest first, each at the lowest offset clear of the placed ones it overlaps in time.
    llvm::stable_sort(slots, [](const Slot &a, const Slot &b) { return a.bytes > b.bytes; });
    int64_t total = 0;
    for (size_t i = 0; i < slots.size(); ++i) {
      SmallVector<std::pair<int64_t, int64_t>> taken;
      for (size_t j = 0; j < i; ++j)
        if (slots[j].first <= slots[i].last && slots[i].first <= slots[j].last)
          taken.push_back({slots[j].offset, slots[j].offset + slots[j].bytes});
      llvm::sort(taken);
      int64_t offset = 0;
      for (auto [begin, end] : taken) {
        if (offset + slots[i].bytes <= begin)
          break;
        offset = std::max(offset, end);
      }
      slots[i].offset = offset;
      total = std::max(total, offset + slots[i].bytes);
    }
    OpBuilder b(&block, block.begin());
    Location loc = func.getLoc();
    auto frameType = MemRefType::get({total}, b.getI8Type());
    Value frame = memref::AllocaOp::create(b, loc, frameType, b.getI64IntegerAttr(kAlignment));
    for (Slot &slot : slots) {
      b.setInsertionPoint(slot.alloca);
      Value offset = arith::ConstantIndexOp::create(b, loc, slot.offset);
      Value view = memref::ViewOp::create(b, slot.alloca.getLoc(), slot.alloca.getType(), frame,
                                          offset, ValueRange{});
      slot.alloca.replaceAllUsesWith(view);
      slot.alloca.erase();
    }
  }

  static constexpr int64_t kAlignment = 64;
};

} // namespace
