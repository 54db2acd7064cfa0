// Optimizer updates built from tl ops (PyTorch's rules).
#include "TL/Optimizers.h"

#include "TL/GradientBuilders.h"
#include "TL/TLDialect.h"

using namespace mlir;
using namespace tlc::tl;
using namespace tlc::tl::grad;

SmallVector<std::string> tlc::tl::optimizerSlots(const OptimizerConfig &config) {
  switch (config.kind) {
  case OptimizerConfig::SGD:
    if (config.momentum != 0.0)
      return {"momentum_buffer"};
    return {};
  case OptimizerConfig::Adam:
  case OptimizerConfig::AdamW:
    return {"exp_avg", "exp_avg_sq"};
  case OptimizerConfig::Lion:
    return {"exp_avg"};
  }
  return {};
}

SmallVector<Value> tlc::tl::buildOptimizerUpdate(OpBuilder &b, Location loc,
                                                 const OptimizerConfig &config, Value p, Value g,
                                                 ValueRange slots, Value lr, Value step) {
  auto c = [&](double v) { return scalar(b, loc, p, v); };
  auto axpy = [&](double a, Value x, double bb, Value y) { // a x + b y
    return add(b, loc, mul(b, loc, c(a), x), mul(b, loc, c(bb), y));
  };
  switch (config.kind) {
  case OptimizerConfig::SGD: {
    Value d = config.weightDecay != 0.0 ? add(b, loc, g, mul(b, loc, c(config.weightDecay), p)) : g;
    if (config.momentum == 0.0)
      return {sub(b, loc, p, mul(b, loc, lr, d))};
    // The buffer starts as the first step's d (PyTorch clones it), then accumulates.
    Value first = compare(b, loc, ComparePredicate::le, step, c(1.0));
    Value buf = SelectOp::create(b, loc, first, d, axpy(config.momentum, slots[0], 1.0 - config.dampening, d));
    Value dir = config.nesterov ? add(b, loc, d, mul(b, loc, c(config.momentum), buf)) : buf;
    return {sub(b, loc, p, mul(b, loc, lr, dir)), buf};
  }
  case OptimizerConfig::Adam:
  case OptimizerConfig::AdamW: {
    Value gg = g;
    if (config.kind == OptimizerConfig::AdamW && config.weightDecay != 0.0)
      p = mul(b, loc, p, sub(b, loc, c(1.0), mul(b, loc, lr, c(config.weightDecay))));
    else if (config.weightDecay != 0.0)
      gg = add(b, loc, g, mul(b, loc, c(config.weightDecay), p));
    Value m = axpy(config.beta1, slots[0], 1.0 - config.beta1, gg);
    Value v = axpy(config.beta2, slots[1], 1.0 - config.beta2, mul(b, loc, gg, gg));
    // step size lr / (1 - b1^t); denominator sqrt(v) / sqrt(1 - b2^t) + eps.
    Value bc1 = sub(b, loc, c(1.0), PowOp::create(b, loc, c(config.beta1), step));
    Value bc2 = sub(b, loc, c(1.0), PowOp::create(b, loc, c(config.beta2), step));
    Value denom = add(b, loc, div(b, loc, unary<SqrtOp>(b, loc, v), unary<SqrtOp>(b, loc, bc2)), c(config.eps));
    Value stepSize = div(b, loc, lr, bc1);
    return {sub(b, loc, p, mul(b, loc, stepSize, div(b, loc, m, denom))), m, v};
  }
  case OptimizerConfig::Lion: {
    // p -= lr (sign(b1 m + (1 - b1) g) + wd p); m = b2 m + (1 - b2) g.
    if (config.weightDecay != 0.0)
      p = mul(b, loc, p, sub(b, loc, c(1.0), mul(b, loc, lr, c(config.weightDecay))));
    Value u = axpy(config.beta1, slots[0], 1.0 - config.beta1, g);
    auto type = tensorOf(u);
    Value sign = sub(b, loc, CastOp::create(b, loc, type, compare(b, loc, ComparePredicate::gt, u, c(0))),
                     CastOp::create(b, loc, type, compare(b, loc, ComparePredicate::lt, u, c(0))));
    Value m = axpy(config.beta2, slots[0], 1.0 - config.beta2, g);
    return {sub(b, loc, p, mul(b, loc, lr, sign)), m};
  }
  }
  return {};
}
