// Declarations and registration of tlc's graph-level passes and the shared lowering (each
// target declares its code generation passes: targets/cpu/CPUPasses.h, targets/gpu/GPUPasses.h).
#ifndef TLC_PASSES_PASSES_H
#define TLC_PASSES_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Pass/Pass.h"
#include "passes/EinsumPath.h"
#include "passes/Precision.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace tlc {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

class TargetLoweringPatterns;

/// Patterns lowering tl ops to linalg/tensor/arith/math (the mechanism behind
/// tl-lower-to-linalg). With `rowLoops` or `tiledAttention` the target's patterns for them
/// come from `target`, which must then be non-null (passes/TargetLoweringPatterns.h).
void populateTLToLinalgPatterns(mlir::RewritePatternSet &patterns,
                                const TargetLoweringPatterns *target, bool rowLoops,
                                bool tiledAttention, bool fusedAttention = false,
                                unsigned maxInPlaceConcat = 32);

/// Patterns lowering tl shape ops to tensor/linalg (part of the above). A concat of more than
/// `maxInPlaceConcat` inputs becomes one tensor.concat instead of an insert_slice chain.
void populateTLShapeOpsToTensorPatterns(mlir::RewritePatternSet &patterns,
                                        unsigned maxInPlaceConcat = 32);

/// Concats that extend one another (each link's inputs a proper prefix of the next's, along
/// one axis, as DenseNet's "concat of all earlier outputs"; at most `maxInputs` inputs)
/// lowered as one buffer of the last link's shape into which each input is inserted once
/// (tensor.insert_slice), each earlier link its leading slice (tensor.extract_slice): bufferized
/// in place, the chain costs one copy of each input instead of one per link that reads it.
/// Part of tl-lower-to-linalg, before its patterns.
void lowerConcatChains(mlir::Operation *root, unsigned maxInputs);

/// Patterns lowering tl neural-network ops (conv2d, pooling, layer_norm, gather, pad, arg_max)
/// to linalg named ops and linalg.generic (part of populateTLToLinalgPatterns).
void populateTLNNOpsToLinalgPatterns(mlir::RewritePatternSet &patterns);

/// Patterns lifting spelled-out LayerNorm, GELU and attention to tl.layer_norm, tl.gelu and
/// tl.attention (the mechanism behind tl-lift-patterns).
void populateTLLiftPatterns(mlir::RewritePatternSet &patterns);

/// The attention part of populateTLLiftPatterns: MatMul(Q, K^T), scale, optional mask,
/// Softmax, MatMul(., V) to tl.attention.
void populateTLLiftAttentionPatterns(mlir::RewritePatternSet &patterns);

/// A short f32 (scalar or vector) math.exp expansion: range reduction through the exponent
/// bits and a degree-5 polynomial, at most ~2 ulp, results below ~1.7e-38 flushed to zero; with
/// `avx512`, 16-lane vectors scale by 2^k with vscalefps instead, with gradual underflow (part
/// of tlc-approximate-math, ahead of MLIR's exp approximation). With `exactRounding` k is
/// rounded by math.roundeven instead of a float-add shifter (GPU drivers may fold the latter).
void populateFastExpPattern(mlir::RewritePatternSet &patterns, bool avx512,
                            mlir::PatternBenefit benefit = 1, bool exactRounding = false);

/// A unit attribute on a math.exp whose argument is known to be <= 0 or NaN (x - max(row) in
/// softmax): the fast expansion then skips its overflow clamp.
inline constexpr llvm::StringLiteral kExpNonPositiveArgAttr = "tlc.nonpositive_arg";

/// A short f32 (scalar or vector) math.exp2 expansion (exponent-bits range reduction, a
/// degree-5 polynomial of 2^f on [-1/2, 1/2], at most ~2 ulp, results below ~1.7e-38 flushed to
/// zero; with `avx512`, 16-lane vectors scale by 2^k with vscalefps instead, with gradual
/// underflow), and f16/bf16 exp2 computed through it (part of tlc-approximate-math);
/// `exactRounding` as for populateFastExpPattern.
void populateFastExp2Patterns(mlir::RewritePatternSet &patterns, bool avx512,
                              mlir::PatternBenefit benefit = 1, bool exactRounding = false);

/// A short f32 (scalar or vector) math.erf expansion: one rational function x P(x^2) / Q(x^2)
/// on [-4, 4], at most ~4e-7 absolute error (part of tlc-approximate-math, ahead of MLIR's
/// three-interval erf approximation).
void populateFastErfPattern(mlir::RewritePatternSet &patterns, mlir::PatternBenefit benefit = 1);

/// f32 (scalar or vector) math.sin, math.cos and math.tan expansions: a three-part Cody-Waite
/// reduction by pi/2 (one FMA each) and degree-9/10 polynomials, at most ~1e-7 absolute error
/// for |x| <= 1e6 (part of tlc-approximate-math, ahead of MLIR's sin/cos, whose one-step
/// reduction loses accuracy as |x| grows); and math.atan/atan2 by a reduction to
/// [0, tan(pi/8)] and a degree-9 polynomial, at most ~2e-7 relative error (MLIR's: 2.4e-6).
/// Without `fusedFma` (SPIR-V, whose Fma may round twice) the reduction uses exact products
/// instead: ~1e-7 up to |x| = 1e4 only.
void populateFastTrigPatterns(mlir::RewritePatternSet &patterns, bool fusedFma,
                              mlir::PatternBenefit benefit = 1);

/// tl.attention as its definition in tl and linalg ops (scores einsum, scale and causal mask,
/// the additive mask, softmax, einsum with V): forms the Sq x Sk scores (tl-lower-to-linalg
/// without tiled-attention).
void populateTLAttentionDefinitionPatterns(mlir::RewritePatternSet &patterns);

/// tl.attention in f32 with static shapes and heads of at most 128 as tl.fused_attention into
/// a tensor.empty (tl-lower-to-linalg with fused-attention, for the GPU targets' kernel);
/// preferred over the definition, which the others keep.
void populateTLAttentionFusedPatterns(mlir::RewritePatternSet &patterns);

/// tl.fused_attention's BufferizableOpInterface (a destination-style op: the same op on
/// buffers, writing init's buffer, which it does not read).
void registerFusedAttentionBufferization(mlir::DialectRegistry &registry);

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace tlc

#endif // TLC_PASSES_PASSES_H
