// The small interface every code generation backend implements, and the registry of backends.
#ifndef TLC_TARGETS_TARGET_H
#define TLC_TARGETS_TARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tlc {

/// What a target writes.
enum class OutputKind { LLVMIR, Assembly, Object };

/// Options a target reads; `cpu` empty means the target's default, "native" the host.
struct TargetOptions {
  std::string cpu;
  unsigned optLevel = 3;
};

class Target {
public:
  virtual ~Target() = default;
  /// The name users pass to `--target` (e.g. "x86_64").
  virtual llvm::StringRef getName() const = 0;
  virtual llvm::StringRef getDescription() const = 0;
  /// Adds the passes that take bufferized IR (linalg on memrefs, with the entry point built) to
  /// the LLVM dialect.
  virtual void addCodegenPasses(mlir::OpPassManager &pm, const TargetOptions &options) const = 0;
  /// Checks options (e.g. that the CPU exists) before any work; emits errors at `loc`.
  virtual mlir::LogicalResult verifyOptions(const TargetOptions &options,
                                            mlir::Location loc) const = 0;
  /// Translates an LLVM-dialect module and writes it as `kind`.
  virtual mlir::LogicalResult serialize(mlir::ModuleOp module, const TargetOptions &options,
                                        OutputKind kind, llvm::raw_pwrite_stream &os) const = 0;
  /// Whether this target's code runs on the machine tlc runs on.
  virtual bool isHost() const = 0;
  /// The C compiler driver that links objects of this target (for `--shared`).
  virtual llvm::StringRef getLinkerDriver() const = 0;
};

/// Registers the built-in targets (idempotent).
void registerAllTargets();
void registerTarget(std::unique_ptr<Target> target);
/// The target named `name`, or null.
const Target *lookupTarget(llvm::StringRef name);
std::vector<const Target *> getRegisteredTargets();

} // namespace tlc

#endif // TLC_TARGETS_TARGET_H
