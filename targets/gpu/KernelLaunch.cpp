// What a GPU kernel may bind and the view chains cloned into a launch to reach it.
#include "targets/gpu/KernelLaunch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

bool tlc::isBindingRoot(Value value) {
  if (isa<BlockArgument>(value))
    return true;
  return isa<memref::ViewOp, memref::GetGlobalOp>(value.getDefiningOp());
}

Value tlc::cloneViewChain(OpBuilder &b, Value value, IRMapping &map) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def || isBindingRoot(value))
    return value;
  if (!isa<ViewLikeOpInterface>(def) && !isa<arith::ConstantOp>(def))
    return value;
  for (Value operand : def->getOperands())
    cloneViewChain(b, operand, map);
  Operation *clone = b.clone(*def, map);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}
