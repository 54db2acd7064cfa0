// The tl dialect: registration, constant materialization and shared helpers.
#include "TL/TLDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tlc::tl;

#include "TL/TLDialect.cpp.inc"
#include "TL/TLEnums.cpp.inc"
#include "TL/TLInterfaces.cpp.inc"

void TLDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TL/TLOps.cpp.inc"
      >();
}

Operation *TLDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                          Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

int64_t tlc::tl::defaultByteCount(Operation *op) {
  auto bytes = [](Type t) -> int64_t {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !tensor.hasStaticShape())
      return 0;
    int64_t bits = tensor.getElementTypeBitWidth();
    return tensor.getNumElements() * std::max<int64_t>(1, bits / 8);
  };
  int64_t total = 0;
  for (Type t : op->getOperandTypes())
    total += bytes(t);
  for (Type t : op->getResultTypes())
    total += bytes(t);
  return total;
}
