// Lowering of .tl calls: the function table, argument binding, and per-family op building.
#include "Calls.h"

#include "Initializers.h"
#include "Npy.h"

#include "TL/AttentionShapes.h"
#include "TL/Einsum.h"
#include "TL/Losses.h"
#include "TL/Shapes.h"
#include "TL/SizeLimit.h"
#include "TL/TLDialect.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tlc::frontend;
namespace tl = tlc::tl;

namespace {
enum class Family {
  Einsum, Binary, Compare, Unary, Gelu, Select, Reduce, Softmax, Cast, Reshape, Transpose,
  BroadcastTo, Concat, Slice, Attention, Grad, Loss, Init
};
enum class Kind { Tensor, String, IntList, Int, Number, Bool, DTypeName };

struct Param {
  StringRef name;
  Kind kind;
  bool keyword = false;
  bool required = true; // keywords only; positional parameters are always required
};

struct Function {
  StringRef name;
  Family family;
  int variant = 0;
  std::vector<Param> params;
  bool variadic = false; // the last positional parameter repeats (one or more)
};

enum UnaryVariant {
  Neg, Abs, Exp, Log, Sqrt, Rsqrt, Tanh, Sigmoid, Relu, Erf, Sin, Cos, Tan, Asin, Acos, Atan,
  Sinh, Cosh, Asinh, Acosh, Atanh, Floor, Ceil, Round, NumUnary
};
enum LossVariant { MSE, CrossEntropy, BCEWithLogits };
enum InitVariant { Zeros, Ones, Full, Randn, Uniform, Arange, Load };

Param pos(StringRef name, Kind kind) { return {name, kind, false, true}; }
Param kw(StringRef name, Kind kind) { return {name, kind, true, false}; }
Param requiredKw(StringRef name, Kind kind) { return {name, kind, true, true}; }

const std::vector<Function> &functionTable() {
  static const std::vector<Function> table = [] {
    std::vector<Function> t;
    Param x = pos("x", Kind::Tensor), a = pos("a", Kind::Tensor), b = pos("b", Kind::Tensor);
    t.push_back({"einsum", Family::Einsum, 0,
                 {pos("equation", Kind::String), pos("operands", Kind::Tensor)}, true});
    const char *binary[] = {"add", "sub", "mul", "div", "pow", "maximum", "minimum"};
    for (int i = 0; i < 7; ++i)
      t.push_back({binary[i], Family::Binary, i, {a, b}});
    const char *compare[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (int i = 0; i < 6; ++i)
      t.push_back({compare[i], Family::Compare, i, {a, b}});
    const char *unary[] = {"neg",  "abs",  "exp",   "log",   "sqrt",  "rsqrt", "tanh", "sigmoid",
                           "relu", "erf",  "sin",   "cos",   "tan",   "asin",  "acos", "atan",
                           "sinh", "cosh", "asinh", "acosh", "atanh", "floor", "ceil", "round"};
    static_assert(std::size(unary) == NumUnary, "one name per unary variant");
    for (int i = 0; i < NumUnary; ++i)
      t.push_back({unary[i], Family::Unary, i, {x}});
    t.push_back({"gelu", Family::Gelu, 0, {x, kw("approximate", Kind::String)}});
    t.push_back({"select", Family::Select, 0,
                 {pos("condition", Kind::Tensor), pos("on_true", Kind::Tensor),
                  pos("on_false", Kind::Tensor)}});
    const char *reduce[] = {"sum", "mean", "max", "min"};
    for (int i = 0; i < 4; ++i)
      t.push_back({reduce[i], Family::Reduce, i,
                   {x, kw("axes", Kind::IntList), kw("keepdims", Kind::Bool)}});
    t.push_back({"softmax", Family::Softmax, 0, {x, kw("axis", Kind::Int)}});
    t.push_back({"log_softmax", Family::Softmax, 1, {x, kw("axis", Kind::Int)}});
    t.push_back({"cast", Family::Cast, 0, {x, requiredKw("to", Kind::DTypeName)}});
    t.push_back({"reshape", Family::Reshape, 0, {x, pos("shape", Kind::IntList)}});
    t.push_back({"transpose", Family::Transpose, 0, {x, kw("perm", Kind::IntList)}});
    t.push_back({"broadcast_to", Family::BroadcastTo, 0, {x, pos("shape", Kind::IntList)}});
    t.push_back({"concat", Family::Concat, 0,
                 {pos("tensors", Kind::Tensor), kw("axis", Kind::Int)}, true});
    t.push_back({"slice", Family::Slice, 0,
                 {x, kw("start", Kind::IntList), kw("end", Kind::IntList),
                  kw("step", Kind::IntList)}});
    t.push_back({"attention", Family::Attention, 0,
                 {pos("q", Kind::Tensor), pos("k", Kind::Tensor), pos("v", Kind::Tensor),
                  kw("mask", Kind::Tensor), kw("causal", Kind::Bool), kw("scale", Kind::Number)}});
    t.push_back({"grad", Family::Grad, 0, {pos("loss", Kind::Tensor), pos("wrt", Kind::Tensor)}});
    Param reduction = kw("reduction", Kind::String);
    t.push_back({"mse_loss", Family::Loss, MSE,
                 {pos("pred", Kind::Tensor), pos("target", Kind::Tensor), reduction}});
    t.push_back({"cross_entropy", Family::Loss, CrossEntropy,
                 {pos("logits", Kind::Tensor), pos("labels", Kind::Tensor),
                  kw("label_smoothing", Kind::Number), reduction}});
    t.push_back({"bce_with_logits", Family::Loss, BCEWithLogits,
                 {pos("logits", Kind::Tensor), pos("targets", Kind::Tensor), reduction}});
    t.push_back({"zeros", Family::Init, Zeros, {}});
    t.push_back({"ones", Family::Init, Ones, {}});
    t.push_back({"full", Family::Init, Full, {pos("value", Kind::Number)}});
    t.push_back({"randn", Family::Init, Randn,
                 {requiredKw("seed", Kind::Int), kw("mean", Kind::Number),
                  kw("std", Kind::Number)}});
    t.push_back({"uniform", Family::Init, Uniform,
                 {requiredKw("seed", Kind::Int), kw("low", Kind::Number),
                  kw("high", Kind::Number)}});
    t.push_back({"arange", Family::Init, Arange,
                 {kw("start", Kind::Number), kw("step", Kind::Number)}});
    t.push_back({"load", Family::Init, Load, {pos("path", Kind::String)}});
    return t;
  }();
  return table;
}

const Function *lookupFunction(StringRef name) {
  for (const Function &f : functionTable())
    if (f.name == name)
      return &f;
  return nullptr;
}

std::string suggestFunction(StringRef name, bool initializers) {
  StringRef best;
  unsigned bestDistance = std::max<unsigned>(1, name.size() / 3) + 1;
  for (const Function &f : functionTable()) {
    if ((f.family == Family::Init) != initializers)
      continue;
    unsigned d = name.edit_distance(f.name, true, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = f.name;
    }
  }
  return best.empty() ? "" : ("; did you mean '" + best + "'?").str();
}

StringRef describeExpected(Kind kind) {
  switch (kind) {
  case Kind::Tensor: return "a tensor";
  case Kind::String: return "a string";
  case Kind::IntList: return "a list of integers";
  case Kind::Int: return "an integer";
  case Kind::Number: return "a number";
  case Kind::Bool: return "true or false";
  case Kind::DTypeName: return "a dtype (f16, bf16, f32, f64, i32, i64 or i1)";
  }
  return "a value";
}

bool isNumber(const Arg &arg) {
  return arg.kind == Arg::Expression && arg.expr->kind == Expr::Number;
}

std::string describeGiven(const Arg &arg) {
  switch (arg.kind) {
  case Arg::Expression:
    if (isNumber(arg))
      return (arg.expr->number.isInteger ? "the integer " : "the number ") +
             arg.expr->number.text;
    return "a tensor expression";
  case Arg::String: return "a string";
  case Arg::List: return "a list";
  case Arg::DTypeValue: return "a dtype";
  case Arg::Bool: return "a boolean";
  }
  return "a value";
}

bool matches(const Arg &arg, Kind kind) {
  switch (kind) {
  case Kind::Tensor: return arg.kind == Arg::Expression;
  case Kind::String: return arg.kind == Arg::String;
  case Kind::IntList:
    return arg.kind == Arg::List || (isNumber(arg) && arg.expr->number.isInteger);
  case Kind::Int: return isNumber(arg) && arg.expr->number.isInteger;
  case Kind::Number: return isNumber(arg);
  case Kind::Bool: return arg.kind == Arg::Bool;
  case Kind::DTypeName: return arg.kind == Arg::DTypeValue;
  }
  return false;
}

std::string plural(size_t n, StringRef word) {
  return std::to_string(n) + " " + word.str() + (n == 1 ? "" : "s");
}

/// A call's arguments matched to its function's parameters.
struct BoundCall {
  const Expr *call;
  SmallVector<const Arg *> positional;
  SmallVector<const Arg *> keywords; // per parameter; null when not given

  const Function *fn;
  const Arg *keyword(StringRef name) const {
    for (auto [i, p] : llvm::enumerate(fn->params))
      if (p.keyword && p.name == name)
        return keywords[i];
    return nullptr;
  }
  const Expr &tensor(size_t i) const { return *positional[i]->expr; }
  SMLoc loc() const { return call->loc; }
};

SmallVector<int64_t> intList(const Arg &arg) {
  if (arg.kind == Arg::List)
    return arg.list;
  return {arg.expr->number.intValue};
}
int64_t intValue(const Arg &arg) { return arg.expr->number.intValue; }
double numberValue(const Arg &arg) { return arg.expr->number.value; }

FailureOr<BoundCall> bind(Emitter &em, const Function &fn, const Expr &call) {
  BoundCall bound;
  bound.call = &call;
  bound.fn = &fn;
  bound.keywords.assign(fn.params.size(), nullptr);
  size_t numPositional = llvm::count_if(fn.params, [](const Param &p) { return !p.keyword; });
  bool sawKeyword = false;
  for (const Arg &arg : call.args) {
    if (arg.keyword.empty()) {
      if (sawKeyword) {
        em.error(arg.loc) << "positional argument follows keyword argument";
        return failure();
      }
      bound.positional.push_back(&arg);
      continue;
    }
    sawKeyword = true;
    auto it = llvm::find_if(fn.params, [&](const Param &p) {
      return p.keyword && p.name == arg.keyword;
    });
    if (it == fn.params.end()) {
      std::string valid;
      for (const Param &p : fn.params)
        if (p.keyword)
          valid += (valid.empty() ? "" : ", ") + p.name.str();
      InFlightDiagnostic diag = em.error(arg.keywordLoc);
      diag << fn.name << " has no keyword argument '" << arg.keyword << "'";
      if (valid.empty())
        diag << " (it takes none)";
      else
        diag << " (valid: " << valid << ")";
      return failure();
    }
    const Arg *&slot = bound.keywords[it - fn.params.begin()];
    if (slot) {
      em.error(arg.keywordLoc) << "keyword argument '" << arg.keyword << "' is given twice";
      return failure();
    }
    if (!matches(arg, it->kind)) {
      em.error(arg.loc) << "keyword argument '" << arg.keyword << "' of " << fn.name
                        << " must be " << describeExpected(it->kind) << ", got "
                        << describeGiven(arg);
      return failure();
    }
    slot = &arg;
  }

  size_t given = bound.positional.size();
  bool countOk = fn.variadic ? given >= numPositional : given == numPositional;
  if (!countOk) {
    InFlightDiagnostic diag =
        em.error(given > numPositional ? bound.positional[numPositional]->loc : call.loc);
    diag << fn.name << " takes " << (fn.variadic ? "at least " : "")
         << plural(numPositional, "positional argument") << ", got " << given;
    return failure();
  }
  for (auto [i, arg] : llvm::enumerate(bound.positional)) {
    const Param &p = fn.params[std::min(i, numPositional - 1)];
    if (!matches(*arg, p.kind)) {
      em.error(arg->loc) << "argument " << i + 1 << " of " << fn.name << " must be "
                         << describeExpected(p.kind) << ", got " << describeGiven(*arg);
      return failure();
    }
  }
  for (auto [i, p] : llvm::enumerate(fn.params)) {
    if (p.keyword && p.required && !bound.keywords[i]) {
      InFlightDiagnostic diag = em.error(call.loc);
      diag << fn.name << " needs keyword argument '" << p.name << "'";
      if (p.name == "seed")
        diag << " (random initializers are seeded so that every compile gives the same weights)";
      return failure();
    }
  }
  return bound;
}

RankedTensorType tensorOf(Value v) { return cast<RankedTensorType>(v.getType()); }
Type elementOf(Value v) { return tensorOf(v).getElementType(); }

LogicalResult checkSameDType(Emitter &em, SMLoc loc, StringRef what, Value a, Value b) {
  if (elementOf(a) == elementOf(b))
    return success();
  em.error(loc) << "operands of " << what << " have different dtypes: " << typeName(elementOf(a))
                << " and " << typeName(elementOf(b));
  return failure();
}

LogicalResult checkFloat(Emitter &em, SMLoc loc, StringRef what, Value v) {
  if (isa<FloatType>(elementOf(v)))
    return success();
  em.error(loc) << what << " needs a floating-point tensor, got " << typeName(elementOf(v))
                << " (use cast(x, to=f32))";
  return failure();
}

FailureOr<SmallVector<int64_t>> broadcast(Emitter &em, SMLoc loc, ArrayRef<Value> values) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : values)
    shapes.push_back(tensorOf(v).getShape());
  return tl::broadcastShapes(shapes, [&] { return em.error(loc); });
}

template <typename OpTy>
Value makeBinary(OpBuilder &b, Location loc, Type type, Value lhs, Value rhs) {
  return OpTy::create(b, loc, type, lhs, rhs).getResult();
}

template <typename OpTy>
Value makeUnary(OpBuilder &b, Location loc, Value x) {
  return OpTy::create(b, loc, x.getType(), x).getResult();
}

template <typename OpTy>
Value makeReduce(OpBuilder &b, Location loc, Type type, Value x, ArrayRef<int64_t> axes,
                 bool keepDims) {
  return OpTy::create(b, loc, type, x, b.getDenseI64ArrayAttr(axes),
                      keepDims ? b.getUnitAttr() : UnitAttr())
      .getResult();
}

std::string formatList(ArrayRef<int64_t> values) {
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(values))
    s += (i ? ", " : "") + std::to_string(v);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// Families
//===----------------------------------------------------------------------===//

FailureOr<Value> emitEinsum(Emitter &em, const BoundCall &c, Type hint) {
  StringRef equation = c.positional[0]->string;
  SmallVector<const Expr *> exprs;
  for (size_t i = 1; i < c.positional.size(); ++i)
    exprs.push_back(&c.tensor(i));
  SmallVector<Value> operands;
  if (failed(em.emitGroup(exprs, operands, hint)))
    return failure();
  SmallVector<ArrayRef<int64_t>> shapes;
  for (auto [i, v] : llvm::enumerate(operands)) {
    if (elementOf(v) != elementOf(operands[0])) {
      em.error(c.loc()) << "einsum operand " << i << " has dtype " << typeName(elementOf(v))
                        << " but operand 0 has " << typeName(elementOf(operands[0]));
      return failure();
    }
    shapes.push_back(tensorOf(v).getShape());
  }
  FailureOr<tl::EinsumSpec> spec =
      tl::parseEinsum(equation, shapes, [&] { return em.error(c.loc()); });
  if (failed(spec))
    return failure();
  auto type = RankedTensorType::get(spec->resultShape(), elementOf(operands[0]));
  return tl::EinsumOp::create(em.builder, em.source.loc(c.loc()), type, equation, operands)
      .getResult();
}

FailureOr<Value> emitCompare(Emitter &em, const BoundCall &c, Type hint) {
  SmallVector<Value> v;
  if (failed(em.emitGroup({&c.tensor(0), &c.tensor(1)}, v, hint)) ||
      failed(checkSameDType(em, c.loc(), c.fn->name, v[0], v[1])))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = broadcast(em, c.loc(), v);
  if (failed(shape))
    return failure();
  auto type = RankedTensorType::get(*shape, em.builder.getI1Type());
  auto predicate = static_cast<tl::ComparePredicate>(c.fn->variant);
  return tl::CompareOp::create(em.builder, em.source.loc(c.loc()), type, predicate, v[0], v[1])
      .getResult();
}

FailureOr<Value> emitUnary(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x))
    return failure();
  int variant = c.fn->variant;
  bool floatOnly = variant != Neg && variant != Abs && variant != Relu;
  if (floatOnly && failed(checkFloat(em, c.loc(), c.fn->name, *x)))
    return failure();
  using Builder = Value (*)(OpBuilder &, Location, Value);
  static const Builder builders[] = {
      makeUnary<tl::NegOp>,  makeUnary<tl::AbsOp>,   makeUnary<tl::ExpOp>,
      makeUnary<tl::LogOp>,  makeUnary<tl::SqrtOp>,  makeUnary<tl::RsqrtOp>,
      makeUnary<tl::TanhOp>, makeUnary<tl::SigmoidOp>, makeUnary<tl::ReluOp>,
      makeUnary<tl::ErfOp>,  makeUnary<tl::SinOp>,   makeUnary<tl::CosOp>,
      makeUnary<tl::TanOp>,  makeUnary<tl::AsinOp>,  makeUnary<tl::AcosOp>,
      makeUnary<tl::AtanOp>, makeUnary<tl::SinhOp>,  makeUnary<tl::CoshOp>,
      makeUnary<tl::AsinhOp>, makeUnary<tl::AcoshOp>, makeUnary<tl::AtanhOp>,
      makeUnary<tl::FloorOp>, makeUnary<tl::CeilOp>, makeUnary<tl::RoundOp>};
  static_assert(std::size(builders) == NumUnary, "one builder per unary variant");
  return builders[variant](em.builder, em.source.loc(c.loc()), *x);
}

FailureOr<Value> emitGelu(Emitter &em, const BoundCall &c, Type hint) {
  tl::GeluApproximation approx = tl::GeluApproximation::none;
  if (const Arg *a = c.keyword("approximate")) {
    if (a->string == "tanh") {
      approx = tl::GeluApproximation::tanh;
    } else if (a->string != "none") {
      em.error(a->loc) << "approximate must be \"none\" or \"tanh\", got \"" << a->string
                       << "\"";
      return failure();
    }
  }
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x) || failed(checkFloat(em, c.loc(), "gelu", *x)))
    return failure();
  return tl::GeluOp::create(em.builder, em.source.loc(c.loc()), x->getType(), *x,
                            tl::GeluApproximationAttr::get(em.builder.getContext(), approx))
      .getResult();
}

FailureOr<Value> emitSelect(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> cond = em.emitExpr(c.tensor(0), em.builder.getI1Type());
  SmallVector<Value> v;
  if (failed(cond) || failed(em.emitGroup({&c.tensor(1), &c.tensor(2)}, v, hint)))
    return failure();
  if (!elementOf(*cond).isInteger(1)) {
    em.error(c.positional[0]->loc) << "the condition of select must have dtype i1, got "
                                   << typeName(elementOf(*cond)) << " (compare with eq, lt, ... or cast)";
    return failure();
  }
  if (failed(checkSameDType(em, c.loc(), "select", v[0], v[1])))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = broadcast(em, c.loc(), {*cond, v[0], v[1]});
  if (failed(shape))
    return failure();
  auto type = RankedTensorType::get(*shape, elementOf(v[0]));
  return tl::SelectOp::create(em.builder, em.source.loc(c.loc()), type, *cond, v[0], v[1])
      .getResult();
}

FailureOr<Value> emitReduce(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x))
    return failure();
  int64_t rank = tensorOf(*x).getRank();
  SmallVector<int64_t> axes;
  SMLoc axesLoc = c.loc();
  if (const Arg *a = c.keyword("axes")) {
    axes = intList(*a);
    axesLoc = a->loc;
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  FailureOr<SmallVector<int64_t>> norm =
      tl::normalizeAxes(axes, rank, [&] { return em.error(axesLoc); });
  if (failed(norm))
    return failure();
  const Arg *keep = c.keyword("keepdims");
  bool keepDims = keep && keep->boolean;
  auto type = RankedTensorType::get(tl::reducedShape(tensorOf(*x).getShape(), *norm, keepDims),
                                    elementOf(*x));
  using Builder = Value (*)(OpBuilder &, Location, Type, Value, ArrayRef<int64_t>, bool);
  static const Builder builders[] = {makeReduce<tl::ReduceSumOp>, makeReduce<tl::ReduceMeanOp>,
                                     makeReduce<tl::ReduceMaxOp>, makeReduce<tl::ReduceMinOp>};
  return builders[c.fn->variant](em.builder, em.source.loc(c.loc()), type, *x, *norm, keepDims);
}

FailureOr<Value> emitSoftmax(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x) || failed(checkFloat(em, c.loc(), c.fn->name, *x)))
    return failure();
  const Arg *a = c.keyword("axis");
  int64_t axis = a ? intValue(*a) : -1;
  FailureOr<SmallVector<int64_t>> norm = tl::normalizeAxes(
      {axis}, tensorOf(*x).getRank(), [&] { return em.error(a ? a->loc : c.loc()); });
  if (failed(norm))
    return failure();
  Location loc = em.source.loc(c.loc());
  IntegerAttr axisAttr = em.builder.getI64IntegerAttr((*norm)[0]);
  if (c.fn->variant == 0)
    return tl::SoftmaxOp::create(em.builder, loc, x->getType(), *x, axisAttr).getResult();
  return tl::LogSoftmaxOp::create(em.builder, loc, x->getType(), *x, axisAttr).getResult();
}

/// grad(loss, x): the gradient of a scalar binding with respect to an input, param or binding
/// (built by tl-autodiff).
FailureOr<Value> emitGrad(Emitter &em, const BoundCall &c) {
  const Expr &lossExpr = c.tensor(0), &wrtExpr = c.tensor(1);
  if (wrtExpr.kind != Expr::Name) {
    em.error(wrtExpr.loc) << "grad differentiates with respect to a name (an input, param or "
                             "binding), not an expression";
    return failure();
  }
  FailureOr<Value> loss = em.emitExpr(lossExpr, Type());
  if (failed(loss) || failed(checkFloat(em, lossExpr.loc, "grad", *loss)))
    return failure();
  if (tensorOf(*loss).getRank() != 0) {
    em.error(lossExpr.loc) << "grad needs a scalar loss (shape []), got shape "
                           << formatList(tensorOf(*loss).getShape())
                           << " (reduce it first, e.g. with sum or mean)";
    return failure();
  }
  FailureOr<Value> wrt = em.emitExpr(wrtExpr, Type());
  if (failed(wrt) || failed(checkFloat(em, wrtExpr.loc, "grad", *wrt)))
    return failure();
  return tl::GradOp::create(em.builder, em.source.loc(c.loc()), wrt->getType(), *loss, *wrt)
      .getResult();
}

/// mse_loss, cross_entropy, bce_with_logits: scalar losses (TL/Losses.h).
FailureOr<Value> emitLoss(Emitter &em, const BoundCall &c) {
  tl::LossReduction reduction = tl::LossReduction::Mean;
  if (const Arg *r = c.keyword("reduction")) {
    if (r->string == "sum") {
      reduction = tl::LossReduction::Sum;
    } else if (r->string != "mean") {
      em.error(r->loc) << "reduction must be \"mean\" or \"sum\", got \"" << r->string << "\"";
      return failure();
    }
  }
  FailureOr<Value> a = em.emitExpr(c.tensor(0), Type());
  if (failed(a) || failed(checkFloat(em, c.tensor(0).loc, c.fn->name, *a)))
    return failure();
  FailureOr<Value> b = em.emitExpr(c.tensor(1), c.fn->variant == CrossEntropy ? Type() : elementOf(*a));
  if (failed(b))
    return failure();
  Location loc = em.source.loc(c.loc());
  if (c.fn->variant != CrossEntropy) {
    if (failed(checkSameDType(em, c.loc(), c.fn->name, *a, *b)))
      return failure();
    if (failed(tl::checkBroadcastTo(tensorOf(*b).getShape(), tensorOf(*a).getShape(),
                                    [&] { return em.error(c.tensor(1).loc); })))
      return failure();
    if (c.fn->variant == MSE)
      return tl::buildMSELoss(em.builder, loc, *a, *b, reduction);
    return tl::buildBCEWithLogits(em.builder, loc, *a, *b, reduction);
  }
  RankedTensorType logits = tensorOf(*a), labels = tensorOf(*b);
  if (logits.getRank() != 2) {
    em.error(c.tensor(0).loc) << "cross_entropy needs logits of shape [N, C], got shape "
                              << formatList(logits.getShape());
    return failure();
  }
  if (!labels.getElementType().isInteger(32) && !labels.getElementType().isInteger(64)) {
    em.error(c.tensor(1).loc) << "cross_entropy needs integer class labels (i32 or i64), got "
                              << typeName(labels.getElementType());
    return failure();
  }
  if (labels.getRank() != 1 || labels.getDimSize(0) != logits.getDimSize(0)) {
    em.error(c.tensor(1).loc) << "cross_entropy needs labels of shape [" << logits.getDimSize(0)
                              << "] for logits of shape " << formatList(logits.getShape())
                              << ", got shape " << formatList(labels.getShape());
    return failure();
  }
  double smoothing = 0.0;
  if (const Arg *s = c.keyword("label_smoothing")) {
    smoothing = numberValue(*s);
    if (!(smoothing >= 0.0 && smoothing <= 1.0)) {
      em.error(s->loc) << "label_smoothing must be in [0, 1], got " << s->expr->number.text;
      return failure();
    }
  }
  return tl::buildCrossEntropy(em.builder, loc, *a, *b, smoothing, reduction);
}

FailureOr<Value> emitCast(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x))
    return failure();
  Type to = em.dtypeType(c.keyword("to")->dtype);
  if (elementOf(*x) == to)
    return *x;
  auto type = RankedTensorType::get(tensorOf(*x).getShape(), to);
  return tl::CastOp::create(em.builder, em.source.loc(c.loc()), type, *x).getResult();
}

FailureOr<Value> emitReshape(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x))
    return failure();
  RankedTensorType in = tensorOf(*x);
  const Arg &shapeArg = *c.positional[1];
  SmallVector<int64_t> dims = intList(shapeArg);
  int inferred = -1;
  int64_t known = 1;
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d == -1) {
      if (inferred >= 0) {
        em.error(shapeArg.loc) << "reshape can infer only one dimension, but " << formatList(dims)
                               << " has more than one -1";
        return failure();
      }
      inferred = i;
      continue;
    }
    if (d <= 0) {
      em.error(shapeArg.loc) << "reshape dimension " << d << " must be positive (or -1)";
      return failure();
    }
    if (d > tl::kMaxElements / known) {
      em.error(shapeArg.loc) << "reshape target " << formatList(dims) << " has too many elements";
      return failure();
    }
    known *= d;
  }
  int64_t total = in.getNumElements();
  if (inferred >= 0) {
    if (total % known != 0) {
      em.error(c.loc()) << "cannot reshape " << tl::formatShape(in.getShape()) << " (" << total
                        << " elements) to " << formatList(dims) << ": " << total
                        << " is not divisible by " << known;
      return failure();
    }
    dims[inferred] = total / known;
  } else if (known != total) {
    em.error(c.loc()) << "cannot reshape " << tl::formatShape(in.getShape()) << " (" << total
                      << " elements) to " << formatList(dims) << " (" << known << " elements)";
    return failure();
  }
  auto type = RankedTensorType::get(dims, in.getElementType());
  if (type == in)
    return *x;
  return tl::ReshapeOp::create(em.builder, em.source.loc(c.loc()), type, *x).getResult();
}

FailureOr<Value> emitTranspose(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x))
    return failure();
  int64_t rank = tensorOf(*x).getRank();
  SmallVector<int64_t> perm;
  SMLoc permLoc = c.loc();
  if (const Arg *a = c.keyword("perm")) {
    perm = intList(*a);
    permLoc = a->loc;
  } else {
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  }
  FailureOr<RankedTensorType> type =
      tl::transposeType(tensorOf(*x), perm, [&] { return em.error(permLoc); });
  if (failed(type))
    return failure();
  return tl::TransposeOp::create(em.builder, em.source.loc(c.loc()), *type, *x,
                                 em.builder.getDenseI64ArrayAttr(perm))
      .getResult();
}

FailureOr<Value> emitBroadcastTo(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x))
    return failure();
  const Arg &shapeArg = *c.positional[1];
  SmallVector<int64_t> dims = intList(shapeArg);
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d <= 0) {
      em.error(shapeArg.loc) << "broadcast_to dimension " << d << " must be positive";
      return failure();
    }
    if (d > tl::kMaxElements / count) {
      em.error(shapeArg.loc) << "broadcast_to target " << formatList(dims)
                             << " has too many elements";
      return failure();
    }
    count *= d;
  }
  if (failed(tl::checkBroadcastTo(tensorOf(*x).getShape(), dims,
                                  [&] { return em.error(c.loc()); })))
    return failure();
  auto type = RankedTensorType::get(dims, elementOf(*x));
  if (type == tensorOf(*x))
    return *x;
  return tl::BroadcastToOp::create(em.builder, em.source.loc(c.loc()), type, *x).getResult();
}

FailureOr<Value> emitConcat(Emitter &em, const BoundCall &c, Type hint) {
  SmallVector<const Expr *> exprs;
  for (size_t i = 0; i < c.positional.size(); ++i)
    exprs.push_back(&c.tensor(i));
  SmallVector<Value> operands;
  if (failed(em.emitGroup(exprs, operands, hint)))
    return failure();
  const Arg *a = c.keyword("axis");
  int64_t axis = a ? intValue(*a) : 0;
  SmallVector<RankedTensorType> types;
  for (auto [i, v] : llvm::enumerate(operands)) {
    if (elementOf(v) != elementOf(operands[0])) {
      em.error(c.loc()) << "concat operand " << i << " has dtype " << typeName(elementOf(v))
                        << " but operand 0 has " << typeName(elementOf(operands[0]));
      return failure();
    }
    types.push_back(tensorOf(v));
  }
  FailureOr<RankedTensorType> type =
      tl::concatType(types, axis, [&] { return em.error(c.loc()); });
  if (failed(type))
    return failure();
  if (axis < 0)
    axis += type->getRank();
  return tl::ConcatOp::create(em.builder, em.source.loc(c.loc()), *type, operands,
                              em.builder.getI64IntegerAttr(axis))
      .getResult();
}

FailureOr<Value> emitSlice(Emitter &em, const BoundCall &c, Type hint) {
  FailureOr<Value> x = em.emitExpr(c.tensor(0), hint);
  if (failed(x))
    return failure();
  RankedTensorType in = tensorOf(*x);
  int64_t rank = in.getRank();
  SmallVector<int64_t> lists[3];
  const char *names[3] = {"start", "end", "step"};
  for (int i = 0; i < 3; ++i) {
    const Arg *a = c.keyword(names[i]);
    if (!a)
      continue;
    lists[i] = intList(*a);
    if ((int64_t)lists[i].size() > rank) {
      em.error(a->loc) << "slice has " << plural(lists[i].size(), std::string(names[i]) + " value")
                       << " but the tensor has rank " << rank;
      return failure();
    }
  }
  SmallVector<int64_t> offsets, sizes, strides;
  for (int64_t k = 0; k < rank; ++k) {
    int64_t n = in.getDimSize(k);
    int64_t step = k < (int64_t)lists[2].size() ? lists[2][k] : 1;
    if (step <= 0) {
      em.error(c.keyword("step")->loc)
          << "slice step must be positive, got " << step << " for axis " << k;
      return failure();
    }
    int64_t start = k < (int64_t)lists[0].size() ? lists[0][k] : 0;
    int64_t end = k < (int64_t)lists[1].size() ? lists[1][k] : n;
    // numpy: negative bounds count from the end, then both are clamped to [0, n].
    int64_t s = std::clamp<int64_t>(start < 0 ? start + n : start, 0, n);
    int64_t e = std::clamp<int64_t>(end < 0 ? end + n : end, 0, n);
    int64_t size = e > s ? (e - s - 1) / step + 1 : 0;
    if (size == 0) {
      em.error(c.loc()) << "slice of axis " << k << " is empty (start " << start << ", end "
                        << end << ", step " << step << " on a dimension of extent " << n << ")";
      return failure();
    }
    offsets.push_back(s);
    sizes.push_back(size);
    strides.push_back(step);
  }
  FailureOr<RankedTensorType> type =
      tl::sliceType(in, offsets, sizes, strides, [&] { return em.error(c.loc()); });
  if (failed(type))
    return failure();
  if (*type == in)
    return *x;
  return tl::SliceOp::create(em.builder, em.source.loc(c.loc()), *type, *x,
                             em.builder.getDenseI64ArrayAttr(offsets),
                             em.builder.getDenseI64ArrayAttr(sizes),
                             em.builder.getDenseI64ArrayAttr(strides))
      .getResult();
}
FailureOr<Value> emitAttention(Emitter &em, const BoundCall &c, Type hint) {
  SmallVector<const Expr *> exprs = {&c.tensor(0), &c.tensor(1), &c.tensor(2)};
  const Arg *maskArg = c.keyword("mask");
  if (maskArg)
    exprs.push_back(maskArg->expr.get());
  SmallVector<Value> v;
  if (failed(em.emitGroup(exprs, v, hint)) || failed(checkFloat(em, c.loc(), "attention", v[0])))
    return failure();
  RankedTensorType mask = maskArg ? tensorOf(v[3]) : RankedTensorType();
  FailureOr<RankedTensorType> type = tl::attentionResultType(
      tensorOf(v[0]), tensorOf(v[1]), tensorOf(v[2]), mask, [&] { return em.error(c.loc()); });
  if (failed(type))
    return failure();
  int64_t headDim = tensorOf(v[0]).getShape().back();
  double scale = 1.0 / std::sqrt(static_cast<double>(headDim));
  if (const Arg *a = c.keyword("scale"))
    scale = numberValue(*a);
  const Arg *causal = c.keyword("causal");
  return tl::AttentionOp::create(em.builder, em.source.loc(c.loc()), *type, v[0], v[1], v[2],
                                 maskArg ? v[3] : Value(), em.builder.getF64FloatAttr(scale),
                                 causal && causal->boolean ? em.builder.getUnitAttr() : UnitAttr())
      .getResult();
}
} // namespace

FailureOr<Value> tlc::frontend::buildBinary(Emitter &em, BinaryKind kind, SMLoc loc, Value lhs,
                                            Value rhs, StringRef what) {
  if (failed(checkSameDType(em, loc, what, lhs, rhs)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = broadcast(em, loc, {lhs, rhs});
  if (failed(shape))
    return failure();
  auto type = RankedTensorType::get(*shape, elementOf(lhs));
  using Builder = Value (*)(OpBuilder &, Location, Type, Value, Value);
  static const Builder builders[] = {makeBinary<tl::AddOp>, makeBinary<tl::SubOp>,
                                     makeBinary<tl::MulOp>, makeBinary<tl::DivOp>,
                                     makeBinary<tl::PowOp>, makeBinary<tl::MaxOp>,
                                     makeBinary<tl::MinOp>};
  return builders[static_cast<int>(kind)](em.builder, em.source.loc(loc), type, lhs, rhs);
}

FailureOr<Value> tlc::frontend::emitOperatorCall(Emitter &em, const Expr &call, Type hint) {
  const Function *fn = lookupFunction(call.name);
  if (!fn) {
    em.error(call.loc) << "unknown function '" << call.name << "'"
                       << suggestFunction(call.name, /*initializers=*/false);
    return failure();
  }
  if (fn->family == Family::Init) {
    em.error(call.loc) << "'" << call.name
                       << "' is an initializer and can only initialize a param (param NAME : "
                          "TYPE = "
                       << call.name << "(...))";
    return failure();
  }
  FailureOr<BoundCall> bound = bind(em, *fn, call);
  if (failed(bound))
    return failure();
  const BoundCall &c = *bound;
  switch (fn->family) {
  case Family::Einsum: return emitEinsum(em, c, hint);
  case Family::Binary: {
    SmallVector<Value> v;
    if (failed(em.emitGroup({&c.tensor(0), &c.tensor(1)}, v, hint)))
      return failure();
    return buildBinary(em, static_cast<BinaryKind>(fn->variant), call.loc, v[0], v[1],
                       fn->name);
  }
  case Family::Compare: return emitCompare(em, c, hint);
  case Family::Unary: return emitUnary(em, c, hint);
  case Family::Gelu: return emitGelu(em, c, hint);
  case Family::Select: return emitSelect(em, c, hint);
  case Family::Reduce: return emitReduce(em, c, hint);
  case Family::Softmax: return emitSoftmax(em, c, hint);
  case Family::Cast: return emitCast(em, c, hint);
  case Family::Reshape: return emitReshape(em, c, hint);
  case Family::Transpose: return emitTranspose(em, c, hint);
  case Family::BroadcastTo: return emitBroadcastTo(em, c, hint);
  case Family::Concat: return emitConcat(em, c, hint);
  case Family::Slice: return emitSlice(em, c, hint);
  case Family::Attention: return emitAttention(em, c, hint);
  case Family::Grad: return emitGrad(em, c);
  case Family::Loss: return emitLoss(em, c);
  case Family::Init: break;
  }
  return failure();
}

FailureOr<DenseElementsAttr> tlc::frontend::evaluateInitializer(Emitter &em, const Expr &call,
                                                                RankedTensorType type,
                                                                StringRef paramName) {
  const Function *fn = lookupFunction(call.name);
  if (!fn || fn->family != Family::Init) {
    InFlightDiagnostic diag = em.error(call.loc);
    if (fn)
      diag << "'" << call.name << "' is not an initializer";
    else
      diag << "unknown initializer '" << call.name << "'";
    diag << " (expected zeros, ones, full, randn, uniform, arange or load)";
    if (!fn)
      diag << suggestFunction(call.name, /*initializers=*/true);
    return failure();
  }
  FailureOr<BoundCall> bound = bind(em, *fn, call);
  if (failed(bound))
    return failure();
  const BoundCall &c = *bound;
  auto emitError = [&] { return em.error(call.loc); };

  if (fn->variant == Load) {
    const Arg &pathArg = *c.positional[0];
    SmallString<256> path(pathArg.string);
    if (!llvm::sys::path::is_absolute(path)) {
      path = em.source.directory();
      llvm::sys::path::append(path, pathArg.string);
    }
    return loadNpy(path, pathArg.string, type, ("'" + paramName + "'").str(),
                   [&] { return em.error(pathArg.loc); });
  }

  InitSpec spec;
  auto number = [&](StringRef name, double &out) {
    if (const Arg *a = c.keyword(name))
      out = numberValue(*a);
  };
  switch (fn->variant) {
  case Zeros: spec.kind = InitSpec::Zeros; break;
  case Ones: spec.kind = InitSpec::Ones; break;
  case Full:
    spec.kind = InitSpec::Full;
    spec.value = numberValue(*c.positional[0]);
    break;
  case Randn:
  case Uniform: {
    spec.kind = fn->variant == Randn ? InitSpec::Randn : InitSpec::Uniform;
    const Arg *seed = c.keyword("seed");
    if (intValue(*seed) < 0) {
      em.error(seed->loc) << "seed must be non-negative, got " << intValue(*seed);
      return failure();
    }
    spec.seed = static_cast<uint64_t>(intValue(*seed));
    number("mean", spec.mean);
    number("std", spec.std);
    number("low", spec.low);
    number("high", spec.high);
    break;
  }
  case Arange:
    spec.kind = InitSpec::Arange;
    number("start", spec.start);
    number("step", spec.step);
    break;
  }
  return makeInitializer(type, spec, emitError);
}
