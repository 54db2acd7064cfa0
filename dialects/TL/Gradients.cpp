// Vector-Jacobian products of tl ops (DifferentiableOpInterface), built from tl ops.
//
// Each buildVJP receives the gradient of the op's result and builds the gradients of its
// operands. Broadcasting ops sum the gradient back to each operand's shape. The rules follow
// PyTorch's derivatives where a choice exists (ties of maximum/minimum split the gradient, a
// reduction's maximum shares it among the tied elements, relu's derivative at 0 is 0).
#include "TL/Einsum.h"
#include "TL/GradientBuilders.h"
#include "TL/TLDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace tlc::tl;
using namespace tlc::tl::grad;

namespace {
/// The unary rules: the gradient of the operand from x (operand), y (result) and g.
template <typename OpTy>
Value unaryVJP(OpBuilder &b, Location loc, Value x, Value y, Value g);

#define TL_UNARY_VJP(Op, expr)                                                                 \
  template <>                                                                                  \
  Value unaryVJP<Op>(OpBuilder & b, Location loc, Value x, Value y, Value g) {                 \
    auto c = [&](double v) { return scalar(b, loc, x, v); };                                   \
    (void)c;                                                                                   \
    (void)y;                                                                                   \
    return expr;                                                                               \
  }
TL_UNARY_VJP(NegOp, unary<NegOp>(b, loc, g))
TL_UNARY_VJP(AbsOp, mul(b, loc, g,
                        sub(b, loc, CastOp::create(b, loc, x.getType(), compare(b, loc, ComparePredicate::gt, x, c(0))),
                            CastOp::create(b, loc, x.getType(), compare(b, loc, ComparePredicate::lt, x, c(0))))))
TL_UNARY_VJP(ExpOp, mul(b, loc, g, y))
TL_UNARY_VJP(LogOp, div(b, loc, g, x))
TL_UNARY_VJP(SqrtOp, div(b, loc, mul(b, loc, g, c(0.5)), y))
TL_UNARY_VJP(RsqrtOp, mul(b, loc, mul(b, loc, g, c(-0.5)), mul(b, loc, y, mul(b, loc, y, y))))
TL_UNARY_VJP(TanhOp, mul(b, loc, g, sub(b, loc, c(1), mul(b, loc, y, y))))
TL_UNARY_VJP(SigmoidOp, mul(b, loc, g, mul(b, loc, y, sub(b, loc, c(1), y))))
TL_UNARY_VJP(ReluOp, where(b, loc, compare(b, loc, ComparePredicate::gt, x, c(0)), g))
TL_UNARY_VJP(ErfOp, mul(b, loc, mul(b, loc, g, c(2 / std::sqrt(M_PI))),
                        unary<ExpOp>(b, loc, unary<NegOp>(b, loc, mul(b, loc, x, x)))))
TL_UNARY_VJP(SinOp, mul(b, loc, g, unary<CosOp>(b, loc, x)))
TL_UNARY_VJP(CosOp, unary<NegOp>(b, loc, mul(b, loc, g, unary<SinOp>(b, loc, x))))
TL_UNARY_VJP(TanOp, mul(b, loc, g, add(b, loc, c(1), mul(b, loc, y, y))))
TL_UNARY_VJP(AsinOp, mul(b, loc, g, unary<RsqrtOp>(b, loc, sub(b, loc, c(1), mul(b, loc, x, x)))))
TL_UNARY_VJP(AcosOp, unary<NegOp>(b, loc, mul(b, loc, g, unary<RsqrtOp>(b, loc, sub(b, loc, c(1), mul(b, loc, x, x))))))
TL_UNARY_VJP(AtanOp, div(b, loc, g, add(b, loc, c(1), mul(b, loc, x, x))))
TL_UNARY_VJP(SinhOp, mul(b, loc, g, unary<CoshOp>(b, loc, x)))
TL_UNARY_VJP(CoshOp, mul(b, loc, g, unary<SinhOp>(b, loc, x)))
TL_UNARY_VJP(AsinhOp, mul(b, loc, g, unary<RsqrtOp>(b, loc, add(b, loc, mul(b, loc, x, x), c(1)))))
TL_UNARY_VJP(AcoshOp, mul(b, loc, g, unary<RsqrtOp>(b, loc, sub(b, loc, mul(b, loc, x, x), c(1)))))
TL_UNARY_VJP(AtanhOp, div(b, loc, g, sub(b, loc, c(1), mul(b, loc, x, x))))
// Piecewise constant: zero almost everywhere (as in PyTorch).
TL_UNARY_VJP(RoundOp, zerosOf(b, loc, tensorOf(x)))
TL_UNARY_VJP(FloorOp, zerosOf(b, loc, tensorOf(x)))
TL_UNARY_VJP(CeilOp, zerosOf(b, loc, tensorOf(x)))
#undef TL_UNARY_VJP
} // namespace

#define TL_DEFINE_UNARY_VJP(Op)                                                                \
  LogicalResult Op::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {          \
    grads.assign(1, isFloatTensor(getInput())                                                  \
                        ? unaryVJP<Op>(b, getLoc(), getInput(), getResult(), g)                \
                        : Value());                                                            \
    return success();                                                                          \
  }
TL_DEFINE_UNARY_VJP(NegOp)
TL_DEFINE_UNARY_VJP(AbsOp)
TL_DEFINE_UNARY_VJP(ExpOp)
TL_DEFINE_UNARY_VJP(LogOp)
TL_DEFINE_UNARY_VJP(SqrtOp)
TL_DEFINE_UNARY_VJP(RsqrtOp)
TL_DEFINE_UNARY_VJP(TanhOp)
TL_DEFINE_UNARY_VJP(SigmoidOp)
TL_DEFINE_UNARY_VJP(ReluOp)
TL_DEFINE_UNARY_VJP(ErfOp)
TL_DEFINE_UNARY_VJP(SinOp)
TL_DEFINE_UNARY_VJP(CosOp)
TL_DEFINE_UNARY_VJP(TanOp)
TL_DEFINE_UNARY_VJP(AsinOp)
TL_DEFINE_UNARY_VJP(AcosOp)
TL_DEFINE_UNARY_VJP(AtanOp)
TL_DEFINE_UNARY_VJP(SinhOp)
TL_DEFINE_UNARY_VJP(CoshOp)
TL_DEFINE_UNARY_VJP(AsinhOp)
TL_DEFINE_UNARY_VJP(AcoshOp)
TL_DEFINE_UNARY_VJP(AtanhOp)
TL_DEFINE_UNARY_VJP(RoundOp)
TL_DEFINE_UNARY_VJP(FloorOp)
TL_DEFINE_UNARY_VJP(CeilOp)
#undef TL_DEFINE_UNARY_VJP

LogicalResult GeluOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  Location loc = getLoc();
  Value x = getInput();
  auto c = [&](double v) { return scalar(b, loc, x, v); };
  Value d;
  if (getApproximate() == GeluApproximation::none) {
    // Phi(x) + x phi(x).
    Value cdf = mul(b, loc, c(0.5),
                    add(b, loc, c(1), unary<ErfOp>(b, loc, mul(b, loc, x, c(M_SQRT1_2)))));
    Value pdf = mul(b, loc, c(1 / std::sqrt(2 * M_PI)),
                    unary<ExpOp>(b, loc, mul(b, loc, c(-0.5), mul(b, loc, x, x))));
    d = add(b, loc, cdf, mul(b, loc, x, pdf));
  } else {
    // 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 a x^2), t = tanh(k (x + a x^3)).
    double k = std::sqrt(2 / M_PI), a = 0.044715;
    Value x2 = mul(b, loc, x, x);
    Value t = unary<TanhOp>(
        b, loc, mul(b, loc, c(k), add(b, loc, x, mul(b, loc, c(a), mul(b, loc, x2, x)))));
    Value dt = mul(b, loc, sub(b, loc, c(1), mul(b, loc, t, t)),
                   mul(b, loc, c(k), add(b, loc, c(1), mul(b, loc, c(3 * a), x2))));
    d = add(b, loc, mul(b, loc, c(0.5), add(b, loc, c(1), t)),
            mul(b, loc, mul(b, loc, c(0.5), x), dt));
  }
  grads.assign(1, mul(b, loc, g, d));
  return success();
}

//===----------------------------------------------------------------------===//
// Binary ops: the result gradient, shaped like the result, summed back to each operand.
//===----------------------------------------------------------------------===//

namespace {
template <typename OpTy>
LogicalResult binaryVJP(OpTy op, OpBuilder &b, Value g, SmallVectorImpl<Value> &grads,
                        function_ref<std::pair<Value, Value>(Location, Value, Value, Value)> rule) {
  grads.assign(2, Value());
  if (!isFloatTensor(op.getLhs()))
    return success();
  Location loc = op.getLoc();
  auto [dl, dr] = rule(loc, op.getLhs(), op.getRhs(), g);
  grads[0] = sumToShape(b, loc, dl, tensorOf(op.getLhs()));
  grads[1] = sumToShape(b, loc, dr, tensorOf(op.getRhs()));
  return success();
}

/// maximum (`lhsWins` = gt) and minimum (lt): the winner gets the gradient, ties split it.
std::pair<Value, Value> extremumVJP(OpBuilder &b, Location loc, Value l, Value r, Value g,
                                    ComparePredicate lhsWins, ComparePredicate rhsWins) {
  Value half = mul(b, loc, g, scalar(b, loc, g, 0.5));
  Value tie = compare(b, loc, ComparePredicate::eq, l, r);
  Value dl = SelectOp::create(b, loc, tie, half, where(b, loc, compare(b, loc, lhsWins, l, r), g));
  Value dr = SelectOp::create(b, loc, tie, half, where(b, loc, compare(b, loc, rhsWins, l, r), g));
  return {dl, dr};
}
} // namespace

LogicalResult AddOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return binaryVJP(*this, b, g, grads, [&](Location, Value, Value, Value g) {
    return std::make_pair(g, g);
  });
}
LogicalResult SubOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return binaryVJP(*this, b, g, grads, [&](Location loc, Value, Value, Value g) {
    return std::make_pair(g, unary<NegOp>(b, loc, g));
  });
}
LogicalResult MulOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return binaryVJP(*this, b, g, grads, [&](Location loc, Value l, Value r, Value g) {
    return std::make_pair(mul(b, loc, g, r), mul(b, loc, g, l));
  });
}
LogicalResult DivOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  Value y = getResult();
  return binaryVJP(*this, b, g, grads, [&](Location loc, Value, Value r, Value g) {
    Value dl = div(b, loc, g, r);
    return std::make_pair(dl, unary<NegOp>(b, loc, mul(b, loc, dl, y)));
  });
}
LogicalResult PowOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  Value y = getResult();
  return binaryVJP(*this, b, g, grads, [&](Location loc, Value l, Value r, Value g) {
    auto c = [&](double v) { return scalar(b, loc, l, v); };
    // d/dl = r l^(r-1); d/dr = y log(l), taken as 0 where l = 0 and r >= 0 (as PyTorch).
    Value dl = mul(b, loc, g, mul(b, loc, r, PowOp::create(b, loc, l, sub(b, loc, r, c(1)))));
    Value zeroBase = SelectOp::create(b, loc, compare(b, loc, ComparePredicate::eq, l, c(0)),
                                      compare(b, loc, ComparePredicate::ge, r, c(0)),
                                      compare(b, loc, ComparePredicate::eq, l, c(0)));
    Value dr = SelectOp::create(b, loc, zeroBase, c(0),
                                mul(b, loc, g, mul(b, loc, y, unary<LogOp>(b, loc, l))));
    return std::make_pair(dl, dr);
  });
}
LogicalResult MaxOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return binaryVJP(*this, b, g, grads, [&](Location loc, Value l, Value r, Value g) {
    return extremumVJP(b, loc, l, r, g, ComparePredicate::gt, ComparePredicate::lt);
  });
}
LogicalResult MinOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return binaryVJP(*this, b, g, grads, [&](Location loc, Value l, Value r, Value g) {
    return extremumVJP(b, loc, l, r, g, ComparePredicate::lt, ComparePredicate::gt);
  });
}
LogicalResult RemOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  if (!isFloatTensor(getLhs())) {
    grads.assign(2, Value());
    return success();
  }
  return emitError("the gradient of a floating-point remainder is not implemented");
}

LogicalResult SelectOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  grads.assign(3, Value());
  if (!isFloatTensor(getOnTrue()))
    return success();
  Location loc = getLoc();
  Value zero = scalar(b, loc, g, 0.0);
  grads[1] = sumToShape(b, loc, SelectOp::create(b, loc, getCond(), g, zero),
                        tensorOf(getOnTrue()));
  grads[2] = sumToShape(b, loc, SelectOp::create(b, loc, getCond(), zero, g),
                        tensorOf(getOnFalse()));
  return success();
}

LogicalResult CastOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  grads.assign(1, Value());
  if (isFloatTensor(getInput()) && isFloatTensor(getResult()))
    grads[0] = CastOp::create(b, getLoc(), getInput().getType(), g);
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

namespace {
template <typename OpTy>
LogicalResult reduceVJP(OpTy op, OpBuilder &b, Value g, SmallVectorImpl<Value> &grads,
                        bool mean) {
  grads.assign(1, Value());
  if (!isFloatTensor(op.getInput()))
    return success();
  RankedTensorType in = tensorOf(op.getInput());
  SmallVector<int64_t> axes = op.getReducedAxes();
  Value d = expandReduced(b, op.getLoc(), g, in, keepDimsShape(in, axes));
  if (mean) {
    int64_t count = 1;
    for (int64_t a : axes)
      count *= in.getDimSize(a);
    d = div(b, op.getLoc(), d, scalar(b, op.getLoc(), g, static_cast<double>(count)));
  }
  grads[0] = d;
  return success();
}

/// reduce_max / reduce_min: the gradient is shared equally among the elements equal to the
/// extreme (PyTorch's amax/amin).
template <typename OpTy>
LogicalResult extremumReduceVJP(OpTy op, OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  grads.assign(1, Value());
  if (!isFloatTensor(op.getInput()))
    return success();
  Location loc = op.getLoc();
  RankedTensorType in = tensorOf(op.getInput());
  SmallVector<int64_t> axes = op.getReducedAxes();
  SmallVector<int64_t> keep = keepDimsShape(in, axes);
  Value y = expandReduced(b, loc, op.getResult(), in, keep);
  Value hit = CastOp::create(b, loc, in, compare(b, loc, ComparePredicate::eq, op.getInput(), y));
  Value count = ReduceSumOp::create(b, loc, hit, b.getDenseI64ArrayAttr(axes), b.getUnitAttr());
  Value share = div(b, loc, expandReduced(b, loc, g, in, keep),
                    BroadcastToOp::create(b, loc, in, count));
  grads[0] = mul(b, loc, share, hit);
  return success();
}
} // namespace

LogicalResult ReduceSumOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return reduceVJP(*this, b, g, grads, /*mean=*/false);
}
LogicalResult ReduceMeanOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return reduceVJP(*this, b, g, grads, /*mean=*/true);
}
LogicalResult ReduceMaxOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return extremumReduceVJP(*this, b, g, grads);
}
LogicalResult ReduceMinOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  return extremumReduceVJP(*this, b, g, grads);
}
LogicalResult ReduceProdOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  if (!isFloatTensor(getInput())) {
    grads.assign(1, Value());
    return success();
  }
  return emitError("the gradient of reduce_prod is not implemented");
}

LogicalResult SoftmaxOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  // y (g - sum(g y)) along the axis.
  Location loc = getLoc();
  Value y = getResult();
  int64_t axis = getNormalizedAxis();
  Value dot = ReduceSumOp::create(b, loc, mul(b, loc, g, y), b.getDenseI64ArrayAttr({axis}),
                                  b.getUnitAttr());
  grads.assign(1, mul(b, loc, y, sub(b, loc, g, dot)));
  return success();
}

LogicalResult LogSoftmaxOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  // g - softmax(x) sum(g) along the axis; softmax(x) = exp(y).
  Location loc = getLoc();
  int64_t axis = getNormalizedAxis();
  Value total = ReduceSumOp::create(b, loc, g, b.getDenseI64ArrayAttr({axis}), b.getUnitAttr());
  grads.assign(1, sub(b, loc, g, mul(b, loc, unary<ExpOp>(b, loc, getResult()), total)));
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  grads.assign(1, ReshapeOp::create(b, getLoc(), getInput().getType(), g));
  return success();
}

LogicalResult TransposeOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  ArrayRef<int64_t> perm = getPerm();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  grads.assign(1, TransposeOp::create(b, getLoc(), g, b.getDenseI64ArrayAttr(inverse)));
  return success();
}

LogicalResult BroadcastToOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  grads.assign(1, sumToShape(b, getLoc(), g, tensorOf(getInput())));
  return success();
}

LogicalResult ConcatOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  RankedTensorType out = tensorOf(getResult());
  int64_t rank = out.getRank();
  int64_t axis = getAxis() < 0 ? getAxis() + rank : getAxis();
  int64_t offset = 0;
  grads.clear();
  for (Value in : getInputs()) {
    RankedTensorType t = tensorOf(in);
    SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
    offsets[axis] = offset;
    offset += t.getDimSize(axis);
    grads.push_back(SliceOp::create(b, getLoc(), g, b.getDenseI64ArrayAttr(offsets),
                                    b.getDenseI64ArrayAttr(t.getShape()),
                                    b.getDenseI64ArrayAttr(strides)));
  }
  return success();
}

LogicalResult SliceOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  if (llvm::any_of(getStrides(), [](int64_t s) { return s != 1; }))
    return emitError("the gradient of a strided slice is not implemented");
  RankedTensorType in = tensorOf(getInput());
  SmallVector<int64_t> pads(getOffsets());
  for (auto [i, off] : llvm::enumerate(getOffsets()))
    pads.push_back(in.getDimSize(i) - off - getSizes()[i]);
  grads.assign(1, PadOp::create(b, getLoc(), in, g, b.getDenseI64ArrayAttr(pads),
                                PadModeAttr::get(b.getContext(), PadMode::constant),
                                b.getF64FloatAttr(0.0)));
  return success();
}

//===----------------------------------------------------------------------===//
// Einsum: the gradient of an operand is the einsum of the result gradient with the other
// operands, into that operand's labels.
//===----------------------------------------------------------------------===//

LogicalResult EinsumOp::buildVJP(OpBuilder &b, Value g, SmallVectorImpl<Value> &grads) {
  Location loc = getLoc();
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value in : getInputs())
    shapes.push_back(tensorOf(in).getShape());
  FailureOr<EinsumSpec> spec = parseEinsum(getEquation(), shapes, [&] { return emitError(); });
  if (failed(spec))
    return failure();
  if (spec->numDims() > 52)
    return emitError("the gradient of an einsum over more than 52 labels is not implemented");
  auto letter = [](int64_t d) { return static_cast<char>(d < 26 ? 'a' + d : 'A' + d - 26); };
  // A size-1 `...` axis broadcast against a larger extent gets a label of its own (summed
  // over one element); the target operand's ones are restored by the final reshape.
  int64_t fresh = spec->numDims();
  auto labels = [&](ArrayRef<int64_t> dims, std::string &s) {
    for (int64_t d : dims)
      s += letter(d == EinsumSpec::kBroadcast ? fresh++ : d);
  };
  grads.assign(getInputs().size(), Value());
  for (auto [k, operand] : llvm::enumerate(getInputs())) {
    if (!isFloatTensor(operand))
      continue;
    ArrayRef<int64_t> own = spec->operandDims[k];
    if (llvm::any_of(own, [&](int64_t d) {
          return d != EinsumSpec::kBroadcast && llvm::count(own, d) > 1;
        }))
      return emitError("the gradient of an einsum with a label repeated within one operand "
                       "(a diagonal) is not implemented");
    // Labels the gradient einsum can produce: those of the result or another operand. The
    // others (summed out of this operand alone) are broadcast afterwards.
    size_t self = k;
    auto elsewhere = [&](int64_t d) {
      if (llvm::is_contained(spec->resultDims, d))
        return true;
      for (size_t j = 0; j < spec->operandDims.size(); ++j)
        if (j != self && llvm::is_contained(spec->operandDims[j], d))
          return true;
      return false;
    };
    fresh = spec->numDims();
    SmallVector<std::string> terms(1);
    labels(spec->resultDims, terms[0]);
    SmallVector<Value> operands{g};
    for (auto [j, other] : llvm::enumerate(getInputs())) {
      if (j == k)
        continue;
      terms.emplace_back();
      labels(spec->operandDims[j], terms.back());
      operands.push_back(other);
    }
    RankedTensorType target = tensorOf(operand);
    std::string out;
    SmallVector<int64_t> producedShape, keepShape;
    for (auto [axis, d] : llvm::enumerate(own)) {
      bool produced = d != EinsumSpec::kBroadcast && elsewhere(d);
      if (produced) {
        out += letter(d);
        producedShape.push_back(target.getDimSize(axis));
      }
      keepShape.push_back(produced ? target.getDimSize(axis) : 1);
    }
    std::string eq = llvm::join(terms, ",") + "->" + out;
    Type accType = tensorOf(g).getElementType();
    if (llvm::any_of(getInputs(), [&](Value in) { return tensorOf(in).getElementType() != accType; }))
      return emitError("the gradient of a mixed-precision einsum is not implemented");
    Value d = EinsumOp::create(b, loc, RankedTensorType::get(producedShape, accType),
                               b.getStringAttr(eq), operands);
    auto keepType = RankedTensorType::get(keepShape, accType);
    if (tensorOf(d) != keepType)
      d = ReshapeOp::create(b, loc, keepType, d);
    if (keepType.getShape() != target.getShape())
      d = BroadcastToOp::create(b, loc, RankedTensorType::get(target.getShape(), accType), d);
    if (accType != target.getElementType())
      d = CastOp::create(b, loc, target, d);
    grads[k] = d;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// tl.grad
//===----------------------------------------------------------------------===//

LogicalResult GradOp::verify() {
  if (getLoss().getType().getRank() != 0)
    return emitOpError("loss must be a rank-0 tensor, got ") << getLoss().getType();
  return success();
}
