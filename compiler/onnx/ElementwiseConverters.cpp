// Converters for elementwise ONNX ops: arithmetic, Mod, trigonometric and hyperbolic
// functions, activations, comparisons, logic, Where, Cast(Like), Clip and the variadic
// Sum/Mean/Max/Min. Small constant operands fold on the host.
#include "HostEval.h"
#include "NodeContext.h"
#include "TensorData.h"

#include "TL/Shapes.h"
#include "TL/SizeLimit.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tlc;
using namespace tlc::onnx_import;

namespace {

/// Folds a node with constant inputs through host functions; returns true if it did.
bool foldElementwise(NodeContext &cx, Type resultElementType, IntFn intFn, FloatFn floatFn) {
  if (!cx.allConstant())
    return false;
  SmallVector<DenseElementsAttr> operands;
  SmallVector<ArrayRef<int64_t>> shapes;
  for (size_t i = 0; i < cx.numInputs(); ++i) {
    operands.push_back(cx.constant(i));
    shapes.push_back(cx.shape(i));
  }
  FailureOr<SmallVector<int64_t>> shape =
      tl::broadcastShapes(shapes, [&] { return cx.emitError(); });
  if (failed(shape))
    return false;
  // Inputs of at most kFoldLimit elements can broadcast to far more ([65536, 1] + [65536] is
  // 2^32): such a result is computed by the compiled code, not on the host.
  std::optional<int64_t> numel = tl::checkedNumElements(*shape);
  if (!numel || *numel > kFoldLimit)
    return false;
  cx.setConstant(0, hostElementwise(operands, *shape, resultElementType, intFn, floatFn));
  return true;
}

template <typename OpTy, int64_t (*IntOp)(int64_t, int64_t), double (*FloatOp)(double, double)>
LogicalResult convertBinary(NodeContext &cx) {
  if (foldElementwise(
          cx, cx.elementType(0), [](ArrayRef<int64_t> a) { return IntOp(a[0], a[1]); },
          [](ArrayRef<double> a) { return FloatOp(a[0], a[1]); }))
    return success();
  FailureOr<Value> r = cx.binary<OpTy>(cx.value(0), cx.value(1));
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

double fadd(double a, double b) { return a + b; }
double fsub(double a, double b) { return a - b; }
double fmul(double a, double b) { return a * b; }
double fdiv(double a, double b) { return a / b; }

/// Pow: small constant integer exponents become multiplications (exact, and defined for
/// negative bases, which LayerNorm decompositions square).
LogicalResult convertPow(NodeContext &cx) {
  if (foldElementwise(
          cx, cx.elementType(0),
          [](ArrayRef<int64_t> a) {
            // Wrapping, by squaring: a huge exponent neither overflows nor hangs (fuzz-onnx).
            int64_t r = 1, base = a[0];
            for (uint64_t k = a[1] > 0 ? uint64_t(a[1]) : 0; k; k >>= 1) {
              if (k & 1)
                r = imul(r, base);
              base = imul(base, base);
            }
            return r;
          },
          [](ArrayRef<double> a) { return std::pow(a[0], a[1]); }))
    return success();
  Value x = cx.value(0);
  Type et = cx.elementType(0);
  if (DenseElementsAttr e = cx.constant(1); e && e.isSplat() && isa<FloatType>(et)) {
    double p = toDoubles(e)[0];
    FailureOr<Type> t = cx.broadcastType({x, cx.value(1)}, et);
    if (failed(t))
      return failure();
    auto shaped = [&](Value v) { return cx.broadcastTo(v, cast<RankedTensorType>(*t).getShape()); };
    if (p == 1.0 || p == 2.0 || p == 3.0) {
      Value r = x;
      for (int k = 1; k < (int)p; ++k)
        r = *cx.binary<tl::MulOp>(r, x);
      FailureOr<Value> out = shaped(r);
      if (failed(out))
        return failure();
      cx.setOutput(0, *out);
      return success();
    }
    if (p == 0.5) {
      FailureOr<Value> out = shaped(cx.unary<tl::SqrtOp>(x));
      if (failed(out))
        return failure();
      cx.setOutput(0, *out);
      return success();
    }
  }
  FailureOr<Value> r = cx.binary<tl::PowOp>(x, cx.cast(cx.value(1), et));
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

template <tl::ComparePredicate Pred> LogicalResult convertCompare(NodeContext &cx) {
  auto cmp = [](auto a, auto b) -> int64_t {
    switch (Pred) {
    case tl::ComparePredicate::eq: return a == b;
    case tl::ComparePredicate::ne: return a != b;
    case tl::ComparePredicate::lt: return a < b;
    case tl::ComparePredicate::le: return a <= b;
    case tl::ComparePredicate::gt: return a > b;
    case tl::ComparePredicate::ge: return a >= b;
    }
    return 0;
  };
  if (foldElementwise(
          cx, cx.b.getI1Type(), [&](ArrayRef<int64_t> a) { return cmp(a[0], a[1]); },
          [&](ArrayRef<double> a) { return (double)cmp(a[0], a[1]); }))
    return success();
  FailureOr<Value> r = cx.compare(Pred, cx.value(0), cx.value(1));
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

LogicalResult convertWhere(NodeContext &cx) {
  if (foldElementwise(
          cx, cx.elementType(1), [](ArrayRef<int64_t> a) { return a[0] ? a[1] : a[2]; },
          [](ArrayRef<double> a) { return a[0] != 0 ? a[1] : a[2]; }))
    return success();
  FailureOr<Value> r = cx.select(cx.value(0), cx.value(1), cx.value(2));
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

/// Logical ops on i1: And = a ? b : false, Or = a ? true : b, Xor = a != b.
template <int Kind> LogicalResult convertLogical(NodeContext &cx) {
  auto f = [](int64_t a, int64_t b) -> int64_t {
    return Kind == 0 ? (a && b) : Kind == 1 ? (a || b) : (a != b);
  };
  if (foldElementwise(
          cx, cx.b.getI1Type(), [&](ArrayRef<int64_t> a) { return f(a[0], a[1]); },
          [&](ArrayRef<double> a) { return (double)f(a[0] != 0, a[1] != 0); }))
    return success();
  Value a = cx.value(0), b = cx.value(1);
  Type i1 = cx.b.getI1Type();
  FailureOr<Value> r = Kind == 0   ? cx.logicalAnd(a, b)
                       : Kind == 1 ? cx.select(a, cx.scalar(i1, 1), b)
                                   : cx.compare(tl::ComparePredicate::ne, a, b);
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

LogicalResult convertNot(NodeContext &cx) {
  if (foldElementwise(
          cx, cx.b.getI1Type(), [](ArrayRef<int64_t> a) -> int64_t { return !a[0]; },
          [](ArrayRef<double> a) -> double { return a[0] == 0; }))
    return success();
  FailureOr<Value> r =
      cx.compare(tl::ComparePredicate::eq, cx.value(0), cx.scalar(cx.b.getI1Type(), 0));
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

LogicalResult convertCast(NodeContext &cx) {
  Type to = elementTypeOf(cx.ctx(), static_cast<int>(cx.attrInt("to", 0)));
  assert(to && "pre-flight check rejects unsupported cast types");
  if (DenseElementsAttr c = cx.constant(0); c && c.getNumElements() <= kFoldLimit) {
    cx.setConstant(0, hostCast(c, to));
    return success();
  }
  cx.setOutput(0, cx.cast(cx.value(0), to));
  return success();
}

/// CastLike: Cast to the element type of input 1.
LogicalResult convertCastLike(NodeContext &cx) {
  Type to = cx.elementType(1);
  if (DenseElementsAttr c = cx.constant(0); c && c.getNumElements() <= kFoldLimit) {
    cx.setConstant(0, hostCast(c, to));
    return success();
  }
  cx.setOutput(0, cx.cast(cx.value(0), to));
  return success();
}

// Mod on the host: fmod = 1 truncates (C fmod, the sign of the dividend), fmod = 0 floors (the
// sign of the divisor); x mod 0 is 0 (ONNX leaves it undefined), like tl.rem.
int64_t iremTrunc(int64_t a, int64_t b) { return b == 0 || b == -1 ? 0 : a % b; }
int64_t iremFloor(int64_t a, int64_t b) {
  int64_t r = iremTrunc(a, b);
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

/// Mod: tl.rem (truncating); with fmod = 0 (integers only, as the spec requires) a nonzero
/// remainder whose sign differs from the divisor's gets the divisor added.
LogicalResult convertMod(NodeContext &cx) {
  bool fmod = cx.attrInt("fmod", 0) != 0;
  Type et = cx.elementType(0);
  if (!fmod && isa<FloatType>(et))
    return cx.emitError() << "Mod with fmod = 0 needs integer inputs, got " << et
                          << " (the spec requires fmod = 1 for floats)";
  if (foldElementwise(
          cx, et,
          [&](ArrayRef<int64_t> a) { return fmod ? iremTrunc(a[0], a[1]) : iremFloor(a[0], a[1]); },
          [](ArrayRef<double> a) { return std::fmod(a[0], a[1]); }))
    return success();
  Value x = cx.value(0), y = cx.value(1);
  TLC_TRY(r, cx.binary<tl::RemOp>(x, y));
  if (fmod) {
    cx.setOutput(0, r);
    return success();
  }
  // sign(r) sign(y) < 0 (in the element type: 0, +-1): the remainder is nonzero and its sign
  // differs from the divisor's.
  Value zero = cx.scalar(et, 0), one = cx.scalar(et, 1), minusOne = cx.scalar(et, -1);
  auto sign = [&](Value v) -> FailureOr<Value> {
    TLC_TRY(neg, cx.compare(tl::ComparePredicate::lt, v, zero));
    TLC_TRY(pos, cx.compare(tl::ComparePredicate::gt, v, zero));
    TLC_TRY(posOrZero, cx.select(pos, one, zero));
    return cx.select(neg, minusOne, posOrZero);
  };
  TLC_TRY(rSign, sign(r));
  TLC_TRY(ySign, sign(y));
  TLC_TRY(product, cx.binary<tl::MulOp>(rSign, ySign));
  TLC_TRY(fix, cx.compare(tl::ComparePredicate::lt, product, zero));
  TLC_TRY(shifted, cx.binary<tl::AddOp>(r, y));
  TLC_TRY(out, cx.select(fix, shifted, r));
  cx.setOutput(0, out);
  return success();
}

/// Unary ops that are one tl op. The ones exact on the host fold on constants (shape
/// arithmetic uses them: Range's expansion computes its trip count with Ceil and Relu).
template <typename OpTy> LogicalResult convertUnary(NodeContext &cx) {
  if (!isa<FloatType>(cx.elementType(0)) &&
      !(std::is_same_v<OpTy, tl::NegOp> || std::is_same_v<OpTy, tl::AbsOp> ||
        std::is_same_v<OpTy, tl::ReluOp>))
    return cx.emitError() << cx.node.op_type() << " needs a float input, got "
                          << cx.elementType(0);
  // Each exact in the element type: a double result rounds to the same float (sqrt too).
  static const llvm::StringMap<double (*)(double)> floatFolds = {
      {"Neg", [](double x) { return -x; }},
      {"Abs", [](double x) { return std::fabs(x); }},
      {"Relu", [](double x) { return x > 0 ? x : 0.0; }},
      {"Floor", [](double x) { return std::floor(x); }},
      {"Ceil", [](double x) { return std::ceil(x); }},
      {"Round", [](double x) { return std::nearbyint(x); }}, // halves to even
      {"Sqrt", [](double x) { return std::sqrt(x); }}};
  auto fold = floatFolds.find(cx.node.op_type());
  if (fold != floatFolds.end() &&
      foldElementwise(
          cx, cx.elementType(0),
          [&](ArrayRef<int64_t> a) -> int64_t {
            StringRef op = cx.node.op_type();
            if (op == "Neg" || (op == "Abs" && a[0] < 0))
              return isub(0, a[0]);
            return op == "Relu" ? std::max<int64_t>(a[0], 0) : a[0];
          },
          [&](ArrayRef<double> a) { return fold->second(a[0]); }))
    return success();
  cx.setOutput(0, cx.unary<OpTy>(cx.value(0)));
  return success();
}

/// The node's float input, or an error.
FailureOr<Value> floatInput(NodeContext &cx, size_t i = 0) {
  if (!isa<FloatType>(cx.elementType(i)))
    return cx.emitError() << cx.node.op_type() << " needs a float input, got "
                          << cx.elementType(i);
  return cx.value(i);
}

LogicalResult convertReciprocal(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  TLC_TRY(r, cx.binary<tl::DivOp>(cx.scalar(cx.elementType(0), 1.0), x));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertSign(NodeContext &cx) {
  Value x = cx.value(0);
  Type et = cx.elementType(0);
  Value zero = cx.scalar(et, 0);
  TLC_TRY(pos, cx.compare(tl::ComparePredicate::gt, x, zero));
  TLC_TRY(neg, cx.compare(tl::ComparePredicate::lt, x, zero));
  TLC_TRY(inner, cx.select(neg, cx.scalar(et, -1), zero));
  TLC_TRY(r, cx.select(pos, cx.scalar(et, 1), inner));
  FailureOr<Value> shaped = cx.broadcastTo(r, cx.shape(0));
  if (failed(shaped))
    return failure();
  cx.setOutput(0, *shaped);
  return success();
}

/// x >= 0 ? x : f(x), shaped like x.
LogicalResult selectNegative(NodeContext &cx, Value x, Value negativeBranch) {
  Type et = cast<RankedTensorType>(x.getType()).getElementType();
  TLC_TRY(isNeg, cx.compare(tl::ComparePredicate::lt, x, cx.scalar(et, 0)));
  TLC_TRY(r, cx.select(isNeg, negativeBranch, x));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertLeakyRelu(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  TLC_TRY(neg, cx.binary<tl::MulOp>(x, cx.scalar(cx.elementType(0), cx.attrFloat("alpha", 0.01))));
  return selectNegative(cx, x, neg);
}

LogicalResult convertPRelu(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Value slope = cx.value(1);
  // ONNX allows a slope of shape [C] against NCHW... only through unidirectional broadcasting.
  TLC_TRY(neg, cx.binary<tl::MulOp>(x, slope));
  return selectNegative(cx, x, neg);
}

LogicalResult convertElu(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Type et = cx.elementType(0);
  TLC_TRY(em1, cx.binary<tl::SubOp>(cx.unary<tl::ExpOp>(x), cx.scalar(et, 1.0)));
  TLC_TRY(neg, cx.binary<tl::MulOp>(em1, cx.scalar(et, cx.attrFloat("alpha", 1.0))));
  return selectNegative(cx, x, neg);
}

LogicalResult convertSelu(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Type et = cx.elementType(0);
  double alpha = cx.attrFloat("alpha", 1.67326319217681884765625);
  double gamma = cx.attrFloat("gamma", 1.05070102214813232421875);
  TLC_TRY(em1, cx.binary<tl::SubOp>(cx.unary<tl::ExpOp>(x), cx.scalar(et, 1.0)));
  TLC_TRY(neg, cx.binary<tl::MulOp>(em1, cx.scalar(et, alpha)));
  TLC_TRY(isNeg, cx.compare(tl::ComparePredicate::lt, x, cx.scalar(et, 0)));
  TLC_TRY(sel, cx.select(isNeg, neg, x));
  TLC_TRY(r, cx.binary<tl::MulOp>(sel, cx.scalar(et, gamma)));
  cx.setOutput(0, r);
  return success();
}

/// max(lo, min(hi, alpha * x + beta)).
FailureOr<Value> hardSigmoid(NodeContext &cx, Value x, double alpha, double beta) {
  Type et = cast<RankedTensorType>(x.getType()).getElementType();
  FailureOr<Value> ax = cx.binary<tl::MulOp>(x, cx.scalar(et, alpha));
  if (failed(ax))
    return failure();
  FailureOr<Value> lin = cx.binary<tl::AddOp>(*ax, cx.scalar(et, beta));
  if (failed(lin))
    return failure();
  FailureOr<Value> hi = cx.binary<tl::MinOp>(*lin, cx.scalar(et, 1.0));
  if (failed(hi))
    return failure();
  return cx.binary<tl::MaxOp>(*hi, cx.scalar(et, 0.0));
}

LogicalResult convertHardSigmoid(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  TLC_TRY(r, hardSigmoid(cx, x, cx.attrFloat("alpha", 0.2), cx.attrFloat("beta", 0.5)));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertHardSwish(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  TLC_TRY(hs, hardSigmoid(cx, x, 1.0 / 6.0, 0.5));
  TLC_TRY(r, cx.binary<tl::MulOp>(x, hs));
  cx.setOutput(0, r);
  return success();
}

/// softplus(x) = max(x, 0) + log(1 + exp(-|x|)), which does not overflow.
LogicalResult convertSoftplus(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Type et = cx.elementType(0);
  Value e = cx.unary<tl::ExpOp>(cx.unary<tl::NegOp>(cx.unary<tl::AbsOp>(x)));
  TLC_TRY(onePlus, cx.binary<tl::AddOp>(e, cx.scalar(et, 1.0)));
  TLC_TRY(r, cx.binary<tl::AddOp>(cx.unary<tl::ReluOp>(x), cx.unary<tl::LogOp>(onePlus)));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertSoftsign(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  TLC_TRY(den, cx.binary<tl::AddOp>(cx.unary<tl::AbsOp>(x), cx.scalar(cx.elementType(0), 1.0)));
  TLC_TRY(r, cx.binary<tl::DivOp>(x, den));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertClip(NodeContext &cx) {
  Value x = cx.value(0);
  Type et = cx.elementType(0);
  Value r = x;
  auto bound = [&](size_t input, StringRef attr) -> Value {
    if (cx.opset < 11)
      return cx.hasAttr(attr) ? cx.scalar(et, cx.attrFloat(attr, 0)) : Value();
    return cx.hasInput(input) ? cx.value(input) : Value();
  };
  if (Value lo = bound(1, "min")) {
    TLC_TRY(v, cx.binary<tl::MaxOp>(r, lo));
    r = v;
  }
  if (Value hi = bound(2, "max")) {
    TLC_TRY(v, cx.binary<tl::MinOp>(r, hi));
    r = v;
  }
  cx.setOutput(0, r);
  return success();
}

/// Sum/Mean/Max/Min over any number of broadcast operands.
template <typename OpTy, bool isMean> LogicalResult convertVariadic(NodeContext &cx) {
  Value r = cx.value(0);
  for (size_t i = 1; i < cx.numInputs(); ++i) {
    TLC_TRY(v, cx.binary<OpTy>(r, cx.value(i)));
    r = v;
  }
  if (isMean && cx.numInputs() > 1) {
    TLC_TRY(v, cx.binary<tl::DivOp>(r, cx.scalar(cx.elementType(0), (double)cx.numInputs())));
    r = v;
  }
  cx.setOutput(0, r);
  return success();
}

/// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
LogicalResult convertCelu(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Type et = cx.elementType(0);
  double alpha = cx.attrFloat("alpha", 1.0);
  TLC_TRY(xa, cx.binary<tl::DivOp>(x, cx.scalar(et, alpha)));
  TLC_TRY(em1, cx.binary<tl::SubOp>(cx.unary<tl::ExpOp>(xa), cx.scalar(et, 1.0)));
  TLC_TRY(neg, cx.binary<tl::MulOp>(em1, cx.scalar(et, alpha)));
  TLC_TRY(lo, cx.binary<tl::MinOp>(neg, cx.scalar(et, 0.0)));
  TLC_TRY(r, cx.binary<tl::AddOp>(cx.unary<tl::ReluOp>(x), lo));
  cx.setOutput(0, r);
  return success();
}

/// x > alpha ? x : 0.
LogicalResult convertThresholdedRelu(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Type et = cx.elementType(0);
  TLC_TRY(keep, cx.compare(tl::ComparePredicate::gt, x, cx.scalar(et, cx.attrFloat("alpha", 1.0))));
  TLC_TRY(r, cx.select(keep, x, cx.scalar(et, 0.0)));
  cx.setOutput(0, r);
  return success();
}

/// x < -lambd ? x + bias : x > lambd ? x - bias : 0.
LogicalResult convertShrink(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Type et = cx.elementType(0);
  double lambd = cx.attrFloat("lambd", 0.5), bias = cx.attrFloat("bias", 0.0);
  TLC_TRY(below, cx.compare(tl::ComparePredicate::lt, x, cx.scalar(et, -lambd)));
  TLC_TRY(above, cx.compare(tl::ComparePredicate::gt, x, cx.scalar(et, lambd)));
  TLC_TRY(up, cx.binary<tl::AddOp>(x, cx.scalar(et, bias)));
  TLC_TRY(down, cx.binary<tl::SubOp>(x, cx.scalar(et, bias)));
  TLC_TRY(hi, cx.select(above, down, cx.scalar(et, 0.0)));
  TLC_TRY(r, cx.select(below, up, hi));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertIsNaN(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  TLC_TRY(r, cx.compare(tl::ComparePredicate::ne, x, x));
  cx.setOutput(0, r);
  return success();
}

LogicalResult convertIsInf(NodeContext &cx) {
  TLC_TRY(x, floatInput(cx));
  Type et = cx.elementType(0);
  bool pos = cx.attrInt("detect_positive", 1) != 0, neg = cx.attrInt("detect_negative", 1) != 0;
  double inf = std::numeric_limits<double>::infinity();
  FailureOr<Value> r =
      pos && neg ? cx.compare(tl::ComparePredicate::eq, cx.unary<tl::AbsOp>(x), cx.scalar(et, inf))
      : pos      ? cx.compare(tl::ComparePredicate::eq, x, cx.scalar(et, inf))
      : neg      ? cx.compare(tl::ComparePredicate::eq, x, cx.scalar(et, -inf))
                 // Neither: false everywhere (NaN equals nothing).
                 : cx.compare(tl::ComparePredicate::eq, x,
                              cx.scalar(et, std::numeric_limits<double>::quiet_NaN()));
  if (failed(r))
    return failure();
  cx.setOutput(0, *r);
  return success();
}

LogicalResult convertIdentity(NodeContext &cx) {
  // Dropout (opset 12+): the training_mode input must be a constant false.
  if (cx.node.op_type() == "Dropout" && cx.hasInput(2)) {
    DenseElementsAttr mode = cx.constant(2), ratio = cx.constant(1);
    bool zeroRatio = ratio && toDoubles(ratio)[0] == 0.0;
    if ((!mode || toInts(mode)[0] != 0) && !zeroRatio)
      return cx.emitError() << "Dropout in training mode is not supported (training_mode must "
                               "be a constant false)";
  }
  if (DenseElementsAttr c = cx.constant(0))
    cx.setConstant(0, c);
  else
    cx.setOutput(0, cx.value(0));
  // Dropout's optional mask output: all ones in inference.
  if (cx.hasOutput(1))
    cx.setConstant(1, DenseElementsAttr::get(RankedTensorType::get(cx.shape(0), cx.b.getI1Type()),
                                             true));
  return success();
}

void checkDropout(const onnx::NodeProto &node, SmallVectorImpl<std::string> &problems) {
  if (const onnx::AttributeProto *a = findAttr(node, "is_test"); a && a->i() == 0)
    problems.push_back("training mode (is_test = 0) is not supported");
}

} // namespace

void tlc::onnx_import::registerElementwiseConverters(ConverterTable &t) {
  t["Add"] = {convertBinary<tl::AddOp, iadd, fadd>};
  t["Sub"] = {convertBinary<tl::SubOp, isub, fsub>};
  t["Mul"] = {convertBinary<tl::MulOp, imul, fmul>};
  t["Div"] = {convertBinary<tl::DivOp, idiv, fdiv>};
  t["Pow"] = {convertPow};
  t["Equal"] = {convertCompare<tl::ComparePredicate::eq>};
  t["Less"] = {convertCompare<tl::ComparePredicate::lt>};
  t["LessOrEqual"] = {convertCompare<tl::ComparePredicate::le>};
  t["Greater"] = {convertCompare<tl::ComparePredicate::gt>};
  t["GreaterOrEqual"] = {convertCompare<tl::ComparePredicate::ge>};
  t["And"] = {convertLogical<0>};
  t["Or"] = {convertLogical<1>};
  t["Xor"] = {convertLogical<2>};
  t["Not"] = {convertNot};
  t["Where"] = {convertWhere};
  t["Cast"] = {convertCast};
  t["Neg"] = {convertUnary<tl::NegOp>};
  t["Abs"] = {convertUnary<tl::AbsOp>};
  t["Exp"] = {convertUnary<tl::ExpOp>};
  t["Log"] = {convertUnary<tl::LogOp>};
  t["Sqrt"] = {convertUnary<tl::SqrtOp>};
  t["Tanh"] = {convertUnary<tl::TanhOp>};
  t["Sigmoid"] = {convertUnary<tl::SigmoidOp>};
  t["Relu"] = {convertUnary<tl::ReluOp>};
  t["Erf"] = {convertUnary<tl::ErfOp>};
  t["Sin"] = {convertUnary<tl::SinOp>};
  t["Cos"] = {convertUnary<tl::CosOp>};
  t["Tan"] = {convertUnary<tl::TanOp>};
  t["Asin"] = {convertUnary<tl::AsinOp>};
  t["Acos"] = {convertUnary<tl::AcosOp>};
  t["Atan"] = {convertUnary<tl::AtanOp>};
  t["Sinh"] = {convertUnary<tl::SinhOp>};
  t["Cosh"] = {convertUnary<tl::CoshOp>};
  t["Asinh"] = {convertUnary<tl::AsinhOp>};
  t["Acosh"] = {convertUnary<tl::AcoshOp>};
  t["Atanh"] = {convertUnary<tl::AtanhOp>};
  t["Round"] = {convertUnary<tl::RoundOp>};
  t["Mod"] = {convertMod};
  t["CastLike"] = {convertCastLike};
  t["Floor"] = {convertUnary<tl::FloorOp>};
  t["Ceil"] = {convertUnary<tl::CeilOp>};
  t["Reciprocal"] = {convertReciprocal};
  t["Sign"] = {convertSign};
  t["LeakyRelu"] = {convertLeakyRelu};
  t["PRelu"] = {convertPRelu};
  t["Elu"] = {convertElu};
  t["Selu"] = {convertSelu};
  t["HardSigmoid"] = {convertHardSigmoid};
  t["HardSwish"] = {convertHardSwish};
  t["Softplus"] = {convertSoftplus};
  t["Softsign"] = {convertSoftsign};
  t["Clip"] = {convertClip};
  t["Celu"] = {convertCelu};
  t["ThresholdedRelu"] = {convertThresholdedRelu};
  t["Shrink"] = {convertShrink};
  t["IsNaN"] = {convertIsNaN};
  t["IsInf"] = {convertIsInf};
  t["Sum"] = {convertVariadic<tl::AddOp, false>};
  t["Mean"] = {convertVariadic<tl::AddOp, true>};
  t["Max"] = {convertVariadic<tl::MaxOp, false>};
  t["Min"] = {convertVariadic<tl::MinOp, false>};
  t["Identity"] = {convertIdentity};
  t["Dropout"] = {convertIdentity, checkDropout};
}
