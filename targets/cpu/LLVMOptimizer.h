// LLVM's middle-end optimizer as tlc runs it on a translated module.
#pragma once

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tlc {

/// Runs LLVM's default module pipeline at `optLevel` (0-3) for `tm`, with the standard
/// instrumentation registered so `tlc --time-passes` reports the optimizer's passes too (and
/// not only code generation's).
llvm::Error optimizeLLVMModule(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel);

} // namespace tlc
