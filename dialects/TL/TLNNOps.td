// Neural-network operations of the tl dialect: convolution, pooling, normalization, indexing,
// padding and the extra elementwise/reduction ops model importers need.
#ifndef TL_NN_OPS_TD
#define TL_NN_OPS_TD

//===----------------------------------------------------------------------===//
// Extra elementwise ops and reductions
//===----------------------------------------------------------------------===//

def TL_FloorOp : TL_UnaryOp<"floor", "the largest integer not greater than x", TL_FloatTensor>;
def TL_CeilOp : TL_UnaryOp<"ceil", "the smallest integer not less than x", TL_FloatTensor>;
def TL_ReduceProdOp : TL_ReduceOp<"reduce_prod", "the product">;

//===----------------------------------------------------------------------===//
// Convolution and pooling (NCHW)
//===----------------------------------------------------------------------===//

def TL_Conv2DOp : TL_Op<"conv2d", [DeclareOpInterfaceMethods<TL_CostOpInterface>,
    DeclareOpInterfaceMethods<TL_PrecisionOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "2-D convolution over NCHW input with FCHW filters, groups and an optional bias";
  let description = [{
    Cross-correlates `input` (`N x C x H x W`) with `filter` (`F x C/groups x KH x KW`) and
    adds `bias` (`F`) when present. `pads` are `[top, left, bottom, right]` zero padding,
    `strides` and `dilations` are `[h, w]`; `groups` splits channels (`groups = C = F` is a
    depthwise convolution). The output is `N x F x OH x OW` with
    `OH = (H + top + bottom - ((KH - 1) * dh + 1)) / sh + 1` (floor), likewise `OW`.
    `input` and `filter` share one element type; bf16 or f16 ones may produce an f32 result
    (accumulated in f32), whose type the bias then has.

    ```mlir
    %y = tl.conv2d %x, %w, %b strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] groups = 1
        : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x4x4xf32>
    ```
  }];
  let arguments = (ins TL_FloatTensor:$input, TL_FloatTensor:$filter,
                       Optional<TL_FloatTensor>:$bias, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$pads, DenseI64ArrayAttr:$dilations, I64Attr:$groups);
  let results = (outs TL_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter (`,` $bias^)? `strides` `=` $strides `pads` `=` $pads
    `dilations` `=` $dilations `groups` `=` $groups attr-dict `:` type($input) `,` type($filter)
    (`,` type($bias)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TL_QuantizedConv2DOp : TL_Op<"quantized_conv2d",
    [DeclareOpInterfaceMethods<TL_CostOpInterface>]> {
  let summary = "2-D convolution of 8-bit integers, accumulated exactly in i32";
  let description = [{
    The integer core of a quantized convolution (ONNX QDQ and QLinearConv models): for each
    output element, the sum over its window of `(x - input_zero_point) * w`, where `x` is an
    element of `input` (`N x C x H x W`, i8 storage read as uint8 with `unsigned_input`, else
    as int8), `w` one of `filter` (`F x C x KH x KW`, int8) and padding positions hold
    `input_zero_point` (they add nothing). Every product and the sum are exact in i32 for up
    to 65,793 taps (255 x 128 x taps < 2^31). `pads`, `strides` and `dilations` are as for
    `tl.conv2d`; there are no groups. The scales of a quantized model apply afterwards, to the
    i32 result converted to float.

    ```mlir
    %acc = tl.quantized_conv2d %x, %w strides = [1, 1] pads = [1, 1, 1, 1]
        dilations = [1, 1] input_zero_point = 128 unsigned_input
        : tensor<1x8x16x16xi8>, tensor<16x8x3x3xi8> -> tensor<1x16x16x16xi32>
    ```
  }];
  let arguments = (ins StaticShapeTensorOf<[I8]>:$input, StaticShapeTensorOf<[I8]>:$filter,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                       DenseI64ArrayAttr:$dilations, I64Attr:$input_zero_point,
                       UnitAttr:$unsigned_input);
  let results = (outs StaticShapeTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $input `,` $filter `strides` `=` $strides `pads` `=` $pads `dilations` `=` $dilations
    `input_zero_point` `=` $input_zero_point (`unsigned_input` $unsigned_input^)? attr-dict
    `:` type($input) `,` type($filter) `->` type($result)
  }];
  let hasVerifier = 1;
}

class TL_Pool2DOp<string mnemonic, string desc, dag extraArgs, string extraFormat>
    : TL_Op<mnemonic, [DeclareOpInterfaceMethods<TL_CostOpInterface>,
        DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "2-D " # desc # " pooling over NCHW input";
  let description = [{
    Pools each `kernel`-sized window (`[kh, kw]`, with `strides` and `dilations`) of the padded
    input (`pads` = `[top, left, bottom, right]`). With `ceil_mode` the output size rounds up
    (a last partial window is kept if it starts inside the input or the leading padding).
    Max pooling ignores padding; average pooling divides by the number of input elements in
    the window, or by the window size clipped to the padded input with `count_include_pad`.

    ```mlir
    %y = tl.}] # mnemonic # [{ %x kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1]
        : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
    ```
  }];
  let arguments = !con((ins TL_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
                            DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                            DenseI64ArrayAttr:$dilations, UnitAttr:$ceil_mode), extraArgs);
  let results = (outs TL_FloatTensor:$result);
  let assemblyFormat = [{
    $input `kernel` `=` $kernel `strides` `=` $strides `pads` `=` $pads `dilations` `=`
    $dilations (`ceil_mode` $ceil_mode^)? }] # extraFormat # [{ attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TL_MaxPool2DOp : TL_Pool2DOp<"max_pool2d", "maximum", (ins), "">;
def TL_AvgPool2DOp : TL_Pool2DOp<"avg_pool2d", "average", (ins UnitAttr:$count_include_pad),
                                 "(`count_include_pad` $count_include_pad^)?">;

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

def TL_LayerNormOp : TL_Op<"layer_norm", [DeclareOpInterfaceMethods<TL_CostOpInterface>,
    DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "layer normalization over the trailing axes from `axis`";
  let description = [{
    Normalizes `input` over axes `[axis, rank)` to zero mean and unit (biased) variance, then
    scales and shifts: `(x - mean) / sqrt(var + epsilon) * scale + bias`. `scale` and `bias`
    have the shape of the normalized axes.

    ```mlir
    %y = tl.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-05
        : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins TL_FloatTensor:$input, TL_FloatTensor:$scale, TL_FloatTensor:$bias,
                       I64Attr:$axis, F64Attr:$epsilon);
  let results = (outs TL_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $bias `axis` `=` $axis `epsilon` `=` $epsilon attr-dict `:`
    type($input) `,` type($scale) `,` type($bias) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getNormalizedAxis() {
      int64_t axis = static_cast<int64_t>(getAxis());
      return axis < 0 ? axis + getInput().getType().getRank() : axis;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Indexing and padding
//===----------------------------------------------------------------------===//

def TL_GatherOp : TL_Op<"gather", [DeclareOpInterfaceMethods<TL_CostOpInterface>,
    DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "gathers slices along one axis by integer indices (numpy take)";
  let description = [{
    The result is `input.shape[:axis] + indices.shape + input.shape[axis+1:]`; element
    `[i..., j..., k...]` is `input[i..., indices[j...], k...]`. Negative indices count from
    the end of the axis; indices out of range are clamped.

    ```mlir
    %e = tl.gather %table[%ids] axis = 0 : tensor<100x16xf32>, tensor<2x5xi64> -> tensor<2x5x16xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$input, TL_Tensor:$indices, I64Attr:$axis);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $indices `]` `axis` `=` $axis attr-dict `:` type($input) `,` type($indices) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TL_PadModeConstant : I32EnumAttrCase<"constant", 0>;
def TL_PadModeReflect : I32EnumAttrCase<"reflect", 1>;
def TL_PadModeEdge : I32EnumAttrCase<"edge", 2>;
def TL_PadMode : I32EnumAttr<"PadMode", "how padding elements are filled",
    [TL_PadModeConstant, TL_PadModeReflect, TL_PadModeEdge]> {
  let cppNamespace = "::tlc::tl";
}

def TL_PadOp : TL_Op<"pad", [DeclareOpInterfaceMethods<TL_CostOpInterface>, DeclareOpInterfaceMethods<TL_DifferentiableOpInterface>]> {
  let summary = "pads a tensor with a constant, by reflection, or by repeating the edge";
  let description = [{
    `pads` holds `rank` leading amounts then `rank` trailing amounts (all non-negative). In
    `constant` mode new elements are `value`; `reflect` mirrors the input without repeating the
    border element (pads must be smaller than the dimension); `edge` repeats the border.

    ```mlir
    %p = tl.pad %x pads = [0, 1, 0, 2] mode = constant value = 0.0 : tensor<4x8xf32> -> tensor<4x11xf32>
    ```
  }];
  let arguments = (ins TL_Tensor:$input, DenseI64ArrayAttr:$pads, TL_PadMode:$mode,
                       F64Attr:$value);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = [{
    $input `pads` `=` $pads `mode` `=` $mode `value` `=` $value attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TL_ArgMaxOp : TL_Op<"arg_max", [DeclareOpInterfaceMethods<TL_CostOpInterface>]> {
  let summary = "index of the maximum (or, with `min`, the minimum) along one axis";
  let description = [{
    Returns i64 indices along `axis` of the first extreme element (the last one with
    `select_last_index`). With `keepdims` the axis stays as size 1. With `min` it selects the
    minimum instead (ONNX ArgMin).

    ```mlir
    %i = tl.arg_max %x axis = 1 keepdims : tensor<4x8xf32> -> tensor<4x1xi64>
    ```
  }];
  let arguments = (ins TL_Tensor:$input, I64Attr:$axis, UnitAttr:$keepdims,
                       UnitAttr:$select_last_index, UnitAttr:$min);
  let results = (outs TL_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`keepdims` $keepdims^)? (`select_last_index` $select_last_index^)?
    (`min` $min^)? attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // TL_NN_OPS_TD
