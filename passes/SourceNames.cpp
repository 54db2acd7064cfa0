// How reports and profiles name an op's source.
#include "passes/SourceNames.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;

std::string tlc::describeLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", llvm::sys::path::filename(file.getFilename().getValue()),
                         file.getLine(), file.getColumn())
        .str();
  if (auto name = dyn_cast<NameLoc>(loc)) {
    // A .tl binding's name wraps its source position, which says more; an ONNX node's wraps
    // the model file (line 0), so its name is the location.
    if (auto file = dyn_cast<FileLineColLoc>(name.getChildLoc()); file && file.getLine() > 0)
      return describeLocation(file);
    return name.getName().str();
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    std::string text;
    for (Location inner : fused.getLocations())
      if (std::string s = describeLocation(inner); !s.empty())
        text += (text.empty() ? "" : " + ") + s;
    return text;
  }
  return "";
}
