// The .tl source being compiled: token positions to FileLineColLoc.
#include "Source.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tlc::frontend;

Source::Source(SourceMgr &mgr, mlir::MLIRContext *ctx)
    : mgr(mgr), ctx(ctx), bufferId(mgr.getMainFileID()),
      name(mgr.getMemoryBuffer(bufferId)->getBufferIdentifier().str()) {}

StringRef Source::buffer() const { return mgr.getMemoryBuffer(bufferId)->getBuffer(); }

std::string Source::directory() const {
  if (name.empty() || name == "-" || name == "<stdin>")
    return ".";
  StringRef dir = sys::path::parent_path(name);
  return dir.empty() ? "." : dir.str();
}

std::string tlc::frontend::typeName(mlir::Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

mlir::Location Source::loc(SMLoc at) const {
  if (!at.isValid())
    return mlir::FileLineColLoc::get(ctx, name, 1, 1);
  auto [line, col] = mgr.getLineAndColumn(at, bufferId);
  return mlir::FileLineColLoc::get(ctx, name, line, col);
}
