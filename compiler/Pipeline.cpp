// The compilation pipeline, stage by stage; target code generation follows (targets/).
#include "compiler/Pipeline.h"

#include "passes/Passes.h"
#include "targets/cpu/CPUPasses.h"
#include "targets/gpu/GPUPasses.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tlc::buildGraphPipeline(OpPassManager &pm, const GraphOptions &options) {
  // Gradients first, on the graph as written: the backward graph is then lifted, fused and
  // planned with the forward one.
  TLAutodiffOptions autodiff;
  autodiff.remat = options.remat;
  pm.addNestedPass<func::FuncOp>(createTLAutodiff(autodiff));
  pm.addPass(createCanonicalizerPass());
  // n-ary einsums as pairwise contractions (GEMMs), before CSE: the same pairwise contraction
  // needed by several einsums is then computed once.
  TLPlanEinsumPathsOptions paths;
  paths.path = options.einsumPath;
  pm.addNestedPass<func::FuncOp>(createTLPlanEinsumPaths(paths));
  pm.addPass(createCSEPass());
  // After CSE, so repeated subexpressions (x - mean) are one value the patterns can match.
  pm.addNestedPass<func::FuncOp>(createTLLiftPatterns());
  // Constant weights in the layout the contraction reads fastest (transposed at compile time).
  pm.addNestedPass<func::FuncOp>(createTLLayoutConstantOperands());
  // Mixed precision after the layouts, so the canonicalization below converts each weight
  // once, already transposed; CSE then shares one cast of an activation read by several
  // contractions (attention's Q, K and V projections).
  if (options.precision != Precision::F32) {
    TLSetPrecisionOptions precision;
    precision.precision = options.precision;
    precision.keepF32.assign(options.keepFP32.begin(), options.keepFP32.end());
    precision.probe = options.precisionProbe;
    pm.addPass(createTLSetPrecision(precision));
  }
  pm.addPass(createCanonicalizerPass());
  if (options.precision != Precision::F32)
    pm.addPass(createCSEPass());
}

void tlc::buildLowerToLinalgPipeline(OpPassManager &pm, const LoweringStrategy &strategy) {
  // The target's strategy picks its own passes (the CPU targets': targets/cpu/CPUPasses.td)
  // and, through tl-lower-to-linalg's options, its row-loop and tiled-attention patterns.
  if (strategy.tiledAttention)
    pm.addNestedPass<func::FuncOp>(createTLLowerAttention());
  TLLowerToLinalgOptions toLinalg;
  toLinalg.rowLoops = strategy.rowLoops;
  toLinalg.tiledAttention = strategy.tiledAttention;
  toLinalg.fusedAttention = strategy.fusedAttention;
  pm.addNestedPass<func::FuncOp>(createTLLowerToLinalg(toLinalg));
  pm.addPass(createCanonicalizerPass());
  // Elementwise chains into one loop nest (recorded for --report=fusion); never into a
  // contraction, which would recompute the producer and lose its multiply-add body.
  pm.addNestedPass<func::FuncOp>(createTLCFuseElementwise());
  pm.addPass(createCSEPass());
  if (strategy.cpuContractionTiles) {
    // Convolutions become im2col + contractions (tiled and vectorized in codegen); after
    // fusion, so the window copy stays a separate loop nest and the contraction keeps its
    // plain body.
    TLCLowerConvolutionsOptions convolutions;
    convolutions.winograd = strategy.winograd;
    convolutions.bf16Dots = strategy.bf16Dots;
    pm.addNestedPass<func::FuncOp>(createTLCLowerConvolutions(convolutions));
    // Bias, activation, residual add on each contraction output tile while it is in cache.
    pm.addNestedPass<func::FuncOp>(createTLCFuseEpilogues());
  } else if (strategy.winograd) {
    // The GPU targets' convolutions stay whole (implicit GEMMs in tlc-map-to-gpu) unless they
    // take Winograd's form here, after fusion, which it extends by the elementwise consumer.
    pm.addNestedPass<func::FuncOp>(createTLCGPUWinograd());
  }
  if (strategy.interchangeLoops)
    pm.addNestedPass<func::FuncOp>(createTLCInterchangeLoops());
  pm.addNestedPass<func::FuncOp>(createTLCSetFastMath());
}

void tlc::buildBufferizationPipeline(OpPassManager &pm, llvm::ArrayRef<std::string> modelNames,
                                     const LoweringStrategy &strategy) {
  // The recomputation of forward values for the backward pass is fixed once the tensor-level
  // CSE has run: the barriers that kept it from being merged away go.
  pm.addNestedPass<func::FuncOp>(tlc::createTLCDropRematBarriers());
  // Large splat constants as fills (not globals of their full size), then one fill per op
  // writing into a filled tensor, not one shared fill copied for each.
  pm.addNestedPass<func::FuncOp>(tlc::createTLCFillSplatConstants());
  pm.addNestedPass<func::FuncOp>(tlc::createTLCUnshareFills());
  // A tensor.empty that is only written and then inserted into a slice (e.g. a row computed
  // into an output's row) becomes that slice, so it is computed in place, not copied.
  pm.addNestedPass<func::FuncOp>(tlc::createTLCSliceReshapedEmpties());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion = bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Loops that carry a buffer through unchanged (e.g. the attention kernel's output) must fold
  // to the buffer itself, so the returned allocation becomes the caller's out-param instead of
  // being copied into it; CSE merges identical subviews so in-place insert_slice copies fold.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // A training step's next state may be written over its current state (NAME_train_step).
  pm.addNestedPass<func::FuncOp>(tlc::createTLCAliasStateOutputs());
  // Per-iteration buffers of parallel loops: at most 8 copies, not one per iteration.
  pm.addNestedPass<func::FuncOp>(tlc::createTLCBoundForallReplicas());
  // Depthwise convolutions read their padded input's source (tlc-tile-depthwise masks the
  // padding lanes), so the source must stay live up to them in the plan.
  if (strategy.cpuContractionTiles)
    pm.addNestedPass<func::FuncOp>(tlc::createTLCReadUnpaddedRows());
  TLCPlanWorkspaceOptions plan;
  plan.alignment = strategy.workspaceAlignment;
  plan.inputsThroughEpilogues = strategy.epiloguesFusedOnBuffers;
  pm.addPass(tlc::createTLCPlanWorkspace(plan));
  // A training step's object also infers from its state buffer (NAME_run(state, ...)).
  pm.addNestedPass<func::FuncOp>(tlc::createTLCStateBuffer());
  if (!strategy.hostEntryPoint)
    return;
  for (const std::string &name : modelNames) {
    TLCAddEntryPointOptions entry;
    entry.modelName = name;
    pm.addPass(tlc::createTLCAddEntryPoint(entry));
  }
}
