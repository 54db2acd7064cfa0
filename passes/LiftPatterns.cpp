// tl-lift-patterns: recognizes known computations that exporters spell out op by op (LayerNorm,
// GELU in its erf and tanh forms, attention in LiftAttention.cpp) and replaces them with the tl op that names them, so later
// passes (fusion, cost models, precision) see the structure.
#include "passes/Passes.h"
#include "passes/TLMatchers.h"

#include "TL/TLDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <optional>

namespace tlc {
#define GEN_PASS_DEF_TLLIFTPATTERNS
#include "passes/Passes.h.inc"
} // namespace tlc

using namespace mlir;
using namespace tlc;

namespace {

bool isConst(Value v, double expected, double relTol = 1e-4) {
  std::optional<double> s = getSplatFloat(v);
  return s && std::fabs(*s - expected) <= relTol * std::fabs(expected);
}

/// The factors of a tree of tl.mul ops rooted at `v` (a non-mul value is one factor).
void mulFactors(Value v, SmallVectorImpl<Value> &out) {
  if (auto mul = v.getDefiningOp<tl::MulOp>()) {
    mulFactors(mul.getLhs(), out);
    mulFactors(mul.getRhs(), out);
    return;
  }
  out.push_back(v);
}

/// Removes from `factors` one constant factor equal to `c`; false if there is none.
bool takeConst(SmallVectorImpl<Value> &factors, double c) {
  for (auto *it = factors.begin(); it != factors.end(); ++it)
    if (isConst(*it, c)) {
      factors.erase(it);
      return true;
    }
  return false;
}

/// `1 + t` (either order): returns t.
Value onePlus(Value v) {
  auto add = v.getDefiningOp<tl::AddOp>();
  if (!add)
    return nullptr;
  if (isConst(add.getLhs(), 1.0))
    return add.getRhs();
  if (isConst(add.getRhs(), 1.0))
    return add.getLhs();
  return nullptr;
}

/// Whether `arg` is x / sqrt(2) or x * (1/sqrt(2)).
bool isScaledBySqrtHalf(Value arg, Value x) {
  if (auto div = arg.getDefiningOp<tl::DivOp>())
    return div.getLhs() == x && isConst(div.getRhs(), M_SQRT2);
  SmallVector<Value> f;
  mulFactors(arg, f);
  return f.size() == 2 && takeConst(f, M_SQRT1_2) && f[0] == x;
}

/// Whether `arg` is sqrt(2/pi) * (x + 0.044715 * x^3), x^3 as x*x*x or pow(x, 3).
bool isTanhGeluArg(Value arg, Value x) {
  SmallVector<Value> outer;
  mulFactors(arg, outer);
  if (outer.size() != 2 || !takeConst(outer, std::sqrt(2.0 / M_PI)))
    return false;
  auto add = outer[0].getDefiningOp<tl::AddOp>();
  if (!add)
    return false;
  for (auto [lin, cubic] : {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}}) {
    if (lin != x)
      continue;
    SmallVector<Value> f;
    mulFactors(cubic, f);
    if (!takeConst(f, 0.044715))
      continue;
    if (f.size() == 3 && llvm::all_of(f, [&](Value v) { return v == x; }))
      return true;
    if (f.size() == 1)
      if (auto pow = f[0].getDefiningOp<tl::PowOp>(); pow && pow.getLhs() == x &&
                                                       isConst(pow.getRhs(), 3.0))
        return true;
  }
  return false;
}

/// 0.5 * x * (1 + erf(x / sqrt 2))  or  0.5 * x * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))),
/// with the products in any order and association.
struct LiftGelu : OpRewritePattern<tl::MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::MulOp root, PatternRewriter &rewriter) const override {
    SmallVector<Value> factors;
    mulFactors(root.getResult(), factors);
    if (factors.size() != 3 || !takeConst(factors, 0.5))
      return failure();
    for (int i = 0; i < 2; ++i) {
      Value x = factors[i], inner = onePlus(factors[1 - i]);
      if (!inner || x.getType() != root.getType() || !isa<FloatType>(root.getType().getElementType()))
        continue;
      if (auto erf = inner.getDefiningOp<tl::ErfOp>(); erf && isScaledBySqrtHalf(erf.getInput(), x)) {
        rewriter.replaceOpWithNewOp<tl::GeluOp>(root, x, tl::GeluApproximation::none);
        return success();
      }
      if (auto tanh = inner.getDefiningOp<tl::TanhOp>(); tanh && isTanhGeluArg(tanh.getInput(), x)) {
        rewriter.replaceOpWithNewOp<tl::GeluOp>(root, x, tl::GeluApproximation::tanh);
        return success();
      }
    }
    return failure();
  }
};

/// The trailing axis `keepdims` reduce_mean of `v` covers (all axes from it to the end), or -1.
int64_t trailingMeanAxis(tl::ReduceMeanOp mean) {
  if (!mean.getKeepdims())
    return -1;
  SmallVector<int64_t> axes = mean.getReducedAxes();
  int64_t rank = mean.getInput().getType().getRank();
  if (axes.empty() || axes.back() != rank - 1)
    return -1;
  for (size_t i = 1; i < axes.size(); ++i)
    if (axes[i] != axes[i - 1] + 1)
      return -1;
  return axes.front();
}

/// Replaces `norm` = (x - mean(x)) scaled by 1/sqrt(`varPlusEps`) (and its affine tail) with
/// tl.layer_norm when the rest of the pattern matches.
LogicalResult liftLayerNorm(Operation *norm, tl::SubOp sub, Value varPlusEps,
                            PatternRewriter &rewriter) {
  Value x = sub.getLhs(), d = sub.getResult();
  auto mean = sub.getRhs().getDefiningOp<tl::ReduceMeanOp>();
  if (!mean || mean.getInput() != x || x.getType() != norm->getResult(0).getType())
    return failure();
  int64_t axis = trailingMeanAxis(mean);
  if (axis < 0)
    return failure();
  auto addEps = varPlusEps.getDefiningOp<tl::AddOp>();
  if (!addEps)
    return failure();
  Value varValue = addEps.getLhs(), epsValue = addEps.getRhs();
  if (!getSplatFloat(epsValue))
    std::swap(varValue, epsValue);
  std::optional<double> eps = getSplatFloat(epsValue);
  auto var = varValue.getDefiningOp<tl::ReduceMeanOp>();
  if (!eps || *eps < 0 || !var || trailingMeanAxis(var) != axis)
    return failure();
  Value sq = var.getInput();
  bool isSquare = false;
  if (auto mul = sq.getDefiningOp<tl::MulOp>())
    isSquare = mul.getLhs() == d && mul.getRhs() == d;
  if (auto pow = sq.getDefiningOp<tl::PowOp>())
    isSquare = pow.getLhs() == d && isConst(pow.getRhs(), 2.0);
  if (!isSquare)
    return failure();

  // The affine tail, when the only user is `* gamma` and then `+ beta` of the right shape.
  auto type = cast<RankedTensorType>(norm->getResult(0).getType());
  ArrayRef<int64_t> normalized = type.getShape().drop_front(axis);
  auto normalizedType = RankedTensorType::get(normalized, type.getElementType());
  Operation *root = norm;
  Value gamma, beta;
  auto fits = [&](Value v) { return v.getType() == normalizedType; };
  if (norm->hasOneUse())
    if (auto mul = dyn_cast<tl::MulOp>(*norm->getUsers().begin())) {
      Value g = mul.getLhs() == norm->getResult(0) ? mul.getRhs() : mul.getLhs();
      if (fits(g) && mul.getType() == type) {
        gamma = g;
        root = mul;
        if (mul->hasOneUse())
          if (auto add = dyn_cast<tl::AddOp>(*mul->getUsers().begin())) {
            Value b = add.getLhs() == mul.getResult() ? add.getRhs() : add.getLhs();
            if (fits(b) && add.getType() == type) {
              beta = b;
              root = add;
            }
          }
      }
    }
  rewriter.setInsertionPoint(root);
  Location loc = root->getLoc();
  auto filled = [&](double v) {
    return tl::ConstantOp::create(
               rewriter, loc,
               DenseElementsAttr::get(normalizedType,
                                      rewriter.getFloatAttr(type.getElementType(), v)))
        .getResult();
  };
  if (!gamma)
    gamma = filled(1.0);
  if (!beta)
    beta = filled(0.0);
  rewriter.replaceOpWithNewOp<tl::LayerNormOp>(
      root, type, x, gamma, beta, rewriter.getI64IntegerAttr(axis), rewriter.getF64FloatAttr(*eps));
  return success();
}

/// (x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) * gamma + beta over trailing axes, or
/// the same with `* rsqrt(...)` (either operand order), the square as d*d or pow(d, 2), and
/// the affine part optional.
struct LiftLayerNorm : OpRewritePattern<tl::DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::DivOp div, PatternRewriter &rewriter) const override {
    auto sub = div.getLhs().getDefiningOp<tl::SubOp>();
    auto sqrt = div.getRhs().getDefiningOp<tl::SqrtOp>();
    if (!sub || !sqrt)
      return failure();
    return liftLayerNorm(div, sub, sqrt.getInput(), rewriter);
  }
};

struct LiftLayerNormRsqrt : OpRewritePattern<tl::MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::MulOp mul, PatternRewriter &rewriter) const override {
    for (auto [a, b] :
         {std::pair(mul.getLhs(), mul.getRhs()), std::pair(mul.getRhs(), mul.getLhs())})
      if (auto sub = a.getDefiningOp<tl::SubOp>())
        if (auto rsqrt = b.getDefiningOp<tl::RsqrtOp>())
          return liftLayerNorm(mul, sub, rsqrt.getInput(), rewriter);
    return failure();
  }
};

struct TLLiftPatternsPass : tlc::impl::TLLiftPatternsBase<TLLiftPatternsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTLLiftPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void tlc::populateTLLiftPatterns(RewritePatternSet &patterns) {
  patterns.add<LiftGelu, LiftLayerNorm, LiftLayerNormRsqrt>(patterns.getContext());
  populateTLLiftAttentionPatterns(patterns);
}
