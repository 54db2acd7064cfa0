// The probe behind `tlc --report=precision` (PrecisionProbe.h).
#include "passes/PrecisionProbe.h"
#include "passes/Precision.h"

#include "TL/TLDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tlc;

namespace {

/// max |x| over all elements, as a tensor<1xf32>.
Value maxAbs(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  Type f32 = b.getF32Type();
  Value flat = x;
  if (type.getRank() != 1)
    flat = tl::ReshapeOp::create(b, loc, RankedTensorType::get({type.getNumElements()}, f32), x);
  Value magnitude = tl::AbsOp::create(b, loc, flat);
  return tl::ReduceMaxOp::create(b, loc, magnitude, b.getDenseI64ArrayAttr({0}), b.getUnitAttr());
}

Value maxAbsDifference(OpBuilder &b, Location loc, Value x, Value reference) {
  return maxAbs(b, loc, tl::SubOp::create(b, loc, x, reference));
}

bool isF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getElementType().isF32();
}

/// The name a user passes to --keep-fp32: the op's outermost name, else its location.
std::string displayName(Operation *op) {
  SmallVector<StringRef> names = namesInLocation(op->getLoc());
  if (!names.empty())
    return names.front().str();
  std::string text;
  llvm::raw_string_ostream os(text);
  op->getLoc().print(os);
  return text;
}

} // namespace

PrecisionProbe::PrecisionProbe(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    Model model{func, {}};
    Operation *ret = func.front().getTerminator();
    OpBuilder b(ret);
    SmallVector<Operation *> body;
    for (Operation &op : func.front().without_terminator())
      body.push_back(&op);
    for (Operation *op : body) {
      // Constants are shared: both runs read the same f32 weights (the low run casts its own).
      if (op->hasTrait<OpTrait::ConstantLike>())
        continue;
      Operation *copy = b.clone(*op, model.reference);
      referenceOps.insert(copy);
    }
    models.push_back(std::move(model));
  }
}

bool PrecisionProbe::isReference(Operation *op) const {
  for (Operation *p = op; p; p = p->getParentOp())
    if (referenceOps.contains(p))
      return true;
  return false;
}

LogicalResult PrecisionProbe::finish(ArrayRef<Operation *> demoted, Type low) {
  for (Model &model : models) {
    func::FuncOp func = model.func;
    auto ret = cast<func::ReturnOp>(func.front().getTerminator());
    OpBuilder b(ret);
    MLIRContext *ctx = func.getContext();
    SmallVector<Value> cells;
    SmallVector<Attribute> rows;
    auto addRow = [&](StringRef name, StringRef op, StringRef kind, Value local, Value accumulated,
                      Value reference) {
      cells.append({local, accumulated, reference});
      rows.push_back(DictionaryAttr::get(
          ctx, {b.getNamedAttr("name", b.getStringAttr(name)),
                b.getNamedAttr("op", b.getStringAttr(op)),
                b.getNamedAttr("kind", b.getStringAttr(kind))}));
    };
    for (Operation *op : demoted) {
      if (op->getParentOp() != func || op->getNumResults() != 1 ||
          !isF32Tensor(op->getResult(0).getType()))
        continue;
      Value result = op->getResult(0);
      Value reference = model.reference.lookupOrNull(result);
      if (!reference)
        continue;
      Operation *referenceOp = reference.getDefiningOp();
      Operation *local = b.clone(*referenceOp);
      demoteOperands(local, demotableOperands(local), low, b);
      Location loc = op->getLoc();
      addRow(displayName(op), op->getName().getStringRef(), "layer",
             maxAbsDifference(b, loc, local->getResult(0), reference),
             maxAbsDifference(b, loc, result, reference), maxAbs(b, loc, reference));
    }
    Value zero;
    for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
      if (!isF32Tensor(value.getType()))
        continue;
      if (!zero)
        zero = tl::ConstantOp::create(
            b, ret.getLoc(),
            DenseElementsAttr::get(RankedTensorType::get({1}, b.getF32Type()), 0.0f));
      std::string name = "out" + std::to_string(i);
      if (DictionaryAttr attrs = func.getResultAttrDict(i))
        if (auto n = attrs.getAs<StringAttr>("tl.name"))
          name = n.str();
      Value reference = model.reference.lookupOrDefault(value);
      addRow(name, "", "output", zero, maxAbsDifference(b, ret.getLoc(), value, reference),
             maxAbs(b, ret.getLoc(), reference));
    }
    if (rows.empty())
      return func.emitError() << "--report=precision: the model has no f32 output and no "
                                 "contraction or convolution to compare";
    Location loc = ret.getLoc();
    Value table = tl::ConcatOp::create(b, loc, cells, b.getI64IntegerAttr(0));
    auto tableType = RankedTensorType::get({static_cast<int64_t>(rows.size()), 3}, b.getF32Type());
    table = tl::ReshapeOp::create(b, loc, tableType, table);
    func::ReturnOp::create(b, loc, table);
    ret.erase();
    func.setFunctionType(FunctionType::get(ctx, func.getArgumentTypes(), {tableType}));
    func.setAllResultAttrs(ArrayRef<DictionaryAttr>{DictionaryAttr::get(
        ctx, {b.getNamedAttr("tl.name", b.getStringAttr(kPrecisionProbeResult))})});
    func->setAttr(kPrecisionProbeAttr, b.getArrayAttr(rows));
  }
  return success();
}
