// Operations of the tl dialect.
#ifndef TL_OPS_TD
#define TL_OPS_TD

include "TL/TLBase.td"
include "TL/TLInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TL_Op<string mnemonic, list<Trait> traits = []>
    : Op<TL_Dialect, mnemonic, !listconcat(traits, [Pure])>;

//===----------------------------------------------------------------------===//
// Constants and contractions
//===----------------------------------------------------------------------===//

def TL_ConstantOp : TL_Op<"constant", [ConstantLike, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<TL_CostOpInterface>]> {
  let summary = "a dense or splat tensor constant (weights, literals)";
  let description = [{
    Produces a tensor from an elements attribute; model parameters become `tl.constant`s and are
    embedded in the compiled object.

    ```mlir
    %w = tl.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %z = tl.constant dense<0.0> : tensor<16xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs TL_StorageTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def TL_EinsumOp : TL_Op<"einsum", [InferTypeOpAdaptorWithIsCompatible,
    DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>,
    DeclareOpInterfaceMethods<TL_PrecisionOpInterface>]> {
  let summary = "einsum contraction with numpy semantics";
  let description = [{
    Contracts its operands as `numpy.einsum` does: explicit (`ij,jk->ik`) or implicit (`ij,jk`)
    output, labels repeated within one operand (diagonals), labels summed out, and `...`
    broadcasting. Every contraction in tl (matmul, batched matmul, ONNX MatMul/Gemm/Einsum)
    is an einsum, and the equation maps to loop indexing maps in exactly one place.
    Operands share one element type; bf16 or f16 operands may produce an f32 result, which
    then accumulates in f32 (mixed precision).

    ```mlir
    %c = tl.einsum "bij,bjk->bik" %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    %t = tl.einsum "ii" %m : (tensor<4x4xf32>) -> tensor<f32>
    %h = tl.einsum "ij,jk->ik" %x, %w : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins StrAttr:$equation, Variadic<TL_Tensor>:$inputs);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = "$equation $inputs attr-dict `:` functional-type($inputs, $result)";
}

//===----------------------------------------------------------------------===//
// Elementwise operations (numpy broadcasting)
//===----------------------------------------------------------------------===//

class TL_BinaryOp<string mnemonic, string desc, list<Trait> traits = []>
    : TL_Op<mnemonic, !listconcat(traits, [InferTypeOpAdaptor,
        DeclareOpInterfaceMethods<TL_ElementwiseOpInterface, ["buildScalar"]>,
        DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>])> {
  let summary = "elementwise " # desc # " with numpy broadcasting";
  let description = [{
    Applies }] # desc # [{ to each pair of elements after broadcasting the operands to a common
    shape (right-aligned; each dimension pair equal or one of them 1). Both operands have the same
    element type.

    ```mlir
    %r = tl.}] # mnemonic # [{ %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$lhs, TL_Tensor:$rhs);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}

def TL_AddOp : TL_BinaryOp<"add", "addition", [Commutative]>;
def TL_SubOp : TL_BinaryOp<"sub", "subtraction">;
def TL_MulOp : TL_BinaryOp<"mul", "multiplication", [Commutative]>;
def TL_DivOp : TL_BinaryOp<"div", "division">;
def TL_PowOp : TL_BinaryOp<"pow", "exponentiation (lhs to the power rhs)">;
def TL_MaxOp : TL_BinaryOp<"max", "maximum", [Commutative]>;
def TL_MinOp : TL_BinaryOp<"min", "minimum", [Commutative]>;
def TL_RemOp : TL_BinaryOp<"rem",
    "the remainder of truncating division (C fmod: the sign of lhs; integers: x rem 0 is 0)">;

class TL_UnaryOp<string mnemonic, string desc, Type operandType = TL_Tensor,
                 list<Trait> traits = []>
    : TL_Op<mnemonic, !listconcat(traits, [SameOperandsAndResultType,
        DeclareOpInterfaceMethods<TL_ElementwiseOpInterface, ["buildScalar"]>,
        DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>])> {
  let summary = "elementwise " # desc;
  let description = [{
    Computes }] # desc # [{ of every element.

    ```mlir
    %r = tl.}] # mnemonic # [{ %x : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins operandType:$input);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def TL_NegOp : TL_UnaryOp<"neg", "the negation">;
def TL_AbsOp : TL_UnaryOp<"abs", "the absolute value">;
def TL_ExpOp : TL_UnaryOp<"exp", "the natural exponential", TL_FloatTensor>;
def TL_LogOp : TL_UnaryOp<"log", "the natural logarithm", TL_FloatTensor>;
def TL_SqrtOp : TL_UnaryOp<"sqrt", "the square root", TL_FloatTensor>;
def TL_RsqrtOp : TL_UnaryOp<"rsqrt", "the reciprocal square root", TL_FloatTensor>;
def TL_TanhOp : TL_UnaryOp<"tanh", "the hyperbolic tangent", TL_FloatTensor>;
def TL_SigmoidOp : TL_UnaryOp<"sigmoid", "the logistic sigmoid 1/(1+exp(-x))", TL_FloatTensor>;
def TL_ReluOp : TL_UnaryOp<"relu", "max(x, 0)">;
def TL_ErfOp : TL_UnaryOp<"erf", "the error function", TL_FloatTensor>;
def TL_SinOp : TL_UnaryOp<"sin", "the sine", TL_FloatTensor>;
def TL_CosOp : TL_UnaryOp<"cos", "the cosine", TL_FloatTensor>;
def TL_TanOp : TL_UnaryOp<"tan", "the tangent", TL_FloatTensor>;
def TL_AsinOp : TL_UnaryOp<"asin", "the inverse sine", TL_FloatTensor>;
def TL_AcosOp : TL_UnaryOp<"acos", "the inverse cosine", TL_FloatTensor>;
def TL_AtanOp : TL_UnaryOp<"atan", "the inverse tangent", TL_FloatTensor>;
def TL_SinhOp : TL_UnaryOp<"sinh", "the hyperbolic sine", TL_FloatTensor>;
def TL_CoshOp : TL_UnaryOp<"cosh", "the hyperbolic cosine", TL_FloatTensor>;
def TL_AsinhOp : TL_UnaryOp<"asinh", "the inverse hyperbolic sine", TL_FloatTensor>;
def TL_AcoshOp : TL_UnaryOp<"acosh", "the inverse hyperbolic cosine", TL_FloatTensor>;
def TL_AtanhOp : TL_UnaryOp<"atanh", "the inverse hyperbolic tangent", TL_FloatTensor>;
def TL_RoundOp : TL_UnaryOp<"round", "the nearest integer, halves to even", TL_FloatTensor>;

def TL_GeluOp : TL_Op<"gelu", [SameOperandsAndResultType,
    DeclareOpInterfaceMethods<TL_ElementwiseOpInterface, ["buildScalar", "getFlopsPerElement"]>,
    DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "elementwise GELU, exact (erf) or tanh-approximated";
  let description = [{
    `approximate = none` computes `0.5 x (1 + erf(x / sqrt(2)))`; `approximate = tanh` computes
    `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))`. The default (`none`) is not printed.

    ```mlir
    %r = tl.gelu %x approximate = tanh : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TL_FloatTensor:$input,
      DefaultValuedAttr<TL_GeluApproximation, "::tlc::tl::GeluApproximation::none">:$approximate);
  let results = (outs TL_FloatTensor:$result);
  let assemblyFormat = "$input (`approximate` `=` $approximate^)? attr-dict `:` type($input)";
}

def TL_CompareOp : TL_Op<"compare", [InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<TL_ElementwiseOpInterface, ["buildScalar"]>,
    DeclareOpInterfaceMethods<TL_CostOpInterface>]> {
  let summary = "elementwise comparison with numpy broadcasting, giving i1";
  let description = [{
    Compares broadcast operand pairs with the predicate (`eq`, `ne`, `lt`, `le`, `gt`, `ge`).
    Floats compare ordered (false if either is NaN, except `ne`, which is true).

    ```mlir
    %m = tl.compare lt %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins TL_ComparePredicate:$predicate, TL_Tensor:$lhs, TL_Tensor:$rhs);
  let results = (outs TL_BoolTensor:$result);
  let assemblyFormat = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
}

def TL_SelectOp : TL_Op<"select", [InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<TL_ElementwiseOpInterface, ["buildScalar"]>,
    DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "elementwise choice between two tensors by an i1 condition";
  let description = [{
    `cond ? on_true : on_false` per element, all three broadcast to a common shape; the two
    value operands have the same element type.

    ```mlir
    %r = tl.select %c, %a, %b : tensor<4x1xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TL_BoolTensor:$cond, TL_Tensor:$on_true, TL_Tensor:$on_false);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $on_true `,` $on_false attr-dict `:` type($cond) `,` type($on_true) `,`
    type($on_false) `->` type($result)
  }];
}

def TL_CastOp : TL_Op<"cast", [
    DeclareOpInterfaceMethods<TL_ElementwiseOpInterface, ["buildScalar"]>,
    DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "elementwise element-type conversion";
  let description = [{
    Converts each element to the result's element type: floats round to nearest, float to integer
    truncates toward zero, integers sign-extend or truncate, i1 converts as 0/1 and anything to
    i1 is `x != 0`. With `from_unsigned`, integer inputs are read as unsigned: they zero-extend
    and convert to floats as non-negative (the ONNX importer's uint8/uint16/uint32 tensors,
    which it computes on in a wider signed type). Shapes must be equal.

    ```mlir
    %h = tl.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
    %w = tl.cast %q {from_unsigned} : tensor<16xi8> to tensor<16xi32>
    ```
  }];
  let arguments = (ins TL_StorageTensor:$input, UnitAttr:$from_unsigned);
  let results = (outs TL_StorageTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

class TL_ReduceOp<string mnemonic, string desc>
    : TL_Op<mnemonic, [InferTypeOpAdaptor,
        DeclareOpInterfaceMethods<TL_ReductionOpInterface,
          ["getReducedAxes", "getKeepDims", "getIdentity", "buildCombine", "buildFinalize"]>,
        DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = desc # " over axes";
  let description = [{
    Reduces `input` with }] # desc # [{ over the listed axes (distinct, in range; negative
    values count from the end). Without `keepdims` the reduced axes are removed; with it they
    remain as size-1 dimensions.

    ```mlir
    %r = tl.}] # mnemonic # [{ %x axes = [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$input, DenseI64ArrayAttr:$axes, UnitAttr:$keepdims);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes (`keepdims` $keepdims^)? attr-dict `:` type($input) `->` type($result)
  }];
}

def TL_ReduceSumOp : TL_ReduceOp<"reduce_sum", "the sum">;
def TL_ReduceMeanOp : TL_ReduceOp<"reduce_mean", "the arithmetic mean">;
def TL_ReduceMaxOp : TL_ReduceOp<"reduce_max", "the maximum">;
def TL_ReduceMinOp : TL_ReduceOp<"reduce_min", "the minimum">;

class TL_SoftmaxLikeOp<string mnemonic, string desc>
    : TL_Op<mnemonic, [SameOperandsAndResultType,
        DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = desc # " along one axis";
  let description = [{
    Computes }] # desc # [{ along `axis` (negative counts from the end), numerically stable
    (the maximum along the axis is subtracted first).

    ```mlir
    %p = tl.}] # mnemonic # [{ %x axis = 1 : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TL_FloatTensor:$input, I64Attr:$axis);
  let results = (outs TL_FloatTensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The normalized (non-negative) axis.
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getType().getRank() : axis;
    }
  }];
}

def TL_SoftmaxOp : TL_SoftmaxLikeOp<"softmax", "softmax">;
def TL_LogSoftmaxOp : TL_SoftmaxLikeOp<"log_softmax", "log-softmax">;

//===----------------------------------------------------------------------===//
// Shape operations
//===----------------------------------------------------------------------===//

class TL_ShapeOp<string mnemonic, list<Trait> traits = []>
    : TL_Op<mnemonic, !listconcat(traits, [DeclareOpInterfaceMethods<TL_CostOpInterface>,
        DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>])>;

def TL_ReshapeOp : TL_ShapeOp<"reshape"> {
  let summary = "reinterprets a tensor with another shape of the same size";
  let description = [{
    Row-major reshape: the result has the same element type and number of elements.

    ```mlir
    %r = tl.reshape %x : tensor<4x8xf32> -> tensor<2x16xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$input);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TL_TransposeOp : TL_ShapeOp<"transpose", [InferTypeOpAdaptor]> {
  let summary = "permutes the axes of a tensor";
  let description = [{
    Result axis `i` is input axis `perm[i]`; `perm` is a permutation of `[0, rank)`.

    ```mlir
    %t = tl.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = "$input `perm` `=` $perm attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def TL_BroadcastToOp : TL_ShapeOp<"broadcast_to"> {
  let summary = "broadcasts a tensor to a larger shape (numpy broadcast_to)";
  let description = [{
    Right-aligns the input shape with the result shape; each input dimension must equal the
    result's or be 1.

    ```mlir
    %b = tl.broadcast_to %x : tensor<8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$input);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def TL_ConcatOp : TL_ShapeOp<"concat", [InferTypeOpAdaptor]> {
  let summary = "joins tensors along an existing axis";
  let description = [{
    All inputs have the same rank and element type and agree on every dimension but `axis`
    (negative counts from the end).

    ```mlir
    %c = tl.concat %a, %b axis = 0 : tensor<2x8xf32>, tensor<3x8xf32> -> tensor<5x8xf32>
    ```
  }];
  let arguments = (ins Variadic<TL_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = "$inputs `axis` `=` $axis attr-dict `:` type($inputs) `->` type($result)";
}

def TL_SliceOp : TL_ShapeOp<"slice", [InferTypeOpAdaptor]> {
  let summary = "extracts a strided box of a tensor";
  let description = [{
    Result element `r` along each axis is input element `offsets[i] + r * strides[i]`; the box
    lies inside the input and strides are positive. The frontends normalize numpy/ONNX slices
    (negative or clamped bounds) into this form.

    ```mlir
    %s = tl.slice %x offsets = [0, 2] sizes = [4, 3] strides = [1, 2] : tensor<4x8xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$input, DenseI64ArrayAttr:$offsets, DenseI64ArrayAttr:$sizes,
                       DenseI64ArrayAttr:$strides);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = [{
    $input `offsets` `=` $offsets `sizes` `=` $sizes `strides` `=` $strides attr-dict `:`
    type($input) `->` type($result)
  }];
}

include "TL/TLNNOps.td"
include "TL/TLAttentionOps.td"
include "TL/TLAutodiffOps.td"

#endif // TL_OPS_TD
