// Recursive-descent parser for .tl: one statement at a time, reporting the first error.
#ifndef TLC_COMPILER_FRONTEND_PARSER_H
#define TLC_COMPILER_FRONTEND_PARSER_H

#include "AST.h"
#include "Lexer.h"
#include "Source.h"

#include "llvm/Support/LogicalResult.h"

namespace tlc::frontend {

/// True for the reserved words `input`, `param`, `output` and the dtype names.
bool isKeyword(llvm::StringRef word);

class Parser {
public:
  explicit Parser(const Source &source);

  /// Parses the next statement into `stmt`. Returns true when one was parsed, false at the end
  /// of the file, and failure (after reporting it) on an error.
  llvm::FailureOr<bool> parseStatement(Statement &stmt);

private:
  void advance();
  /// Consumes the current token, tracking bracket depth (newlines inside brackets are skipped).
  void consume();
  bool consumeIf(Token::Kind kind);
  llvm::LogicalResult expect(Token::Kind kind, llvm::StringRef context = "");
  /// Reports "expected WHAT, got TOKEN" (or the lexical error the current token carries).
  llvm::LogicalResult errorExpected(llvm::StringRef what);
  llvm::LogicalResult error(llvm::SMLoc at, const llvm::Twine &message);

  llvm::LogicalResult parseName(llvm::StringRef what, llvm::StringRef &name, llvm::SMLoc &loc);
  llvm::LogicalResult parseType(TypeSpec &type);
  llvm::LogicalResult parseNumber(const Token &tok, NumberLit &out);
  llvm::LogicalResult parseInt(int64_t &value, llvm::StringRef what);
  llvm::LogicalResult parseList(llvm::SmallVectorImpl<int64_t> &values);
  llvm::LogicalResult parseString(std::string &out);

  /// One precedence level: operands from `parseOperand`, joined left to right by op1/op2.
  llvm::FailureOr<std::unique_ptr<Expr>>
  parseLeftAssociative(Token::Kind op1, Token::Kind op2,
                       llvm::FailureOr<std::unique_ptr<Expr>> (Parser::*parseOperand)());
  llvm::FailureOr<std::unique_ptr<Expr>> parseExpr();
  llvm::FailureOr<std::unique_ptr<Expr>> parseTerm();
  llvm::FailureOr<std::unique_ptr<Expr>> parseUnary();
  llvm::FailureOr<std::unique_ptr<Expr>> parsePrimary();
  llvm::FailureOr<std::unique_ptr<Expr>> parseCallArgs(std::unique_ptr<Expr> call);
  /// NAME(ARGS) where a statement requires a call (an initializer, an optimizer): `what` is
  /// expected, `kind` names it in the message for a missing '('.
  llvm::FailureOr<std::unique_ptr<Expr>> parseNamedCall(llvm::StringRef what,
                                                        llvm::StringRef kind);
  llvm::LogicalResult parseValue(Arg &arg);

  const Source &source;
  Lexer lexer;
  Token tok;
  int depth = 0;
  int exprDepth = 0;
};

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_PARSER_H
