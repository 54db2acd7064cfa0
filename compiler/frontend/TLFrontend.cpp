// The .tl frontend entry point: parse and emit statement by statement, stop at the first error.
#include "TLFrontend.h"

#include "Emitter.h"
#include "Parser.h"

#include "TL/TLDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tlc::frontend;

OwningOpRef<ModuleOp> tlc::parseTLProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                                          llvm::StringRef funcName) {
  context->loadDialect<tlc::tl::TLDialect, func::FuncDialect>();
  Source source(sourceMgr, context);
  Parser parser(source);
  Emitter emitter(source, funcName);
  while (true) {
    Statement stmt;
    FailureOr<bool> parsed = parser.parseStatement(stmt);
    if (failed(parsed))
      return nullptr;
    if (!*parsed)
      break;
    if (failed(emitter.emit(stmt)))
      return nullptr;
  }
  return emitter.finish();
}
