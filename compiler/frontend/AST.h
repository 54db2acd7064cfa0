// The parsed form of one .tl statement: expressions, call arguments and declarations.
#ifndef TLC_COMPILER_FRONTEND_AST_H
#define TLC_COMPILER_FRONTEND_AST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlc::frontend {

/// The element types of the language, spelled as in the source (`f32`, `bf16`, ...).
enum class DType { F16, BF16, F32, F64, I32, I64, I1 };

std::optional<DType> parseDType(llvm::StringRef name);
llvm::StringRef dtypeName(DType dtype);

/// A number literal. `isInteger` when written without '.' or exponent; then `intValue` is exact.
struct NumberLit {
  std::string text; // the spelling, with a leading '-' when negated
  double value = 0;
  int64_t intValue = 0;
  bool isInteger = false;
};

struct Arg;

/// An expression node. `loc` is the token an op built from it is located at: the literal,
/// name, operator or function name.
struct Expr {
  enum Kind { Number, Name, Neg, Binary, Call };
  Kind kind;
  llvm::SMLoc loc;
  NumberLit number;                      // Number
  llvm::StringRef name;                  // Name; Call: the function
  char op = 0;                           // Binary: one of + - * /
  std::vector<std::unique_ptr<Expr>> operands; // Neg: 1, Binary: 2
  std::vector<Arg> args;                 // Call
  int height = 1;                        // depth of the tree below (bounded by the parser)

  explicit Expr(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
};

/// A call argument or keyword value: an expression, string, integer list, dtype or boolean.
struct Arg {
  enum Kind { Expression, String, List, DTypeValue, Bool };
  Kind kind = Expression;
  llvm::SMLoc loc;              // where the value starts
  llvm::StringRef keyword;      // empty for positional arguments
  llvm::SMLoc keywordLoc;
  std::unique_ptr<Expr> expr;   // Expression
  std::string string;           // String (unescaped)
  llvm::SmallVector<int64_t> list; // List
  DType dtype = DType::F32;     // DTypeValue
  bool boolean = false;         // Bool
};

/// `dtype[d0, d1, ...]`.
struct TypeSpec {
  DType dtype = DType::F32;
  llvm::SmallVector<int64_t> shape;
};

/// One statement. Outputs without an expression (`output y`) have a null `expr`.
struct Statement {
  enum Kind { Input, Param, Binding, Output, Train };
  Kind kind = Binding;
  llvm::SMLoc loc;              // the statement's first token
  llvm::StringRef name;
  llvm::SMLoc nameLoc;
  TypeSpec type;                // Input, Param
  std::unique_ptr<Expr> expr;   // Param: the initializer call; Binding; Output (optional);
                                // Train: the optimizer call (name: the loss)
};

} // namespace tlc::frontend

#endif // TLC_COMPILER_FRONTEND_AST_H
