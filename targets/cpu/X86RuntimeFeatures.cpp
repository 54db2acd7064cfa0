// x86 CPU features to the runtime's detectable features (see X86RuntimeFeatures.h).
#include "targets/cpu/X86RuntimeFeatures.h"

#include "tlc/cpu_features.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/TargetParser/X86TargetParser.h"

using namespace tlc;

/// Features no generated code can use, so a variant may enable them without a run-time check:
/// x87 and long mode are part of every x86-64 CPU, and the rest (system, security, cache
/// control, transactional memory, AMX, key locker, ...) are reached only through intrinsics,
/// which tlc never emits.
static constexpr llvm::StringLiteral kUnusedByGeneratedCode[] = {
    "64bit",    "x87",      "xsavec",    "xsaveopt",   "xsaves",      "fsgsbase", "rdrnd",
    "rdseed",   "rdpid",    "rdpru",     "clflushopt", "clwb",        "clzero",   "wbnoinvd",
    "mwaitx",   "pku",      "invpcid",   "sgx",        "shstk",       "ptwrite",  "pconfig",
    "enqcmd",   "movdiri",  "movdir64b", "serialize",  "tsxldtrk",    "waitpkg",  "uintr",
    "cldemote", "hreset",   "kl",        "widekl",     "prefetchi",   "rtm",      "lwp",
    "amx-tile", "amx-int8", "amx-bf16",  "amx-fp16",   "amx-complex", "sm3",      "sm4",
    "sha512",   "raoint",   "cmpccxadd", "usermsr"};

llvm::StringMap<bool> tlc::x86CPUFeatures(llvm::StringRef cpu) {
  llvm::SmallVector<llvm::StringRef> direct;
  llvm::X86::getFeaturesForCPU(cpu, direct);
  llvm::StringMap<bool> features;
  for (llvm::StringRef f : direct) {
    features[f] = true; // updateImpliedFeatures sets what `f` implies, not `f` itself
    llvm::X86::updateImpliedFeatures(f, /*Enabled=*/true, features);
  }
  return features;
}

std::optional<std::vector<std::string>>
tlc::x86RuntimeFeatures(const llvm::StringMap<bool> &enabled,
                        llvm::function_ref<bool(llvm::StringRef)> codegenHas,
                        std::string &unknown) {
  static const char *const detectable[] = {
#define TLC_NAME_(id, name, leaf, subleaf, reg, bit, state) name,
      TLC_X86_CPU_FEATURES(TLC_NAME_)
#undef TLC_NAME_
  };
  // Sorted, so the result and any error do not depend on hash order.
  llvm::SmallVector<llvm::StringRef> names;
  for (const auto &entry : enabled)
    if (entry.second)
      names.push_back(entry.first());
  llvm::sort(names);
  for (llvm::StringRef name : names) {
    if (llvm::is_contained(detectable, name))
      continue; // below, in table order
    if (llvm::is_contained(kUnusedByGeneratedCode, name))
      continue;
    unknown = name.str();
    return std::nullopt;
  }
  // The target parser's lists leave out some features the code generator assumes (znver4 has
  // no "cmov"), so both views count.
  std::vector<std::string> required;
  for (const char *name : detectable) {
    auto it = enabled.find(name);
    if ((it != enabled.end() && it->second) || codegenHas(name))
      required.push_back(name);
  }
  return required;
}
