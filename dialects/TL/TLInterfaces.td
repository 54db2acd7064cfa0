// Op interfaces through which passes ask tl ops about elementwise bodies, reductions and cost.
#ifndef TL_INTERFACES_TD
#define TL_INTERFACES_TD

include "mlir/IR/OpBase.td"

def TL_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let cppNamespace = "::tlc::tl";
  let description = [{
    An op whose every result element depends only on the operand elements at the same
    (numpy-broadcast) position. It can build its scalar computation, so one lowering (and later
    one fusion mechanism) serves every such op.
  }];
  let methods = [
    InterfaceMethod<[{
        Emits the scalar computation for one element: `args` holds one scalar per operand (of the
        operand's element type); returns the result scalar (of the result element type).
      }], "::mlir::Value", "buildScalar",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc, "::mlir::ValueRange":$args)>,
    InterfaceMethod<[{Arithmetic operations per result element, for cost models.}],
      "int64_t", "getFlopsPerElement", (ins), [{}], [{ return 1; }]>,
  ];
}

def TL_ReductionOpInterface : OpInterface<"ReductionOpInterface"> {
  let cppNamespace = "::tlc::tl";
  let description = [{
    An op that folds its input over `axes` with an associative combiner: it provides the
    identity, the combiner and a finalizer (e.g. mean's division), so one lowering serves all.
  }];
  let methods = [
    InterfaceMethod<"The reduced axes, sorted and non-negative.",
      "::llvm::SmallVector<int64_t>", "getReducedAxes", (ins)>,
    InterfaceMethod<"Whether reduced axes stay as size-1 dimensions.", "bool", "getKeepDims", (ins)>,
    InterfaceMethod<"The combiner's identity element.", "::mlir::TypedAttr", "getIdentity",
      (ins "::mlir::Type":$elementType)>,
    InterfaceMethod<"Combines an accumulator with one input element.", "::mlir::Value",
      "buildCombine", (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
                           "::mlir::Value":$acc, "::mlir::Value":$x)>,
    InterfaceMethod<"Post-processes one reduced value; `count` is the number of elements folded.",
      "::mlir::Value", "buildFinalize", (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
                                             "::mlir::Value":$value, "int64_t":$count),
      [{}], [{ return value; }]>,
  ];
}

def TL_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::tlc::tl";
  let description = [{
    A first-order cost estimate for cost models (fusion, scheduling, reports): arithmetic
    operations and the bytes of operands read plus results written, assuming no reuse.
  }];
  let methods = [
    InterfaceMethod<"Floating-point (or integer) operations executed.", "int64_t", "getFlopCount",
      (ins)>,
    InterfaceMethod<"Bytes read from operands plus bytes written to results.", "int64_t",
      "getByteCount", (ins), [{}], [{ return ::tlc::tl::defaultByteCount($_op); }]>,
  ];
}

def TL_PrecisionOpInterface : OpInterface<"PrecisionOpInterface"> {
  let cppNamespace = "::tlc::tl";
  let description = [{
    An op that may take some float operands in a low-precision type (bf16, f16) while it
    accumulates, and produces its result, in f32: the products of a contraction or a
    convolution. tl-set-precision demotes exactly these operands; every op without this
    interface (softmax, normalizations, reductions, exp/log/erf, elementwise math) keeps the
    precision of its inputs.
  }];
  let methods = [
    InterfaceMethod<[{
        The indices of the operands that may be low precision (empty: this instance gains
        nothing from it, e.g. a one-operand einsum that only permutes or sums).
      }], "::llvm::SmallVector<unsigned>", "getLowPrecisionOperands", (ins)>,
  ];
}

def TL_DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::tlc::tl";
  let description = [{
    An op that gives its vector-Jacobian product as tl ops, so that reverse-mode autodiff
    (`tl-autodiff`) builds the backward graph from ordinary tl ops, which then go through the
    same fusion, code generation and memory planning as the forward graph.
  }];
  let methods = [
    InterfaceMethod<[{
        Builds, at `b`'s insertion point, the gradient of every operand from the gradient
        `resultGrad` of the result (of the result's type): `operandGrads` gets one entry per
        operand, of that operand's type, or null where the operand has no gradient (integer
        and boolean operands, conditions). Fails, after an error at the op, where a gradient
        is not defined (a diagonal einsum, a strided slice).
      }], "::mlir::LogicalResult", "buildVJP",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Value":$resultGrad,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGrads)>,
  ];
}

#endif // TL_INTERFACES_TD
