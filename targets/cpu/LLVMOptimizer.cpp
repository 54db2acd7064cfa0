// LLVM's middle-end optimizer as tlc runs it on a translated module.
#include "targets/cpu/LLVMOptimizer.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Target/TargetMachine.h"

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
