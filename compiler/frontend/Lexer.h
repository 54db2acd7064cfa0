// Tokens of the .tl language and the lexer that produces them one at a time.
#ifndef TLC_COMPILER_FRONTEND_LEXER_H
#define TLC_COMPILER_FRONTEND_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace tlc::frontend {

struct Token {
  enum Kind {
    Eof,
    Newline,
    Semicolon,
    Ident,
    Number,
    String,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Colon,
    Equal,
    Plus,
    Minus,
    Star,
    Slash,
    Error, // a lexical error; `message` says what is wrong
  };
  Kind kind = Eof;
  llvm::StringRef text; // the token's spelling in the source
  std::string message;  // Error only

  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(text.data()); }
  bool is(Kind k) const { return kind == k; }
  /// How the token reads in a diagnostic: `'foo'`, `end of line`, `end of file`.
  std::string describe() const;
};

/// Spelling of a token kind in diagnostics (`')'`, `an identifier`, ...).
llvm::StringRef describeKind(Token::Kind kind);

/// Splits a buffer into tokens lazily, so that errors surface in source order. Copyable: a copy
/// is a lookahead cursor.
class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer) : cur(buffer.begin()), end(buffer.end()) {}
  Token next();

private:
  Token make(Token::Kind kind, const char *start) const;
  Token error(const char *start, const char *stop, std::string message) const;
  Token lexNumber(const char *start);
  Token lexString(const char *start);

  const char *cur;
  const char *end;
};

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_LEXER_H
