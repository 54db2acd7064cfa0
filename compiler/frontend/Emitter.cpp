// Emits tl ops for .tl statements: names, literals, operators, params, inputs and outputs.
#include "Emitter.h"

#include "TrainStep.h"

#include "Calls.h"

#include "TL/TLDialect.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace tlc::frontend;
namespace tl = tlc::tl;

Emitter::Emitter(const Source &source, StringRef funcName)
    : source(source), builder(source.context()) {
  module = ModuleOp::create(source.loc(SMLoc()));
  builder.setInsertionPointToEnd(module->getBody());
  func = func::FuncOp::create(builder, source.loc(SMLoc()), funcName,
                              builder.getFunctionType({}, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);
}

Type Emitter::dtypeType(DType dtype) {
  switch (dtype) {
  case DType::F16: return builder.getF16Type();
  case DType::BF16: return builder.getBF16Type();
  case DType::F32: return builder.getF32Type();
  case DType::F64: return builder.getF64Type();
  case DType::I32: return builder.getI32Type();
  case DType::I64: return builder.getI64Type();
  case DType::I1: return builder.getI1Type();
  }
  return builder.getF32Type();
}

RankedTensorType Emitter::tensorType(const TypeSpec &spec) {
  return RankedTensorType::get(spec.shape, dtypeType(spec.dtype));
}

/// The closest of `candidates` to `name` within a small edit distance, for "did you mean".
static std::string suggest(StringRef name, ArrayRef<StringRef> candidates) {
  StringRef best;
  unsigned bestDistance = std::max<unsigned>(1, name.size() / 3) + 1;
  for (StringRef c : candidates) {
    unsigned d = name.edit_distance(c, /*AllowReplacements=*/true, bestDistance);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best.empty() ? "" : ("; did you mean '" + best + "'?").str();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<Value> Emitter::emitLiteral(const Expr &expr, Type elementType) {
  const NumberLit &lit = expr.number;
  Attribute attr;
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    attr = FloatAttr::get(floatType, lit.value);
  } else {
    unsigned width = elementType.getIntOrFloatBitWidth();
    bool integral = lit.isInteger || lit.value == std::trunc(lit.value);
    if (!integral) {
      error(expr.loc) << "number " << lit.text << " cannot be used as " << typeName(elementType)
                      << " (it is not an integer)";
      return failure();
    }
    bool fits;
    int64_t v = 0;
    if (lit.isInteger) {
      v = lit.intValue;
      fits = true;
    } else {
      fits = std::fabs(lit.value) < 0x1.0p62;
      v = fits ? static_cast<int64_t>(lit.value) : 0;
    }
    if (width == 1)
      fits = fits && (v == 0 || v == 1);
    else if (width < 64)
      fits = fits && v >= -(int64_t(1) << (width - 1)) && v < (int64_t(1) << (width - 1));
    if (!fits) {
      error(expr.loc) << "number " << lit.text << " does not fit in " << typeName(elementType)
                      << (width == 1 ? " (only 0 and 1 do)" : "");
      return failure();
    }
    attr = IntegerAttr::get(elementType, APInt(width, static_cast<uint64_t>(v), /*isSigned=*/true));
  }
  auto type = RankedTensorType::get({}, elementType);
  return tl::ConstantOp::create(builder, source.loc(expr.loc), type,
                                DenseElementsAttr::get(type, attr))
      .getResult();
}

/// Number literals and arithmetic on them only; these take the dtype of their context.
static bool isLiteralOnly(const Expr &expr) {
  if (expr.kind == Expr::Number)
    return true;
  if (expr.kind != Expr::Neg && expr.kind != Expr::Binary)
    return false;
  return llvm::all_of(expr.operands, [](const auto &e) { return isLiteralOnly(*e); });
}

LogicalResult Emitter::emitGroup(ArrayRef<const Expr *> exprs, SmallVectorImpl<Value> &values,
                                 Type hint) {
  values.assign(exprs.size(), Value());
  Type groupType;
  for (auto [i, e] : llvm::enumerate(exprs)) {
    if (isLiteralOnly(*e))
      continue;
    FailureOr<Value> v = emitExpr(*e, hint);
    if (failed(v))
      return failure();
    values[i] = *v;
    if (!groupType)
      groupType = cast<RankedTensorType>(v->getType()).getElementType();
  }
  for (auto [i, e] : llvm::enumerate(exprs)) {
    if (values[i])
      continue;
    FailureOr<Value> v = emitExpr(*e, groupType ? groupType : hint);
    if (failed(v))
      return failure();
    values[i] = *v;
  }
  return success();
}

FailureOr<Value> Emitter::emitExpr(const Expr &expr, Type hint) {
  switch (expr.kind) {
  case Expr::Number:
    return emitLiteral(expr, hint ? hint : builder.getF32Type());
  case Expr::Name: {
    auto it = symbols.find(expr.name);
    if (it == symbols.end()) {
      SmallVector<StringRef> names;
      for (const auto &entry : symbols)
        names.push_back(entry.getKey());
      llvm::sort(names);
      error(expr.loc) << "undefined name '" << expr.name << "'" << suggest(expr.name, names);
      return failure();
    }
    return it->second.value;
  }
  case Expr::Neg: {
    FailureOr<Value> v = emitExpr(*expr.operands[0], hint);
    if (failed(v))
      return failure();
    return tl::NegOp::create(builder, source.loc(expr.loc), v->getType(), *v).getResult();
  }
  case Expr::Binary: {
    SmallVector<Value> values;
    if (failed(emitGroup({expr.operands[0].get(), expr.operands[1].get()}, values, hint)))
      return failure();
    BinaryKind kind = expr.op == '+'   ? BinaryKind::Add
                      : expr.op == '-' ? BinaryKind::Sub
                      : expr.op == '*' ? BinaryKind::Mul
                                       : BinaryKind::Div;
    // Integer division by zero is defined (0, see docs/tl-language.md), but written as a
    // literal it is a mistake.
    const Expr &rhs = *expr.operands[1];
    Type rhsType = cast<RankedTensorType>(values[1].getType()).getElementType();
    if (kind == BinaryKind::Div && rhs.kind == Expr::Number && rhs.number.value == 0 &&
        rhsType.isSignlessInteger() && !rhsType.isInteger(1)) {
      error(rhs.loc) << "integer division by zero";
      return failure();
    }
    return buildBinary(*this, kind, expr.loc, values[0], values[1],
                       ("'" + Twine(expr.op) + "'").str());
  }
  case Expr::Call:
    return emitOperatorCall(*this, expr, hint);
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Emitter::define(StringRef name, SMLoc loc, Value value) {
  auto [it, inserted] = symbols.try_emplace(name, Symbol{value, loc});
  if (!inserted) {
    InFlightDiagnostic diag = error(loc);
    diag << "'" << name << "' is already defined";
    diag.attachNote(source.loc(it->second.loc)) << "previous definition is here";
    return failure();
  }
  return success();
}

FailureOr<Value> Emitter::emitNamed(StringRef name, const Expr &expr) {
  Block &body = func.getBody().front();
  Operation *before = body.empty() ? nullptr : &body.back();
  FailureOr<Value> value = emitExpr(expr);
  if (failed(value))
    return failure();
  // The binding's name on each op it made, so options can name them (--keep-fp32=h1).
  StringAttr nameAttr = builder.getStringAttr(name);
  for (Operation &op : llvm::make_range(before ? std::next(before->getIterator()) : body.begin(),
                                        body.end()))
    op.setLoc(NameLoc::get(nameAttr, op.getLoc()));
  return value;
}

LogicalResult Emitter::emit(const Statement &stmt) {
  // Redefinitions are reported at the name, before anything to its right.
  if (stmt.kind != Statement::Train && (stmt.kind != Statement::Output || stmt.expr)) {
    auto it = symbols.find(stmt.name);
    if (it != symbols.end()) {
      InFlightDiagnostic diag = error(stmt.nameLoc);
      diag << "'" << stmt.name << "' is already defined";
      diag.attachNote(source.loc(it->second.loc)) << "previous definition is here";
      return failure();
    }
  }
  if (stmt.kind == Statement::Output) {
    for (const Output &o : outputs) {
      if (o.name == stmt.name) {
        InFlightDiagnostic diag = error(stmt.nameLoc);
        diag << "'" << stmt.name << "' is already an output";
        diag.attachNote(source.loc(o.loc)) << "previous output is here";
        return failure();
      }
    }
  }

  switch (stmt.kind) {
  case Statement::Input: {
    if (trainLoc.isValid()) {
      InFlightDiagnostic diag = error(stmt.loc);
      diag << "inputs must be declared before 'train' (its parameters and optimizer state "
              "follow them in the signature)";
      diag.attachNote(source.loc(trainLoc)) << "'train' is here";
      return failure();
    }
    Value arg = addInput(stmt.name, tensorType(stmt.type), source.loc(stmt.nameLoc));
    return define(stmt.name, stmt.nameLoc, arg);
  }
  case Statement::Train:
    return emitTrain(stmt);
  case Statement::Param: {
    RankedTensorType type = tensorType(stmt.type);
    FailureOr<DenseElementsAttr> value =
        evaluateInitializer(*this, *stmt.expr, type, stmt.name);
    if (failed(value))
      return failure();
    // Named like a binding's ops, so messages and options (--keep-fp32) can name it.
    Location loc = NameLoc::get(builder.getStringAttr(stmt.name), source.loc(stmt.expr->loc));
    Value constant = tl::ConstantOp::create(builder, loc, type, *value).getResult();
    params.push_back(Output{stmt.name, stmt.nameLoc, constant});
    return define(stmt.name, stmt.nameLoc, constant);
  }
  case Statement::Binding: {
    FailureOr<Value> value = emitNamed(stmt.name, *stmt.expr);
    if (failed(value))
      return failure();
    return define(stmt.name, stmt.nameLoc, *value);
  }
  case Statement::Output: {
    Value value;
    if (stmt.expr) {
      FailureOr<Value> emitted = emitNamed(stmt.name, *stmt.expr);
      if (failed(emitted) || failed(define(stmt.name, stmt.nameLoc, *emitted)))
        return failure();
      value = *emitted;
    } else {
      auto it = symbols.find(stmt.name);
      if (it == symbols.end()) {
        SmallVector<StringRef> names;
        for (const auto &entry : symbols)
          names.push_back(entry.getKey());
        llvm::sort(names);
        error(stmt.nameLoc) << "undefined name '" << stmt.name << "'"
                            << suggest(stmt.name, names);
        return failure();
      }
      value = it->second.value;
    }
    outputs.push_back(Output{stmt.name, stmt.loc, value});
    return success();
  }
  }
  return failure();
}

Value Emitter::addInput(StringRef name, Type type, Location loc) {
  inputNames.push_back(name.str());
  return func.getBody().front().addArgument(type, loc);
}

OwningOpRef<ModuleOp> Emitter::finish() {
  // A training step's outputs include the updated params, so it needs no output of its own.
  if (outputs.empty() && !trainLoc.isValid()) {
    error(SMLoc()) << "the program has no outputs (add an 'output NAME' statement)";
    return nullptr;
  }
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (const Output &o : outputs) {
    results.push_back(o.value);
    resultTypes.push_back(o.value.getType());
  }

  func::ReturnOp::create(builder, source.loc(outputs.empty() ? trainLoc : outputs.back().loc),
                         results);
  func.setType(builder.getFunctionType(func.getBody().front().getArgumentTypes(), resultTypes));
  for (auto [i, name] : llvm::enumerate(inputNames))
    func.setArgAttr(i, "tl.name", builder.getStringAttr(name));
  for (auto [i, o] : llvm::enumerate(outputs))
    func.setResultAttr(i, "tl.name", builder.getStringAttr(o.name));
  if (trainLoc.isValid()) {
    SmallVector<TrainParam> candidates;
    for (const Output &p : params)
      if (auto constant = p.value.getDefiningOp<tl::ConstantOp>())
        candidates.push_back({p.name.str(), constant});
    if (failed(buildTrainingStep(func, trainLoss, candidates, trainConfig, source.loc(trainLoc))))
      return nullptr;
  }
  // Every op was checked before it was built; this is a safety net that still reports at the
  // op's source location rather than producing invalid IR.
  if (failed(verify(*module)))
    return nullptr;
  return std::move(module);
}
