// LLVM's middle-end optimizer as tlc runs it on a translated module.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tlc {

/// Runs LLVM's default module pipeline at `optLevel` (0-3) for `tm`, less the passes
/// isSkippedPass names, with the standard instrumentation registered so `tlc --time-passes`
/// reports the optimizer's passes too (and not only code generation's).
llvm::Error optimizeLLVMModule(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel);

/// optimizeLLVMModule on up to `threads` threads. A module large enough is split into
/// partitions that reach each other only by address or through calls of never-inlined
/// functions; each is optimized in its own LLVMContext with a target machine from
/// `makeTargetMachine` (called on the worker threads) and linked back into `module`. The
/// partitions depend on the module only, so the result is the same for any `threads`
/// (1 optimizes them one after another). Small modules, -O0 and --time-passes runs are
/// optimized whole. Returns the number of partitions (1: whole). LLVMPartitions.cpp.
///
/// With `codegen`, a partitioned module's pieces also get their code generated on the worker
/// threads: each optimized piece goes through `codegen->beforeCodegen` and becomes an object,
/// the module's data (what no partition defines) another one, and the objects are joined and
/// written to `codegen->out` with the symbols that were internal before the split made local again
/// (RelocatableLink.h); `codegen->emitted` is then set and `module` is left without function
/// bodies. Only for ELF targets and with an ld.lld (findLLD); otherwise (and for modules
/// optimized whole) `module` is optimized in place and the caller generates its code.
struct PartitionCodegen {
  llvm::function_ref<void(llvm::Module &)> beforeCodegen;
  llvm::raw_ostream *out = nullptr;
  /// The file `out` writes, where the joined object may go directly (TargetOptions::objectPath).
  llvm::StringRef outPath;
  bool emitted = false;
};
llvm::Expected<unsigned> optimizeLLVMModuleInParallel(
    llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel, unsigned threads,
    llvm::function_ref<std::unique_ptr<llvm::TargetMachine>()> makeTargetMachine,
    PartitionCodegen *codegen = nullptr);

/// Policy: leaves LLVM's loop strength reduction out of x86 code generation (its
/// `-disable-lsr` option, unless the command line sets it). On tlc's code it was the largest
/// pass of a DenseNet's compile (23% of densenet121's LLVM time, `--time-passes`) and changed
/// no measured run time on Zen 5 with AVX-512 or AVX2 (models, GEMM, convolution, row
/// kernels). The option is process-wide: call before code generation starts on any thread.
void disableLoopStrengthReduction();

/// Generates the object file of `module` for `tm` into `os`.
llvm::Error emitObject(llvm::Module &module, llvm::TargetMachine &tm, llvm::raw_pwrite_stream &os);

/// Whether the optimizer leaves out `pass` (a pass class name, e.g. "LoopLoadEliminationPass")
/// of the default pipeline: passes that leave tlc's code unchanged, at a measurable cost.
bool isSkippedPass(llvm::StringRef pass);

} // namespace tlc
