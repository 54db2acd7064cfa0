// The run-time feature tables of tlc/cpu_features.h as LLVM feature names, for the compiler.
#ifndef TLC_TARGETS_CPU_CPUFEATURENAMES_H
#define TLC_TARGETS_CPU_CPUFEATURENAMES_H

#include "tlc/cpu_features.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace tlc {

/// The feature names of the runtime's table for `arch` ("x86_64" or "aarch64"; empty for
/// any other), in table order: a name's index is its bit in a variant's feature mask.
inline llvm::ArrayRef<const char *> runtimeCPUFeatureNames(llvm::StringRef arch) {
  static const char *const x86[] = {
#define TLC_NAME_(id, name, leaf, subleaf, reg, bit, state) name,
      TLC_X86_CPU_FEATURES(TLC_NAME_)
#undef TLC_NAME_
  };
  static const char *const aarch64[] = {
#define TLC_NAME_(id, name, word, bits) name,
      TLC_AARCH64_CPU_FEATURES(TLC_NAME_)
#undef TLC_NAME_
  };
  if (arch == "x86_64")
    return x86;
  if (arch == "aarch64")
    return aarch64;
  return {};
}

} // namespace tlc

#endif // TLC_TARGETS_CPU_CPUFEATURENAMES_H
