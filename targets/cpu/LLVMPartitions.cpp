// LLVM's optimizer over a large module as independent partitions on worker threads.
//
// A model's module is mostly kernels that reach each other only by address (the parallel
// trampolines tlc_parallel_for receives) or through calls of never-inlined functions (the
// chunks tlc-split-long-functions makes, outlined math). Grouped along the other calls,
// those kernels optimize independently: each partition is cloned with the rest of the module
// as declarations, optimized in its own LLVMContext on a worker thread (an LLVMContext is
// not thread-safe), and linked back. Symbols a partition reaches in another one, or in the
// data that stays in the main module, are external and hidden while apart and get their
// own linkage back after linking.
//
// The number of partitions depends only on the module, never on the machine, so an object
// is the same whatever the number of cores; the partitions' functions come back in
// partition order (a different function order than one whole-module run, same code).
//
// For an object file the partitions' code is generated on the same threads (instruction
// selection, scheduling and register allocation were most of a large model's compile, one
// function after another), and the objects, the data's first, are joined by lld -r.
#include "targets/cpu/LLVMOptimizer.h"
#include "targets/cpu/RelocatableLink.h"

#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>

using namespace llvm;
using namespace tlc;

namespace {

/// Policy: about this many instructions per partition (each costs a module clone and a
/// bitcode round trip), at most kMaxPartitions of them. resnet18's compile took the same time
/// with 4,000 and 20,000; a 16-layer perceptron (5,900) optimized faster in two than whole.
constexpr size_t kPartitionInstructions = 8000;
constexpr size_t kMaxPartitions = 16;
/// Constant globals up to this size are copied into the partitions that read them
/// (available_externally), so loads from small tables still fold.
constexpr uint64_t kCopiedConstantBytes = 4096;

/// Whether the module has what partitioning does not handle (aliases, comdats, appending
/// globals such as llvm.used or constructors): such modules are optimized whole.
bool partitionable(const Module &module) {
  if (!module.alias_empty() || !module.ifunc_empty() || !module.getComdatSymbolTable().empty())
    return false;
  for (const GlobalVariable &gv : module.globals())
    if (gv.hasAppendingLinkage())
      return false;
  return true;
}

/// Adds to `from` the functions that use `value`, directly or through constant expressions;
/// sets `fromData` when a global variable's initializer (or anything but a function) does.
void collectUsers(const Value *value, SmallPtrSetImpl<const Function *> &from, bool &fromData) {
  for (const User *user : value->users()) {
    if (auto *inst = dyn_cast<Instruction>(user))
      from.insert(inst->getFunction());
    else if (isa<GlobalVariable>(user))
      fromData = true;
    else if (isa<Constant>(user))
      collectUsers(user, from, fromData);
    else
      fromData = true; // metadata or anything else: keep it reachable
  }
}

struct Partitioning {
  /// Each defined function's partition.
  DenseMap<const Function *, unsigned> partitionOf;
  unsigned count = 0;
};

/// Functions joined along direct calls of internal functions that may be inlined (the
/// optimizer needs caller and callee together), grouped into partitions of similar size.
Partitioning partition(Module &module) {
  SmallVector<Function *> defined;
  DenseMap<const Function *, unsigned> index;
  SmallVector<size_t> size;
  for (Function &f : module) {
    if (f.isDeclaration())
      continue;
    index[&f] = defined.size();
    defined.push_back(&f);
    size.push_back(f.getInstructionCount());
  }
  IntEqClasses classes(defined.size());
  for (auto [i, f] : llvm::enumerate(defined))
    for (Instruction &inst : instructions(*f))
      if (auto *call = dyn_cast<CallBase>(&inst))
        if (Function *callee = call->getCalledFunction())
          if (callee->hasLocalLinkage() && !callee->hasFnAttribute(Attribute::NoInline))
            if (auto it = index.find(callee); it != index.end())
              classes.join(i, it->second);
  classes.compress();
  SmallVector<size_t> classSize(classes.getNumClasses(), 0);
  size_t total = 0;
  for (size_t i = 0; i < defined.size(); ++i) {
    classSize[classes[i]] += size[i];
    total += size[i];
  }
  Partitioning result;
  size_t wanted = std::min<size_t>(kMaxPartitions, classes.getNumClasses());
  wanted = std::min(wanted, (total + kPartitionInstructions - 1) / kPartitionInstructions);
  result.count = std::max<size_t>(1, wanted);
  // Largest class first into the least loaded partition (ties: the lower class, the lower
  // partition), so the assignment is deterministic.
  SmallVector<unsigned> order(classSize.size());
  for (unsigned c = 0; c < order.size(); ++c)
    order[c] = c;
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return classSize[a] != classSize[b] ? classSize[a] > classSize[b] : a < b;
  });
  SmallVector<size_t> load(result.count, 0);
  SmallVector<unsigned> partitionOfClass(classSize.size());
  for (unsigned c : order) {
    unsigned least = std::min_element(load.begin(), load.end()) - load.begin();
    partitionOfClass[c] = least;
    load[least] += classSize[c];
  }
  for (size_t i = 0; i < defined.size(); ++i)
    result.partitionOf[defined[i]] = partitionOfClass[classes[i]];
  return result;
}

/// A symbol made external and hidden while the module is apart, and what it was.
struct Externalized {
  std::string name;
  GlobalValue::LinkageTypes linkage;
  GlobalValue::VisibilityTypes visibility;
};

void externalize(GlobalValue &gv, std::vector<Externalized> &saved) {
  saved.push_back({gv.getName().str(), gv.getLinkage(), gv.getVisibility()});
  gv.setLinkage(GlobalValue::ExternalLinkage);
  gv.setVisibility(GlobalValue::HiddenVisibility);
}

/// Partition `p` of `module`: its functions, the small constants they read, declarations of
/// what else they use. As bitcode, to be read into a worker's own context.
SmallVector<char, 0> clonePartition(const Module &module, const Partitioning &parts, unsigned p) {
  ValueToValueMapTy map;
  std::unique_ptr<Module> clone = CloneModule(module, map, [&](const GlobalValue *gv) {
    if (auto *f = dyn_cast<Function>(gv))
      return parts.partitionOf.lookup(f) == p;
    auto *var = dyn_cast<GlobalVariable>(gv);
    return var && var->isConstant() && var->hasInitializer() &&
           module.getDataLayout().getTypeAllocSize(var->getValueType()) <= kCopiedConstantBytes;
  });
  for (GlobalVariable &var : llvm::make_early_inc_range(clone->globals())) {
    if (var.use_empty())
      var.eraseFromParent();
    else if (!var.isDeclaration())
      var.setLinkage(GlobalValue::AvailableExternallyLinkage);
  }
  for (Function &f : llvm::make_early_inc_range(*clone))
    if (f.isDeclaration() && f.use_empty() && !f.isIntrinsic())
      f.eraseFromParent();
  SmallVector<char, 0> bitcode;
  raw_svector_ostream os(bitcode);
  WriteBitcodeToFile(*clone, os);
  return bitcode;
}

/// The data's object (what `module` defines once the functions are gone, less the symbols
/// that were internal and that no partition refers to any more, as GlobalDCE would drop them
/// from a whole module) before the partitions' objects, joined, with the symbols
/// externalized for the split made local again.
Error emitJoinedObject(Module &module, TargetMachine &tm, StringRef lld,
                       const std::vector<Externalized> &saved,
                       const std::vector<std::vector<std::string>> &referenced,
                       std::vector<SmallVector<char, 0>> &objects, PartitionCodegen &codegen) {
  StringSet<> used;
  for (const std::vector<std::string> &names : referenced)
    for (const std::string &name : names)
      used.insert(name);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Externalized &symbol : saved) {
      GlobalValue *gv = module.getNamedValue(symbol.name);
      if (gv && gv->use_empty() && !used.contains(symbol.name)) {
        gv->eraseFromParent();
        changed = true;
      }
    }
  }
  if (verifyModule(module, &errs()))
    return createStringError(inconvertibleErrorCode(), "the data module does not verify");
  codegen.beforeCodegen(module);
  // The data's object (the weights: up to gigabytes) is generated straight into its file.
  SmallVector<ObjectWriter> writers;
  writers.push_back([&](raw_pwrite_stream &os) { return emitObject(module, tm, os); });
  for (const SmallVector<char, 0> &object : objects)
    writers.push_back([&object](raw_pwrite_stream &os) {
      os.write(object.data(), object.size());
      return Error::success();
    });
  std::vector<std::string> local;
  for (const Externalized &symbol : saved)
    local.push_back(symbol.name);
  if (Error err = linkRelocatable(lld, writers, local, *codegen.out, codegen.outPath))
    return err;
  codegen.emitted = true;
  return Error::success();
}

} // namespace

llvm::Error tlc::emitObject(llvm::Module &module, llvm::TargetMachine &tm,
                           llvm::raw_pwrite_stream &os) {
  legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, os, nullptr, CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(),
                             "the target machine cannot emit an object file");
  codegen.run(module);
  return Error::success();
}

llvm::Expected<unsigned> tlc::optimizeLLVMModuleInParallel(
    llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel, unsigned threads,
    llvm::function_ref<std::unique_ptr<llvm::TargetMachine>()> makeTargetMachine,
    PartitionCodegen *codegen) {
  auto whole = [&]() -> Expected<unsigned> {
    if (Error err = optimizeLLVMModule(module, tm, optLevel))
      return std::move(err);
    return 1;
  };
  if (optLevel == 0 || TimePassesIsEnabled || !partitionable(module))
    return whole();
  Partitioning parts = partition(module);
  if (parts.count <= 1)
    return whole();

  // Symbols another partition or the data reaches become external and hidden; internal
  // functions only their own partition uses stay internal there (and are dropped here).
  std::vector<Externalized> saved;
  SmallVector<Function *> privateFunctions;
  for (GlobalValue &gv : module.global_values()) {
    if (!gv.hasName())
      gv.setName("tlc.anonymous");
    if (!gv.hasLocalLinkage())
      continue;
    auto *f = dyn_cast<Function>(&gv);
    if (!f) {
      externalize(gv, saved);
      continue;
    }
    SmallPtrSet<const Function *, 8> users;
    bool fromData = false;
    collectUsers(f, users, fromData);
    unsigned home = parts.partitionOf.lookup(f);
    bool shared = fromData || llvm::any_of(users, [&](const Function *user) {
                    return parts.partitionOf.lookup(user) != home;
                  });
    if (shared)
      externalize(gv, saved);
    else
      privateFunctions.push_back(f);
  }

  std::vector<SmallVector<char, 0>> bitcode(parts.count);
  for (unsigned p = 0; p < parts.count; ++p)
    bitcode[p] = clonePartition(module, parts, p);

  // Policy: without an ld.lld to join the objects, code is generated after relinking, on
  // one thread.
  std::optional<std::string> lld;
  if (codegen && codegen->out && tm.getTargetTriple().isOSBinFormatELF())
    lld = findLLD();
  if (!lld)
    codegen = nullptr;
  std::vector<std::string> errors(parts.count);
  // With codegen: each partition's object, and the globals of other partitions or of the
  // data its optimized code still refers to.
  std::vector<SmallVector<char, 0>> objects(parts.count);
  std::vector<std::vector<std::string>> referenced(parts.count);
  auto optimizePartition = [&](unsigned p) {
    LLVMContext context;
    Expected<std::unique_ptr<Module>> piece = parseBitcodeFile(
        MemoryBufferRef(StringRef(bitcode[p].data(), bitcode[p].size()), "partition"), context);
    if (!piece) {
      errors[p] = toString(piece.takeError());
      return;
    }
    std::unique_ptr<TargetMachine> workerTM = makeTargetMachine();
    if (Error err = optimizeLLVMModule(**piece, *workerTM, optLevel)) {
      errors[p] = toString(std::move(err));
      return;
    }
    bitcode[p].clear();
    if (!codegen) {
      raw_svector_ostream os(bitcode[p]);
      WriteBitcodeToFile(**piece, os);
      return;
    }
    codegen->beforeCodegen(**piece);
    for (GlobalValue &gv : (*piece)->global_values())
      if ((gv.isDeclaration() || gv.hasAvailableExternallyLinkage()) && !gv.use_empty())
        referenced[p].push_back(gv.getName().str());
    raw_svector_ostream os(objects[p]);
    if (Error err = emitObject(**piece, *workerTM, os))
      errors[p] = toString(std::move(err));
  };
  if (threads <= 1) {
    for (unsigned p = 0; p < parts.count; ++p)
      optimizePartition(p);
  } else {
    DefaultThreadPool pool(hardware_concurrency(threads));
    for (unsigned p = 0; p < parts.count; ++p)
      pool.async(optimizePartition, p);
    pool.wait();
  }
  for (std::string &error : errors)
    if (!error.empty())
      return createStringError(inconvertibleErrorCode(), error);

  // The module keeps its data; the optimized functions come back from the partitions.
  for (Function &f : module)
    if (!f.isDeclaration())
      f.deleteBody();
  for (Function *f : privateFunctions)
    f->eraseFromParent();
  if (codegen) {
    if (Error err = emitJoinedObject(module, tm, *lld, saved, referenced, objects, *codegen))
      return std::move(err);
    return parts.count;
  }
  for (unsigned p = 0; p < parts.count; ++p) {
    Expected<std::unique_ptr<Module>> piece = parseBitcodeFile(
        MemoryBufferRef(StringRef(bitcode[p].data(), bitcode[p].size()), "partition"),
        module.getContext());
    if (!piece)
      return piece.takeError();
    if (Linker::linkModules(module, std::move(*piece)))
      return createStringError(inconvertibleErrorCode(), "linking the optimized partitions failed");
  }
  for (const Externalized &symbol : saved)
    if (GlobalValue *gv = module.getNamedValue(symbol.name)) {
      gv->setLinkage(symbol.linkage);
      gv->setVisibility(symbol.visibility);
    }
  // What the partitions' optimizations left unreferenced (data they folded, say), as the
  // whole-module run's GlobalDCE would drop it.
  for (bool changed = true; changed;) {
    changed = false;
    for (GlobalValue &gv : llvm::make_early_inc_range(module.global_values()))
      if (gv.hasLocalLinkage() && gv.use_empty()) {
        gv.eraseFromParent();
        changed = true;
      }
  }
  if (verifyModule(module, &errs()))
    return createStringError(inconvertibleErrorCode(), "the relinked module does not verify");
  return parts.count;
}
