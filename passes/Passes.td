// Declarations of tlc's graph-level and codegen-level passes.
#ifndef TLC_PASSES_TD
#define TLC_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLLowerToLinalg : Pass<"tl-lower-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lower tl ops to linalg, tensor, arith and math";
  let description = [{
    Every elementwise tl op becomes a `linalg.generic` built from its scalar body (the
    ElementwiseOpInterface) with numpy-broadcast indexing maps; einsums become `linalg.generic`
    contractions whose maps come from the one einsum engine; reductions use the
    ReductionOpInterface; softmax becomes max/exp/sum/divide; shape ops become tensor ops.
    Fails, naming the op, if any tl op remains.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def TLLiftPatterns : Pass<"tl-lift-patterns", "mlir::func::FuncOp"> {
  let summary = "Replace spelled-out LayerNorm and GELU computations with tl.layer_norm/tl.gelu";
  let description = [{
    Exporters write known computations op by op. This pass recognizes
    `(x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) [* gamma + beta]` over trailing axes
    (the square as `d * d` or `pow(d, 2)`) and replaces it with `tl.layer_norm`, and
    `0.5 * x * (1 + erf(x / sqrt 2))` and `0.5 * x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`
    (products in any order) with `tl.gelu`. Attention (MatMul-Scale-Mask-Softmax-MatMul) is
    not lifted here: it waits for the tl.attention op.
  }];
}

def TLCInterchangeLoops : Pass<"tlc-interchange-loops", "mlir::func::FuncOp"> {
  let summary = "Order linalg.generic loops so the innermost one walks memory contiguously";
  let description = [{
    Permutes the iteration space of each `linalg.generic` so that the innermost loop is the one
    that walks the last (contiguous) axis of the most operand bytes; ties go to parallel loops,
    then to the loop that writes the output contiguously. The other loops keep their order.
    After lowering to loops, the innermost loop then touches unit-stride memory and LLVM
    vectorizes it (e.g. matmul runs i-k-j, and needs no reassociation of its sums).
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def TLCSetFastMath : Pass<"tlc-set-fast-math", "mlir::func::FuncOp"> {
  let summary = "Mark floating-point arithmetic with the fast-math flags codegen may use";
  let description = [{
    Adds `contract` to floating-point add, subtract, multiply and negate, so multiply-adds become
    FMAs (not to casts, where it would license dropping a rounding). With
    `reassociate-reductions`, also adds `reassoc` to the combiner of reductions in
    `linalg.generic` ops, so LLVM may vectorize them with partial sums.
  }];
  let options = [
    Option<"contract", "contract", "bool", /*default=*/"true", "allow FMA contraction">,
    Option<"reassociateReductions", "reassociate-reductions", "bool", /*default=*/"true",
           "allow reassociating reduction combiners">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def TLCPlanWorkspace : Pass<"tlc-plan-workspace", "mlir::ModuleOp"> {
  let summary = "Place every intermediate buffer of the entry function in one workspace arena";
  let description = [{
    Replaces each statically shaped `memref.alloc` in public functions with a `memref.view`
    into a new trailing `memref<Nxi8>` workspace argument, at a 64-byte aligned offset, and
    records the arena size as the module attribute `tlc.workspace_size`. Buffers are placed
    one after another (no reuse yet). Fails on dynamically shaped allocations.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::arith::ArithDialect"];
}

def TLCLowerMemRefCopy : Pass<"tlc-lower-memref-copy", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy so it lowers to loops, not a runtime call";
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def TLCApproximateMath : Pass<"tlc-approximate-math", "mlir::ModuleOp"> {
  let summary = "Replace transcendental math ops with vectorizable polynomial approximations";
  let description = [{
    Applies MLIR's math polynomial approximations (tanh, erf, exp, log, ...), so the
    functions inline and vectorize instead of calling libm one element at a time.
  }];
  let dependentDialects = ["mlir::math::MathDialect", "mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

def TLCAddEntryPoint : Pass<"tlc-add-entry-point", "mlir::ModuleOp"> {
  let summary = "Wrap the model function in its C entry point `NAME_run` returning a status";
  let description = [{
    Renames the public function `NAME` to a private `NAME_impl` and adds `NAME_run`, which
    checks that no buffer pointer is null (the workspace only when it is non-empty), calls the
    implementation, and returns TLC_STATUS_OK (0) or TLC_STATUS_INVALID_ARGUMENT (1).
  }];
  let options = [
    Option<"modelName", "model-name", "std::string", /*default=*/"\"\"", "the model's C name">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

#endif // TLC_PASSES_TD
