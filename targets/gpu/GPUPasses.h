// The passes of the shared GPU code generator (declared in GPUPasses.td).
#ifndef TLC_TARGETS_GPU_GPUPASSES_H
#define TLC_TARGETS_GPU_GPUPASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tlc {

#define GEN_PASS_DECL
#include "targets/gpu/GPUPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "targets/gpu/GPUPasses.h.inc"

} // namespace tlc

#endif // TLC_TARGETS_GPU_GPUPASSES_H
