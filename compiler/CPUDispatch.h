// Objects for several CPUs (`--cpu=a,b,...`): which variants, and one module holding them all
// behind a NAME_run that picks one at run time (see docs/generated-abi.md).
#ifndef TLC_COMPILER_CPUDISPATCH_H
#define TLC_COMPILER_CPUDISPATCH_H

#include "compiler/Signature.h"
#include "targets/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace tlc {

/// The CPUs of a --cpu value ("a,b,..."; one entry for a single cpu, none for ""); errors at
/// `loc` for empty entries and duplicates.
mlir::FailureOr<llvm::SmallVector<std::string>> splitCPUList(llvm::StringRef spec,
                                                             mlir::Location loc);

/// Policy: resolves each cpu as a dispatch variant of `target`, ordered most capable first
/// (most run-time features; ties keep the given order). Errors for a cpu of another target,
/// an unknown cpu, and where the target cannot dispatch.
mlir::FailureOr<std::vector<CPUVariant>> resolveCPUVariants(llvm::ArrayRef<std::string> cpus,
                                                            const Target &target, unsigned optLevel,
                                                            mlir::Location loc);

/// Lowers the bufferized `module` once per variant with the target's code generation and
/// returns one LLVM-dialect module: every variant's functions (suffixed .CPU, internal), one
/// copy of identical constants, and per model (a training step's object has two) the
/// descriptor NAME_info and the dispatching NAME_run.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
lowerForCPUDispatch(mlir::ModuleOp module, const Target &target,
                    llvm::ArrayRef<CPUVariant> variants, unsigned optLevel,
                    llvm::ArrayRef<ModelSignature *> models);

} // namespace tlc

#endif // TLC_COMPILER_CPUDISPATCH_H
