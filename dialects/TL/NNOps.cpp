// tl neural-network ops: verifiers, cost estimates, scalar bodies of floor/ceil and the
// reduce_prod combiner.
#include "TL/NNShapes.h"
#include "TL/ScalarMath.h"
#include "TL/TLDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace tlc::tl;
namespace s = tlc::tl::scalar;

namespace {
int64_t numElements(Type t) { return cast<RankedTensorType>(t).getNumElements(); }

/// Checks that `actual` is the result type the shape rule computed (or reports both); with
/// `accumulates`, an f32 result of bf16/f16 operands (isAccumulatorType) is that type too.
LogicalResult checkResultType(Operation *op, FailureOr<RankedTensorType> expected,
                              RankedTensorType actual, bool accumulates = false) {
  if (failed(expected))
    return failure();
  bool matches = accumulates ? expected->getShape() == actual.getShape() &&
                                   isAccumulatorType(expected->getElementType(),
                                                     actual.getElementType())
                             : *expected == actual;
  if (!matches)
    return op->emitOpError() << "result type " << actual << " differs from the expected "
                             << *expected;
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// floor, ceil, reduce_prod
//===----------------------------------------------------------------------===//

Value FloorOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::FloorOp::create(b, loc, a[0]);
}
Value CeilOp::buildScalar(OpBuilder &b, Location loc, ValueRange a) {
  return math::CeilOp::create(b, loc, a[0]);
}
int64_t FloorOp::getFlopCount() { return numElements(getType()); }
int64_t CeilOp::getFlopCount() { return numElements(getType()); }

LogicalResult ReduceProdOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                             Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  FailureOr<SmallVector<int64_t>> axes = normalizeAxes(
      adaptor.getAxes(), input.getRank(),
      [&] { return mlir::emitError(loc ? *loc : UnknownLoc::get(ctx)); });
  if (failed(axes))
    return failure();
  results.push_back(RankedTensorType::get(
      reducedShape(input.getShape(), *axes, adaptor.getKeepdims()), input.getElementType()));
  return success();
}
SmallVector<int64_t> ReduceProdOp::getReducedAxes() {
  SmallVector<int64_t> axes;
  int64_t rank = getInput().getType().getRank();
  for (int64_t a : getAxes())
    axes.push_back(a < 0 ? a + rank : a);
  llvm::sort(axes);
  return axes;
}
bool ReduceProdOp::getKeepDims() { return getKeepdims(); }
int64_t ReduceProdOp::getFlopCount() { return numElements(getInput().getType()); }
TypedAttr ReduceProdOp::getIdentity(Type t) {
  if (isa<FloatType>(t))
    return FloatAttr::get(t, 1.0);
  return IntegerAttr::get(t, 1);
}
Value ReduceProdOp::buildCombine(OpBuilder &b, Location loc, Value acc, Value x) {
  return s::mul(b, loc, acc, x);
}
Value ReduceProdOp::buildFinalize(OpBuilder &, Location, Value value, int64_t) { return value; }

//===----------------------------------------------------------------------===//
// conv2d and pooling
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::verify() {
  auto emit = [&] { return emitOpError(); };
  FailureOr<RankedTensorType> expected =
      conv2dType(getInput().getType(), getFilter().getType(), getStrides(), getPads(),
                 getDilations(), static_cast<int64_t>(getGroups()), emit);
  // bf16/f16 input and filter may accumulate into an f32 result.
  if (failed(checkResultType(*this, expected, getType(), /*accumulates=*/true)))
    return failure();
  if (Value bias = getBias()) {
    auto biasType = cast<RankedTensorType>(bias.getType());
    int64_t f = getFilter().getType().getDimSize(0);
    if (biasType.getRank() != 1 || biasType.getDimSize(0) != f ||
        biasType.getElementType() != getType().getElementType())
      return emitOpError() << "bias must be a vector of " << f << " " << getType().getElementType()
                           << ", got " << biasType;
  }
  return success();
}

SmallVector<unsigned> Conv2DOp::getLowPrecisionOperands() {
  return {getInputMutable().getOperandNumber(), getFilterMutable().getOperandNumber()};
}

int64_t Conv2DOp::getFlopCount() {
  RankedTensorType filter = getFilter().getType();
  // One multiply-add per output element and filter tap of its group.
  return 2 * numElements(getType()) * filter.getDimSize(1) * filter.getDimSize(2) *
         filter.getDimSize(3);
}

LogicalResult QuantizedConv2DOp::verify() {
  RankedTensorType input = getInput().getType(), filter = getFilter().getType();
  FailureOr<RankedTensorType> expected = conv2dType(
      input, filter, getStrides(), getPads(), getDilations(), 1, [&] { return emitOpError(); });
  if (failed(expected))
    return failure();
  auto resultType = expected->clone(IntegerType::get(getContext(), 32));
  if (resultType != getType())
    return emitOpError() << "result type " << getType() << " differs from the expected "
                         << resultType;
  int64_t zp = getInputZeroPoint();
  int64_t lo = getUnsignedInput() ? 0 : -128, hi = getUnsignedInput() ? 255 : 127;
  if (zp < lo || zp > hi)
    return emitOpError() << "input_zero_point " << zp << " is outside the input's range [" << lo
                         << ", " << hi << "]";
  int64_t taps = filter.getDimSize(1) * filter.getDimSize(2) * filter.getDimSize(3);
  if (taps > kMaxExactInt8Taps)
    return emitOpError() << "a window of " << taps << " taps may overflow the i32 sum (at most "
                         << kMaxExactInt8Taps << ")";
  return success();
}

int64_t QuantizedConv2DOp::getFlopCount() {
  RankedTensorType filter = getFilter().getType();
  return 2 * numElements(getType()) * filter.getDimSize(1) * filter.getDimSize(2) *
         filter.getDimSize(3);
}

template <typename PoolOp>
static LogicalResult verifyPool(PoolOp op) {
  RankedTensorType input = op.getInput().getType();
  if (input.getRank() != 4)
    return op.emitOpError() << "expected a rank-4 (NCHW) input, got "
                            << formatShape(input.getShape());
  FailureOr<SmallVector<int64_t>> hw = window2DOutputShape(
      input.getShape().drop_front(2), op.getKernel(), op.getStrides(), op.getPads(),
      op.getDilations(), op.getCeilMode(), [&] { return op.emitOpError(); });
  if (failed(hw))
    return failure();
  for (int i = 0; i < 2; ++i)
    if (op.getPads()[i] >= op.getKernel()[i] || op.getPads()[i + 2] >= op.getKernel()[i])
      return op.emitOpError() << "pads must be smaller than the kernel, got pads ["
                              << op.getPads()[0] << ", " << op.getPads()[1] << ", "
                              << op.getPads()[2] << ", " << op.getPads()[3] << "] for kernel ["
                              << op.getKernel()[0] << ", " << op.getKernel()[1] << "]";
  auto expected = RankedTensorType::get(
      {input.getDimSize(0), input.getDimSize(1), (*hw)[0], (*hw)[1]}, input.getElementType());
  return checkResultType(op, expected, op.getType());
}

LogicalResult MaxPool2DOp::verify() { return verifyPool(*this); }
LogicalResult AvgPool2DOp::verify() { return verifyPool(*this); }
int64_t MaxPool2DOp::getFlopCount() {
  return numElements(getType()) * getKernel()[0] * getKernel()[1];
}
int64_t AvgPool2DOp::getFlopCount() {
  return numElements(getType()) * (getKernel()[0] * getKernel()[1] + 1);
}

//===----------------------------------------------------------------------===//
// layer_norm
//===----------------------------------------------------------------------===//

LogicalResult LayerNormOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t rank = input.getRank(), axis = static_cast<int64_t>(getAxis());
  if (axis < -rank || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank " << rank;
  if (getType() != input)
    return emitOpError() << "result type " << getType() << " differs from input type " << input;
  ArrayRef<int64_t> normalized = input.getShape().drop_front(getNormalizedAxis());
  for (auto [name, v] : {std::pair<StringRef, Value>{"scale", getScale()}, {"bias", getBias()}}) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() != normalized || t.getElementType() != input.getElementType())
      return emitOpError() << name << " must have shape " << formatShape(normalized) << " and "
                           << "element type " << input.getElementType() << ", got " << t;
  }
  if (getEpsilon().convertToDouble() < 0)
    return emitOpError() << "epsilon must be non-negative, got "
                         << getEpsilon().convertToDouble();
  return success();
}
// Mean, centering, square, variance sum, rsqrt, scale and shift.
int64_t LayerNormOp::getFlopCount() { return 8 * numElements(getType()); }

//===----------------------------------------------------------------------===//
// gather, pad, arg_max
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  return checkResultType(*this,
                         gatherType(getInput().getType(), getIndices().getType(),
                                    static_cast<int64_t>(getAxis()),
                                    [&] { return emitOpError(); }),
                         getType());
}
int64_t GatherOp::getFlopCount() { return 0; }

LogicalResult PadOp::verify() {
  if (failed(checkResultType(*this,
                             padType(getInput().getType(), getPads(),
                                     [&] { return emitOpError(); }),
                             getType())))
    return failure();
  if (getMode() == PadMode::reflect) {
    RankedTensorType input = getInput().getType();
    int64_t rank = input.getRank();
    for (int64_t d = 0; d < rank; ++d)
      if (getPads()[d] >= input.getDimSize(d) || getPads()[d + rank] >= input.getDimSize(d))
        return emitOpError() << "reflect pads must be smaller than the dimension, got "
                             << getPads()[d] << " and " << getPads()[d + rank]
                             << " for axis " << d << " of size " << input.getDimSize(d);
  }
  return success();
}
int64_t PadOp::getFlopCount() { return 0; }

LogicalResult ArgMaxOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t rank = input.getRank(), axis = static_cast<int64_t>(getAxis());
  if (axis < -rank || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  if (input.getElementType().isInteger(1))
    return emitOpError() << "input must not be i1";
  auto expected = RankedTensorType::get(
      reducedShape(input.getShape(), {axis}, getKeepdims()),
      IntegerType::get(getContext(), 64));
  return checkResultType(*this, expected, getType());
}
int64_t ArgMaxOp::getFlopCount() { return numElements(getInput().getType()); }
