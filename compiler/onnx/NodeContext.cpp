// The converter-facing view of one ONNX node, its checked tl emission helpers, and the
// converter table.
#include "NodeContext.h"
#include "OnnxImporter.h"

#include "TensorData.h"

#include "TL/Einsum.h"
#include "TL/Shapes.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

OnnxValue *NodeContext::input(size_t i) {
  assert(hasInput(i) && "graph importer checked that inputs are defined");
  auto it = values.find(node.input(i));
  assert(it != values.end() && "graph importer checked that inputs are defined");
  return &it->second;
}

Value NodeContext::materialize(OnnxValue &v) {
  if (!v.value)
    v.value = constantValue(v.constant);
  return v.value;
}

bool NodeContext::allConstant() {
  for (size_t i = 0; i < numInputs(); ++i)
    if (hasInput(i) &&
        (!input(i)->constant || input(i)->constant.getNumElements() > kFoldLimit))
      return false;
  return true;
}

LogicalResult NodeContext::checkSpatialLength(StringRef name, size_t size, size_t n,
                                              size_t per) {
  if (size == per * n)
    return success();
  InFlightDiagnostic diag = emitError();
  diag << name << " has " << size << " entries for " << n << " spatial dimensions";
  if (per != 1)
    diag << " (" << per << " per dimension)";
  return diag;
}

FailureOr<SmallVector<int64_t>> NodeContext::constInts(size_t i, StringRef what) {
  DenseElementsAttr c = constant(i);
  if (!c) {
    emitError() << what << " (input " << i << ", '" << node.input(i)
                << "') must be a constant computable at compile time";
    return failure();
  }
  return toInts(c);
}

const onnx::AttributeProto *tlc::onnx_import::findAttr(const onnx::NodeProto &node,
                                                        StringRef name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

const onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  return findAttr(node, name);
}

int64_t NodeContext::attrInt(StringRef name, int64_t dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : dflt;
}

double NodeContext::attrFloat(StringRef name, double dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : dflt;
}

std::string NodeContext::attrString(StringRef name, StringRef dflt) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : dflt.str();
}

SmallVector<int64_t> NodeContext::attrInts(StringRef name) const {
  SmallVector<int64_t> out;
  if (const onnx::AttributeProto *a = attr(name))
    out.append(a->ints().begin(), a->ints().end());
  return out;
}

void NodeContext::setOutput(size_t i, Value v) {
  if (!hasOutput(i))
    return;
  values[node.output(i)] = OnnxValue{v, nullptr, mlir::cast<RankedTensorType>(v.getType())};
}

void NodeContext::setConstant(size_t i, DenseElementsAttr c) {
  if (!hasOutput(i))
    return;
  values[node.output(i)] = OnnxValue{nullptr, c, mlir::cast<RankedTensorType>(c.getType())};
}

Value NodeContext::constantValue(DenseElementsAttr c) {
  return tl::ConstantOp::create(b, loc, c).getResult();
}

FailureOr<Value> NodeContext::iota(int64_t rank, int64_t axis, int64_t n, Type elementType) {
  if (n > kMaxTable)
    return emitError() << node.op_type() << " needs a table of the " << n
                       << " positions along an axis (at most " << kMaxTable << ")";
  SmallVector<int64_t> shape(rank, 1);
  shape[axis] = n;
  return constantValue(fromInts(RankedTensorType::get(shape, elementType),
                                llvm::to_vector(llvm::seq<int64_t>(0, n))));
}

Value NodeContext::planeStarts(ArrayRef<int64_t> shape, int64_t planeSize) {
  auto type = RankedTensorType::get(shape, b.getI64Type());
  SmallVector<int64_t> starts;
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    starts.push_back(i * planeSize);
  return constantValue(fromInts(type, starts));
}

Value NodeContext::scalar(Type elementType, double v) {
  auto type = RankedTensorType::get({}, elementType);
  return constantValue(fromDoubles(type, {v}));
}

LogicalResult NodeContext::sameElementType(Value a, Value b2) {
  Type ea = mlir::cast<RankedTensorType>(a.getType()).getElementType();
  Type eb = mlir::cast<RankedTensorType>(b2.getType()).getElementType();
  if (ea == eb)
    return success();
  return emitError() << "operand element types " << ea << " and " << eb << " differ";
}

FailureOr<Type> NodeContext::broadcastType(ArrayRef<Value> operands, Type elementType) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : operands)
    shapes.push_back(mlir::cast<RankedTensorType>(v.getType()).getShape());
  FailureOr<SmallVector<int64_t>> shape = tl::broadcastShapes(shapes, [&] { return emitError(); });
  if (failed(shape))
    return failure();
  return Type(RankedTensorType::get(*shape, elementType));
}

FailureOr<Value> NodeContext::compare(tl::ComparePredicate pred, Value a, Value b2) {
  if (failed(sameElementType(a, b2)))
    return failure();
  FailureOr<Type> t = broadcastType({a, b2}, b.getI1Type());
  if (failed(t))
    return failure();
  return tl::CompareOp::create(b, loc, *t, pred, a, b2).getResult();
}

FailureOr<Value> NodeContext::select(Value c, Value t, Value f) {
  if (failed(sameElementType(t, f)))
    return failure();
  FailureOr<Type> type =
      broadcastType({c, t, f}, mlir::cast<RankedTensorType>(t.getType()).getElementType());
  if (failed(type))
    return failure();
  return tl::SelectOp::create(b, loc, *type, c, t, f).getResult();
}

FailureOr<Value> NodeContext::logicalAnd(Value a, Value b2) {
  return select(a, b2, scalar(b.getI1Type(), 0));
}

FailureOr<Value> NodeContext::nonNegativeOrZero(Value v) {
  Value zero = scalar(mlir::cast<RankedTensorType>(v.getType()).getElementType(), 0);
  TLC_TRY(nonNegative, compare(tl::ComparePredicate::ge, v, zero));
  return select(nonNegative, v, zero);
}

Value NodeContext::cast(Value v, Type elementType) {
  auto t = mlir::cast<RankedTensorType>(v.getType());
  if (t.getElementType() == elementType)
    return v;
  return tl::CastOp::create(b, loc, t.clone(elementType), v).getResult();
}

FailureOr<Value> NodeContext::reshape(Value v, ArrayRef<int64_t> shape) {
  auto t = mlir::cast<RankedTensorType>(v.getType());
  auto to = RankedTensorType::get(shape, t.getElementType());
  if (t == to)
    return v;
  if (!to.hasStaticShape() || to.getNumElements() != t.getNumElements())
    return emitError() << "cannot reshape " << tl::formatShape(t.getShape()) << " to "
                       << tl::formatShape(shape);
  return tl::ReshapeOp::create(b, loc, to, v).getResult();
}

FailureOr<Value> NodeContext::broadcastTo(Value v, ArrayRef<int64_t> shape) {
  auto t = mlir::cast<RankedTensorType>(v.getType());
  if (t.getShape() == shape)
    return v;
  if (failed(tl::checkBroadcastTo(t.getShape(), shape, [&] { return emitError(); })))
    return failure();
  return tl::BroadcastToOp::create(b, loc, RankedTensorType::get(shape, t.getElementType()), v)
      .getResult();
}

FailureOr<Value> NodeContext::transpose(Value v, ArrayRef<int64_t> perm) {
  auto t = mlir::cast<RankedTensorType>(v.getType());
  FailureOr<RankedTensorType> to = tl::transposeType(t, perm, [&] { return emitError(); });
  if (failed(to))
    return failure();
  return tl::TransposeOp::create(b, loc, *to, v, perm).getResult();
}

FailureOr<Value> NodeContext::einsum(StringRef equation, ValueRange operands) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : operands)
    shapes.push_back(mlir::cast<RankedTensorType>(v.getType()).getShape());
  for (Value v : operands.drop_front())
    if (failed(sameElementType(operands[0], v)))
      return failure();
  FailureOr<tl::EinsumSpec> spec =
      tl::parseEinsum(equation, shapes, [&] { return emitError(); });
  if (failed(spec))
    return failure();
  auto type = RankedTensorType::get(
      spec->resultShape(), mlir::cast<RankedTensorType>(operands[0].getType()).getElementType());
  return tl::EinsumOp::create(b, loc, type, equation, operands).getResult();
}

const ConverterTable &tlc::onnx_import::getConverterTable() {
  static const ConverterTable table = [] {
    ConverterTable t;
    registerElementwiseConverters(t);
    registerTensorConverters(t);
    registerNNConverters(t);
    registerResamplingConverters(t);
    registerReductionConverters(t);
    registerRecurrentConverters(t);
    registerLossConverters(t);
    registerGridSampleConverter(t);
    registerRoiAlignConverter(t);
    registerSignalConverters(t);
    registerScatterConverters(t);
    registerTrainingOptimizers(t);
    registerIntegerConverters(t);
    registerControlFlowConverters(t);
    return t;
  }();
  return table;
}

std::vector<std::string> tlc::supportedOnnxOperators() {
  std::vector<std::string> names;
  for (const auto &entry : onnx_import::getConverterTable())
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}
