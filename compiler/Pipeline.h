// The compilation pipeline, stage by stage (read Pipeline.cpp top to bottom).
#ifndef TLC_COMPILER_PIPELINE_H
#define TLC_COMPILER_PIPELINE_H

#include "passes/EinsumPath.h"
#include "passes/Precision.h"
#include "targets/Target.h"

#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace tlc {

/// The graph-level choices a user makes (tlc flags).
struct GraphOptions {
  EinsumPathMode einsumPath = EinsumPathMode::Optimal; // --einsum-path
  Precision precision = Precision::F32;                 // --precision, resolved (not Auto)
  std::vector<std::string> keepFP32;                    // --keep-fp32
  bool precisionProbe = false; // the --report=precision probe (PrecisionProbe.h) instead
  std::string remat; // tl-autodiff's policy (none, cheap, segments=N); empty: none, unrecorded
};

/// Graph level, on tl: canonicalization, contraction paths of n-ary einsums, CSE, pattern
/// lifting, constant layouts, the precision policy.
void buildGraphPipeline(mlir::OpPassManager &pm, const GraphOptions &options = {});
/// tl to linalg on tensors, fusion of elementwise producers, loop order, fast-math flags.
void buildLowerToLinalgPipeline(mlir::OpPassManager &pm, const LoweringStrategy &strategy);
/// Tensors to buffers: outputs become caller buffers, intermediates live in one workspace,
/// and (for host targets) the C entry point `NAME_run` of each of `modelNames` is built (a
/// training step's object: the step and the inference from its state).
void buildBufferizationPipeline(mlir::OpPassManager &pm, llvm::ArrayRef<std::string> modelNames,
                                const LoweringStrategy &strategy);

} // namespace tlc

#endif // TLC_COMPILER_PIPELINE_H
