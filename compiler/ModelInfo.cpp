// The model descriptor embedded in every compiled object (see ModelInfo.h).
#include "compiler/ModelInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tlc;

std::string tlc::formatModelInfo(const ModelSignature &sig,
                                 llvm::ArrayRef<std::string> cpuVariants) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "tlc-model-info 1\nname " << sig.name << "\nworkspace " << sig.workspaceSize << "\n";
  auto tensor = [&](llvm::StringRef kind, const TensorSpec &t) {
    std::string dtype = cTypeOf(t).second.drop_front(10).lower();
    os << kind << " " << t.name << " " << dtype << " ";
    if (t.type.getRank() == 0)
      os << "scalar";
    llvm::interleave(t.type.getShape(), os, "x");
    os << "\n";
  };
  for (const TensorSpec &t : sig.inputs)
    tensor("input", t);
  for (const TensorSpec &t : sig.outputs)
    tensor("output", t);
  for (const std::string &cpu : cpuVariants)
    os << "cpu " << cpu << "\n";
  return s;
}

/// Appends the exported constant byte array `name` holding `bytes` to `module`.
static void addBytes(ModuleOp module, const std::string &name, llvm::StringRef bytes,
                     unsigned alignment) {
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<LLVM::LLVMDialect>();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), bytes.size());
  auto global = LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                                       LLVM::Linkage::External, name, b.getStringAttr(bytes));
  if (alignment > 1)
    global.setAlignment(alignment);
}

void tlc::addModelInfo(ModuleOp module, const ModelSignature &sig,
                       llvm::ArrayRef<std::string> cpuVariants) {
  std::string text = formatModelInfo(sig, cpuVariants);
  text.push_back('\0');
  addBytes(module, sig.name + "_info", text, 1);
  // The training state's initial bytes, which NAME_init_state (in the header) copies.
  if (sig.train)
    addBytes(module, sig.train->model + "_initial_state", initialStateBytes(*sig.train), 64);
}

void tlc::addManifest(ModuleOp module, llvm::StringRef name, llvm::StringRef manifest) {
  addBytes(module, (name + "_manifest").str(), manifest, kManifestAlignment);
}
