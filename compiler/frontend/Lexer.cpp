// The .tl lexer: identifiers, numbers, strings, punctuation, newlines and comments.
#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;
using namespace tlc::frontend;

static bool isIdentStart(char c) { return isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return isAlnum(c) || c == '_'; }

/// A character as it should appear in a message: printable ones quoted, others as hex.
static std::string describeChar(char c) {
  if (isPrint(c))
    return std::string("'") + c + "'";
  return "0x" + utohexstr(static_cast<unsigned char>(c), /*LowerCase=*/true, /*Width=*/2);
}

StringRef tlc::frontend::describeKind(Token::Kind kind) {
  switch (kind) {
  case Token::Eof: return "end of file";
  case Token::Newline: return "end of line";
  case Token::Semicolon: return "';'";
  case Token::Ident: return "an identifier";
  case Token::Number: return "a number";
  case Token::String: return "a string";
  case Token::LParen: return "'('";
  case Token::RParen: return "')'";
  case Token::LBracket: return "'['";
  case Token::RBracket: return "']'";
  case Token::Comma: return "','";
  case Token::Colon: return "':'";
  case Token::Equal: return "'='";
  case Token::Plus: return "'+'";
  case Token::Minus: return "'-'";
  case Token::Star: return "'*'";
  case Token::Slash: return "'/'";
  case Token::Error: return "an invalid token";
  }
  return "a token";
}

std::string Token::describe() const {
  switch (kind) {
  case Eof:
  case Newline:
  case Error:
    return describeKind(kind).str();
  case String:
    return "string " + text.str();
  default:
    return "'" + text.str() + "'";
  }
}

Token Lexer::make(Token::Kind kind, const char *start) const {
  Token tok;
  tok.kind = kind;
  tok.text = StringRef(start, cur - start);
  return tok;
}

Token Lexer::error(const char *start, const char *stop, std::string message) const {
  Token tok;
  tok.kind = Token::Error;
  tok.text = StringRef(start, stop - start);
  tok.message = std::move(message);
  return tok;
}

Token Lexer::next() {
  // Skip blanks and comments (a comment ends before its newline, which is a token).
  while (cur != end) {
    if (*cur == ' ' || *cur == '\t' || *cur == '\r' || *cur == '\f' || *cur == '\v') {
      ++cur;
    } else if (*cur == '#') {
      while (cur != end && *cur != '\n')
        ++cur;
    } else {
      break;
    }
  }
  const char *start = cur;
  if (cur == end)
    return make(Token::Eof, start);
  char c = *cur++;
  switch (c) {
  case '\n': return make(Token::Newline, start);
  case ';': return make(Token::Semicolon, start);
  case '(': return make(Token::LParen, start);
  case ')': return make(Token::RParen, start);
  case '[': return make(Token::LBracket, start);
  case ']': return make(Token::RBracket, start);
  case ',': return make(Token::Comma, start);
  case ':': return make(Token::Colon, start);
  case '=': return make(Token::Equal, start);
  case '+': return make(Token::Plus, start);
  case '-': return make(Token::Minus, start);
  case '*': return make(Token::Star, start);
  case '/': return make(Token::Slash, start);
  case '"': return lexString(start);
  default: break;
  }
  if (isDigit(c))
    return lexNumber(start);
  if (isIdentStart(c)) {
    while (cur != end && isIdentChar(*cur))
      ++cur;
    return make(Token::Ident, start);
  }
  return error(start, cur, "unexpected character " + describeChar(c));
}

Token Lexer::lexNumber(const char *start) {
  auto digits = [&] {
    const char *begin = cur;
    while (cur != end && isDigit(*cur))
      ++cur;
    return cur != begin;
  };
  digits();
  bool ok = true;
  if (cur != end && *cur == '.') {
    ++cur;
    ok = digits();
  }
  if (ok && cur != end && (*cur == 'e' || *cur == 'E')) {
    ++cur;
    if (cur != end && (*cur == '+' || *cur == '-'))
      ++cur;
    ok = digits();
  }
  // A number glued to letters, digits or dots (`12abc`, `1.2.3`, `1e`) is one bad token.
  while (cur != end && (isIdentChar(*cur) || *cur == '.')) {
    ++cur;
    ok = false;
  }
  if (!ok)
    return error(start, cur, "invalid number '" + std::string(start, cur) + "'");
  return make(Token::Number, start);
}

Token Lexer::lexString(const char *start) {
  while (cur != end && *cur != '"' && *cur != '\n') {
    if (*cur == '\\') {
      if (cur + 1 == end || (cur[1] != '"' && cur[1] != '\\')) {
        if (cur + 1 == end || cur[1] == '\n')
          break;
        return error(cur, cur + 2,
                     "invalid escape '\\" + std::string(1, cur[1]) +
                         "' in string (only \\\" and \\\\ are allowed)");
      }
      ++cur;
    }
    ++cur;
  }
  if (cur == end || *cur != '"')
    return error(start, start + 1, "unterminated string");
  ++cur;
  return make(Token::String, start);
}
