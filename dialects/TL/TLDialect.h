// The tl dialect: dialect, op and interface declarations (generated from ODS).
#ifndef TLC_DIALECTS_TL_TLDIALECT_H
#define TLC_DIALECTS_TL_TLDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TL/TLDialect.h.inc"
#include "TL/TLEnums.h.inc"


namespace tlc::tl {
/// Bytes of all ranked-tensor operands and results of `op` (the default byte count).
int64_t defaultByteCount(mlir::Operation *op);
} // namespace tlc::tl

#include "TL/TLInterfaces.h.inc"

#define GET_OP_CLASSES
#include "TL/TLOps.h.inc"

#endif // TLC_DIALECTS_TL_TLDIALECT_H
