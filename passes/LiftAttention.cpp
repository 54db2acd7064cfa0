// Attention lifting for tl-lift-patterns: MatMul(Q, K^T) -> scale -> mask -> Softmax -> MatMul(., V)
// as exporters spell it, replaced by one tl.attention.
#include "passes/Passes.h"
#include "passes/TLMatchers.h"

#include "TL/Einsum.h"
#include "TL/TLDialect.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace tlc;

namespace {

/// Peels `x * c`, `c * x` and `x / c` (c a splat constant) off `v` while every peeled value has
/// one use, multiplying `scale` by the factors; returns the innermost value.
Value peelScale(Value v, double &scale) {
  while (true) {
    Operation *op = v.getDefiningOp();
    if (!op || !v.hasOneUse())
      return v;
    if (auto mul = dyn_cast<tl::MulOp>(op)) {
      if (std::optional<double> c = getSplatFloat(mul.getRhs());
          c && mul.getLhs().getType() == mul.getType()) {
        scale *= *c;
        v = mul.getLhs();
        continue;
      }
      if (std::optional<double> c = getSplatFloat(mul.getLhs());
          c && mul.getRhs().getType() == mul.getType()) {
        scale *= *c;
        v = mul.getRhs();
        continue;
      }
      return v;
    }
    if (auto div = dyn_cast<tl::DivOp>(op)) {
      std::optional<double> c = getSplatFloat(div.getRhs());
      if (!c || *c == 0.0 || div.getLhs().getType() != div.getType())
        return v;
      scale /= *c;
      v = div.getLhs();
      continue;
    }
    return v;
  }
}

/// Whether `shape` broadcasts (numpy rules, right-aligned) to `target`.
bool broadcastsTo(ArrayRef<int64_t> shape, ArrayRef<int64_t> target) {
  if (shape.size() > target.size())
    return false;
  size_t off = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1 && shape[i] != target[off + i])
      return false;
  return true;
}

/// The operands of a two-operand tl.einsum that is a batched matmul `[B..., m, k] x [B..., k, n]
/// -> [B..., m, n]`, possibly with the right operand transposed (`[B..., n, k]`). `rhsTransposed`
/// reports which. The batch axes must match exactly (no broadcasting).
struct MatMulView {
  Value lhs, rhs;
  bool rhsTransposed = false;
};

std::optional<MatMulView> asBatchedMatMul(tl::EinsumOp op) {
  if (op.getInputs().size() != 2)
    return std::nullopt;
  auto lt = cast<RankedTensorType>(op.getInputs()[0].getType());
  auto rt = cast<RankedTensorType>(op.getInputs()[1].getType());
  FailureOr<tl::EinsumSpec> spec = tl::parseEinsum(
      op.getEquation(), {lt.getShape(), rt.getShape()},
      [&] { return InFlightDiagnostic(); });
  if (failed(spec))
    return std::nullopt;
  int64_t r = spec->numResultDims;
  // Loop dims: results [B..., m, n], then the one summed dim k.
  if (r < 2 || spec->numDims() != r + 1)
    return std::nullopt;
  int64_t m = r - 2, n = r - 1, k = r;
  SmallVector<int64_t> batch;
  for (int64_t d = 0; d < r - 2; ++d)
    batch.push_back(d);
  if (spec->resultDims != llvm::to_vector(llvm::seq<int64_t>(0, r)))
    return std::nullopt;
  SmallVector<int64_t> wantLhs(batch), wantRhs(batch), wantRhsT(batch);
  wantLhs.append({m, k});
  wantRhs.append({k, n});
  wantRhsT.append({n, k});
  if (ArrayRef<int64_t>(spec->operandDims[0]) != ArrayRef<int64_t>(wantLhs))
    return std::nullopt;
  MatMulView view{op.getInputs()[0], op.getInputs()[1], false};
  if (ArrayRef<int64_t>(spec->operandDims[1]) == ArrayRef<int64_t>(wantRhsT))
    view.rhsTransposed = true;
  else if (ArrayRef<int64_t>(spec->operandDims[1]) != ArrayRef<int64_t>(wantRhs))
    return std::nullopt;
  return view;
}

/// The additive mask that `select(cond, fill, x)` (or `select(cond, x, fill)`) applies to `x`,
/// when `cond` is a constant and `fill` a splat constant: `fill` where the select picks it,
/// 0 elsewhere, with the shape of `cond`.
std::optional<DenseElementsAttr> selectAsMask(tl::SelectOp sel, Value x, Type et) {
  auto condOp = sel.getCond().getDefiningOp<tl::ConstantOp>();
  if (!condOp)
    return std::nullopt;
  auto cond = dyn_cast<DenseIntElementsAttr>(condOp.getValue());
  bool fillWhenTrue;
  Value fill;
  if (sel.getOnFalse() == x) {
    fillWhenTrue = true;
    fill = sel.getOnTrue();
  } else if (sel.getOnTrue() == x) {
    fillWhenTrue = false;
    fill = sel.getOnFalse();
  } else {
    return std::nullopt;
  }
  std::optional<double> f = getSplatFloat(fill);
  if (!cond || !f)
    return std::nullopt;
  auto floatType = cast<FloatType>(et);
  SmallVector<APFloat> values;
  for (APInt c : cond.getValues<APInt>()) {
    bool pick = !c.isZero() == fillWhenTrue;
    APFloat v(pick ? *f : 0.0);
    bool lost;
    v.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    values.push_back(v);
  }
  auto type = RankedTensorType::get(cond.getType().getShape(), et);
  return DenseElementsAttr::get(type, values);
}

/// Whether the constant `mask` is the causal triangle over [..., S, S] (0 on and below the
/// diagonal, -inf or a huge negative above, leading axes of size 1).
bool isCausalMask(DenseElementsAttr mask) {
  auto type = cast<RankedTensorType>(mask.getType());
  int64_t rank = type.getRank();
  if (rank < 2 || type.getDimSize(rank - 1) != type.getDimSize(rank - 2))
    return false;
  for (int64_t d = 0; d < rank - 2; ++d)
    if (type.getDimSize(d) != 1)
      return false;
  int64_t s = type.getDimSize(rank - 1), idx = 0;
  for (APFloat v : mask.getValues<APFloat>()) {
    int64_t i = idx / s, j = idx % s;
    ++idx;
    double x = v.convertToDouble();
    if (j <= i ? x != 0.0 : !(x <= -1e9))
      return false;
  }
  return true;
}

/// softmax(scale * Q K^T + mask) V, with the scale on the scores, Q or K (splat multiplies
/// and divides), the mask an add or a constant select (masked_fill), and K given as K or K^T.
struct LiftAttention : OpRewritePattern<tl::EinsumOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tl::EinsumOp pv, PatternRewriter &rewriter) const override {
    std::optional<MatMulView> outer = asBatchedMatMul(pv);
    if (!outer || outer->rhsTransposed)
      return failure();
    auto softmax = outer->lhs.getDefiningOp<tl::SoftmaxOp>();
    auto resultType = cast<RankedTensorType>(pv.getType());
    if (!softmax || !softmax->hasOneUse() || !isa<FloatType>(resultType.getElementType()))
      return failure();
    auto scoresType = cast<RankedTensorType>(softmax.getType());
    int64_t rank = scoresType.getRank();
    if ((int64_t)softmax.getAxis() != rank - 1)
      return failure();
    Type et = scoresType.getElementType();

    // Mask: an add (the scores on either side) or a masked_fill select with a constant
    // condition. The scores side is the one that leads (through the scale) to a contraction.
    auto leadsToScores = [](Value x) {
      double unused = 1.0;
      return x.hasOneUse() && peelScale(x, unused).getDefiningOp<tl::EinsumOp>();
    };
    Value s = softmax.getInput();
    Value mask;
    std::optional<DenseElementsAttr> maskConst;
    if (auto add = s.getDefiningOp<tl::AddOp>(); add && s.hasOneUse()) {
      for (auto [x, m] : {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}}) {
        auto mt = cast<RankedTensorType>(m.getType());
        if (x.getType() == scoresType && mt.getElementType() == et &&
            broadcastsTo(mt.getShape(), scoresType.getShape()) && leadsToScores(x)) {
          mask = m;
          s = x;
          break;
        }
      }
      if (!mask)
        return failure();
    } else if (auto sel = s.getDefiningOp<tl::SelectOp>(); sel && s.hasOneUse()) {
      for (Value x : {sel.getOnFalse(), sel.getOnTrue()}) {
        if (x.getType() != scoresType || !leadsToScores(x))
          continue;
        maskConst = selectAsMask(sel, x, et);
        if (maskConst && broadcastsTo(maskConst->getType().getShape(), scoresType.getShape())) {
          s = x;
          break;
        }
        maskConst.reset();
      }
      if (!maskConst)
        return failure();
    }

    double scale = 1.0;
    s = peelScale(s, scale);
    auto qk = s.getDefiningOp<tl::EinsumOp>();
    if (!qk || !s.hasOneUse())
      return failure();
    std::optional<MatMulView> inner = asBatchedMatMul(qk);
    if (!inner)
      return failure();
    Value q = peelScale(inner->lhs, scale);
    Value kSide = peelScale(inner->rhs, scale);
    if (!std::isfinite(scale) || scale == 0.0)
      return failure();

    // Validate everything before creating any op (a failed match must not change the IR).
    Value v = outer->rhs;
    auto ksType = cast<RankedTensorType>(kSide.getType());
    SmallVector<int64_t> kShape(ksType.getShape());
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, ksType.getRank()));
    if (!inner->rhsTransposed) {
      std::swap(kShape[rank - 2], kShape[rank - 1]);
      std::swap(perm[rank - 2], perm[rank - 1]);
    }
    auto qt = cast<RankedTensorType>(q.getType()), vt = cast<RankedTensorType>(v.getType());
    if (qt.getElementType() != et || ksType.getElementType() != et ||
        vt.getElementType() != et || qt.getRank() != rank || ksType.getRank() != rank ||
        vt.getRank() != rank || qt.getShape().drop_back(2) != vt.getShape().drop_back(2) ||
        ArrayRef<int64_t>(kShape).drop_back(2) != vt.getShape().drop_back(2))
      return failure();

    Location loc = pv.getLoc();
    rewriter.setInsertionPoint(pv);
    Value k = kSide;
    if (!inner->rhsTransposed) {
      // K^T was given: take K from a transpose of the last two axes, or transpose back.
      auto tr = kSide.getDefiningOp<tl::TransposeOp>();
      if (tr && tr.getPerm() == ArrayRef<int64_t>(perm))
        k = tr.getInput();
      else
        k = tl::TransposeOp::create(rewriter, loc, RankedTensorType::get(kShape, et), kSide,
                                    perm)
                .getResult();
    }

    bool causal = false;
    if (maskConst) {
      if (isCausalMask(*maskConst) &&
          maskConst->getType().getDimSize(maskConst->getType().getRank() - 1) ==
              scoresType.getDimSize(rank - 1) &&
          scoresType.getDimSize(rank - 1) == scoresType.getDimSize(rank - 2))
        causal = true;
      else
        mask = tl::ConstantOp::create(rewriter, loc, *maskConst).getResult();
    }
    rewriter.replaceOpWithNewOp<tl::AttentionOp>(pv, resultType, q, k, v, mask,
                                                 rewriter.getF64FloatAttr(scale),
                                                 causal ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

} // namespace

void tlc::populateTLLiftAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<LiftAttention>(patterns.getContext());
}
