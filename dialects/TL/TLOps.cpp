// tl ops: result-type inference, verifiers, folders and cost estimates.
#include "TL/TLDialect.h"

#include "TL/ConstantData.h"
#include "TL/Einsum.h"
#include "TL/Shapes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace tlc::tl;

namespace {
/// An error emitter at `location` (inference runs with a location during verification).
auto errorAt(MLIRContext *ctx, std::optional<Location> location) {
  return [ctx, location]() { return emitError(location ? *location : UnknownLoc::get(ctx)); };
}

RankedTensorType tensorOf(Value v) { return cast<RankedTensorType>(v.getType()); }

int64_t numElements(Type t) { return cast<RankedTensorType>(t).getNumElements(); }

/// Broadcast result of elementwise operands whose value operands share an element type.
LogicalResult inferBroadcast(MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
                             Type elementType, SmallVectorImpl<Type> &results) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : operands)
    shapes.push_back(tensorOf(v).getShape());
  FailureOr<SmallVector<int64_t>> shape = broadcastShapes(shapes, errorAt(ctx, loc));
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, elementType));
  return success();
}

LogicalResult checkSameElementType(MLIRContext *ctx, std::optional<Location> loc, Value a,
                                   Value b) {
  Type ea = tensorOf(a).getElementType(), eb = tensorOf(b).getElementType();
  if (ea == eb)
    return success();
  errorAt(ctx, loc)() << "operand element types " << ea << " and " << eb << " differ";
  return failure();
}
} // namespace

#define GET_OP_CLASSES
#include "TL/TLOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                           Adaptor adaptor, SmallVectorImpl<Type> &results) {
  auto type = dyn_cast<RankedTensorType>(adaptor.getValue().getType());
  if (!type || !type.hasStaticShape()) {
    errorAt(ctx, loc)() << "constant value must have a static ranked tensor type";
    return failure();
  }
  results.push_back(type);
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

int64_t ConstantOp::getFlopCount() { return 0; }

//===----------------------------------------------------------------------===//
// EinsumOp
//===----------------------------------------------------------------------===//

LogicalResult EinsumOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (adaptor.getInputs().empty()) {
    errorAt(ctx, loc)() << "einsum needs at least one operand";
    return failure();
  }
  SmallVector<ArrayRef<int64_t>> shapes;
  Type elementType = tensorOf(adaptor.getInputs()[0]).getElementType();
  for (auto [i, v] : llvm::enumerate(adaptor.getInputs())) {
    shapes.push_back(tensorOf(v).getShape());
    if (tensorOf(v).getElementType() != elementType) {
      errorAt(ctx, loc)() << "einsum operand " << i << " has element type "
                          << tensorOf(v).getElementType() << " but operand 0 has "
                          << elementType;
      return failure();
    }
  }
  FailureOr<EinsumSpec> spec =
      parseEinsum(adaptor.getEquation(), shapes, errorAt(ctx, loc));
  if (failed(spec))
    return failure();
  results.push_back(RankedTensorType::get(spec->resultShape(), elementType));
  return success();
}

bool EinsumOp::isCompatibleReturnTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto want = dyn_cast<RankedTensorType>(inferred[0]);
  auto got = dyn_cast<RankedTensorType>(actual[0]);
  return want && got && want.getShape() == got.getShape() &&
         isAccumulatorType(want.getElementType(), got.getElementType());
}

SmallVector<unsigned> EinsumOp::getLowPrecisionOperands() {
  // A one-operand einsum only permutes, takes diagonals or sums: nothing to gain.
  if (getInputs().size() < 2 || !isa<FloatType>(getType().getElementType()))
    return {};
  return llvm::to_vector(llvm::seq<unsigned>(0, getInputs().size()));
}

int64_t EinsumOp::getFlopCount() {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : getInputs())
    shapes.push_back(tensorOf(v).getShape());
  FailureOr<EinsumSpec> spec =
      parseEinsum(getEquation(), shapes, [&] { return emitError(); });
  assert(succeeded(spec) && "verified einsum must parse");
  // One multiply per extra operand and one add per iteration.
  return spec->iterationCount() * std::max<int64_t>(1, getInputs().size());
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

#define TL_DEFINE_BINARY_INFER(Op)                                                             \
  LogicalResult Op::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,          \
                                     Adaptor adaptor, SmallVectorImpl<Type> &results) {      \
    if (failed(checkSameElementType(ctx, loc, adaptor.getLhs(), adaptor.getRhs())))          \
      return failure();                                                                      \
    return inferBroadcast(ctx, loc, {adaptor.getLhs(), adaptor.getRhs()},                    \
                          tensorOf(adaptor.getLhs()).getElementType(), results);             \
  }                                                                                          \
  int64_t Op::getFlopCount() { return numElements(getType()) * getFlopsPerElement(); }

TL_DEFINE_BINARY_INFER(AddOp)
TL_DEFINE_BINARY_INFER(SubOp)
TL_DEFINE_BINARY_INFER(MulOp)
TL_DEFINE_BINARY_INFER(DivOp)
TL_DEFINE_BINARY_INFER(PowOp)
TL_DEFINE_BINARY_INFER(MaxOp)
TL_DEFINE_BINARY_INFER(MinOp)
TL_DEFINE_BINARY_INFER(RemOp)
#undef TL_DEFINE_BINARY_INFER

#define TL_DEFINE_UNARY_COST(Op)                                                               \
  int64_t Op::getFlopCount() { return numElements(getType()) * getFlopsPerElement(); }
TL_DEFINE_UNARY_COST(NegOp)
TL_DEFINE_UNARY_COST(AbsOp)
TL_DEFINE_UNARY_COST(ExpOp)
TL_DEFINE_UNARY_COST(LogOp)
TL_DEFINE_UNARY_COST(SqrtOp)
TL_DEFINE_UNARY_COST(RsqrtOp)
TL_DEFINE_UNARY_COST(TanhOp)
TL_DEFINE_UNARY_COST(SigmoidOp)
TL_DEFINE_UNARY_COST(ReluOp)
TL_DEFINE_UNARY_COST(ErfOp)
TL_DEFINE_UNARY_COST(SinOp)
TL_DEFINE_UNARY_COST(CosOp)
TL_DEFINE_UNARY_COST(TanOp)
TL_DEFINE_UNARY_COST(AsinOp)
TL_DEFINE_UNARY_COST(AcosOp)
TL_DEFINE_UNARY_COST(AtanOp)
TL_DEFINE_UNARY_COST(SinhOp)
TL_DEFINE_UNARY_COST(CoshOp)
TL_DEFINE_UNARY_COST(AsinhOp)
TL_DEFINE_UNARY_COST(AcoshOp)
TL_DEFINE_UNARY_COST(AtanhOp)
TL_DEFINE_UNARY_COST(RoundOp)
TL_DEFINE_UNARY_COST(GeluOp)
TL_DEFINE_UNARY_COST(CastOp)
TL_DEFINE_UNARY_COST(CompareOp)
TL_DEFINE_UNARY_COST(SelectOp)
#undef TL_DEFINE_UNARY_COST

LogicalResult CompareOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (failed(checkSameElementType(ctx, loc, adaptor.getLhs(), adaptor.getRhs())))
    return failure();
  return inferBroadcast(ctx, loc, {adaptor.getLhs(), adaptor.getRhs()},
                        IntegerType::get(ctx, 1), results);
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  if (failed(checkSameElementType(ctx, loc, adaptor.getOnTrue(), adaptor.getOnFalse())))
    return failure();
  return inferBroadcast(ctx, loc,
                        {adaptor.getCond(), adaptor.getOnTrue(), adaptor.getOnFalse()},
                        tensorOf(adaptor.getOnTrue()).getElementType(), results);
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Type from = getInput().getType().getElementType(), to = getType().getElementType();
  if (from == to)
    return getInput();
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  // Narrowing back an integer widened from this type returns the original (the importer's
  // wrap of a uint8 result, i32 -> i8, after the widening of a uint8 input, i8 -> i32).
  if (auto inner = getInput().getDefiningOp<CastOp>(); inner && !fromFloat && !toFloat) {
    Value x = inner.getInput();
    if (x.getType() == getType() && to.getIntOrFloatBitWidth() > 1 &&
        from.getIntOrFloatBitWidth() >= to.getIntOrFloatBitWidth())
      return x;
  }
  if (!fromFloat) {
    // Integer constants (quantized weights, zero points) convert at compile time.
    auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput());
    return dense ? convertIntegerElements(dense, to, getFromUnsigned()) : DenseElementsAttr();
  }
  if (!toFloat)
    return {};
  // A round trip through a wider float is exact (bf16 -> f32 -> bf16); the other order,
  // f32 -> bf16 -> f32, rounds and must stay.
  if (auto inner = getInput().getDefiningOp<CastOp>()) {
    Value x = inner.getInput();
    auto xFloat = dyn_cast<FloatType>(getElementTypeOrSelf(x.getType()));
    if (x.getType() == getType() && xFloat &&
        APFloat::isRepresentableBy(xFloat.getFloatSemantics(), fromFloat.getFloatSemantics()))
      return x;
  }
  // Constants (weights cast to bf16/f16) convert at compile time, rounding to nearest even.
  auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput());
  if (!dense)
    return {};
  return convertFloatElements(dense, toFloat);
}

LogicalResult CastOp::verify() {
  if (getInput().getType().getShape() != getType().getShape())
    return emitOpError() << "input shape " << formatShape(getInput().getType().getShape())
                         << " differs from result shape " << formatShape(getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

#define TL_DEFINE_REDUCE(Op)                                                                   \
  LogicalResult Op::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,          \
                                     Adaptor adaptor, SmallVectorImpl<Type> &results) {      \
    RankedTensorType input = tensorOf(adaptor.getInput());                                   \
    FailureOr<SmallVector<int64_t>> axes =                                                   \
        normalizeAxes(adaptor.getAxes(), input.getRank(), errorAt(ctx, loc));                \
    if (failed(axes))                                                                        \
      return failure();                                                                      \
    results.push_back(RankedTensorType::get(                                                 \
        reducedShape(input.getShape(), *axes, adaptor.getKeepdims()),                        \
        input.getElementType()));                                                            \
    return success();                                                                        \
  }                                                                                          \
  SmallVector<int64_t> Op::getReducedAxes() {                                                \
    SmallVector<int64_t> axes;                                                               \
    int64_t rank = getInput().getType().getRank();                                           \
    for (int64_t a : getAxes())                                                              \
      axes.push_back(a < 0 ? a + rank : a);                                                  \
    llvm::sort(axes);                                                                        \
    return axes;                                                                             \
  }                                                                                          \
  bool Op::getKeepDims() { return getKeepdims(); }                                           \
  int64_t Op::getFlopCount() { return numElements(getInput().getType()); }

TL_DEFINE_REDUCE(ReduceSumOp)
TL_DEFINE_REDUCE(ReduceMeanOp)
TL_DEFINE_REDUCE(ReduceMaxOp)
TL_DEFINE_REDUCE(ReduceMinOp)
#undef TL_DEFINE_REDUCE

template <typename SoftmaxLike>
static LogicalResult verifySoftmaxAxis(SoftmaxLike op) {
  int64_t rank = op.getType().getRank();
  int64_t axis = static_cast<int64_t>(op.getAxis());
  if (axis < -rank || axis >= rank)
    return op.emitOpError() << "axis " << axis << " is out of range for rank " << rank;
  return success();
}
LogicalResult SoftmaxOp::verify() { return verifySoftmaxAxis(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifySoftmaxAxis(*this); }
// max, subtract, exp, sum, divide (log_softmax: log and subtract instead of divide).
int64_t SoftmaxOp::getFlopCount() { return 5 * numElements(getType()); }
int64_t LogSoftmaxOp::getFlopCount() { return 5 * numElements(getType()); }

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError() << "element type " << out.getElementType() << " differs from input's "
                         << in.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << formatShape(in.getShape()) << " ("
                         << in.getNumElements() << " elements) to "
                         << formatShape(out.getShape()) << " (" << out.getNumElements()
                         << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                            Adaptor adaptor, SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> type =
      transposeType(tensorOf(adaptor.getInput()), adaptor.getPerm(), errorAt(ctx, loc));
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  for (auto [i, p] : llvm::enumerate(getPerm()))
    if ((int64_t)i != p)
      return {};
  return getInput();
}

LogicalResult BroadcastToOp::verify() {
  if (getInput().getType().getElementType() != getType().getElementType())
    return emitOpError() << "element type " << getType().getElementType()
                         << " differs from input's " << getInput().getType().getElementType();
  return checkBroadcastTo(getInput().getType().getShape(), getType().getShape(),
                          [&] { return emitOpError(); });
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                         Adaptor adaptor, SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> inputs;
  for (Value v : adaptor.getInputs())
    inputs.push_back(tensorOf(v));
  FailureOr<RankedTensorType> type = concatType(inputs, static_cast<int64_t>(adaptor.getAxis()), errorAt(ctx, loc));
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                        Adaptor adaptor, SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> type =
      sliceType(tensorOf(adaptor.getInput()), adaptor.getOffsets(), adaptor.getSizes(),
                adaptor.getStrides(), errorAt(ctx, loc));
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

int64_t ReshapeOp::getFlopCount() { return 0; }
int64_t TransposeOp::getFlopCount() { return 0; }
int64_t BroadcastToOp::getFlopCount() { return 0; }
int64_t ConcatOp::getFlopCount() { return 0; }
int64_t SliceOp::getFlopCount() { return 0; }
