// The `train LOSS with OPTIMIZER(...)` statement: the parameters the loss depends on become
// inputs (with the optimizer's state, the learning rate and the step number), and their
// updated values (and state) outputs. One call of the compiled function is one training step.
#include "Emitter.h"

#include "TrainStep.h"

using namespace mlir;
using namespace tlc::frontend;
namespace tl = tlc::tl;

namespace {
/// The optimizer of a `train` statement: its name and keyword arguments.
FailureOr<tl::OptimizerConfig> parseOptimizer(Emitter &em, const Expr &call) {
  FailureOr<tl::OptimizerConfig> config = tlc::defaultOptimizer(call.name);
  if (failed(config)) {
    em.error(call.loc) << "unknown optimizer '" << call.name << "' (sgd, adam, adamw or lion)";
    return failure();
  }
  for (const Arg &arg : call.args) {
    if (arg.keyword.empty()) {
      em.error(arg.loc) << "the arguments of " << call.name << " are keywords (name=value)";
      return failure();
    }
    bool isBool = arg.kind == Arg::Bool;
    bool isNumber = arg.kind == Arg::Expression && arg.expr->kind == Expr::Number;
    if (!isBool && !isNumber) {
      em.error(arg.loc) << arg.keyword << " must be a number or true/false";
      return failure();
    }
    std::string error = tlc::setOptimizerKeyword(*config, call.name, arg.keyword,
                                                 isBool ? arg.boolean : arg.expr->number.value,
                                                 isBool);
    if (!error.empty()) {
      InFlightDiagnostic diag = em.error(error.find(" has no argument ") != std::string::npos
                                             ? arg.keywordLoc
                                             : arg.loc);
      diag << error;
      if (isNumber && error.find(" must be in ") != std::string::npos)
        diag << ", got " << arg.expr->number.text;
      return failure();
    }
  }
  if (std::string error = tlc::checkOptimizer(*config); !error.empty()) {
    em.error(call.loc) << error;
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
  auto lossType = cast<RankedTensorType>(it->second.value.getType());
  if (lossType.getRank() != 0 || !isa<FloatType>(lossType.getElementType())) {
    error(stmt.nameLoc) << "the loss must be a float scalar (shape []), got " << lossType;
    return failure();
  }
  FailureOr<tl::OptimizerConfig> config = parseOptimizer(*this, *stmt.expr);
  if (failed(config))
    return failure();
  // Applied by finish(): the params' constants become inputs after every other input.
  trainLoc = stmt.loc;
  trainLoss = it->second.value;
  trainConfig = *config;
  return success();
}
