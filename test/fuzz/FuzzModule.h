// What every compiler harness does with a frontend's result: diagnostics are dropped (a located
// error is a fine outcome), and a module the frontend accepted must verify.
#ifndef TLC_TEST_FUZZ_FUZZMODULE_H
#define TLC_TEST_FUZZ_FUZZMODULE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace tlcfuzz {

/// A context per input, so that nothing one input uniques (types, constants) outlives it.
struct FuzzContext {
  mlir::MLIRContext context{mlir::MLIRContext::Threading::DISABLED};
  mlir::ScopedDiagnosticHandler quiet{&context, [](mlir::Diagnostic &) {
                                        return mlir::success();
                                      }};
};

/// An accepted input whose module does not verify is a frontend bug (tlc would report an
/// internal error far from the cause): stop, so that libFuzzer keeps the input.
inline void checkAccepted(mlir::OwningOpRef<mlir::ModuleOp> &module) {
  if (!module)
    return;
  mlir::MLIRContext *context = module->getContext();
  mlir::ScopedDiagnosticHandler print(context, [](mlir::Diagnostic &diag) {
    llvm::errs() << "verifier: " << diag << "\n";
    return mlir::success();
  });
  if (mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "fuzz: the frontend accepted the input but built an invalid module\n";
    std::abort();
  }
}

} // namespace tlcfuzz

#endif // TLC_TEST_FUZZ_FUZZMODULE_H
