// Finding the fill that initializes a buffer (see BufferFills.h).
#include "passes/BufferFills.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>

using namespace mlir;

namespace {

/// `v` through the views that keep every element of their source (reshapes and casts).
Value wholeBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The allocation `v` is a view of, when it is a memref.alloc or alloca (whose memory no other
/// allocation shares); null otherwise (e.g. a function argument or a view into a workspace).
Value allocationOf(Value v) {
  if (!isa<BaseMemRefType>(v.getType()))
    return nullptr;
  Value root = tlc::rootBuffer(v);
  return root.getDefiningOp<memref::AllocOp>() || root.getDefiningOp<memref::AllocaOp>() ? root
                                                                                         : nullptr;
}

/// The bytes `value` may occupy: its root binding (a function argument, a global, or the
/// buffer a memref.view cuts at a constant offset) and a byte range in it.
std::pair<Value, std::pair<int64_t, int64_t>> footprint(Value value) {
  constexpr int64_t kAll = std::numeric_limits<int64_t>::max();
  while (Operation *def = value.getDefiningOp()) {
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      auto type = cast<MemRefType>(view.getType());
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
        return {view.getSource(), {0, kAll}};
      int64_t bytes = type.getNumElements() *
                      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
      return {view.getSource(), {*shift, *shift + bytes}};
    }
    auto viewLike = dyn_cast<ViewLikeOpInterface>(def);
    if (!viewLike)
      break;
    value = viewLike.getViewSource();
  }
  return {value, {0, kAll}};
}

} // namespace

/// Whether `a` and `b` are static, unit-stride subviews of one buffer whose boxes do not
/// intersect (the border slabs of a padded buffer and its interior).
static bool disjointSubviews(Value a, Value b) {
  auto viewA = a.getDefiningOp<memref::SubViewOp>(), viewB = b.getDefiningOp<memref::SubViewOp>();
  if (!viewA || !viewB || viewA.getSource() != viewB.getSource() || !viewA.hasUnitStride() ||
      !viewB.hasUnitStride() || viewA.getSourceType().getRank() != viewA.getType().getRank() ||
      viewB.getSourceType().getRank() != viewB.getType().getRank())
    return false;
  ArrayRef<int64_t> offA = viewA.getStaticOffsets(), offB = viewB.getStaticOffsets();
  ArrayRef<int64_t> sizeA = viewA.getStaticSizes(), sizeB = viewB.getStaticSizes();
  for (size_t d = 0; d < offA.size(); ++d) {
    if (ShapedType::isDynamic(offA[d]) || ShapedType::isDynamic(offB[d]) ||
        ShapedType::isDynamic(sizeA[d]) || ShapedType::isDynamic(sizeB[d]))
      return false;
  }
  for (size_t d = 0; d < offA.size(); ++d)
    if (offA[d] + sizeA[d] <= offB[d] || offB[d] + sizeB[d] <= offA[d])
      return true;
  return false;
}

bool tlc::mayOverlap(Value a, Value b) {
  if (disjointSubviews(a, b))
    return false;
  auto [rootA, rangeA] = footprint(a);
  auto [rootB, rangeB] = footprint(b);
  return rootA == rootB && rangeA.first < rangeB.second && rangeB.first < rangeA.second;
}

Value tlc::rootBuffer(Value v) {
  auto memref = dyn_cast<TypedValue<BaseMemRefType>>(v);
  return memref ? memref::skipViewLikeOps(memref) : v;
}

bool tlc::mayAccessMemory(Operation *op, bool reads,
                          function_ref<bool(Operation *, Value)> touches,
                          function_ref<bool(Operation *)> transparent) {
  WalkResult walk = op->walk([&](Operation *nested) {
    if (transparent && transparent(nested))
      return WalkResult::advance();
    // An op's own effects, and with recursive effects those of the ops it contains (walked
    // next): a linalg op on buffers has both.
    auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!iface)
      return nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ? WalkResult::advance()
                                                                     : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (MemoryEffects::EffectInstance &effect : effects) {
      if (!isa<MemoryEffects::Write>(effect.getEffect()) &&
          !(reads && isa<MemoryEffects::Read>(effect.getEffect())))
        continue;
      Value value = effect.getValue();
      if (!value || touches(nested, value))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

linalg::FillOp tlc::lastFillOf(Operation *op, Value buffer) {
  Value whole = wholeBuffer(buffer), allocation = allocationOf(buffer);
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(prev)) {
      if (!fill.hasPureBufferSemantics())
        return nullptr;
      Value filled = fill.getDpsInitOperand(0)->get();
      if (wholeBuffer(filled) == whole)
        return fill;
      Value other = allocationOf(filled);
      if (allocation && other && other != allocation)
        continue;
      return nullptr;
    }
    if (!isMemoryEffectFree(prev))
      return nullptr;
  }
  return nullptr;
}
