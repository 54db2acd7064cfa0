// tlc-parse: parses a .tl file and prints the tl-dialect module (a frontend test and fuzz target).
#include "TLFrontend.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional, llvm::cl::desc("<file.tl>"),
                                            llvm::cl::init("-"));
static llvm::cl::opt<std::string> funcName("name", llvm::cl::desc("name of the emitted function"),
                                           llvm::cl::init("main"));
static llvm::cl::opt<bool> debugInfo("mlir-print-debuginfo",
                                     llvm::cl::desc("print op locations"), llvm::cl::init(false));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv, "tlc-parse: .tl to tl dialect\n");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (!file) {
    llvm::errs() << "tlc-parse: cannot open '" << inputFile << "': " << file.getError().message()
                 << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  mlir::MLIRContext context;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module = tlc::parseTLProgram(sourceMgr, &context, funcName);
  if (!module)
    return 1;
  mlir::OpPrintingFlags flags;
  if (debugInfo)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(llvm::outs(), flags);
  llvm::outs() << "\n";
  return 0;
}
