// Converters for ONNX's integer and quantization ops: BitShift, QuantizeLinear,
// DequantizeLinear, DynamicQuantizeLinear, MatMulInteger, ConvInteger, QLinearMatMul and
// QLinearConv. Quantized values arrive widened (NarrowIntegers.h); integer contractions run in
// f64, where every int8 x int8 sum up to 2^37 terms is exact, and round back to int32.
#include "NarrowIntegers.h"
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/NNShapes.h"
#include "TL/Shapes.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// The range of the 8-bit type `onnxType` (uint8 or int8).
std::pair<double, double> quantizedRange(int onnxType) {
  return onnxType == onnx::TensorProto::INT8 ? std::pair{-128.0, 127.0} : std::pair{0.0, 255.0};
}

/// Sets output `i` to `v` (computed in i32) holding values of the narrow type `onnxType`.
void setNarrowOutput(NodeContext &cx, size_t i, Value v, int onnxType) {
  cx.setOutput(i, v);
  cx.values[cx.node.output(i)].onnxType = onnxType;
}

/// `axis` of a tensor of shape `of`, normalized, along which `what` holds `n` values (one per
/// position); a located error if the axis is out of range or the counts differ.
FailureOr<int64_t> channelAxis(NodeContext &cx, ArrayRef<int64_t> of, int64_t axis, int64_t n,
                               StringRef what) {
  int64_t rank = static_cast<int64_t>(of.size());
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  axis = axis < 0 ? axis + rank : axis;
  if (n != of[axis])
    return cx.emitError() << what << " has " << n << " values for axis " << axis << " of size "
                          << of[axis];
  return axis;
}

/// A scale or zero point `v` (a scalar, or 1-D along `axis` of a tensor of shape `of`) shaped
/// to broadcast against that tensor.
FailureOr<Value> alongAxis(NodeContext &cx, Value v, ArrayRef<int64_t> of, int64_t axis,
                           StringRef what) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getRank() == 0 || t.getNumElements() == 1)
    return t.getRank() == 0 ? v : cx.reshape(v, {});
  if (t.getRank() != 1)
    return cx.emitError() << what << " must be a scalar or 1-D, got shape "
                          << tl::formatShape(t.getShape());
  TLC_TRY(a, channelAxis(cx, of, axis, t.getDimSize(0), what));
  SmallVector<int64_t> shape(of.size(), 1);
  shape[a] = t.getDimSize(0);
  return cx.reshape(v, shape);
}

/// round(x) (halves to even) plus the zero point `zp` (a float tensor; null: 0), clamped to
/// the range of `onnxType` and converted to i32: the spec's quantization.
FailureOr<Value> saturate(NodeContext &cx, Value x, Value zp, int onnxType) {
  Type f = cast<RankedTensorType>(x.getType()).getElementType();
  auto [lo, hi] = quantizedRange(onnxType);
  Value r = cx.unary<tl::RoundOp>(x);
  if (zp) {
    TLC_TRY(shifted, cx.binary<tl::AddOp>(r, zp));
    r = shifted;
  }
  TLC_TRY(low, cx.binary<tl::MaxOp>(r, cx.scalar(f, lo)));
  TLC_TRY(high, cx.binary<tl::MinOp>(low, cx.scalar(f, hi)));
  return cx.cast(high, cx.b.getI32Type());
}

/// The 8-bit type a quantizing op produces: that of its zero point (input `zp`), else uint8.
FailureOr<int> quantizedType(NodeContext &cx, size_t zp) {
  int t = cx.hasInput(zp) ? onnxTypeOf(*cx.input(zp)) : int(onnx::TensorProto::UINT8);
  if (t != onnx::TensorProto::UINT8 && t != onnx::TensorProto::INT8)
    return cx.emitError() << cx.node.op_type() << ": quantized type " << onnxTypeName(t)
                          << " is not supported (uint8 and int8 are)";
  return t;
}

/// `x` minus its zero point (input `zp`, along `axis` of x; absent: 0), in f64.
FailureOr<Value> centered(NodeContext &cx, Value x, size_t zp, int64_t axis) {
  Type f64 = cx.b.getF64Type();
  Value wide = cx.cast(x, f64);
  if (!cx.hasInput(zp))
    return wide;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
  TLC_TRY(point, alongAxis(cx, cx.cast(cx.value(zp), f64), shape, axis, "the zero point"));
  return cx.binary<tl::SubOp>(wide, point);
}

LogicalResult convertBitShift(NodeContext &cx) {
  std::string direction = cx.attrString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return cx.emitError() << "BitShift direction must be \"LEFT\" or \"RIGHT\", got \""
                          << direction << "\"";
  int t = onnxTypeOf(*cx.input(0));
  if (!isUnsignedType(t) || !isNarrowType(t))
    return cx.emitError() << "BitShift of " << onnxTypeName(t)
                          << " is not supported (uint8, uint16 and uint32 are)";
  // x << y is x * 2^y and x >> y is x / 2^y (x is non-negative in its wide type); shifts by the
  // type's width or more take 2^width (the gather clamps): the result wraps or divides to 0.
  int64_t bits = storageTypeOf(cx.ctx(), t).getIntOrFloatBitWidth();
  Type et = cx.elementType(0);
  SmallVector<int64_t> powers;
  for (int64_t k = 0; k <= bits; ++k)
    powers.push_back(int64_t(1) << k);
  Value table = cx.constantValue(fromInts(RankedTensorType::get({bits + 1}, et), powers));
  Value amount = cx.value(1);
  auto amountType = cast<RankedTensorType>(amount.getType());
  Value scale = tl::GatherOp::create(cx.b, cx.loc, amountType.clone(et), table, amount, 0)
                    .getResult();
  FailureOr<Value> r = direction == "LEFT" ? cx.binary<tl::MulOp>(cx.value(0), scale)
                                           : cx.binary<tl::DivOp>(cx.value(0), scale);
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

LogicalResult convertQuantizeLinear(NodeContext &cx) {
  TLC_TRY(t, quantizedType(cx, 2));
  Value scale = cx.value(1);
  Type f = cast<RankedTensorType>(scale.getType()).getElementType();
  int64_t axis = cx.attrInt("axis", 1);
  TLC_TRY(s, alongAxis(cx, scale, cx.shape(0), axis, "y_scale"));
  TLC_TRY(scaled, cx.binary<tl::DivOp>(cx.cast(cx.value(0), f), s));
  Value zp;
  if (cx.hasInput(2)) {
    TLC_TRY(z, alongAxis(cx, cx.cast(cx.value(2), f), cx.shape(0), axis, "y_zero_point"));
    zp = z;
  }
  TLC_TRY(y, saturate(cx, scaled, zp, t));
  setNarrowOutput(cx, 0, y, t);
  return success();
}

/// DequantizeLinear of constant data (a QDQ model's weights), scale and zero point, folded on
/// the host whatever its size: the weights become an f32 constant as if stored so, and the
/// contraction reading them gets its constant-operand layouts. False (nothing set) otherwise.
FailureOr<bool> foldDequantizeLinear(NodeContext &cx) {
  DenseElementsAttr x = cx.constant(0), scale = cx.constant(1);
  DenseElementsAttr zero = cx.hasInput(2) ? cx.constant(2) : DenseElementsAttr();
  if (!x || !scale || (cx.hasInput(2) && !zero) || !scale.getElementType().isF32())
    return false;
  ArrayRef<int64_t> shape = cx.shape(0);
  int64_t n = scale.getNumElements(), inner = 1, axis = 0;
  if (n != 1) {
    TLC_TRY(a, channelAxis(cx, shape, cx.attrInt("axis", 1), n, "x_scale"));
    axis = a;
    for (int64_t d = axis + 1; d < cx.rank(0); ++d)
      inner *= shape[d];
  }
  SmallVector<int64_t> values = toInts(x);
  SmallVector<double> scales = toDoubles(scale);
  SmallVector<int64_t> zeros = zero ? toInts(zero) : SmallVector<int64_t>(n, 0);
  if (static_cast<int64_t>(zeros.size()) != n)
    return cx.emitError() << "x_zero_point has " << zeros.size() << " values, x_scale " << n;
  SmallVector<float> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t c = n == 1 ? 0 : (static_cast<int64_t>(i) / inner) % n;
    // As the generated code computes it: (float(x) - float(zero_point)) * scale, in f32.
    out[i] = (static_cast<float>(values[i]) - static_cast<float>(zeros[c])) *
             static_cast<float>(scales[c]);
  }
  cx.setConstant(0, DenseElementsAttr::get(cx.type(0).clone(cx.b.getF32Type()),
                                           ArrayRef<float>(out)));
  int t = onnxTypeOf(*cx.input(0));
  if (t == onnx::TensorProto::UINT8 || t == onnx::TensorProto::INT8)
    cx.values[cx.node.output(0)].dequantized = Dequantized{Value(), x, t, scales, zeros, axis};
  return true;
}

/// Records what DequantizeLinear of run-time integers (a QDQ model's activations) dequantized
/// on its output, where the scale and zero point are single constants.
void noteDequantized(NodeContext &cx) {
  int t = onnxTypeOf(*cx.input(0));
  DenseElementsAttr scale = cx.constant(1);
  DenseElementsAttr zero = cx.hasInput(2) ? cx.constant(2) : DenseElementsAttr();
  if ((t != onnx::TensorProto::UINT8 && t != onnx::TensorProto::INT8) || !scale ||
      scale.getNumElements() != 1 || (cx.hasInput(2) && (!zero || zero.getNumElements() != 1)))
    return;
  SmallVector<int64_t> zeros = zero ? toInts(zero) : SmallVector<int64_t>{0};
  cx.values[cx.node.output(0)].dequantized =
      Dequantized{cx.value(0), DenseElementsAttr(), t, toDoubles(scale), zeros, 0};
}

LogicalResult convertDequantizeLinear(NodeContext &cx) {
  TLC_TRY(folded, foldDequantizeLinear(cx));
  if (folded)
    return success();
  Value scale = cx.value(1);
  Type f = cast<RankedTensorType>(scale.getType()).getElementType();
  int64_t axis = cx.attrInt("axis", 1);
  Value x = cx.cast(cx.value(0), f);
  if (cx.hasInput(2)) {
    TLC_TRY(zp, alongAxis(cx, cx.cast(cx.value(2), f), cx.shape(0), axis, "x_zero_point"));
    TLC_TRY(d, cx.binary<tl::SubOp>(x, zp));
    x = d;
  }
  TLC_TRY(s, alongAxis(cx, scale, cx.shape(0), axis, "x_scale"));
  TLC_TRY(y, cx.binary<tl::MulOp>(x, s));
  cx.setOutput(0, y);
  noteDequantized(cx);
  return success();
}

LogicalResult convertDynamicQuantizeLinear(NodeContext &cx) {
  // The spec's uint8 arithmetic: the range always includes 0, scale = range / 255, zero point
  // = saturate(round(-min / scale)), y = saturate(round(x / scale) + zero point).
  Value x = cx.value(0);
  Type f = cx.elementType(0);
  auto scalarType = RankedTensorType::get({}, f);
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, cx.rank(0)));
  Value zero = cx.scalar(f, 0.0);
  Value mn = tl::ReduceMinOp::create(cx.b, cx.loc, scalarType, x, all, false).getResult();
  Value mx = tl::ReduceMaxOp::create(cx.b, cx.loc, scalarType, x, all, false).getResult();
  TLC_TRY(lo, cx.binary<tl::MinOp>(mn, zero));
  TLC_TRY(hi, cx.binary<tl::MaxOp>(mx, zero));
  TLC_TRY(range, cx.binary<tl::SubOp>(hi, lo));
  TLC_TRY(scale, cx.binary<tl::DivOp>(range, cx.scalar(f, 255.0)));
  TLC_TRY(negLo, cx.binary<tl::SubOp>(zero, lo));
  TLC_TRY(zpReal, cx.binary<tl::DivOp>(negLo, scale));
  int u8 = onnx::TensorProto::UINT8;
  TLC_TRY(zp, saturate(cx, zpReal, Value(), u8));
  TLC_TRY(scaled, cx.binary<tl::DivOp>(x, scale));
  TLC_TRY(y, saturate(cx, scaled, cx.cast(zp, f), u8));
  setNarrowOutput(cx, 0, y, u8);
  cx.setOutput(1, scale);
  setNarrowOutput(cx, 2, zp, u8);
  return success();
}

/// The exact integer product of MatMulInteger/QLinearMatMul's centered operands (f64).
FailureOr<Value> integerMatmul(NodeContext &cx, size_t a, size_t aZero, size_t b,
                               size_t bZero) {
  // a_zero_point may be per row of A (1-D over its second-to-last axis), b_zero_point per
  // column of B (its last axis).
  int64_t ra = cx.rank(a), rb = cx.rank(b);
  TLC_TRY(ac, centered(cx, cx.value(a), aZero, ra >= 2 ? ra - 2 : 0));
  TLC_TRY(bc, centered(cx, cx.value(b), bZero, rb - 1));
  return matmul(cx, ac, bc);
}

/// The exact integer convolution of ConvInteger/QLinearConv's centered operands (f64): the
/// weights' zero point may be per output channel.
FailureOr<Value> integerConv(NodeContext &cx, size_t x, size_t xZero, size_t w, size_t wZero,
                             Value bias) {
  TLC_TRY(xc, centered(cx, cx.value(x), xZero, 1));
  TLC_TRY(wc, centered(cx, cx.value(w), wZero, 0));
  return convolve(cx, xc, wc, bias ? cx.cast(bias, cx.b.getF64Type()) : Value());
}

LogicalResult convertMatMulInteger(NodeContext &cx) {
  TLC_TRY(y, integerMatmul(cx, 0, 2, 1, 3));
  cx.setOutput(0, cx.cast(y, cx.b.getI32Type()));
  return success();
}

LogicalResult convertConvInteger(NodeContext &cx) {
  TLC_TRY(y, integerConv(cx, 0, 2, 1, 3, Value()));
  cx.setOutput(0, cx.cast(y, cx.b.getI32Type()));
  return success();
}

/// Requantizes the int32-valued `acc` (f64) by aScale * bScale / yScale (the scale inputs;
/// bScale may be per channel along `channelAxis` of acc) onto output 0 of zero point `yZero`,
/// in f32 as the reference does.
LogicalResult requantize(NodeContext &cx, Value acc, size_t aScale, size_t bScale,
                         int64_t channelAxis, size_t yScale, size_t yZero) {
  TLC_TRY(t, quantizedType(cx, yZero));
  Type f32 = cx.b.getF32Type();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(acc.getType()).getShape();
  TLC_TRY(bs, alongAxis(cx, cx.value(bScale), shape, channelAxis, "the weights' scale"));
  TLC_TRY(ab, cx.binary<tl::MulOp>(cx.value(aScale), bs));
  TLC_TRY(multiplier, cx.binary<tl::DivOp>(ab, cx.value(yScale)));
  TLC_TRY(real, cx.binary<tl::MulOp>(cx.cast(acc, f32), multiplier));
  TLC_TRY(y, saturate(cx, real, cx.cast(cx.value(yZero), f32), t));
  setNarrowOutput(cx, 0, y, t);
  return success();
}

LogicalResult convertQLinearMatMul(NodeContext &cx) {
  TLC_TRY(acc, integerMatmul(cx, 0, 2, 3, 5));
  int64_t rank = cast<RankedTensorType>(acc.getType()).getRank();
  return requantize(cx, acc, 1, 4, rank - 1, 6, 7);
}

LogicalResult convertQLinearConv(NodeContext &cx) {
  TLC_TRY(acc, integerConv(cx, 0, 2, 3, 5, cx.hasInput(8) ? cx.value(8) : Value()));
  return requantize(cx, acc, 1, 4, 1, 6, 7);
}

} // namespace

FailureOr<Value> tlc::onnx_import::convolveQuantized(NodeContext &cx) {
  const std::optional<Dequantized> &x = cx.input(0)->dequantized;
  const std::optional<Dequantized> &w = cx.input(1)->dequantized;
  if (!x || !w || !x->integers || x->scales.size() != 1 || !w->data ||
      w->onnxType != onnx::TensorProto::INT8 || cx.rank(0) != 4 || cx.rank(1) != 4 ||
      cx.attrInt("group", 1) != 1 || llvm::any_of(w->zeroPoints, [](int64_t z) { return z; }))
    return Value();
  ArrayRef<int64_t> wShape = cx.shape(1);
  int64_t f = wShape[0];
  if ((w->scales.size() != 1 && (w->axis != 0 || static_cast<int64_t>(w->scales.size()) != f)) ||
      wShape[1] * wShape[2] * wShape[3] > tl::kMaxExactInt8Taps)
    return Value();
  // Window attributes that contradict the weights take the float path, which reports them.
  SmallVector<int64_t> kernel = cx.attrInts("kernel_shape");
  if (!kernel.empty() && ArrayRef<int64_t>(kernel) != wShape.drop_front(2))
    return Value();
  TLC_TRY(win, windowAttrs(cx, cx.shape(0).drop_front(2), wShape.drop_front(2), false));

  Type i8 = cx.b.getI8Type(), i32 = cx.b.getI32Type();
  Type real = cx.elementType(0);
  // 0..255 or -128..127 in i32, truncated to their 8-bit pattern.
  Value input = cx.cast(x->integers, i8);
  Value filter = cx.constantValue(fromInts(cx.type(1).clone(i8), toInts(w->data)));
  TLC_TRY(type, tl::conv2dType(cast<RankedTensorType>(input.getType()),
                               cast<RankedTensorType>(filter.getType()), win.strides, win.pads,
                               win.dilations, 1, [&] { return cx.emitError(); }));
  Value acc = tl::QuantizedConv2DOp::create(cx.b, cx.loc, type.clone(i32), input, filter,
                                            win.strides, win.pads, win.dilations,
                                            x->zeroPoints[0],
                                            x->onnxType == onnx::TensorProto::UINT8)
                  .getResult();
  // Each output channel's sum times the two scales, plus the bias.
  SmallVector<double> multipliers;
  for (int64_t c = 0; c < f; ++c)
    multipliers.push_back(x->scales[0] * w->scales[w->scales.size() == 1 ? 0 : c]);
  auto multiplierType = RankedTensorType::get({1, f, 1, 1}, real);
  Value multiplier = cx.constantValue(fromDoubles(multiplierType, multipliers));
  TLC_TRY(y, cx.binary<tl::MulOp>(cx.cast(acc, real), multiplier));
  if (!cx.hasInput(2))
    return y;
  TLC_TRY(bias, cx.reshape(cx.value(2), {1, f, 1, 1}));
  return cx.binary<tl::AddOp>(y, bias);
}

void tlc::onnx_import::registerIntegerConverters(ConverterTable &t) {
  t["BitShift"] = {convertBitShift};
  t["QuantizeLinear"] = {convertQuantizeLinear};
  t["DequantizeLinear"] = {convertDequantizeLinear};
  t["DynamicQuantizeLinear"] = {convertDynamicQuantizeLinear};
  t["MatMulInteger"] = {convertMatMulInteger};
  t["ConvInteger"] = {convertConvInteger};
  t["QLinearMatMul"] = {convertQLinearMatMul};
  t["QLinearConv"] = {convertQLinearConv};
}
