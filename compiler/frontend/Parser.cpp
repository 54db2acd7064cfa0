// Recursive-descent parser for .tl statements and expressions (grammar in docs/tl-language.md).
#include "Parser.h"

#include "TL/SizeLimit.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdlib>

using namespace llvm;
using namespace tlc::frontend;

/// Deeper expressions are rejected, so that later recursive walks cannot exhaust the stack.
static constexpr int kMaxExprHeight = 1000;

std::optional<DType> tlc::frontend::parseDType(StringRef name) {
  return StringSwitch<std::optional<DType>>(name)
      .Case("f16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("f32", DType::F32)
      .Case("f64", DType::F64)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Case("i1", DType::I1)
      .Default(std::nullopt);
}

StringRef tlc::frontend::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::I1: return "i1";
  }
  return "?";
}

bool tlc::frontend::isKeyword(StringRef word) {
  return word == "input" || word == "param" || word == "output" || word == "train" ||
         parseDType(word);
}

Parser::Parser(const Source &source) : source(source), lexer(source.buffer()) { advance(); }

void Parser::advance() {
  tok = lexer.next();
  while (depth > 0 && tok.is(Token::Newline))
    tok = lexer.next();
}

void Parser::consume() {
  if (tok.is(Token::LParen) || tok.is(Token::LBracket))
    ++depth;
  else if ((tok.is(Token::RParen) || tok.is(Token::RBracket)) && depth > 0)
    --depth;
  if (!tok.is(Token::Eof) && !tok.is(Token::Error))
    advance();
}

bool Parser::consumeIf(Token::Kind kind) {
  if (!tok.is(kind))
    return false;
  consume();
  return true;
}

LogicalResult Parser::error(SMLoc at, const Twine &message) {
  source.error(at) << message.str();
  return failure();
}

LogicalResult Parser::errorExpected(StringRef what) {
  if (tok.is(Token::Error))
    return error(tok.loc(), tok.message);
  return error(tok.loc(), "expected " + what + ", got " + tok.describe());
}

LogicalResult Parser::expect(Token::Kind kind, StringRef context) {
  if (tok.is(kind)) {
    consume();
    return success();
  }
  std::string what = describeKind(kind).str();
  if (!context.empty())
    what += " " + context.str();
  return errorExpected(what);
}

LogicalResult Parser::parseName(StringRef what, StringRef &name, SMLoc &loc) {
  if (!tok.is(Token::Ident))
    return errorExpected(what);
  if (isKeyword(tok.text))
    return error(tok.loc(), "'" + tok.text + "' is a keyword and cannot be used as a name");
  name = tok.text;
  loc = tok.loc();
  consume();
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

FailureOr<bool> Parser::parseStatement(Statement &stmt) {
  while (tok.is(Token::Newline) || tok.is(Token::Semicolon))
    consume();
  if (tok.is(Token::Eof))
    return false;
  if (!tok.is(Token::Ident))
    return errorExpected("a statement (input, param, output, train or a binding)");

  stmt = Statement();
  stmt.loc = tok.loc();
  StringRef head = tok.text;
  if (head == "input" || head == "param") {
    stmt.kind = head == "input" ? Statement::Input : Statement::Param;
    consume();
    if (failed(parseName("a name after '" + head.str() + "'", stmt.name, stmt.nameLoc)) ||
        failed(expect(Token::Colon, "after '" + stmt.name.str() + "'")) ||
        failed(parseType(stmt.type)))
      return failure();
    if (stmt.kind == Statement::Param) {
      if (failed(expect(Token::Equal, "and an initializer after the type of '" +
                                          stmt.name.str() + "'")))
        return failure();
      FailureOr<std::unique_ptr<Expr>> parsed = parseNamedCall("an initializer call", "initializer");
      if (failed(parsed))
        return failure();
      stmt.expr = std::move(*parsed);
    }
  } else if (head == "train") {
    // train LOSS with OPTIMIZER(...)
    stmt.kind = Statement::Train;
    consume();
    if (failed(parseName("the loss after 'train'", stmt.name, stmt.nameLoc)))
      return failure();
    if (!tok.is(Token::Ident) || tok.text != "with")
      return errorExpected("'with' and an optimizer after 'train " + stmt.name.str() + "'");
    consume();
    FailureOr<std::unique_ptr<Expr>> parsed =
        parseNamedCall("an optimizer call (sgd, adam, adamw or lion)", "optimizer");
    if (failed(parsed))
      return failure();
    stmt.expr = std::move(*parsed);
  } else if (head == "output") {
    stmt.kind = Statement::Output;
    consume();
    if (failed(parseName("a name after 'output'", stmt.name, stmt.nameLoc)))
      return failure();
    if (consumeIf(Token::Equal)) {
      FailureOr<std::unique_ptr<Expr>> expr = parseExpr();
      if (failed(expr))
        return failure();
      stmt.expr = std::move(*expr);
    }
  } else {
    stmt.kind = Statement::Binding;
    if (failed(parseName("a statement", stmt.name, stmt.nameLoc)))
      return failure();
    if (!tok.is(Token::Equal))
      return errorExpected("'=' after '" + stmt.name.str() + "'");
    consume();
    FailureOr<std::unique_ptr<Expr>> expr = parseExpr();
    if (failed(expr))
      return failure();
    stmt.expr = std::move(*expr);
  }

  if (!tok.is(Token::Newline) && !tok.is(Token::Semicolon) && !tok.is(Token::Eof))
    return errorExpected("end of statement");
  return true;
}

FailureOr<std::unique_ptr<Expr>> Parser::parseNamedCall(StringRef what, StringRef kind) {
  if (!tok.is(Token::Ident))
    return errorExpected(what);
  auto call = std::make_unique<Expr>(Expr::Call, tok.loc());
  call->name = tok.text;
  consume();
  if (!tok.is(Token::LParen))
    return errorExpected("'(' after " + kind.str() + " '" + call->name.str() + "'");
  return parseCallArgs(std::move(call));
}

LogicalResult Parser::parseType(TypeSpec &type) {
  if (!tok.is(Token::Ident))
    return errorExpected("a type such as f32[4, 8]");
  std::optional<DType> dtype = parseDType(tok.text);
  if (!dtype)
    return error(tok.loc(), "unknown dtype '" + tok.text +
                                "' (expected f16, bf16, f32, f64, i32, i64 or i1)");
  type.dtype = *dtype;
  consume();
  if (failed(expect(Token::LBracket, "after the dtype (a scalar is written f32[])")))
    return failure();
  if (consumeIf(Token::RBracket))
    return success();
  uint64_t numElements = 1;
  while (true) {
    SMLoc dimLoc = tok.loc();
    int64_t dim;
    if (failed(parseInt(dim, "a dimension")))
      return failure();
    if (dim <= 0)
      return error(dimLoc, "dimension " + Twine(dim) + " must be positive");
    // Keep element counts far from int64 overflow in every later size computation.
    if (dim > tl::kMaxElements / static_cast<int64_t>(numElements))
      return error(dimLoc, "tensor type has too many elements (more than 2^40)");
    numElements *= dim;
    type.shape.push_back(dim);
    if (consumeIf(Token::Comma))
      continue;
    return expect(Token::RBracket, "or ',' in the shape");
  }
}

LogicalResult Parser::parseNumber(const Token &t, NumberLit &out) {
  StringRef text = t.text;
  out.text = text.str();
  if (text.find_first_of(".eE") == StringRef::npos) {
    uint64_t value;
    if (text.getAsInteger(10, value) || value > uint64_t(INT64_MAX))
      return error(t.loc(), "integer " + text + " is too large");
    out.isInteger = true;
    out.intValue = static_cast<int64_t>(value);
    out.value = static_cast<double>(value);
    return success();
  }
  std::string copy = text.str();
  out.value = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(out.value))
    return error(t.loc(), "number " + text + " is out of range");
  out.isInteger = false;
  return success();
}

LogicalResult Parser::parseInt(int64_t &value, StringRef what) {
  bool negative = false;
  SMLoc start = tok.loc();
  if (tok.is(Token::Minus)) {
    negative = true;
    consume();
  }
  if (!tok.is(Token::Number))
    return errorExpected(what);
  NumberLit lit;
  if (failed(parseNumber(tok, lit)))
    return failure();
  if (!lit.isInteger)
    return error(start, what + " must be an integer, got " + tok.text);
  value = negative ? -lit.intValue : lit.intValue;
  consume();
  return success();
}

LogicalResult Parser::parseList(SmallVectorImpl<int64_t> &values) {
  if (failed(expect(Token::LBracket)))
    return failure();
  if (consumeIf(Token::RBracket))
    return success();
  while (true) {
    int64_t v;
    if (failed(parseInt(v, "an integer")))
      return failure();
    values.push_back(v);
    if (consumeIf(Token::Comma))
      continue;
    return expect(Token::RBracket, "or ',' in the list");
  }
}

LogicalResult Parser::parseString(std::string &out) {
  StringRef body = tok.text.drop_front().drop_back();
  out.clear();
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size())
      ++i;
    out.push_back(body[i]);
  }
  consume();
  return success();
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

static std::unique_ptr<Expr> makeBinary(char op, SMLoc loc, std::unique_ptr<Expr> lhs,
                                        std::unique_ptr<Expr> rhs) {
  auto e = std::make_unique<Expr>(Expr::Binary, loc);
  e->op = op;
  e->height = std::max(lhs->height, rhs->height) + 1;
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

FailureOr<std::unique_ptr<Expr>>
Parser::parseLeftAssociative(Token::Kind op1, Token::Kind op2,
                             FailureOr<std::unique_ptr<Expr>> (Parser::*parseOperand)()) {
  FailureOr<std::unique_ptr<Expr>> lhs = (this->*parseOperand)();
  if (failed(lhs))
    return failure();
  std::unique_ptr<Expr> result = std::move(*lhs);
  while (tok.is(op1) || tok.is(op2)) {
    char op = tok.text[0];
    SMLoc loc = tok.loc();
    consume();
    FailureOr<std::unique_ptr<Expr>> rhs = (this->*parseOperand)();
    if (failed(rhs))
      return failure();
    result = makeBinary(op, loc, std::move(result), std::move(*rhs));
    if (result->height > kMaxExprHeight)
      return error(loc, "expression is too deeply nested (more than " +
                                    Twine(kMaxExprHeight) + " levels)");
  }
  return result;
}

FailureOr<std::unique_ptr<Expr>> Parser::parseExpr() {
  return parseLeftAssociative(Token::Plus, Token::Minus, &Parser::parseTerm);
}

FailureOr<std::unique_ptr<Expr>> Parser::parseTerm() {
  return parseLeftAssociative(Token::Star, Token::Slash, &Parser::parseUnary);
}

FailureOr<std::unique_ptr<Expr>> Parser::parseUnary() {
  if (!tok.is(Token::Minus))
    return parsePrimary();
  SMLoc loc = tok.loc();
  consume();
  if (++exprDepth > kMaxExprHeight)
    return error(loc, "expression is too deeply nested (more than " +
                                  Twine(kMaxExprHeight) + " levels)");
  FailureOr<std::unique_ptr<Expr>> operand = parseUnary();
  --exprDepth;
  if (failed(operand))
    return failure();
  // A negated literal is a literal (`-3`, `axis=-1`), so it still takes the other side's dtype.
  if ((*operand)->kind == Expr::Number) {
    (*operand)->number.value = -(*operand)->number.value;
    (*operand)->number.intValue = -(*operand)->number.intValue;
    std::string &text = (*operand)->number.text;
    text = text.front() == '-' ? text.substr(1) : "-" + text;
    (*operand)->loc = loc;
    return operand;
  }
  auto e = std::make_unique<Expr>(Expr::Neg, loc);
  e->height = (*operand)->height + 1;
  e->operands.push_back(std::move(*operand));
  return e;
}

FailureOr<std::unique_ptr<Expr>> Parser::parsePrimary() {
  if (tok.is(Token::Number)) {
    auto e = std::make_unique<Expr>(Expr::Number, tok.loc());
    if (failed(parseNumber(tok, e->number)))
      return failure();
    consume();
    return e;
  }
  if (tok.is(Token::LParen)) {
    SMLoc loc = tok.loc();
    consume();
    if (++exprDepth > kMaxExprHeight)
      return error(loc, "expression is too deeply nested (more than " +
                                    Twine(kMaxExprHeight) + " levels)");
    FailureOr<std::unique_ptr<Expr>> inner = parseExpr();
    --exprDepth;
    if (failed(inner) || failed(expect(Token::RParen, "to close '('")))
      return failure();
    return inner;
  }
  if (tok.is(Token::Ident)) {
    if (isKeyword(tok.text))
      return error(tok.loc(), "expected an expression, got keyword '" + tok.text + "'");
    auto e = std::make_unique<Expr>(Expr::Name, tok.loc());
    e->name = tok.text;
    consume();
    if (!tok.is(Token::LParen))
      return e;
    e->kind = Expr::Call;
    return parseCallArgs(std::move(e));
  }
  return errorExpected("an expression");
}

FailureOr<std::unique_ptr<Expr>> Parser::parseCallArgs(std::unique_ptr<Expr> call) {
  if (++exprDepth > kMaxExprHeight)
    return error(call->loc, "expression is too deeply nested (more than " +
                                        Twine(kMaxExprHeight) + " levels)");
  llvm::scope_exit done([&] { --exprDepth; });
  if (failed(expect(Token::LParen)))
    return failure();
  if (consumeIf(Token::RParen))
    return call;
  while (true) {
    Arg arg;
    // `name = value` is a keyword argument; one token of lookahead past the name decides.
    if (tok.is(Token::Ident)) {
      Lexer ahead = lexer;
      Token next = ahead.next();
      while (next.is(Token::Newline))
        next = ahead.next();
      if (next.is(Token::Equal)) {
        arg.keyword = tok.text;
        arg.keywordLoc = tok.loc();
        consume();
        consume();
      }
    }
    if (failed(parseValue(arg)))
      return failure();
    if (arg.expr)
      call->height = std::max(call->height, arg.expr->height + 1);
    call->args.push_back(std::move(arg));
    if (consumeIf(Token::Comma))
      continue;
    if (failed(expect(Token::RParen, "or ',' in the arguments of '" + call->name.str() + "'")))
      return failure();
    return call;
  }
}

LogicalResult Parser::parseValue(Arg &arg) {
  arg.loc = tok.loc();
  if (tok.is(Token::String)) {
    arg.kind = Arg::String;
    return parseString(arg.string);
  }
  if (tok.is(Token::LBracket)) {
    arg.kind = Arg::List;
    return parseList(arg.list);
  }
  if (tok.is(Token::Ident)) {
    if (std::optional<DType> dtype = parseDType(tok.text)) {
      arg.kind = Arg::DTypeValue;
      arg.dtype = *dtype;
      consume();
      return success();
    }
    if (tok.text == "true" || tok.text == "false") {
      arg.kind = Arg::Bool;
      arg.boolean = tok.text == "true";
      consume();
      return success();
    }
  }
  if (tok.is(Token::RParen) || tok.is(Token::Comma))
    return errorExpected("an argument");
  arg.kind = Arg::Expression;
  FailureOr<std::unique_ptr<Expr>> expr = parseExpr();
  if (failed(expr))
    return failure();
  arg.expr = std::move(*expr);
  return success();
}
