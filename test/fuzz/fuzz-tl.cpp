// libFuzzer harness: the .tl parser and emitter (tlc::parseTLProgram) on arbitrary bytes.
#include "FuzzModule.h"
#include "Initializers.h"
#include "TLFrontend.h"

#include "llvm/Support/MemoryBuffer.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Generating a valid 2 GiB randn parameter takes tens of seconds under ASan (a "timeout" that
  // is only the input's size); 16 MiB keeps each input quick and the limit's error path covered.
  tlc::frontend::setMaxInitializerBytes(int64_t(16) << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tlcfuzz::FuzzContext fuzz;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz.tl"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tlc::parseTLProgram(sourceMgr, &fuzz.context, "main");
  tlcfuzz::checkAccepted(module);
  return 0;
}
