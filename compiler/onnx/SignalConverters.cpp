// Converters for ONNX's signal ops (opset 17): the window functions (HannWindow, HammingWindow,
// BlackmanWindow; constants of a compile-time size, folded at import), and DFT and STFT as
// contractions with a constant matrix of twiddle factors.
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// A generalized cosine window: w[n] = a0 - a1 cos(2 pi n / N') + a2 cos(4 pi n / N'), with
/// N' = size (periodic) or size - 1 (symmetric), as the ONNX spec and reference compute it (a
/// symmetric window of size 1 divides 0 by 0 there, NaN, and here).
template <int A0Num, int A0Den, int A2Num, int A2Den> LogicalResult convertWindow(NodeContext &cx) {
  TLC_TRY(sizes, cx.constInts(0, "size"));
  if (sizes.size() != 1)
    return cx.emitError() << cx.node.op_type() << ": size must be a scalar, got "
                          << sizes.size() << " elements";
  int64_t size = sizes[0];
  if (size < 1 || size > kMaxTable)
    return cx.emitError() << cx.node.op_type() << ": size " << size << " is not in [1, 2^24]";
  Type et = elementTypeOf(cx.ctx(), static_cast<int>(cx.attrInt("output_datatype", 1)));
  if (!et)
    return cx.emitError() << cx.node.op_type() << ": unsupported output_datatype "
                          << onnxTypeName(static_cast<int>(cx.attrInt("output_datatype", 1)));
  bool periodic = cx.attrInt("periodic", 1) != 0;
  double a0 = double(A0Num) / A0Den, a1 = 1.0 - a0 - double(A2Num) / A2Den;
  double a2 = double(A2Num) / A2Den;
  double span = double(periodic ? size : size - 1);
  SmallVector<double> w(size);
  for (int64_t n = 0; n < size; ++n) {
    double x = 2 * M_PI * double(n) / span;
    w[n] = a0 - a1 * std::cos(x) + a2 * std::cos(2 * x);
  }
  cx.setConstant(0, fromDoubles(RankedTensorType::get({size}, et), w));
  return success();
}

/// The largest twiddle matrix (input length x 2 x output length x 2 elements): a DFT is a
/// contraction with it, O(N^2) multiply-adds per signal.
constexpr int64_t kMaxTwiddles = int64_t(1) << 22;

/// The DFT as a constant [n, c, k, 2]: input position n (of `inLength`, those past `length`
/// dropped), input component c (1: real, 2: real and imaginary) to output frequency k (of
/// `outLength`) and component d, for a transform of `length` points (zero-padded past
/// `inLength`); inverse: e^{+i theta} / length.
DenseElementsAttr twiddles(Type et, int64_t inLength, int64_t components, int64_t outLength,
                           int64_t length, bool inverse) {
  SmallVector<double> m(inLength * components * outLength * 2, 0.0);
  double sign = inverse ? 1.0 : -1.0, scale = inverse ? 1.0 / double(length) : 1.0;
  for (int64_t n = 0; n < std::min(inLength, length); ++n)
    for (int64_t k = 0; k < outLength; ++k) {
      // theta reduced modulo the length first: exact for large n * k.
      double theta = 2 * M_PI * double((n * k) % length) / double(length);
      double re = std::cos(theta) * scale, im = sign * std::sin(theta) * scale;
      // (xr + i xi)(re + i im) = xr re - xi im + i (xr im + xi re)
      int64_t at = ((n * components) * outLength + k) * 2;
      m[at] = re;
      m[at + 1] = im;
      if (components == 2) {
        int64_t bt = ((n * components + 1) * outLength + k) * 2;
        m[bt] = -im;
        m[bt + 1] = re;
      }
    }
  return fromDoubles(RankedTensorType::get({inLength, components, outLength, 2}, et), m);
}

/// The DFT of `x` ([..., n, c] with the signal on axis `axis` and c last) as [..., k, 2].
FailureOr<Value> dft(NodeContext &cx, Value x, int64_t axis, int64_t length, bool onesided,
                     bool inverse) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t rank = t.getRank(), components = t.getShape().back(), inLength = t.getDimSize(axis);
  if (components != 1 && components != 2)
    return cx.emitError() << cx.node.op_type()
                          << ": the last dimension must be 1 (real) or 2 (complex), got "
                          << components;
  if (axis == rank - 1)
    return cx.emitError() << cx.node.op_type()
                          << ": the signal axis cannot be the last (component) axis";
  int64_t outLength = onesided ? length / 2 + 1 : length;
  // Each factor bounded first: the product of unchecked lengths could wrap.
  if (length > kMaxTwiddles || inLength > kMaxTwiddles ||
      inLength * components * outLength * 2 > kMaxTwiddles)
    return cx.emitError() << cx.node.op_type() << " of " << length
                          << " points is not supported (a DFT here is a contraction with a "
                             "constant matrix of at most 2^22 elements)";
  // The signal axis next to the components: [..., n, c].
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.append({axis, rank - 1});
  TLC_TRY(moved, cx.transpose(x, perm));
  Value m = cx.constantValue(
      twiddles(t.getElementType(), inLength, components, outLength, length, inverse));
  TLC_TRY(y, cx.einsum("...nc,nckd->...kd", ValueRange{moved, m}));
  // The frequency axis back where the signal was.
  SmallVector<int64_t> back;
  for (int64_t d = 0; d < rank - 2; ++d)
    back.push_back(d);
  back.insert(back.begin() + axis, rank - 2);
  back.push_back(rank - 1);
  return cx.transpose(y, back);
}

/// DFT(input, dft_length?) (opset 17: axis an attribute).
LogicalResult convertDFT(NodeContext &cx) {
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << "DFT needs a float input";
  int64_t rank = cx.rank(0);
  if (rank < 2)
    return cx.emitError() << "DFT: the input must have rank >= 2 ([..., signal, 1 or 2])";
  int64_t axis = cx.attrInt("axis", 1);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  int64_t length = cx.shape(0)[axis];
  if (cx.hasInput(1)) {
    TLC_TRY(lengths, cx.constInts(1, "dft_length"));
    if (lengths.size() != 1 || lengths[0] < 1)
      return cx.emitError() << "DFT: dft_length must be one positive integer";
    length = lengths[0];
  }
  bool inverse = cx.attrInt("inverse", 0) != 0, onesided = cx.attrInt("onesided", 0) != 0;
  if (inverse && onesided)
    return cx.emitError() << "DFT: onesided inverse transforms are not supported";
  if (onesided && cx.shape(0).back() != 1)
    return cx.emitError() << "DFT: onesided needs a real input";
  TLC_TRY(y, dft(cx, cx.value(0), axis, length, onesided, inverse));
  cx.setOutput(0, y);
  return success();
}

/// STFT(signal [batch, length, 1 or 2], frame_step, window?, frame_length?): frames of
/// frame_length every frame_step (a gather of constant indices), times the window, each
/// transformed (onesided for real signals by default).
LogicalResult convertSTFT(NodeContext &cx) {
  if (!isa<FloatType>(cx.elementType(0)) || cx.rank(0) != 3)
    return cx.emitError() << "STFT needs a float signal [batch, length, 1 or 2]";
  ArrayRef<int64_t> shape = cx.shape(0);
  TLC_TRY(steps, cx.constInts(1, "frame_step"));
  if (steps.size() != 1 || steps[0] < 1)
    return cx.emitError() << "STFT: frame_step must be one positive integer";
  int64_t step = steps[0], frameLength;
  if (cx.hasInput(3)) {
    TLC_TRY(lengths, cx.constInts(3, "frame_length"));
    if (lengths.size() != 1)
      return cx.emitError() << "STFT: frame_length must be one integer";
    frameLength = lengths[0];
  } else if (cx.hasInput(2)) {
    frameLength = cx.type(2).getNumElements();
  } else {
    return cx.emitError() << "STFT needs a window or a frame_length";
  }
  if (frameLength < 1 || frameLength > shape[1])
    return cx.emitError() << "STFT: frame_length " << frameLength << " is not in [1, "
                          << shape[1] << "] (the signal's length)";
  if (cx.hasInput(2) && (cx.rank(2) != 1 || cx.shape(2)[0] != frameLength))
    return cx.emitError() << "STFT: the window must have frame_length (" << frameLength
                          << ") elements";
  int64_t frames = (shape[1] - frameLength) / step + 1;
  if (frames * frameLength > kMaxTwiddles)
    return cx.emitError() << "STFT: " << frames << " frames of " << frameLength
                          << " samples are too many to gather (at most 2^22)";
  SmallVector<int64_t> idx;
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t j = 0; j < frameLength; ++j)
      idx.push_back(f * step + j);
  auto idxType = RankedTensorType::get({frames, frameLength}, cx.b.getI64Type());
  auto framedType =
      RankedTensorType::get({shape[0], frames, frameLength, shape[2]}, cx.elementType(0));
  Value framed = tl::GatherOp::create(cx.b, cx.loc, framedType, cx.value(0),
                                      cx.constantValue(fromInts(idxType, idx)), 1)
                     .getResult();
  if (cx.hasInput(2)) {
    TLC_TRY(window, cx.reshape(cx.value(2), {frameLength, 1}));
    TLC_TRY(windowed, cx.binary<tl::MulOp>(framed, window));
    framed = windowed;
  }
  bool onesided = cx.attrInt("onesided", 1) != 0;
  if (onesided && shape[2] != 1)
    return cx.emitError() << "STFT: onesided needs a real signal";
  TLC_TRY(y, dft(cx, framed, 2, frameLength, onesided, /*inverse=*/false));
  cx.setOutput(0, y);
  return success();
}

} // namespace

void tlc::onnx_import::registerSignalConverters(ConverterTable &t) {
  t["HannWindow"] = {convertWindow<1, 2, 0, 1>};      // 0.5 - 0.5 cos
  t["HammingWindow"] = {convertWindow<25, 46, 0, 1>}; // 25/46 - 21/46 cos
  t["BlackmanWindow"] = {convertWindow<42, 100, 8, 100>};
  t["DFT"] = {convertDFT};
  t["STFT"] = {convertSTFT};
}
