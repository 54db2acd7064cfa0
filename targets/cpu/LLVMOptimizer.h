// LLVM's middle-end optimizer as tlc runs it on a translated module.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tlc {

/// Runs LLVM's default module pipeline at `optLevel` (0-3) for `tm`, less the passes
/// isSkippedPass names, with the standard instrumentation registered so `tlc --time-passes`
/// reports the optimizer's passes too (and not only code generation's).
llvm::Error optimizeLLVMModule(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel);

/// Whether the optimizer leaves out `pass` (a pass class name, e.g. "LoopLoadEliminationPass")
/// of the default pipeline: passes that leave tlc's code unchanged, at a measurable cost.
bool isSkippedPass(llvm::StringRef pass);

} // namespace tlc
