// LLVM's middle-end optimizer as tlc runs it on a translated module.
#include "targets/cpu/LLVMOptimizer.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"

void tlc::disableLoopStrengthReduction() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("disable-lsr"); // TargetPassConfig.cpp's cl::opt<bool> DisableLSR
  if (it == options.end())
    return;
  auto *disable = static_cast<llvm::cl::opt<bool> *>(it->second);
  if (disable->getNumOccurrences() == 0)
    disable->setValue(true);
}

bool tlc::isSkippedPass(llvm::StringRef pass) {
  // LoopLoadEliminationPass forwards a value stored in one loop iteration to a load of it in
  // the next. tlc's loops carry such values in registers (scf.for iter_args: accumulators,
  // running maxima and sums), and the pass changed no byte of the assembly of any example,
  // e2e input, benchmark case or ONNX test model (x86-64-v3 and -v4; aarch64), while its
  // dependence analysis of fully unrolled row loops took 5% of the MLP example's compile
  // (callgrind).
  return pass == "LoopLoadEliminationPass";
}

llvm::Error tlc::optimizeLLVMModule(llvm::Module &module, llvm::TargetMachine &tm,
                                    unsigned optLevel) {
  using namespace llvm;
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassInstrumentationCallbacks pic;
  StandardInstrumentations instrumentations(module.getContext(), /*DebugLogging=*/false);
  instrumentations.registerCallbacks(pic, &mam);
  // Pass instrumentation's optional-pass gate (the mechanism of -opt-disable) drops the
  // passes of the default pipelines that find nothing to do in tlc's code.
  pic.registerShouldRunOptionalPassCallback(
      [](StringRef pass, Any) { return !isSkippedPass(pass); });
  // As clang at -O2 and above. Measured on the MLP example: LLVM's unroller costs ~25% of
  // LLVM's time there, but without it GELU's loop ran ~8% slower, so it stays on.
  PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  PassBuilder pb(&tm, tuning, std::nullopt, &pic);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  OptimizationLevel level = optLevel == 0   ? OptimizationLevel::O0
                            : optLevel == 1 ? OptimizationLevel::O1
                            : optLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager mpm = optLevel == 0 ? pb.buildO0DefaultPipeline(level)
                                        : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
  return Error::success();
}
