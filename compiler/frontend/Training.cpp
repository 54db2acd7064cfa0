// The `train LOSS with OPTIMIZER(...)` statement: the parameters the loss depends on become
// inputs (with the optimizer's state, the learning rate and the step number), and their
// updated values (and state) outputs. One call of the compiled function is one training step.
#include "Emitter.h"

#include "TL/Optimizers.h"
#include "TL/TLDialect.h"

#include <cmath>

using namespace mlir;
using namespace tlc::frontend;
namespace tl = tlc::tl;

namespace {
/// Whether `value` is computed (transitively) from `from`.
bool dependsOn(Value value, Value from) {
  SmallVector<Value> work{value};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == from)
      return true;
    if (!seen.insert(v).second)
      continue;
    if (Operation *op = v.getDefiningOp())
      llvm::append_range(work, op->getOperands());
  }
  return false;
}

struct OptimizerKeyword {
  StringRef name;
  double tl::OptimizerConfig::*field; // null for nesterov
  StringRef range;                    // "unit": [0, 1); "positive": (0, inf); else [0, inf)
};

FailureOr<tl::OptimizerConfig> parseOptimizer(Emitter &em, const Expr &call) {
  tl::OptimizerConfig config;
  using C = tl::OptimizerConfig;
  SmallVector<OptimizerKeyword> keywords;
  OptimizerKeyword weightDecay{"weight_decay", &C::weightDecay, ""};
  OptimizerKeyword beta1{"beta1", &C::beta1, "unit"}, beta2{"beta2", &C::beta2, "unit"};
  if (call.name == "sgd") {
    config.kind = C::SGD;
    keywords = {{"momentum", &C::momentum, ""}, {"dampening", &C::dampening, ""},
                {"nesterov", nullptr, ""}, weightDecay};
  } else if (call.name == "adam" || call.name == "adamw") {
    config.kind = call.name == "adam" ? C::Adam : C::AdamW;
    config.weightDecay = call.name == "adamw" ? 0.01 : 0.0;
    keywords = {beta1, beta2, {"eps", &C::eps, "positive"}, weightDecay};
  } else if (call.name == "lion") {
    config.kind = C::Lion;
    config.beta2 = 0.99;
    keywords = {beta1, beta2, weightDecay};
  } else {
    em.error(call.loc) << "unknown optimizer '" << call.name << "' (sgd, adam, adamw or lion)";
    return failure();
  }
  for (const Arg &arg : call.args) {
    if (arg.keyword.empty()) {
      em.error(arg.loc) << "the arguments of " << call.name << " are keywords (name=value)";
      return failure();
    }
    auto it = llvm::find_if(keywords, [&](const OptimizerKeyword &k) { return k.name == arg.keyword; });
    if (it == keywords.end()) {
      std::string valid;
      for (const OptimizerKeyword &k : keywords)
        valid += (valid.empty() ? "" : ", ") + k.name.str();
      em.error(arg.keywordLoc) << call.name << " has no argument '" << arg.keyword << "' (valid: "
                               << valid << ")";
      return failure();
    }
    if (!it->field) {
      if (arg.kind != Arg::Bool) {
        em.error(arg.loc) << "nesterov must be true or false";
        return failure();
      }
      config.nesterov = arg.boolean;
      continue;
    }
    if (arg.kind != Arg::Expression || arg.expr->kind != Expr::Number) {
      em.error(arg.loc) << arg.keyword << " must be a number";
      return failure();
    }
    double v = arg.expr->number.value;
    bool ok = it->range == "unit"       ? v >= 0 && v < 1
              : it->range == "positive" ? v > 0 && std::isfinite(v)
                                        : v >= 0 && std::isfinite(v);
    if (!ok) {
      em.error(arg.loc) << arg.keyword << " must be in "
                        << (it->range == "unit"       ? "[0, 1)"
                            : it->range == "positive" ? "(0, inf)"
                                                      : "[0, inf)")
                        << ", got " << arg.expr->number.text;
      return failure();
    }
    config.*(it->field) = v;
  }
  if (config.nesterov && (config.momentum <= 0 || config.dampening != 0)) {
    em.error(call.loc) << "nesterov needs a positive momentum and zero dampening";
    return failure();
  }
  return config;
}
} // namespace

LogicalResult Emitter::emitTrain(const Statement &stmt) {
  if (trainLoc.isValid()) {
    InFlightDiagnostic diag = error(stmt.loc);
    diag << "a program has one 'train' statement";
    diag.attachNote(source.loc(trainLoc)) << "the first one is here";
    return failure();
  }
  auto it = symbols.find(stmt.name);
  if (it == symbols.end()) {
    error(stmt.nameLoc) << "undefined name '" << stmt.name << "'";
    return failure();
  }
  Value loss = it->second.value;
  auto lossType = cast<RankedTensorType>(loss.getType());
  if (lossType.getRank() != 0 || !isa<FloatType>(lossType.getElementType())) {
    error(stmt.nameLoc) << "the loss must be a float scalar (shape []), got "
                        << lossType;
    return failure();
  }
  FailureOr<tl::OptimizerConfig> config = parseOptimizer(*this, *stmt.expr);
  if (failed(config))
    return failure();
  trainLoc = stmt.loc;

  SmallVector<Output *> trainable;
  for (Output &p : params)
    if (isa<FloatType>(cast<RankedTensorType>(p.value.getType()).getElementType()) &&
        dependsOn(loss, p.value))
      trainable.push_back(&p);
  if (trainable.empty()) {
    error(stmt.nameLoc) << "'" << stmt.name << "' depends on no float param: nothing to train";
    return failure();
  }
  // The names the step adds: the inputs lr, step and the optimizer state, the outputs NAME_next.
  SmallVector<std::string> slots = tl::optimizerSlots(*config);
  SmallVector<std::string> added{"lr", "step"};
  for (Output *p : trainable) {
    added.push_back(p->name.str() + "_next");
    for (const std::string &s : slots) {
      added.push_back(p->name.str() + "_" + s);
      added.push_back(p->name.str() + "_" + s + "_next");
    }
  }
  for (const std::string &name : added)
    if (symbols.count(name) || llvm::any_of(outputs, [&](const Output &o) { return o.name == name; })) {
      error(stmt.loc) << "'train' adds '" << name << "' to the signature, but the program "
                      << "already uses that name";
      return failure();
    }

  Location loc = source.loc(stmt.loc);
  auto f32 = RankedTensorType::get({}, builder.getF32Type());
  trainLrInput = inputNames.size();
  Value lr = addInput("lr", f32, loc), step = addInput("step", f32, loc);
  for (Output *p : trainable) {
    // The param's constant becomes an input; its initializer is no longer compiled in.
    auto constant = p->value.getDefiningOp<tl::ConstantOp>();
    trainState.push_back({static_cast<unsigned>(inputNames.size()), constant.getValue()});
    Value arg = addInput(p->name, p->value.getType(), source.loc(p->loc));
    p->value.replaceAllUsesWith(arg);
    constant->erase();
    p->value = arg;
    symbols[p->name].value = arg;
    SmallVector<Value> state;
    for (const std::string &s : slots) {
      trainState.push_back({static_cast<unsigned>(inputNames.size()), ElementsAttr()});
      state.push_back(addInput(p->name.str() + "_" + s, arg.getType(), loc));
    }
    Value grad = tl::GradOp::create(builder, loc, arg.getType(), loss, arg);
    SmallVector<Value> next = tl::buildOptimizerUpdate(builder, loc, *config, arg, grad, state, lr, step);
    trainOutputs.push_back({p->name.str() + "_next", next[0]});
    for (auto [s, v] : llvm::zip_equal(slots, ArrayRef<Value>(next).drop_front()))
      trainOutputs.push_back({p->name.str() + "_" + s + "_next", v});
  }
  return success();
}
