// libFuzzer harness: the .tl parser and emitter (tlc::parseTLProgram) on arbitrary bytes.
#include "FuzzModule.h"
#include "TLFrontend.h"

#include "llvm/Support/MemoryBuffer.h"

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
