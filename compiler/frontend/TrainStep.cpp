// Turning a model function into one training step (see TrainStep.h).
#include "TrainStep.h"

#include "TL/GradientBuilders.h"
#include "TL/TrainState.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace tlc;

namespace {
struct Keyword {
  llvm::StringLiteral name;
  double tl::OptimizerConfig::*field; // null: nesterov (a boolean)
  llvm::StringLiteral range;          // "unit": [0, 1); "positive": (0, inf); "": [0, inf)
};

ArrayRef<Keyword> keywordsOf(tl::OptimizerConfig::Kind kind) {
  using C = tl::OptimizerConfig;
  static const Keyword sgd[] = {{"momentum", &C::momentum, ""},
                                {"dampening", &C::dampening, ""},
                                {"nesterov", nullptr, ""},
                                {"weight_decay", &C::weightDecay, ""}};
  static const Keyword adam[] = {{"beta1", &C::beta1, "unit"},
                                 {"beta2", &C::beta2, "unit"},
                                 {"eps", &C::eps, "positive"},
                                 {"weight_decay", &C::weightDecay, ""}};
  static const Keyword lion[] = {{"beta1", &C::beta1, "unit"},
                                 {"beta2", &C::beta2, "unit"},
                                 {"weight_decay", &C::weightDecay, ""}};
  switch (kind) {
  case C::SGD: return sgd;
  case C::Adam:
  case C::AdamW: return adam;
  case C::Lion: return lion;
  }
  return {};
}
} // namespace

FailureOr<tl::OptimizerConfig> tlc::defaultOptimizer(StringRef name) {
  tl::OptimizerConfig config;
  if (name == "sgd") {
    config.kind = tl::OptimizerConfig::SGD;
  } else if (name == "adam") {
    config.kind = tl::OptimizerConfig::Adam;
  } else if (name == "adamw") {
    config.kind = tl::OptimizerConfig::AdamW;
    config.weightDecay = 0.01;
  } else if (name == "lion") {
    config.kind = tl::OptimizerConfig::Lion;
    config.beta2 = 0.99;
  } else {
    return failure();
  }
  return config;
}

std::string tlc::setOptimizerKeyword(tl::OptimizerConfig &config, StringRef optimizer,
                                     StringRef keyword, double value, bool isBool) {
  ArrayRef<Keyword> keywords = keywordsOf(config.kind);
  auto it = llvm::find_if(keywords, [&](const Keyword &k) { return k.name == keyword; });
  if (it == keywords.end()) {
    std::string valid;
    for (const Keyword &k : keywords)
      valid += (valid.empty() ? "" : ", ") + k.name.str();
    return (optimizer + " has no argument '" + keyword + "' (valid: " + valid + ")").str();
  }
  if (!it->field) {
    if (!isBool)
      return "nesterov must be true or false";
    config.nesterov = value != 0;
    return "";
  }
  if (isBool)
    return (keyword + " must be a number").str();
  bool ok = it->range == "unit"       ? value >= 0 && value < 1
            : it->range == "positive" ? value > 0 && std::isfinite(value)
                                      : value >= 0 && std::isfinite(value);
  if (!ok)
    return (keyword + " must be in " +
            (it->range == "unit" ? "[0, 1)" : it->range == "positive" ? "(0, inf)" : "[0, inf)"))
        .str();
  config.*(it->field) = value;
  return "";
}

std::string tlc::checkOptimizer(const tl::OptimizerConfig &config) {
  if (config.nesterov && (config.momentum <= 0 || config.dampening != 0))
    return "nesterov needs a positive momentum and zero dampening";
  return "";
}

FailureOr<tl::OptimizerConfig> tlc::parseOptimizerSpec(StringRef spec, std::string &error) {
  auto [name, rest] = spec.split('(');
  name = name.trim();
  FailureOr<tl::OptimizerConfig> config = defaultOptimizer(name);
  if (failed(config)) {
    error = ("unknown optimizer '" + name + "' (sgd, adam, adamw or lion)").str();
    return failure();
  }
  rest = rest.trim();
  if (spec.contains('(')) {
    if (!rest.consume_back(")")) {
      error = "expected ')' at the end of '" + spec.str() + "'";
      return failure();
    }
    SmallVector<StringRef> items;
    rest.split(items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef item : items) {
      auto [key, text] = item.split('=');
      key = key.trim();
      text = text.trim();
      double value = 0;
      bool isBool = text == "true" || text == "false";
      if (isBool)
        value = text == "true";
      else if (text.empty() || text.getAsDouble(value)) {
        error = ("expected KEY=NUMBER in '" + item.trim() + "'").str();
        return failure();
      }
      error = setOptimizerKeyword(*config, name, key, value, isBool);
      if (!error.empty())
        return failure();
    }
  }
  error = checkOptimizer(*config);
  if (!error.empty())
    return failure();
  return config;
}

namespace {
/// The inference function beside a training step: a copy of `func` (before the step is built)
/// whose state tensors (trained params, running statistics) are inputs marked `tl.from_state`,
/// with the eval side of each train-or-eval marker, computing the outputs other than the loss
/// (the loss alone when it is the only one; the loss named "loss" when there is no output),
/// with the inputs those read. NAME_run runs it with the state read from the state buffer.
LogicalResult addInference(func::FuncOp func, Value loss, ArrayRef<const TrainParam *> state,
                           Location loc) {
  IRMapping mapping;
  auto infer = cast<func::FuncOp>(func->clone(mapping));
  tl::resolveTrainOrEval(infer, /*train=*/false);
  OpBuilder b(func.getContext());
  b.setInsertionPointAfter(func);
  b.insert(infer);
  auto named = [&](StringRef name) { return b.getNamedAttr("tl.name", b.getStringAttr(name)); };
  for (const TrainParam *p : state) {
    tl::ConstantOp original = p->constant;
    auto constant = mapping.lookup(original.getResult()).getDefiningOp<tl::ConstantOp>();
    unsigned index = infer.getNumArguments();
    (void)infer.insertArgument(
        index, constant.getType(),
        b.getDictionaryAttr({named(p->name), b.getNamedAttr("tl.from_state", b.getUnitAttr())}),
        constant.getLoc());
    constant.getResult().replaceAllUsesWith(infer.getArgument(index));
    constant.erase();
  }
  auto ret = cast<func::ReturnOp>(infer.getBody().front().getTerminator());
  Value inferLoss = mapping.lookup(loss);
  llvm::BitVector lossResults(infer.getNumResults());
  for (OpOperand &operand : ret->getOpOperands())
    if (operand.get() == inferLoss)
      lossResults.set(operand.getOperandNumber());
  if (infer.getNumResults() == 0) {
    for (unsigned i = 0; i < infer.getNumArguments(); ++i)
      if (auto n = infer.getArgAttrOfType<StringAttr>(i, "tl.name"); n && n.getValue() == "loss")
        return emitError(loc) << "the program has no output, so NAME_run returns the loss as "
                                 "'loss', but an input has that name";
    (void)infer.insertResult(0, inferLoss.getType(), b.getDictionaryAttr({named("loss")}));
    ret->insertOperands(0, inferLoss);
  } else if (lossResults.count() < infer.getNumResults()) {
    for (int i = lossResults.find_last(); i >= 0; i = lossResults.find_prev(i))
      ret->eraseOperand(i);
    (void)infer.eraseResults(lossResults);
  }
  // What the outputs do not need goes, and the inputs only it read (the labels, typically).
  for (Operation *op = ret->getPrevNode(); op;) {
    Operation *prev = op->getPrevNode();
    if (isOpTriviallyDead(op))
      op->erase();
    op = prev;
  }
  llvm::BitVector unused(infer.getNumArguments());
  for (BlockArgument arg : infer.getArguments())
    if (arg.use_empty())
      unused.set(arg.getArgNumber());
  (void)infer.eraseArguments(unused);
  return success();
}
} // namespace

LogicalResult tlc::buildTrainingStep(func::FuncOp func, Value loss, ArrayRef<TrainParam> params,
                                     const tl::OptimizerConfig &config, Location loc) {
  auto lossType = cast<RankedTensorType>(loss.getType());
  if (lossType.getRank() != 0 || !isa<FloatType>(lossType.getElementType()))
    return emitError(loc) << "the loss must be a float scalar (shape []), got " << lossType;
  SmallVector<const TrainParam *> trained;
  for (const TrainParam &p : params) {
    tl::ConstantOp constant = p.constant;
    if (isa<FloatType>(constant.getType().getElementType()) && tl::grad::dependsOn(loss, constant))
      trained.push_back(&p);
  }
  if (trained.empty())
    return emitError(loc) << "the loss depends on no float parameter: nothing to train";
  // State the step updates without training it (batch norm's running statistics): the
  // constants an importer marked, each with the value of its next state (TL/TrainState.h).
  llvm::StringMap<Value> nextOf;
  func.walk([&](Operation *op) {
    if (auto n = op->getAttrOfType<StringAttr>(tl::kNextStateAttr)) {
      nextOf[n.getValue()] = op->getResult(0);
      op->removeAttr(tl::kNextStateAttr);
    }
  });
  SmallVector<TrainParam> buffers;
  func.walk([&](tl::ConstantOp c) {
    if (auto n = c->getAttrOfType<StringAttr>(tl::kStateBufferAttr)) {
      c->removeAttr(tl::kStateBufferAttr);
      if (nextOf.count(n.getValue()))
        buffers.push_back({n.str(), c});
    }
  });

  // The names the step adds must be free.
  llvm::StringSet<> taken;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto n = func.getArgAttrOfType<StringAttr>(i, "tl.name"))
      taken.insert(n.getValue());
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (auto n = func.getResultAttrOfType<StringAttr>(i, "tl.name"))
      taken.insert(n.getValue());
  SmallVector<std::string> slots = tl::optimizerSlots(config);
  SmallVector<std::string> added{"lr", "step", "state"};
  for (const TrainParam *p : trained) {
    added.push_back(p->name);
    added.push_back(p->name + "_next");
    for (const std::string &s : slots) {
      added.push_back(p->name + "_" + s);
      added.push_back(p->name + "_" + s + "_next");
    }
  }
  for (const TrainParam &buffer : buffers) {
    added.push_back(buffer.name);
    added.push_back(buffer.name + "_next");
  }
  for (const std::string &name : added)
    if (!taken.insert(name).second)
      return emitError(loc) << "training adds '" << name
                            << "' to the signature, but the model already uses that name";

  // The step is NAME_train (C: NAME_train_run); NAME is the inference from the state.
  std::string modelName = func.getSymName().str(), stepName = modelName + "_train";
  SmallVector<const TrainParam *> stateTensors(trained);
  for (const TrainParam &buffer : buffers)
    stateTensors.push_back(&buffer);
  if (failed(addInference(func, loss, stateTensors, loc)))
    return failure();
  tl::resolveTrainOrEval(func, /*train=*/true);
  func.setSymName(stepName);
  MLIRContext *ctx = func.getContext();
  OpBuilder b(ctx);
  auto named = [&](StringRef name) {
    return b.getDictionaryAttr(b.getNamedAttr("tl.name", b.getStringAttr(name)));
  };
  auto addInput = [&](StringRef name, Type type, Location l) {
    unsigned index = func.getNumArguments();
    (void)func.insertArgument(index, type, named(name), l);
    return func.getArgument(index);
  };
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  b.setInsertionPoint(ret);
  auto f32 = RankedTensorType::get({}, b.getF32Type());
  unsigned lrIndex = func.getNumArguments();
  Value lr = addInput("lr", f32, loc), step = addInput("step", f32, loc);
  SmallVector<std::tuple<std::string, Value, unsigned, Attribute>> next; // name, value, input, init
  for (const TrainParam *p : trained) {
    tl::ConstantOp constant = p->constant;
    Attribute init = constant.getValue();
    unsigned input = func.getNumArguments();
    Value arg = addInput(p->name, constant.getType(), constant.getLoc());
    constant.getResult().replaceAllUsesWith(arg);
    constant.erase();
    SmallVector<Value> state;
    SmallVector<unsigned> stateInputs;
    for (const std::string &s : slots) {
      stateInputs.push_back(func.getNumArguments());
      state.push_back(addInput(p->name + "_" + s, arg.getType(), loc));
    }
    Value grad = tl::GradOp::create(b, loc, arg.getType(), loss, arg);
    // The run-time hyperparameters are f32; a parameter of another float type (f64, bf16)
    // gets them in its own type (fuzz-tl: the optimizer's product of an f32 lr and an f64
    // gradient had no type).
    Type element = cast<RankedTensorType>(arg.getType()).getElementType();
    auto inType = [&](Value v) -> Value {
      if (element == b.getF32Type())
        return v;
      return tl::CastOp::create(b, loc, RankedTensorType::get({}, element), v).getResult();
    };
    SmallVector<Value> updated =
        tl::buildOptimizerUpdate(b, loc, config, arg, grad, state, inType(lr), inType(step));
    next.emplace_back(p->name + "_next", updated[0], input, init);
    for (auto [i, s] : llvm::enumerate(slots))
      next.emplace_back(p->name + "_" + s + "_next", updated[i + 1], stateInputs[i], Attribute());
  }
  for (const TrainParam &buffer : buffers) {
    tl::ConstantOp constant = buffer.constant;
    unsigned input = func.getNumArguments();
    Value arg = addInput(buffer.name, constant.getType(), constant.getLoc());
    constant.getResult().replaceAllUsesWith(arg);
    next.emplace_back(buffer.name + "_next", nextOf[buffer.name], input, constant.getValue());
    constant.erase();
  }
  // The outputs, and the state record for the C ABI (compiler/Signature.h: TrainSpec).
  SmallVector<Attribute> stateRecord;
  for (auto &[name, value, input, init] : next) {
    unsigned output = func.getNumResults();
    (void)func.insertResult(output, value.getType(), named(name));
    ret.getOperandsMutable().append(value);
    SmallVector<NamedAttribute> fields{b.getNamedAttr("input", b.getI64IntegerAttr(input)),
                                       b.getNamedAttr("output", b.getI64IntegerAttr(output))};
    if (init)
      fields.push_back(b.getNamedAttr("init", init));
    stateRecord.push_back(b.getDictionaryAttr(fields));
  }
  func->getParentOfType<ModuleOp>()->setAttr(
      "tl.train", b.getDictionaryAttr({b.getNamedAttr("step", b.getStringAttr(stepName)),
                                       b.getNamedAttr("model", b.getStringAttr(modelName)),
                                       b.getNamedAttr("lr", b.getI64IntegerAttr(lrIndex)),
                                       b.getNamedAttr("state", b.getArrayAttr(stateRecord))}));
  return success();
}
