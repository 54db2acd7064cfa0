// Maps the instruction set extensions of a CPU (LLVM's names) to the features libtlcrt detects
// at run time (tlc/cpu_features.h), for the variants of a dispatched object.
#ifndef TLC_TARGETS_CPU_RUNTIMEFEATURES_H
#define TLC_TARGETS_CPU_RUNTIMEFEATURES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tlc {

/// The architectures whose CPUs libtlcrt can tell apart at run time.
enum class DispatchArch { X86_64, AArch64 };

/// Every feature of the x86 CPU `cpu` (an LLVM -march name), with the features they imply.
llvm::StringMap<bool> x86CPUFeatures(llvm::StringRef cpu);

/// Every instruction set extension of the AArch64 CPU `cpu` (an LLVM -mcpu name): its
/// architecture version's and its own; empty for an unknown name.
llvm::StringMap<bool> aarch64CPUFeatures(llvm::StringRef cpu);

/// The runtime feature names a CPU of `arch` needs at run time: those in `enabled` (its feature
/// set) and those `codegenHas` reports (the code generator's view of the same CPU); nullopt,
/// with `unknown` set to its name, if `enabled` has a feature that generated code could use but
/// the runtime cannot detect.
std::optional<std::vector<std::string>>
runtimeFeatures(DispatchArch arch, const llvm::StringMap<bool> &enabled,
                llvm::function_ref<bool(llvm::StringRef)> codegenHas, std::string &unknown);

} // namespace tlc

#endif // TLC_TARGETS_CPU_RUNTIMEFEATURES_H
