// Converters for the ai.onnx.preview.training optimizers (Adagrad, Adam, Momentum, version 1):
// one update of every tensor group, as elementwise tl ops on run-time learning rate R and step
// count T, written from the operator specifications.
#include "NodeContext.h"
#include "ModelLoader.h"
#include "TensorData.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// The node's inputs after R and T as `groups` runs of n tensors each (X..., G..., ...), all of
/// X's float type and each run's shapes X's; n, or failure.
FailureOr<int64_t> groupCount(NodeContext &cx, int64_t groups) {
  int64_t rest = int64_t(cx.numInputs()) - 2;
  if (rest < groups || rest % groups != 0)
    return cx.emitError() << cx.node.op_type() << ": expected R, T and " << groups
                          << " runs of tensors of one length, got " << cx.numInputs()
                          << " inputs";
  int64_t n = rest / groups;
  if (cx.rank(0) > 1 || cx.type(0).getNumElements() != 1 || cx.type(1).getNumElements() != 1)
    return cx.emitError() << cx.node.op_type() << ": R and T must be scalars";
  for (int64_t i = 0; i < n; ++i) {
    Type et = cx.elementType(2 + i);
    if (!isa<FloatType>(et))
      return cx.emitError() << cx.node.op_type() << ": X " << i << " must be a float tensor";
    for (int64_t g = 1; g < groups; ++g)
      if (cx.type(2 + g * n + i) != cx.type(2 + i))
        return cx.emitError() << cx.node.op_type() << ": input " << 2 + g * n + i
                              << " differs from X " << i << " in type or shape";
  }
  return n;
}

/// A scalar input (R or T) as a rank-0 tensor of `et`.
FailureOr<Value> scalarInput(NodeContext &cx, size_t i, Type et) {
  return cx.reshape(cx.cast(cx.value(i), et), {});
}

struct Math {
  NodeContext &cx;
  Type et;
  Value c(double v) { return cx.scalar(et, v); }
  FailureOr<Value> add(Value a, Value b) { return cx.binary<tl::AddOp>(a, b); }
  FailureOr<Value> sub(Value a, Value b) { return cx.binary<tl::SubOp>(a, b); }
  FailureOr<Value> mul(Value a, Value b) { return cx.binary<tl::MulOp>(a, b); }
  FailureOr<Value> div(Value a, Value b) { return cx.binary<tl::DivOp>(a, b); }
  /// norm * x + g (the regularized gradient).
  FailureOr<Value> regularized(Value x, Value g, double norm) {
    if (norm == 0)
      return g;
    TLC_TRY(nx, mul(x, c(norm)));
    return add(nx, g);
  }
  /// x - rate * direction (every optimizer's step).
  FailureOr<Value> descend(Value x, Value rate, Value direction) {
    TLC_TRY(scaled, mul(rate, direction));
    return sub(x, scaled);
  }
};

LogicalResult convertAdagrad(NodeContext &cx) {
  TLC_TRY(n, groupCount(cx, 3));
  Math m{cx, cx.elementType(2)};
  double decay = cx.attrFloat("decay_factor", 0), eps = cx.attrFloat("epsilon", 1e-6);
  double norm = cx.attrFloat("norm_coefficient", 0);
  TLC_TRY(r0, scalarInput(cx, 0, m.et));
  TLC_TRY(t, scalarInput(cx, 1, m.et));
  // r = R / (1 + T * decay_factor)
  TLC_TRY(td, m.mul(t, m.c(decay)));
  TLC_TRY(den, m.add(td, m.c(1)));
  TLC_TRY(r, m.div(r0, den));
  for (int64_t i = 0; i < n; ++i) {
    Value x = cx.value(2 + i), g = cx.value(2 + n + i), h = cx.value(2 + 2 * n + i);
    TLC_TRY(gr, m.regularized(x, g, norm));
    TLC_TRY(g2, m.mul(gr, gr));
    TLC_TRY(hNew, m.add(h, g2));
    TLC_TRY(hAdaptive, m.add(cx.unary<tl::SqrtOp>(hNew), m.c(eps)));
    TLC_TRY(step, m.div(gr, hAdaptive));
    TLC_TRY(xNew, m.descend(x, r, step));
    cx.setOutput(i, xNew);
    cx.setOutput(n + i, hNew);
  }
  return success();
}

LogicalResult convertMomentum(NodeContext &cx) {
  TLC_TRY(n, groupCount(cx, 3));
  Math m{cx, cx.elementType(2)};
  double alpha = cx.attrFloat("alpha", 0), beta = cx.attrFloat("beta", 0);
  double norm = cx.attrFloat("norm_coefficient", 0);
  std::string mode = cx.attrString("mode", "standard");
  if (mode != "standard" && mode != "nesterov")
    return cx.emitError() << "Momentum: mode must be 'standard' or 'nesterov', got '" << mode
                          << "'";
  TLC_TRY(r, scalarInput(cx, 0, m.et));
  TLC_TRY(t, scalarInput(cx, 1, m.et));
  // beta_adjusted = T > 0 ? beta : 1
  TLC_TRY(started, cx.compare(tl::ComparePredicate::gt, t, m.c(0)));
  TLC_TRY(betaAdjusted, cx.select(started, m.c(beta), m.c(1)));
  for (int64_t i = 0; i < n; ++i) {
    Value x = cx.value(2 + i), g = cx.value(2 + n + i), v = cx.value(2 + 2 * n + i);
    TLC_TRY(gr, m.regularized(x, g, norm));
    TLC_TRY(av, m.mul(v, m.c(alpha)));
    TLC_TRY(bg, m.mul(gr, betaAdjusted));
    TLC_TRY(vNew, m.add(av, bg));
    Value direction = vNew;
    if (mode == "nesterov") {
      TLC_TRY(avNew, m.mul(vNew, m.c(alpha)));
      TLC_TRY(d, m.add(gr, avNew));
      direction = d;
    }
    TLC_TRY(xNew, m.descend(x, r, direction));
    cx.setOutput(i, xNew);
    cx.setOutput(n + i, vNew);
  }
  return success();
}

LogicalResult convertAdam(NodeContext &cx) {
  TLC_TRY(n, groupCount(cx, 4));
  Math m{cx, cx.elementType(2)};
  double alpha = cx.attrFloat("alpha", 0.9), beta = cx.attrFloat("beta", 0.999);
  double eps = cx.attrFloat("epsilon", 1e-6), norm = cx.attrFloat("norm_coefficient", 0);
  double normPost = cx.attrFloat("norm_coefficient_post", 0);
  TLC_TRY(r, scalarInput(cx, 0, m.et));
  TLC_TRY(t, scalarInput(cx, 1, m.et));
  // R_adjusted = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R
  TLC_TRY(betaT, cx.binary<tl::PowOp>(m.c(beta), t));
  TLC_TRY(alphaT, cx.binary<tl::PowOp>(m.c(alpha), t));
  TLC_TRY(oneMinusBetaT, m.sub(m.c(1), betaT));
  TLC_TRY(oneMinusAlphaT, m.sub(m.c(1), alphaT));
  TLC_TRY(num, m.mul(r, cx.unary<tl::SqrtOp>(oneMinusBetaT)));
  TLC_TRY(corrected, m.div(num, oneMinusAlphaT));
  TLC_TRY(started, cx.compare(tl::ComparePredicate::gt, t, m.c(0)));
  TLC_TRY(rAdjusted, cx.select(started, corrected, r));
  for (int64_t i = 0; i < n; ++i) {
    Value x = cx.value(2 + i), g = cx.value(2 + n + i), v = cx.value(2 + 2 * n + i),
          h = cx.value(2 + 3 * n + i);
    TLC_TRY(gr, m.regularized(x, g, norm));
    TLC_TRY(av, m.mul(v, m.c(alpha)));
    TLC_TRY(ag, m.mul(gr, m.c(1 - alpha)));
    TLC_TRY(vNew, m.add(av, ag));
    TLC_TRY(g2, m.mul(gr, gr));
    TLC_TRY(bh, m.mul(h, m.c(beta)));
    TLC_TRY(bg, m.mul(g2, m.c(1 - beta)));
    TLC_TRY(hNew, m.add(bh, bg));
    TLC_TRY(hSqrt, m.add(cx.unary<tl::SqrtOp>(hNew), m.c(eps)));
    TLC_TRY(ratio, m.div(vNew, hSqrt));
    TLC_TRY(xNew, m.descend(x, rAdjusted, ratio));
    Value xFinal = xNew;
    if (normPost != 0) {
      TLC_TRY(shrunk, m.mul(xNew, m.c(1 - normPost)));
      xFinal = shrunk;
    }
    cx.setOutput(i, xFinal);
    cx.setOutput(n + i, vNew);
    cx.setOutput(2 * n + i, hNew);
  }
  return success();
}

} // namespace

void tlc::onnx_import::registerTrainingOptimizers(ConverterTable &t) {
  std::string d = std::string(kTrainingDomain) + "::";
  t[d + "Adagrad"] = {convertAdagrad};
  t[d + "Momentum"] = {convertMomentum};
  t[d + "Adam"] = {convertAdam};
}
