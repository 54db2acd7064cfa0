// Finding the fill that initializes a buffer (see BufferFills.h).
#include "passes/BufferFills.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

} // namespace

Value tlc::rootBuffer(Value v) {
  auto memref = dyn_cast<TypedValue<BaseMemRefType>>(v);
  return memref ? memref::skipViewLikeOps(memref) : v;
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
