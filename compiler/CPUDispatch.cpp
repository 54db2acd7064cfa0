// Objects for several CPUs: variant policy, per-CPU code generation, merging, dispatch.
#include "compiler/CPUDispatch.h"

#include "compiler/MergeCPUVariant.h"
#include "compiler/ModelInfo.h"
#include "targets/cpu/CPUPasses.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

#include <numeric>

using namespace mlir;
using namespace tlc;

FailureOr<SmallVector<std::string>> tlc::splitCPUList(llvm::StringRef spec, Location loc) {
  SmallVector<std::string> cpus;
  if (spec.empty())
    return cpus;
  SmallVector<llvm::StringRef> parts;
  spec.split(parts, ',');
  for (llvm::StringRef part : parts) {
    llvm::StringRef cpu = part.trim();
    if (cpu.empty())
      return emitError(loc) << "empty cpu name in --cpu=" << spec;
    if (llvm::is_contained(cpus, cpu))
      return emitError(loc) << "cpu '" << cpu << "' appears twice in --cpu=" << spec;
    cpus.push_back(cpu.str());
  }
  return cpus;
}

FailureOr<std::vector<CPUVariant>> tlc::resolveCPUVariants(ArrayRef<std::string> cpus,
                                                           const Target &target, unsigned optLevel,
                                                           Location loc) {
  // Every cpu must be the target's before any is described: a list that mixes targets is
  // reported as such, whichever target the first cpu belongs to.
  for (const std::string &cpu : cpus) {
    TargetOptions options{cpu, optLevel};
    if (!target.knowsCPU(cpu)) {
      for (const Target *other : getRegisteredTargets())
        if (other != &target && other->knowsCPU(cpu))
          return emitError(loc) << "--cpu=" << llvm::join(cpus, ",") << " mixes targets: '" << cpu
                                << "' is a cpu of " << other->getName() << ", not of "
                                << target.getName() << " (one object holds one target's code)";
      if (failed(target.verifyOptions(options, loc)))
        return failure();
    }
  }
  std::vector<CPUVariant> variants;
  for (const std::string &cpu : cpus) {
    FailureOr<CPUVariant> variant =
        target.describeDispatchVariant(TargetOptions{cpu, optLevel, ""}, loc);
    if (failed(variant))
      return failure();
    variants.push_back(std::move(*variant));
  }
  // Most features first; ties keep the --cpu order (a stable sort, spelled as a total order:
  // std::stable_sort's temporary buffer API is deprecated in this libstdc++).
  std::vector<size_t> order(variants.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::sort(order, [&](size_t a, size_t b) {
    size_t fa = variants[a].runtimeFeatures.size(), fb = variants[b].runtimeFeatures.size();
    return fa != fb ? fa > fb : a < b;
  });
  std::vector<CPUVariant> sorted;
  for (size_t i : order)
    sorted.push_back(std::move(variants[i]));
  return sorted;
}

FailureOr<OwningOpRef<ModuleOp>> tlc::lowerForCPUDispatch(ModuleOp module, const Target &target,
                                                          ArrayRef<CPUVariant> variants,
                                                          unsigned optLevel,
                                                          ArrayRef<ModelSignature *> models) {
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> merged = ModuleOp::create(module.getLoc());
  (*merged)->setDiscardableAttrs(module->getDiscardableAttrDictionary());
  std::vector<std::string> names;
  for (const ModelSignature *m : models)
    names.push_back(m->name);
  for (const CPUVariant &variant : variants) {
    OwningOpRef<ModuleOp> copy = module.clone();
    PassManager pm(ctx);
    target.addCodegenPasses(pm, TargetOptions{variant.name, optLevel, ""});
    // As in Compile.cpp: the IR is verified once per stage, not after every pass.
    pm.enableVerifier(false);
    if (failed(pm.run(*copy)) || failed(verify(*copy)))
      return failure();
    if (failed(mergeCPUVariant(*merged, *copy, variant, names)))
      return failure();
  }
  PassManager pm(ctx);
  for (ModelSignature *m : models) {
    TLCAddCPUDispatchOptions dispatch;
    dispatch.modelName = m->name;
    dispatch.arch = target.getName().str();
    for (const CPUVariant &variant : variants)
      dispatch.variants.push_back(variant.name);
    addModelInfo(*merged, *m, dispatch.variants);
    pm.addPass(createTLCAddCPUDispatch(dispatch));
  }
  if (failed(pm.run(*merged)))
    return failure();
  return merged;
}
