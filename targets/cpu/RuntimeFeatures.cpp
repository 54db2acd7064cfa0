// CPU features to the runtime's detectable features (see RuntimeFeatures.h).
#include "targets/cpu/RuntimeFeatures.h"

#include "targets/cpu/CPUFeatureNames.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/TargetParser/AArch64TargetParser.h"
#include "llvm/TargetParser/X86TargetParser.h"

using namespace tlc;

/// Features no generated code can use, so a variant may enable them without a run-time check:
/// x87 and long mode are part of every x86-64 CPU, and the rest (system, security, cache
/// control, transactional memory, AMX, key locker, ...) are reached only through intrinsics,
/// which tlc never emits.
static constexpr llvm::StringLiteral kX86UnusedByGeneratedCode[] = {
    "64bit",    "x87",      "xsavec",    "xsaveopt",   "xsaves",      "fsgsbase", "rdrnd",
    "rdseed",   "rdpid",    "rdpru",     "clflushopt", "clwb",        "clzero",   "wbnoinvd",
    "mwaitx",   "pku",      "invpcid",   "sgx",        "shstk",       "ptwrite",  "pconfig",
    "enqcmd",   "movdiri",  "movdir64b", "serialize",  "tsxldtrk",    "waitpkg",  "uintr",
    "cldemote", "hreset",   "kl",        "widekl",     "prefetchi",   "rtm",      "lwp",
    "amx-tile", "amx-int8", "amx-bf16",  "amx-fp16",   "amx-complex", "sm3",      "sm4",
    "sha512",   "raoint",   "cmpccxadd", "usermsr"};

/// AArch64 extensions generated code does not use: system registers and instructions
/// (RAS, statistical profiling, tracing, virtualization, memory tagging, pointer
/// authentication and branch targets, which tlc does not enable), speculation barriers, cache
/// maintenance and hint instructions, random numbers, transactional memory, and the streaming
/// SME modes (entered only through attributes tlc never sets).
static constexpr llvm::StringLiteral kAArch64UnusedByGeneratedCode[] = {
    "ras",     "rasv2",    "spe",      "spe-eef", "perfmon", "trbe",  "ete",     "brbe",
    "ssbs",    "sb",       "predres",  "specres2", "ccdp",   "ccpp",  "mte",     "rand",
    "bti",     "pauth",    "pauth-lr", "dit",     "lor",     "pan",   "pan-rwv", "uaops",
    "vh",      "sel2",     "tracev8.4", "am",     "amvs",    "mpam",  "nv",      "tlb-rmi",
    "ecv",     "fgt",      "wfxt",     "xs",      "hcx",     "hbc",   "tme",     "the",
    "clrbhb",  "gcs",      "chk",      "lse2",    "el2vmsa", "el3",   "ccidx",   "cpa",
    "sme",     "sme2",     "sme2p1",   "sme-f64f64", "sme-i16i64", "sme-fa64", "sme-f16f16",
    "sme-b16b16", "rme",   "nmi",      "pcdphint", "rcpc3",  "lse128", "d128", "ite",
    "ls64",    "crypto",   "fpac",     "specrestrict"};

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

llvm::StringMap<bool> tlc::aarch64CPUFeatures(llvm::StringRef cpu) {
  llvm::StringMap<bool> features;
  std::optional<llvm::AArch64::CpuInfo> info = llvm::AArch64::parseCpu(cpu);
  if (!info)
    return features;
  std::vector<llvm::StringRef> names;
  llvm::AArch64::getExtensionFeatures(info->getImpliedExtensions(), names);
  for (llvm::StringRef name : names)
    if (name.consume_front("+"))
      features[name] = true;
  return features;
}

std::optional<std::vector<std::string>>
tlc::runtimeFeatures(DispatchArch arch, const llvm::StringMap<bool> &enabled,
                     llvm::function_ref<bool(llvm::StringRef)> codegenHas,
                     std::string &unknown) {
  bool isX86 = arch == DispatchArch::X86_64;
  llvm::ArrayRef<const char *> detectable = runtimeCPUFeatureNames(isX86 ? "x86_64" : "aarch64");
  llvm::ArrayRef<llvm::StringLiteral> unused =
      isX86 ? llvm::ArrayRef(kX86UnusedByGeneratedCode)
            : llvm::ArrayRef(kAArch64UnusedByGeneratedCode);
  // Sorted, so the result and any error do not depend on hash order.
  llvm::SmallVector<llvm::StringRef> names;
  for (const auto &entry : enabled)
    if (entry.second)
      names.push_back(entry.first());
  llvm::sort(names);
  for (llvm::StringRef name : names) {
    if (llvm::is_contained(detectable, name))
      continue; // below, in table order
    if (llvm::is_contained(unused, name))
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
