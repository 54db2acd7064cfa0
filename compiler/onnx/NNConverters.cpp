// Converters for neural-network ONNX ops: Conv, pooling, normalizations, Softmax, and the
// contractions Gemm/MatMul/Einsum (all through tl.einsum, the one einsum engine).
#include "HostEval.h"
#include "NarrowIntegers.h"
#include "NodeContext.h"
#include "TensorData.h"
#include "VolumeWindows.h"

#include "TL/NNShapes.h"
#include "TL/Shapes.h"
#include "TL/SizeLimit.h"
#include "TL/TrainState.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// NCL -> NC1L for 1-D ops; NCHW passes through; anything else is an error.
FailureOr<Value> as4D(NodeContext &cx, Value v, StringRef what) {
  auto t = cast<RankedTensorType>(v.getType());
  if (t.getRank() == 4)
    return v;
  if (t.getRank() == 3)
    return cx.reshape(v, {t.getDimSize(0), t.getDimSize(1), 1, t.getDimSize(2)});
  return cx.emitError() << cx.node.op_type() << " supports 1-D and 2-D " << what
                        << " (rank 3 or 4), got rank " << t.getRank();
}

/// Back from NC1L to NCL when the node's input was 1-D.
FailureOr<Value> from4D(NodeContext &cx, Value v, int64_t originalRank) {
  if (originalRank == 4)
    return v;
  auto t = cast<RankedTensorType>(v.getType());
  return cx.reshape(v, {t.getDimSize(0), t.getDimSize(1), t.getDimSize(3)});
}

void checkAutoPad(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *a = findAttr(node, "auto_pad"))
    if (a->s() != "NOTSET" && a->s() != "VALID" && a->s() != "SAME_UPPER" &&
        a->s() != "SAME_LOWER")
      problems.push_back("auto_pad '" + a->s() + "' is not supported");
}

} // namespace

FailureOr<Window> tlc::onnx_import::windowAttrs(NodeContext &cx, ArrayRef<int64_t> spatial,
                                                ArrayRef<int64_t> kernelShape, bool ceilMode) {
  size_t n = spatial.size();
  Window w;
  w.kernel = SmallVector<int64_t>(kernelShape);
  w.strides = cx.attrInts("strides");
  w.dilations = cx.attrInts("dilations");
  SmallVector<int64_t> pads = cx.attrInts("pads");
  if (w.strides.empty())
    w.strides.assign(n, 1);
  if (w.dilations.empty())
    w.dilations.assign(n, 1);
  if (pads.empty())
    pads.assign(2 * n, 0);
  if (failed(cx.checkSpatialLength("kernel_shape", w.kernel.size(), n)) ||
      failed(cx.checkSpatialLength("strides", w.strides.size(), n)) ||
      failed(cx.checkSpatialLength("dilations", w.dilations.size(), n)) ||
      failed(cx.checkSpatialLength("pads", pads.size(), n, 2)))
    return failure();
  std::string autoPad = cx.attrString("auto_pad", "NOTSET");
  if (autoPad == "VALID") {
    pads.assign(2 * n, 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      int64_t out = (spatial[i] + w.strides[i] - 1) / w.strides[i];
      int64_t total = std::max<int64_t>(
          0, (out - 1) * w.strides[i] + (w.kernel[i] - 1) * w.dilations[i] + 1 - spatial[i]);
      int64_t small = total / 2;
      pads[i] = autoPad == "SAME_UPPER" ? small : total - small;
      pads[i + n] = total - pads[i];
    }
  }
  (void)ceilMode;
  if (n == 1) {
    // A 1-D window is a 2-D one over a height of 1.
    w.kernel.insert(w.kernel.begin(), 1);
    w.strides.insert(w.strides.begin(), 1);
    w.dilations.insert(w.dilations.begin(), 1);
    w.pads = {0, pads[0], 0, pads[1]};
  } else {
    w.pads = pads;
  }
  return w;
}

FailureOr<Value> tlc::onnx_import::convolve(NodeContext &cx, Value input, Value weights,
                                            Value bias) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto weightType = cast<RankedTensorType>(weights.getType());
  int64_t rank = inputType.getRank();
  if (rank < 3 || rank > 5)
    return cx.emitError() << cx.node.op_type()
                          << " supports 1-D, 2-D and 3-D convolutions, got input rank " << rank;
  if (weightType.getRank() != rank)
    return cx.emitError() << "weight rank " << weightType.getRank()
                          << " differs from input rank " << rank;
  SmallVector<int64_t> kernel = cx.attrInts("kernel_shape");
  ArrayRef<int64_t> weightWindow = weightType.getShape().drop_front(2);
  if (!kernel.empty() && ArrayRef<int64_t>(kernel) != weightWindow)
    return cx.emitError() << "kernel_shape " << tl::formatShape(kernel)
                          << " contradicts the weights' spatial shape "
                          << tl::formatShape(weightWindow);
  if (kernel.empty())
    kernel.append(weightWindow.begin(), weightWindow.end());
  TLC_TRY(w, windowAttrs(cx, inputType.getShape().drop_front(2), kernel, false));
  int64_t groups = cx.attrInt("group", 1);
  if (rank == 5) {
    DenseElementsAttr constWeights;
    matchPattern(weights, m_Constant(&constWeights));
    return conv3dAsConv2d(cx, input, weights, constWeights, bias, w.strides, w.pads,
                          w.dilations, groups);
  }
  TLC_TRY(x, as4D(cx, input, "inputs"));
  TLC_TRY(filter, as4D(cx, weights, "weights"));
  TLC_TRY(type, tl::conv2dType(cast<RankedTensorType>(x.getType()),
                               cast<RankedTensorType>(filter.getType()), w.strides, w.pads,
                               w.dilations, groups, [&] { return cx.emitError(); }));
  Value y = tl::Conv2DOp::create(cx.b, cx.loc, type, x, filter, bias, w.strides, w.pads,
                                 w.dilations, groups)
                .getResult();
  return from4D(cx, y, rank);
}

FailureOr<Value> tlc::onnx_import::matmul(NodeContext &cx, Value a, Value b) {
  int64_t ra = cast<RankedTensorType>(a.getType()).getRank();
  int64_t rb = cast<RankedTensorType>(b.getType()).getRank();
  if (ra == 0 || rb == 0)
    return cx.emitError() << cx.node.op_type() << " operands must have rank >= 1";
  std::string lhs = ra == 1 ? "j" : "...ij", rhs = rb == 1 ? "j" : "...jk";
  std::string out = ra == 1 && rb == 1 ? "" : ra == 1 ? "...k" : rb == 1 ? "...i" : "...ik";
  return cx.einsum(lhs + "," + rhs + "->" + out, ValueRange{a, b});
}

namespace {
LogicalResult convertConv(NodeContext &cx) {
  if (cx.int8Contractions) {
    TLC_TRY(q, convolveQuantized(cx));
    if (q) {
      cx.setOutput(0, q);
      return success();
    }
  }
  TLC_TRY(y, convolve(cx, cx.value(0), cx.value(1), cx.hasInput(2) ? cx.value(2) : Value()));
  cx.setOutput(0, y);
  return success();
}

/// MaxPool's Indices output for a 2-D pool of `x` ([N, C, H, W]) whose result is `y`: the flat
/// index (row-major, or column-major over H and W with storage_order 1) of the first window
/// element equal to the maximum. Each tap (kh, kw) is a strided slice of the input padded with
/// -inf; going through the taps backwards, a select keeps the earliest tap that matches.
FailureOr<Value> maxPoolIndices(NodeContext &cx, Value x, Value y, const Window &w) {
  auto xt = cast<RankedTensorType>(x.getType()), yt = cast<RankedTensorType>(y.getType());
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(1), h = xt.getDimSize(2), wd = xt.getDimSize(3);
  int64_t oh = yt.getDimSize(2), ow = yt.getDimSize(3);
  bool columnMajor = cx.attrInt("storage_order", 0) != 0;
  if (oh > kMaxTable || ow > kMaxTable)
    return cx.emitError() << "MaxPool: Indices over " << oh << "x" << ow
                          << " outputs need tables longer than " << kMaxTable;
  // Padding that covers every tap of every window (ceil_mode's last window may reach past the
  // declared pads).
  int64_t spanH = (oh - 1) * w.strides[0] + (w.kernel[0] - 1) * w.dilations[0] + 1;
  int64_t spanW = (ow - 1) * w.strides[1] + (w.kernel[1] - 1) * w.dilations[1] + 1;
  int64_t padH1 = std::max<int64_t>(w.pads[2], spanH - h - w.pads[0]);
  int64_t padW1 = std::max<int64_t>(w.pads[3], spanW - wd - w.pads[1]);
  SmallVector<int64_t> pads = {0, 0, w.pads[0], w.pads[1], 0, 0, padH1, padW1};
  TLC_TRY(padType, tl::padType(xt, pads, [&] { return cx.emitError(); }));
  Value padded = tl::PadOp::create(cx.b, cx.loc, padType, x, cx.b.getDenseI64ArrayAttr(pads),
                                   tl::PadModeAttr::get(cx.ctx(), tl::PadMode::constant),
                                   cx.b.getF64FloatAttr(-INFINITY))
                     .getResult();
  Type i64 = cx.b.getI64Type();
  Value planes = cx.planeStarts({n, c, 1, 1}, h * wd);
  Value indices;
  for (int64_t kh = w.kernel[0] - 1; kh >= 0; --kh)
    for (int64_t kw = w.kernel[1] - 1; kw >= 0; --kw) {
      SmallVector<int64_t> offsets = {0, 0, kh * w.dilations[0], kw * w.dilations[1]};
      SmallVector<int64_t> sizes = {n, c, oh, ow}, strides = {1, 1, w.strides[0], w.strides[1]};
      Value tap = tl::SliceOp::create(cx.b, cx.loc, yt, padded, offsets, sizes, strides)
                      .getResult();
      // The tap's position in the image (clamped: a padding tap never holds the maximum of a
      // window with an element in the image), as a row's part plus a column's part.
      SmallVector<int64_t> rowPart, columnPart;
      for (int64_t i = 0; i < oh; ++i) {
        int64_t r = std::clamp<int64_t>(i * w.strides[0] + kh * w.dilations[0] - w.pads[0], 0,
                                        h - 1);
        rowPart.push_back(columnMajor ? r : r * wd);
      }
      for (int64_t j = 0; j < ow; ++j) {
        int64_t q = std::clamp<int64_t>(j * w.strides[1] + kw * w.dilations[1] - w.pads[1], 0,
                                        wd - 1);
        columnPart.push_back(columnMajor ? q * h : q);
      }
      Value rows = cx.constantValue(fromInts(RankedTensorType::get({oh, 1}, i64), rowPart));
      Value columns =
          cx.constantValue(fromInts(RankedTensorType::get({1, ow}, i64), columnPart));
      TLC_TRY(at, cx.binary<tl::AddOp>(rows, columns));
      TLC_TRY(flat, cx.binary<tl::AddOp>(planes, at));
      if (!indices) {
        indices = flat;
        continue;
      }
      TLC_TRY(hit, cx.compare(tl::ComparePredicate::eq, tap, y));
      TLC_TRY(next, cx.select(hit, flat, indices));
      indices = next;
    }
  return indices;
}

/// MaxUnpool(X, I[, output_shape]), 1-D and 2-D: a zero tensor with each window's value at
/// the flat position (over the whole output tensor, as MaxPool's Indices are) its index names.
/// Indices are a MaxPool's, so each lies inside its window: output element p can only take
/// the value of one of the ceil(k / s) windows per axis that cover it, the one whose index is
/// p. Per pair of such window offsets, X and I gathered at each output element's window (two
/// gathers along H and W, tables of O(H + W)) and a select where the index matches the
/// element's flat position (an [H_out, W_out] table plus each plane's first). An index
/// outside its window (not a MaxPool's) places nothing.
LogicalResult convertMaxUnpool(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (rank != 3 && rank != 4)
    return cx.emitError() << "MaxUnpool supports 1-D and 2-D inputs (rank 3 or 4), got rank "
                          << rank;
  if (cx.shape(1) != cx.shape(0) || !cx.elementType(1).isInteger(64))
    return cx.emitError() << "MaxUnpool: the indices must be int64 of the input's shape";
  TLC_TRY(w, windowAttrs(cx, cx.shape(0).drop_front(2), cx.attrInts("kernel_shape"), false));
  TLC_TRY(x, as4D(cx, cx.value(0), "inputs"));
  TLC_TRY(idx, as4D(cx, cx.value(1), "inputs"));
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(1), h = xt.getDimSize(2), wd = xt.getDimSize(3);
  // The default output extent undoes the pooling: (in - 1) * stride + kernel - pads, in
  // checked arithmetic (-1, an error below, where it leaves int64 or the size limit).
  auto unpooled = [&](int64_t in, int64_t axis) -> int64_t {
    int64_t v;
    if (llvm::MulOverflow(in - 1, w.strides[axis], v) ||
        llvm::AddOverflow(v, w.kernel[axis], v) ||
        llvm::SubOverflow(v, w.pads[axis] + w.pads[axis + 2], v) || v > tl::kMaxElements)
      return -1;
    return v;
  };
  int64_t oh = unpooled(h, 0), ow = unpooled(wd, 1);
  if (cx.hasInput(2)) {
    TLC_TRY(shape, cx.constInts(2, "output_shape"));
    if ((int64_t)shape.size() != rank || shape[0] != n || shape[1] != c)
      return cx.emitError() << "MaxUnpool: output_shape must have " << rank
                            << " entries starting with the input's batch and channels";
    oh = rank == 4 ? shape[2] : 1;
    ow = shape.back();
  }
  int64_t rowOffsets = llvm::divideCeil(w.kernel[0], w.strides[0]);
  int64_t colOffsets = llvm::divideCeil(w.kernel[1], w.strides[1]);
  std::optional<int64_t> tables = tl::checkedNumElements({oh, ow, rowOffsets, colOffsets});
  if (oh < 1 || ow < 1 || !tl::checkedNumElements({n, c, oh, ow}) || !tables)
    return cx.emitError() << "MaxUnpool: output extent " << oh << "x" << ow
                          << " is out of range";
  if (*tables > kMaxTable)
    return cx.emitError() << "MaxUnpool: " << oh << "x" << ow << " outputs with " << rowOffsets
                          << "x" << colOffsets << " windows over each are not supported (at most "
                          << kMaxTable << " index table entries)";
  Type i64 = cx.b.getI64Type();
  // Output element (h, w)'s flat index within its plane, and each plane's first.
  Value planes = cx.planeStarts({n, c, 1, 1}, oh * ow);
  // Along one axis: for window offset a, each output position's covering window (clamped)
  // and whether it covers it.
  auto windows = [&](int64_t out, int64_t in, int64_t kernel, int64_t stride, int64_t pad,
                     int64_t a, SmallVectorImpl<int64_t> &at, SmallVectorImpl<bool> &covers) {
    for (int64_t i = 0; i < out; ++i) {
      int64_t win = (i + pad) / stride - a;
      bool ok = win >= 0 && win < in && i + pad - win * stride < kernel;
      at.push_back(ok ? win : 0);
      covers.push_back(ok);
    }
  };
  auto gathered = [&](Value v, ArrayRef<int64_t> rows, ArrayRef<int64_t> cols) -> Value {
    auto vt = cast<RankedTensorType>(v.getType());
    Value r = cx.constantValue(
        fromInts(RankedTensorType::get({(int64_t)rows.size()}, i64), rows));
    Value q = cx.constantValue(
        fromInts(RankedTensorType::get({(int64_t)cols.size()}, i64), cols));
    Value byRow = tl::GatherOp::create(cx.b, cx.loc, vt.clone({n, c, oh, wd}), v, r, 2);
    return tl::GatherOp::create(cx.b, cx.loc, vt.clone({n, c, oh, ow}), byRow, q, 3);
  };
  TLC_TRY(zeros, cx.broadcastTo(cx.scalar(xt.getElementType(), 0), {n, c, oh, ow}));
  Value acc = zeros;
  for (int64_t a = 0; a < rowOffsets; ++a)
    for (int64_t b = 0; b < colOffsets; ++b) {
      SmallVector<int64_t> rows, cols;
      SmallVector<bool> rowCovers, colCovers;
      windows(oh, h, w.kernel[0], w.strides[0], w.pads[0], a, rows, rowCovers);
      windows(ow, wd, w.kernel[1], w.strides[1], w.pads[1], b, cols, colCovers);
      // The index each element must find: its own flat position, or a negative number (no
      // index is one) where no window of this offset covers it.
      SmallVector<int64_t> target;
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j)
          target.push_back(rowCovers[i] && colCovers[j] ? i * ow + j : INT64_MIN / 2);
      Value inPlane = cx.constantValue(fromInts(RankedTensorType::get({oh, ow}, i64), target));
      TLC_TRY(wanted, cx.binary<tl::AddOp>(planes, inPlane));
      TLC_TRY(hit, cx.compare(tl::ComparePredicate::eq, gathered(idx, rows, cols), wanted));
      TLC_TRY(next, cx.select(hit, gathered(x, rows, cols), acc));
      acc = next;
    }
  TLC_TRY(y, from4D(cx, acc, rank));
  cx.setOutput(0, y);
  return success();
}

template <typename PoolOp> LogicalResult convertPool(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (rank < 3 || rank > 5)
    return cx.emitError() << cx.node.op_type()
                          << " supports 1-D, 2-D and 3-D pooling, got input rank " << rank;
  // MaxPool of 8- and 16-bit integers (uint8 images) pools their exact f32 values.
  Value input = cx.value(0);
  Type intType;
  if (!isa<FloatType>(cx.elementType(0))) {
    int t = onnxTypeOf(*cx.input(0));
    if (!std::is_same_v<PoolOp, tl::MaxPool2DOp> || !isNarrowType(t) ||
        t == onnx::TensorProto::UINT32)
      return cx.emitError() << cx.node.op_type() << " needs a float input"
                            << (std::is_same_v<PoolOp, tl::MaxPool2DOp>
                                    ? " (or 8- or 16-bit integers)"
                                    : "");
    intType = cx.elementType(0);
    input = cx.cast(input, cx.b.getF32Type());
  }
  auto fromFloat = [&](Value v) { return intType ? cx.cast(v, intType) : v; };
  bool ceilMode = cx.attrInt("ceil_mode", 0) != 0;
  TLC_TRY(w, windowAttrs(cx, cx.shape(0).drop_front(2), cx.attrInts("kernel_shape"), ceilMode));
  if (rank == 5) {
    TLC_TRY(y, pool3dAsPool2d(cx, input, std::is_same_v<PoolOp, tl::AvgPool2DOp>, w.kernel,
                              w.strides, w.pads, w.dilations, ceilMode,
                              cx.attrInt("count_include_pad", 0) != 0));
    cx.setOutput(0, fromFloat(y));
    return success();
  }
  TLC_TRY(x, as4D(cx, input, "inputs"));
  auto inType = cast<RankedTensorType>(x.getType());
  TLC_TRY(hw, tl::window2DOutputShape(inType.getShape().drop_front(2), w.kernel, w.strides,
                                      w.pads, w.dilations, ceilMode,
                                      [&] { return cx.emitError(); }));
  auto type = RankedTensorType::get({inType.getDimSize(0), inType.getDimSize(1), hw[0], hw[1]},
                                    inType.getElementType());
  Value y;
  if constexpr (std::is_same_v<PoolOp, tl::AvgPool2DOp>) {
    y = tl::AvgPool2DOp::create(cx.b, cx.loc, type, x, w.kernel, w.strides, w.pads, w.dilations,
                                ceilMode, cx.attrInt("count_include_pad", 0) != 0)
            .getResult();
  } else {
    y = tl::MaxPool2DOp::create(cx.b, cx.loc, type, x, w.kernel, w.strides, w.pads, w.dilations,
                                ceilMode)
            .getResult();
    if (cx.hasOutput(1)) {
      if (rank != 4)
        return cx.emitError() << "MaxPool: the Indices output is supported for 2-D pooling only";
      // One slice and select per window element, unrolled at import.
      if (w.kernel[0] * w.kernel[1] > 1024)
        return cx.emitError() << "MaxPool: the Indices output supports windows of at most 1024 "
                                 "elements, got "
                              << w.kernel[0] << "x" << w.kernel[1];
      TLC_TRY(indices, maxPoolIndices(cx, x, y, w));
      cx.setOutput(1, indices);
    }
  }
  TLC_TRY(r, from4D(cx, y, rank));
  cx.setOutput(0, fromFloat(r));
  return success();
}

void checkMaxPool(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  checkAutoPad(node, problems);
  if (!findAttr(node, "kernel_shape"))
    problems.push_back("kernel_shape is required");
}

void checkAvgPool(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  checkAutoPad(node, problems);
  if (!findAttr(node, "kernel_shape"))
    problems.push_back("kernel_shape is required");
}

template <typename ReduceOp> LogicalResult convertGlobalPool(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (rank < 3)
    return cx.emitError() << cx.node.op_type() << " needs rank >= 3";
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.push_back(d);
  Value x = cx.value(0);
  auto type = RankedTensorType::get(tl::reducedShape(cx.shape(0), axes, true), cx.elementType(0));
  cx.setOutput(0, ReduceOp::create(cx.b, cx.loc, type, x, axes, /*keepdims=*/true).getResult());
  return success();
}

/// Reshapes a per-channel vector [C] to broadcast against rank-`rank` NC... tensors.
FailureOr<Value> channelVector(NodeContext &cx, Value v, int64_t rank) {
  int64_t c = cast<RankedTensorType>(v.getType()).getNumElements();
  SmallVector<int64_t> shape = {c};
  shape.append(rank - 2, 1);
  return cx.reshape(v, shape);
}

LogicalResult convertBatchNorm(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (rank < 2)
    return cx.emitError() << "BatchNormalization needs rank >= 2";
  Type et = cx.elementType(0);
  double eps = cx.attrFloat("epsilon", 1e-5);
  Value scale, shift;
  // Training mode (ONNX: training_mode = 1, or before opset 14 the running-statistics
  // outputs; or a --train import): normalize with the batch's statistics, and give the
  // updated running statistics (ONNX's rule: running * momentum + batch * (1 - momentum)).
  bool trainingMode = cx.training || cx.attrInt("training_mode", 0) != 0 ||
                      llvm::any_of(llvm::drop_begin(cx.node.output()),
                                   [](const std::string &o) { return !o.empty(); });
  if (trainingMode) {
    SmallVector<int64_t> axes{0};
    for (int64_t d = 2; d < rank; ++d)
      axes.push_back(d);
    auto mean = [&](Value v) {
      auto type = RankedTensorType::get(tl::reducedShape(cx.shape(0), axes, true), et);
      return tl::ReduceMeanOp::create(cx.b, cx.loc, type, v, cx.b.getDenseI64ArrayAttr(axes),
                                      cx.b.getUnitAttr())
          .getResult();
    };
    Value x = cx.value(0), mu = mean(x);
    TLC_TRY(centered, cx.binary<tl::SubOp>(x, mu));
    TLC_TRY(sq, cx.binary<tl::MulOp>(centered, centered));
    Value var = mean(sq);
    TLC_TRY(ve, cx.binary<tl::AddOp>(var, cx.scalar(et, eps)));
    TLC_TRY(xhat, cx.binary<tl::MulOp>(centered, cx.unary<tl::RsqrtOp>(ve)));
    TLC_TRY(gv, channelVector(cx, cx.value(1), rank));
    TLC_TRY(bv, channelVector(cx, cx.value(2), rank));
    TLC_TRY(xs, cx.binary<tl::MulOp>(xhat, gv));
    TLC_TRY(y, cx.binary<tl::AddOp>(xs, bv));
    double momentum = cx.attrFloat("momentum", 0.9);
    auto channels = RankedTensorType::get({cx.shape(0)[1]}, et);
    // A --train import whose running statistics are initializers keeps them in the training
    // state, updated by each step as PyTorch does (the batch's unbiased variance); the
    // inference beside the step normalizes with them.
    bool stateful = cx.training && llvm::all_of(ArrayRef<int>{3, 4}, [&](int i) {
      auto c = cx.value(i).getDefiningOp<tl::ConstantOp>();
      return c && c->hasAttr(tl::kStateBufferAttr);
    });
    if (stateful) {
      TLC_TRY(rm, channelVector(cx, cx.value(3), rank));
      TLC_TRY(rv, channelVector(cx, cx.value(4), rank));
      TLC_TRY(rc, cx.binary<tl::SubOp>(x, rm));
      TLC_TRY(rve, cx.binary<tl::AddOp>(rv, cx.scalar(et, eps)));
      TLC_TRY(rhat, cx.binary<tl::MulOp>(rc, cx.unary<tl::RsqrtOp>(rve)));
      TLC_TRY(rs, cx.binary<tl::MulOp>(rhat, gv));
      TLC_TRY(yEval, cx.binary<tl::AddOp>(rs, bv));
      y = tl::buildTrainOrEval(cx.b, cx.loc, y, yEval);
    }
    cx.setOutput(0, y);
    int64_t n = cx.shape(0)[0];
    for (int64_t d = 2; d < rank; ++d)
      n *= cx.shape(0)[d];
    for (int i = 1; i < 5; ++i) {
      bool wanted = i < cx.node.output_size() && !cx.node.output(i).empty();
      if (!wanted && !(stateful && i <= 2))
        continue;
      Value batch = tl::ReshapeOp::create(cx.b, cx.loc, channels, i % 2 ? mu : var);
      if (i <= 2) { // running_mean, running_var
        if (stateful && i == 2 && n > 1) {
          TLC_TRY(unbiased, cx.binary<tl::MulOp>(batch, cx.scalar(et, double(n) / (n - 1))));
          batch = unbiased;
        }
        TLC_TRY(kept, cx.binary<tl::MulOp>(cx.value(i + 2), cx.scalar(et, momentum)));
        TLC_TRY(fresh, cx.binary<tl::MulOp>(batch, cx.scalar(et, 1 - momentum)));
        TLC_TRY(running, cx.binary<tl::AddOp>(kept, fresh));
        batch = running;
        if (stateful)
          running.getDefiningOp()->setAttr(
              tl::kNextStateAttr,
              cx.value(i + 2).getDefiningOp()->getAttr(tl::kStateBufferAttr));
      }
      if (wanted)
        cx.setOutput(i, batch); // 3, 4 (before opset 14): the batch's mean and variance
    }
    return success();
  }
  if (cx.constant(1) && cx.constant(2) && cx.constant(3) && cx.constant(4)) {
    // Inference: y = x * a + b with a = gamma / sqrt(var + eps), b = beta - mean * a.
    SmallVector<double> g = toDoubles(cx.constant(1)), be = toDoubles(cx.constant(2)),
                        m = toDoubles(cx.constant(3)), v = toDoubles(cx.constant(4));
    if (g.size() != be.size() || g.size() != m.size() || g.size() != v.size())
      return cx.emitError() << "scale, bias, mean and var have different sizes";
    SmallVector<double> a, b;
    for (size_t i = 0; i < g.size(); ++i) {
      a.push_back(g[i] / std::sqrt(v[i] + eps));
      b.push_back(be[i] - m[i] * a.back());
    }
    auto t = RankedTensorType::get({(int64_t)g.size()}, et);
    scale = cx.constantValue(fromDoubles(t, a));
    shift = cx.constantValue(fromDoubles(t, b));
  } else {
    TLC_TRY(ve, cx.binary<tl::AddOp>(cx.value(4), cx.scalar(et, eps)));
    TLC_TRY(a, cx.binary<tl::MulOp>(cx.value(1), cx.unary<tl::RsqrtOp>(ve)));
    TLC_TRY(ma, cx.binary<tl::MulOp>(cx.value(3), a));
    TLC_TRY(b, cx.binary<tl::SubOp>(cx.value(2), ma));
    scale = a;
    shift = b;
  }
  TLC_TRY(sv, channelVector(cx, scale, rank));
  TLC_TRY(bv, channelVector(cx, shift, rank));
  TLC_TRY(xs, cx.binary<tl::MulOp>(cx.value(0), sv));
  TLC_TRY(y, cx.binary<tl::AddOp>(xs, bv));
  cx.setOutput(0, y);
  return success();
}

/// A constant filled with `v` of `shape`.
Value filled(NodeContext &cx, ArrayRef<int64_t> shape, Type et, double v) {
  auto t = RankedTensorType::get(shape, et);
  return cx.constantValue(DenseElementsAttr::get(t, fromDoubles(RankedTensorType::get({}, et), {v})
                                                        .getValues<Attribute>()[0]));
}

LogicalResult convertLayerNorm(NodeContext &cx) {
  int64_t rank = cx.rank(0), axis = cx.attrInt("axis", -1);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  Type et = cx.elementType(0);
  ArrayRef<int64_t> normalized = cx.shape(0).drop_front(axis);
  TLC_TRY(scale, cx.broadcastTo(cx.value(1), normalized));
  Value bias;
  if (cx.hasInput(2)) {
    TLC_TRY(b, cx.broadcastTo(cx.value(2), normalized));
    bias = b;
  } else {
    bias = filled(cx, normalized, et, 0.0);
  }
  cx.setOutput(0, tl::LayerNormOp::create(cx.b, cx.loc, cx.type(0), cx.value(0), scale, bias,
                                          cx.b.getI64IntegerAttr(axis), cx.b.getF64FloatAttr(cx.attrFloat("epsilon", 1e-5)))
                      .getResult());
  if (!cx.hasOutput(1) && !cx.hasOutput(2))
    return success();
  // The training outputs Mean and InvStdDev (shape [d0..d(axis-1), 1, ...]): spelled out, as
  // tl.layer_norm does not expose its statistics.
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.push_back(d);
  auto statsType = RankedTensorType::get(tl::reducedShape(cx.shape(0), axes, true), et);
  Value x = cx.value(0);
  Value mean = tl::ReduceMeanOp::create(cx.b, cx.loc, statsType, x, axes, true).getResult();
  TLC_TRY(d, cx.binary<tl::SubOp>(x, mean));
  TLC_TRY(sq, cx.binary<tl::MulOp>(d, d));
  Value var = tl::ReduceMeanOp::create(cx.b, cx.loc, statsType, sq, axes, true).getResult();
  TLC_TRY(ve, cx.binary<tl::AddOp>(var, cx.scalar(et, cx.attrFloat("epsilon", 1e-5))));
  if (cx.hasOutput(1))
    cx.setOutput(1, mean);
  if (cx.hasOutput(2))
    cx.setOutput(2, cx.unary<tl::RsqrtOp>(ve));
  return success();
}

void checkLayerNorm(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *a = findAttr(node, "stash_type"); a && a->i() != 1)
    problems.push_back("stash_type other than float is not supported");
}

/// InstanceNormalization: layer_norm over the spatial axes, then per-channel scale and bias.
LogicalResult convertInstanceNorm(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (rank < 3)
    return cx.emitError() << "InstanceNormalization needs rank >= 3";
  Type et = cx.elementType(0);
  ArrayRef<int64_t> spatial = cx.shape(0).drop_front(2);
  Value normed = tl::LayerNormOp::create(cx.b, cx.loc, cx.type(0), cx.value(0),
                                         filled(cx, spatial, et, 1.0),
                                         filled(cx, spatial, et, 0.0),
                                         cx.b.getI64IntegerAttr(2),
                                         cx.b.getF64FloatAttr(cx.attrFloat("epsilon", 1e-5)))
                     .getResult();
  TLC_TRY(sv, channelVector(cx, cx.value(1), rank));
  TLC_TRY(bv, channelVector(cx, cx.value(2), rank));
  TLC_TRY(xs, cx.binary<tl::MulOp>(normed, sv));
  TLC_TRY(y, cx.binary<tl::AddOp>(xs, bv));
  cx.setOutput(0, y);
  return success();
}

/// LRN (local response normalization across channels): y = x / (bias + alpha / size *
/// sum of x^2 over the `size` channels around c)^beta. The window sum is an average pool over
/// the channel axis (the input viewed as [N, 1, C, spatial], kernel [size, 1], zero padding
/// counted), which is that sum divided by size; x^-beta as tl.pow.
LogicalResult convertLRN(NodeContext &cx) {
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << "LRN needs a float input";
  ArrayRef<int64_t> shape = cx.shape(0);
  if (shape.size() < 3)
    return cx.emitError() << "LRN: the input must have rank >= 3 ([N, C, D1..Dk]), got rank "
                          << shape.size();
  if (!cx.hasAttr("size"))
    return cx.emitError() << "LRN: the required attribute 'size' is missing";
  int64_t size = cx.attrInt("size", 1);
  if (size < 1 || size > (int64_t(1) << 16))
    return cx.emitError() << "LRN: size " << size << " is not in [1, 65536]";
  double alpha = cx.attrFloat("alpha", 1e-4), beta = cx.attrFloat("beta", 0.75);
  double bias = cx.attrFloat("bias", 1.0);
  int64_t spatial = 1;
  for (int64_t d : shape.drop_front(2))
    spatial *= d;
  Type et = cx.elementType(0);
  Value x = cx.value(0);
  TLC_TRY(sq, cx.binary<tl::MulOp>(x, x));
  TLC_TRY(view, cx.reshape(sq, {shape[0], 1, shape[1], spatial}));
  int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  auto poolType = cast<RankedTensorType>(view.getType());
  Value mean = tl::AvgPool2DOp::create(cx.b, cx.loc, poolType, view,
                                       ArrayRef<int64_t>{size, 1}, ArrayRef<int64_t>{1, 1},
                                       ArrayRef<int64_t>{lo, 0, hi, 0}, ArrayRef<int64_t>{1, 1},
                                       /*ceilMode=*/false, /*countIncludePad=*/true)
                   .getResult();
  TLC_TRY(windowMean, cx.reshape(mean, shape));
  TLC_TRY(scaled, cx.binary<tl::MulOp>(windowMean, cx.scalar(et, alpha)));
  TLC_TRY(base, cx.binary<tl::AddOp>(scaled, cx.scalar(et, bias)));
  TLC_TRY(factor, cx.binary<tl::PowOp>(base, cx.scalar(et, -beta)));
  TLC_TRY(y, cx.binary<tl::MulOp>(x, factor));
  cx.setOutput(0, y);
  return success();
}

/// MeanVarianceNormalization as ONNX defines it: (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9).
LogicalResult convertMVN(NodeContext &cx) {
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << "MeanVarianceNormalization needs a float input";
  int64_t rank = cx.rank(0);
  SmallVector<int64_t> axes = cx.hasAttr("axes") ? cx.attrInts("axes") : SmallVector<int64_t>{0, 2, 3};
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank)
      return cx.emitError() << "axis " << a << " is out of range for rank " << rank;
    if (a < 0)
      a += rank;
  }
  llvm::sort(axes);
  Type et = cx.elementType(0);
  auto statsType = RankedTensorType::get(tl::reducedShape(cx.shape(0), axes, true), et);
  Value x = cx.value(0);
  Value mean = tl::ReduceMeanOp::create(cx.b, cx.loc, statsType, x, axes, true).getResult();
  TLC_TRY(sq, cx.binary<tl::MulOp>(x, x));
  Value meanSq = tl::ReduceMeanOp::create(cx.b, cx.loc, statsType, sq, axes, true).getResult();
  TLC_TRY(m2, cx.binary<tl::MulOp>(mean, mean));
  TLC_TRY(var, cx.binary<tl::SubOp>(meanSq, m2));
  TLC_TRY(sd, cx.binary<tl::AddOp>(cx.unary<tl::SqrtOp>(var), cx.scalar(et, 1e-9)));
  TLC_TRY(d, cx.binary<tl::SubOp>(x, mean));
  TLC_TRY(r, cx.binary<tl::DivOp>(d, sd));
  cx.setOutput(0, r);
  return success();
}

template <typename SoftmaxOp> LogicalResult convertSoftmax(NodeContext &cx) {
  int64_t rank = cx.rank(0);
  if (!isa<FloatType>(cx.elementType(0)))
    return cx.emitError() << cx.node.op_type() << " needs a float input";
  int64_t axis = cx.attrInt("axis", cx.opset >= 13 ? -1 : 1);
  if (axis < -rank || axis >= rank)
    return cx.emitError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  Value x = cx.value(0);
  if (cx.opset >= 13 || axis == rank - 1) {
    cx.setOutput(0, SoftmaxOp::create(cx.b, cx.loc, x.getType(), x, axis).getResult());
    return success();
  }
  // Before opset 13 the input is coerced to 2-D at `axis`.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? outer : inner) *= cx.shape(0)[d];
  TLC_TRY(flat, cx.reshape(x, {outer, inner}));
  Value s = SoftmaxOp::create(cx.b, cx.loc, flat.getType(), flat, 1).getResult();
  TLC_TRY(r, cx.reshape(s, cx.shape(0)));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertMatMul(NodeContext &cx) {
  TLC_TRY(r, matmul(cx, cx.value(0), cx.value(1)));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertGemm(NodeContext &cx) {
  if (cx.rank(0) != 2 || cx.rank(1) != 2)
    return cx.emitError() << "Gemm operands must be matrices, got ranks " << cx.rank(0)
                          << " and " << cx.rank(1);
  bool ta = cx.attrInt("transA", 0), tb = cx.attrInt("transB", 0);
  std::string eq = std::string(ta ? "ji" : "ij") + "," + (tb ? "kj" : "jk") + "->ik";
  TLC_TRY(y, cx.einsum(eq, ValueRange{cx.value(0), cx.value(1)}));
  Type et = cx.elementType(0);
  double alpha = cx.attrFloat("alpha", 1.0), beta = cx.attrFloat("beta", 1.0);
  Value r = y;
  if (alpha != 1.0) {
    TLC_TRY(v, cx.binary<tl::MulOp>(r, cx.scalar(et, alpha)));
    r = v;
  }
  if (cx.hasInput(2) && beta != 0.0) {
    Value c = cx.value(2);
    if (beta != 1.0) {
      TLC_TRY(v, cx.binary<tl::MulOp>(c, cx.scalar(et, beta)));
      c = v;
    }
    TLC_TRY(v, cx.binary<tl::AddOp>(r, c));
    r = v;
  }
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertEinsum(NodeContext &cx) {
  std::string eq;
  for (char c : cx.attrString("equation", ""))
    if (c != ' ')
      eq.push_back(c);
  SmallVector<Value> operands;
  for (size_t i = 0; i < cx.numInputs(); ++i)
    operands.push_back(cx.value(i));
  TLC_TRY(r, cx.einsum(eq, operands));
  cx.setOutput(0, r);
  return success();
}

} // namespace

void tlc::onnx_import::registerNNConverters(ConverterTable &t) {
  t["Conv"] = {convertConv, checkAutoPad};
  t["MaxPool"] = {convertPool<tl::MaxPool2DOp>, checkMaxPool};
  t["AveragePool"] = {convertPool<tl::AvgPool2DOp>, checkAvgPool};
  t["MaxUnpool"] = {convertMaxUnpool};
  t["GlobalAveragePool"] = {convertGlobalPool<tl::ReduceMeanOp>};
  t["GlobalMaxPool"] = {convertGlobalPool<tl::ReduceMaxOp>};
  t["BatchNormalization"] = {convertBatchNorm};
  t["InstanceNormalization"] = {convertInstanceNorm};
  t["LayerNormalization"] = {convertLayerNorm, checkLayerNorm};
  t["MeanVarianceNormalization"] = {convertMVN};
  t["LRN"] = {convertLRN};
  t["Softmax"] = {convertSoftmax<tl::SoftmaxOp>};
  t["LogSoftmax"] = {convertSoftmax<tl::LogSoftmaxOp>};
  t["MatMul"] = {convertMatMul};
  t["Gemm"] = {convertGemm};
  t["Einsum"] = {convertEinsum};
}
